/* Bounds of the record directory, and names by meaning. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "linkscope/prune.h"
#include "normalize.h"
#include "summary.h"

static void test_prune_sizes(void **state)
{
	struct lk_err err = LK_ERR_INIT;
	int64_t v;

	(void)state;
	assert_int_equal(lk_prune_parse_size("4096", &v, &err), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(lk_prune_parse_size("100k", &v, &err), 0);
	assert_int_equal(v, 100 * 1024);
	assert_int_equal(lk_prune_parse_size("500M", &v, &err), 0);
	assert_int_equal(v, 500ll << 20);
	assert_int_equal(lk_prune_parse_size("2GiB", &v, &err), 0);
	assert_int_equal(v, 2ll << 30);
	assert_int_equal(lk_prune_parse_size("2GB", &v, &err), 0);
	assert_int_equal(lk_prune_parse_size("-1", &v, &err), -1);
	assert_int_equal(lk_prune_parse_size("12Q", &v, &err), -1);
	assert_int_equal(lk_prune_parse_size("M", &v, &err), -1);
	assert_int_equal(lk_prune_parse_size("", &v, &err), -1);
	assert_int_equal(lk_prune_parse_size("99999999999999T", &v, &err), -1);
	assert_non_null(strstr(err.msg, "is not a size"));
}

static void test_prune_ages(void **state)
{
	struct lk_err err = LK_ERR_INIT;
	int64_t v;

	(void)state;
	assert_int_equal(lk_prune_parse_age("90s", &v, &err), 0);
	assert_int_equal(v, 90);
	assert_int_equal(lk_prune_parse_age("30m", &v, &err), 0);
	assert_int_equal(v, 1800);
	assert_int_equal(lk_prune_parse_age("7d", &v, &err), 0);
	assert_int_equal(v, 7 * 86400);
	assert_int_equal(lk_prune_parse_age("2w", &v, &err), 0);
	assert_int_equal(v, 14 * 86400);
	assert_int_equal(lk_prune_parse_age("7dB", &v, &err), -1);
	assert_int_equal(lk_prune_parse_age("2026-11-30", &v, &err), -1);
}

static void test_prune_since(void **state)
{
	struct lk_err err = LK_ERR_INIT;
	int64_t ns;

	(void)state;
	assert_int_equal(lk_summary_parse_since("2026-11-30T14:00:00Z", 0, &ns, &err), 0);
	assert_int_equal(ns, 1796047200ll * 1000000000);
	assert_int_equal(lk_summary_parse_since("2026-11-30", 0, &ns, &err), 0);
	assert_int_equal(ns, 1795996800ll * 1000000000);
	assert_int_equal(lk_summary_parse_since("@100", 0, &ns, &err), 0);
	assert_int_equal(ns, 100ll * 1000000000);
	assert_int_equal(lk_summary_parse_since("2h", 10000, &ns, &err), 0);
	assert_int_equal(ns, (10000ll - 7200) * 1000000000);
	assert_int_equal(lk_summary_parse_since("soon", 0, &ns, &err), -1);
}

static void expect_name(const char *in, const char *want)
{
	char *got = lk_norm_name(in);

	assert_string_equal(got, want);
	free(got);
}

static void test_prune_norm_names(void **state)
{
	(void)state;
	expect_name("libfoo-5d1c0e7a.rlib", "libfoo-#.rlib");
	expect_name("libstd-3710056540f41481.rlib", "libstd-#.rlib");
	expect_name("/tmp/rustcAbC123/symbols.o", "/tmp/rustc*/symbols.o");
	expect_name("/usr/lib/x86_64-linux-gnu/libc.so", "/usr/lib/<arch>-linux-gnu/libc.so");
	expect_name("target/aarch64-unknown-linux-gnu/debug", "target/<arch>-unknown-linux-gnu/debug");
	expect_name("/lib/ld-linux-aarch64.so.1", "/lib/<loader>");
	/* Not hashes: no digit, too short, part of a word. */
	expect_name("libcafebabe.a", "libcafebabe.a");
	expect_name("x-1234abc.o", "x-1234abc.o");
	expect_name("libiree_runtime_unified.a", "libiree_runtime_unified.a");
}

static void test_prune_norm_args(void **state)
{
	struct lk_norm n = { (char *)"/home/a/proj", (char *)"/home/a/proj/target/debug" };
	char *got;

	(void)state;
	got = lk_norm_arg(&n, "/home/a/proj/target/debug/deps/libfoo-5d1c0e7a12345678.rlib");
	assert_string_equal(got, "<build>/deps/libfoo-#.rlib");
	free(got);
	got = lk_norm_arg(&n, "main.o");
	assert_string_equal(got, "<cwd>/main.o");
	free(got);
	got = lk_norm_arg(&n, "-L/home/a/proj/lib");
	assert_string_equal(got, "-L<cwd>/lib");
	free(got);
	got = lk_norm_arg(&n, "/home/a/project2/x.o");
	assert_string_equal(got, "/home/a/project2/x.o");
	free(got);
}

