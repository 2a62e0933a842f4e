/* The record dir is the user's (common/private.c): dirs, kept copies, a record's kept list. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/private.h"
#include "linkscope/record.h"
#include "linkscope/strvec.h"
#include "linkscope/vec.h"
#include "testdir.h"

/* "hello\n" and its SHA-256. */
#define HELLO_SHA "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"

static struct stat dir_stat(uid_t uid, mode_t mode)
{
	struct stat st;

	memset(&st, 0, sizeof(st));
	st.st_mode = S_IFDIR | mode;
	st.st_uid = uid;
	return st;
}

static void test_private_dir_rules(void **state)
{
	struct lk_err err = LK_ERR_INIT;
	struct stat st;

	(void)state;
	st = dir_stat(geteuid(), 0700);
	assert_int_equal(lk_private_dir("/d", "record directory", &st, 0, &err), 0);
	st = dir_stat(geteuid(), 0755);
	assert_int_equal(lk_private_dir("/d", "record directory", &st, 0, &err), 0);
	/* Sticky or not, writable by others is refused; so is the group's write. */
	st = dir_stat(geteuid(), 01777);
	assert_int_equal(lk_private_dir("/d", "record directory", &st, 0, &err), -1);
	assert_non_null(strstr(err.msg, "refusing record directory '/d': writable by others ("));
	assert_non_null(strstr(err.msg, ", mode 1777); LINKSCOPE_DIR_SHARED=1 uses it anyway"));
	st = dir_stat(geteuid(), 0770);
	assert_int_equal(lk_private_dir("/d", "record directory", &st, 0, &err), -1);
	assert_non_null(strstr(err.msg, "writable by others"));
	st = dir_stat(geteuid() + 1, 0700);
	assert_int_equal(lk_private_dir("/d", "record directory", &st, 0, &err), -1);
	assert_non_null(strstr(err.msg, "owned by another user"));
	/* The variable lets both in, with the warning; never a non-directory. */
	assert_int_equal(lk_private_dir("/d", "record directory", &st, 1, &err), 1);
	assert_non_null(strstr(err.msg, "as LINKSCOPE_DIR_SHARED=1 asks"));
	st.st_mode = S_IFREG | 0600;
	st.st_uid = geteuid();
	assert_int_equal(lk_private_dir("/d", "record directory", &st, 1, &err), -1);
	assert_non_null(strstr(err.msg, "not a directory"));
}

TEST_DIR_GROUP("lk-private", "mkdir -m 700 blobs && printf 'hello\\n' >blobs/" HELLO_SHA
	       " && chmod 600 blobs/" HELLO_SHA
	       " && printf 'other\\n' >blobs/" HELLO_SHA "x && mkdir -m 777 open")

static int blob_check(const char *path, const char *sha, int shared, struct lk_err *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY), rc;

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	rc = lk_private_blob(fd, &st, path, sha, shared, err);
	close(fd);
	return rc;
}

static void test_private_blob(void **state)
{
	struct lk_err err = LK_ERR_INIT;
	char sha[65];

	(void)state;
	assert_int_equal(blob_check(at("blobs/" HELLO_SHA), HELLO_SHA, 0, &err), 0);
	/* Other content under the name: refused, and its real hash said. */
	memcpy(sha, HELLO_SHA, sizeof(sha));
	sha[0] = '6';
	assert_int_equal(blob_check(at("blobs/" HELLO_SHA), sha, 0, &err), -1);
	assert_non_null(strstr(err.msg, "does not hold what its name says (its content's SHA-256 is " HELLO_SHA ")"));
	/* Upper case is not the shim's spelling. */
	assert_int_equal(blob_check(at("blobs/" HELLO_SHA), "5891B5B522D5DF086D0FF0B110FBD9D21BB4FC7163AF34D08286A2E846F6BE03",
				    0, &err), -1);
	assert_int_equal(chmod(at("blobs/" HELLO_SHA), 0622), 0);
	assert_int_equal(blob_check(at("blobs/" HELLO_SHA), HELLO_SHA, 1, &err), -1);
	assert_non_null(strstr(err.msg, "is writable by others (mode 0622)"));
	assert_int_equal(chmod(at("blobs/" HELLO_SHA), 0600), 0);
}

static void test_private_dir_at(void **state)
{
	struct lk_err err = LK_ERR_INIT;

	(void)state;
	assert_int_equal(lk_private_dir_at(at("blobs"), "record subdirectory", 0, &err), 0);
	assert_int_equal(lk_private_dir_at(at("missing"), "record subdirectory", 0, &err), 0);
	assert_int_equal(lk_private_dir_at(at("open"), "record subdirectory", 0, &err), -1);
	assert_non_null(strstr(err.msg, "writable by others (uid"));
}

static void add_kept(struct lk_record *rec, const char *path, const char *blob)
{
	LK_GROW(rec->kept.items, rec->kept.nr + 1, rec->kept.alloc);
	rec->kept.items[rec->kept.nr].path = lk_xstrdup(path);
	rec->kept.items[rec->kept.nr].blob = lk_xstrdup(blob);
	rec->kept.items[rec->kept.nr].reason = NULL;
	rec->kept.nr++;
}

static void test_private_check_kept(void **state)
{
	struct lk_strvec notes = LK_STRVEC_INIT;
	struct lk_record rec;

	(void)state;
	memset(&rec, 0, sizeof(rec));
	rec.dir = lk_xstrdup(dir);
	add_kept(&rec, "a.c", "blobs/" HELLO_SHA);
	add_kept(&rec, "b.c", "../../etc/passwd");
	add_kept(&rec, "c.c", "blobs/" HELLO_SHA "x");
	add_kept(&rec, "d.c", "blobs/0000000000000000000000000000000000000000000000000000000000000000");
	add_kept(&rec, "e.c", "blobs/" HELLO_SHA);
	lk_private_check_kept(&rec, 0, &notes);
	/* The sound copy (twice), and the one that is not there: the stages find it gone. */
	assert_int_equal(rec.kept.nr, 3);
	assert_string_equal(rec.kept.items[0].path, "a.c");
	assert_string_equal(rec.kept.items[1].path, "d.c");
	assert_string_equal(rec.kept.items[2].path, "e.c");
	assert_int_equal(notes.nr, 2);
	assert_non_null(strstr(notes.items[0], "not using the copy of 'b.c' kept as '../../etc/passwd'"));
	assert_non_null(strstr(notes.items[1], "not using the copy of 'c.c'"));
	lk_strvec_release(&notes);

	/* A record dir open to others: no copy from it. */
	free(rec.dir);
	rec.dir = lk_xstrdup(at("open"));
	assert_int_equal(mkdir(at("open/blobs"), 0700), 0);
	lk_private_check_kept(&rec, 0, &notes);
	assert_int_equal(rec.kept.nr, 0);
	assert_int_equal(notes.nr, 1);
	assert_non_null(strstr(notes.items[0], "not using the copies kept in"));
	lk_strvec_release(&notes);
	lk_record_release(&rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_private_dir_rules),
		cmocka_unit_test(test_private_blob),
		cmocka_unit_test(test_private_dir_at),
		cmocka_unit_test(test_private_check_kept),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