static void put(const char *dir, const char *name)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/blobs/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fputs("content", f);
	fclose(f);
}

static int there(const char *dir, const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/blobs/%s", dir, name);
	return lstat(path, &st) == 0;
}

#define HEX_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define HEX_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

/* A held copy or a tombstone whose owner died goes back to its blob's name, once stale. */
static void test_prune_stale_names(void **state)
{
	static const char *const names[] = {
		LK_BLOB_HELD HEX_A "-99-0", LK_BLOB_DEAD HEX_B "-99", LK_BLOB_HELD "abc-99-0",
	};
	static const char *const left[] = { HEX_A, HEX_B, LK_BLOB_HELD "abc-99-0" };
	struct lk_prune_limits dry = { 0, 0, 1, 0 }, real = { 0, 0, 0, 0 };
	struct lk_prune_result res;
	struct lk_err err = LK_ERR_INIT;
	char dir[] = "/tmp/lk-test-prune-XXXXXX", blobs[64];
	int64_t now = (int64_t)time(NULL);

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(blobs, sizeof(blobs), "%s/blobs", dir);
	assert_int_equal(mkdir(blobs, 0700), 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		put(dir, names[i]);
	/* Given their names just now: their owners may be at work. */
	assert_int_equal(lk_prune(dir, &real, now, &res, &err), 0);
	assert_true(there(dir, names[0]) && there(dir, names[1]));
	assert_false(there(dir, HEX_A) || there(dir, HEX_B));
	/* Two hours later they are stale; --dry-run still changes nothing. */
	assert_int_equal(lk_prune(dir, &dry, now + 7200, &res, &err), 0);
	assert_true(there(dir, names[0]) && there(dir, names[1]));
	assert_int_equal(lk_prune(dir, &real, now + 7200, &res, &err), 0);
	assert_true(there(dir, HEX_A) && there(dir, HEX_B));
	assert_false(there(dir, names[0]) || there(dir, names[1]));
	assert_true(there(dir, names[2]));	/* not a blob's name: left alone */
	for (size_t i = 0; i < sizeof(left) / sizeof(*left); i++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", blobs, left[i]);
		assert_int_equal(unlink(path), 0);
	}
	assert_int_equal(rmdir(blobs), 0);
	/* The prune's index (records.index: no record, one checkpoint). */
	snprintf(blobs, sizeof(blobs), "%s/records.index", dir);
	assert_int_equal(unlink(blobs), 0);
	assert_int_equal(rmdir(dir), 0);
}

#define HEX_C "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"

/*
 * A stale held name that is a hard link of its blob, still there (a link
 * that held a blob kept before, then died): only a second name, it goes;
 * the blob stays, with one name. rename(2) alone would leave both.
 */
static void test_prune_stale_held_link(void **state)
{
	struct lk_prune_limits real = { 0, 0, 0, 0 };
	struct lk_prune_result res;
	struct lk_err err = LK_ERR_INIT;
	char dir[] = "/tmp/lk-test-prune-XXXXXX", path[512], held[512];
	int64_t now = (int64_t)time(NULL);
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/blobs", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	put(dir, HEX_C);
	snprintf(path, sizeof(path), "%s/blobs/%s", dir, HEX_C);
	snprintf(held, sizeof(held), "%s/blobs/%s%s-98-0", dir, LK_BLOB_HELD, HEX_C);
	assert_int_equal(link(path, held), 0);
	/* Just now: its link may be at work. */
	assert_int_equal(lk_prune(dir, &real, now, &res, &err), 0);
	assert_true(there(dir, LK_BLOB_HELD HEX_C "-98-0"));
	assert_int_equal(lk_prune(dir, &real, now + 7200, &res, &err), 0);
	assert_false(there(dir, LK_BLOB_HELD HEX_C "-98-0"));
	assert_int_equal(lstat(path, &st), 0);
	assert_int_equal(st.st_nlink, 1);
	assert_int_equal(st.st_size, 7);	/* put's "content" */
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/blobs", dir);
	assert_int_equal(rmdir(path), 0);
	snprintf(path, sizeof(path), "%s/records.index", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prune_sizes),
		cmocka_unit_test(test_prune_ages),
		cmocka_unit_test(test_prune_since),
		cmocka_unit_test(test_prune_norm_names),
		cmocka_unit_test(test_prune_norm_args),
		cmocka_unit_test(test_prune_stale_names),
		cmocka_unit_test(test_prune_stale_held_link),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
