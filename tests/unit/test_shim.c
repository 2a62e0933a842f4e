/* Shim modules: driver resolution (never itself), -### parsing, kept copies. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"
#include "expand.h"
#include "input_fingerprint.h"
#include "keep.h"
#include "linkerid.h"
#include "linkscope/expansion.h"
#include "linkscope/rsp.h"
#include "testdir.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	/* a/cc is "the shim" (a copy of true), b/cc a real one, c/cc not executable, d/cc a hard link of the shim. */
	test_dir_make(dir, sizeof(dir), "lk-shim",
		      "mkdir a b c && cp /bin/true a/cc && cp /bin/true b/cc && "
		      "touch c/cc && ln -s ../a/cc b/shimlink && mkdir d && ln a/cc d/cc");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	test_dir_remove(dir);
	return 0;
}

static void test_shim_driver_skips_itself_on_path(void **state)
{
	char self[PATH_MAX], path[512], want[PATH_MAX];
	struct lk_driver d;
	struct lk_err err = LK_ERR_INIT;
	struct stat self_st;

	(void)state;
	snprintf(self, sizeof(self), "%s/a/cc", dir);
	assert_int_equal(stat(self, &self_st), 0);
	snprintf(path, sizeof(path), "%s/c:%s/a:%s/b", dir, dir, dir);
	snprintf(want, sizeof(want), "%s/b/cc", dir);
	assert_int_equal(lk_driver_resolve("cc", &self_st, path, &d, &err), 0);
	assert_string_equal(d.resolved, want);
	assert_int_equal(d.skipped_self, 1);
	lk_driver_release(&d);
}

static void test_shim_driver_only_itself_is_refused(void **state)
{
	char self[PATH_MAX], path[512], link[PATH_MAX];
	struct lk_driver d;
	struct lk_err err = LK_ERR_INIT;
	struct stat self_st;

	(void)state;
	snprintf(self, sizeof(self), "%s/a/cc", dir);
	assert_int_equal(stat(self, &self_st), 0);
	snprintf(path, sizeof(path), "%s/a", dir);
	assert_int_equal(lk_driver_resolve("cc", &self_st, path, &d, &err), -1);
	assert_int_equal(err.code, LK_E_RECURSION);
	assert_non_null(strstr(err.msg, "the only 'cc' on PATH is linkscope-cc itself"));
	lk_driver_release(&d);
	/* A path, even through a symlink, naming the shim is refused too. */
	snprintf(link, sizeof(link), "%s/b/shimlink", dir);
	assert_int_equal(lk_driver_resolve(link, &self_st, path, &d, &err), -1);
	assert_int_equal(err.code, LK_E_RECURSION);
	lk_driver_release(&d);
	/* And a hard link of it, under another name: it is the same file. */
	snprintf(link, sizeof(link), "%s/d/cc", dir);
	snprintf(path, sizeof(path), "%s/d", dir);
	assert_int_equal(lk_driver_resolve("cc", &self_st, path, &d, &err), -1);
	assert_int_equal(err.code, LK_E_RECURSION);
	lk_driver_release(&d);
}

static void test_shim_driver_missing(void **state)
{
	struct lk_driver d;
	struct lk_err err = LK_ERR_INIT;
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/a", dir);
	assert_int_equal(lk_driver_resolve("no-such-cc", NULL, path, &d, &err), -1);
	assert_int_equal(err.code, LK_E_NOTFOUND);
	assert_string_equal(err.msg, "cannot run 'no-such-cc': not found on PATH");
	assert_int_equal(lk_driver_resolve("/no/such/cc", NULL, path, &d, &err), -1);
	assert_string_equal(err.msg, "cannot run '/no/such/cc': No such file or directory");
	assert_int_equal(err.code, LK_E_NOTFOUND);
	assert_int_equal(lk_driver_resolve("/etc/passwd", NULL, path, &d, &err), -1);
	assert_string_equal(err.msg, "cannot run '/etc/passwd': not an executable file");
	assert_int_equal(err.code, LK_E_IO);
}

static void test_shim_expand_parse_gcc12(void **state)
{
	static const char text[] =
		"Using built-in specs.\n"
		"COLLECT_GCC=cc\n"
		"COMPILER_PATH=/usr/lib/gcc/x86_64-linux-gnu/12/:/usr/lib/gcc/\n"
		"LIBRARY_PATH=/usr/lib/gcc/x86_64-linux-gnu/12/:/lib/x86_64-linux-gnu/\n"
		"COLLECT_GCC_OPTIONS='-o' 'bad'\n"
		" /usr/lib/gcc/x86_64-linux-gnu/12/cc1 -quiet bad.c -o /tmp/x.s\n"
		" as --64 -o /tmp/x.o /tmp/x.s\n"
		" /usr/lib/gcc/x86_64-linux-gnu/12/collect2 -plugin /p.so \"-plugin-opt=-fresolution=/tmp/a b\" "
		"\"-with\\\"quote\" -o bad /tmp/x.o -lc\n"
		"COLLECT_GCC_OPTIONS='-o' 'bad'\n";
	struct lk_expansion exp;

	(void)state;
	memset(&exp, 0, sizeof(exp));
	lk_expansion_parse(text, &exp);
	assert_int_equal(exp.commands.nr, 3);
	assert_int_equal(exp.linker_command, 2);
	assert_string_equal(exp.commands.items[2].items[0], "/usr/lib/gcc/x86_64-linux-gnu/12/collect2");
	assert_string_equal(exp.commands.items[2].items[3], "-plugin-opt=-fresolution=/tmp/a b");
	assert_string_equal(exp.commands.items[2].items[4], "-with\"quote");
	assert_string_equal(exp.commands.items[2].items[8], "-lc");
	assert_string_equal(exp.library_path, "/usr/lib/gcc/x86_64-linux-gnu/12/:/lib/x86_64-linux-gnu/");
	assert_non_null(exp.compiler_path);
	lk_expansion_release(&exp);
}

/* Only drivers whose -### just prints are run beside every link. */
/* The linkers' own first --version lines (Debian 12, rustc 1.95's rust-lld, mold 2) and lines of none. */
static void test_shim_linkerid_flavor(void **state)
{
	(void)state;
	assert_string_equal(lk_linkerid_flavor("GNU ld (GNU Binutils for Debian) 2.40"), "bfd");
	assert_string_equal(lk_linkerid_flavor("GNU gold (GNU Binutils for Debian 2.40) 1.16"), "gold");
	assert_string_equal(lk_linkerid_flavor("Debian LLD 14.0.6 (compatible with GNU linkers)"), "lld");
	assert_string_equal(lk_linkerid_flavor("LLD 20.1.8 (compatible with GNU linkers)"), "lld");
	assert_string_equal(lk_linkerid_flavor("mold 1.10.1 (compatible with GNU ld)"), "mold");
	assert_string_equal(lk_linkerid_flavor("mold 2.32.0 (b8e5c1d...; compatible with GNU ld)"), "mold");
	assert_null(lk_linkerid_flavor("some wrapper 1.0"));
	assert_null(lk_linkerid_flavor("moldy 1.0"));
	assert_null(lk_linkerid_flavor(""));
}

static void test_shim_expand_known_drivers(void **state)
{
	static const char *const yes[] = { "gcc", "/usr/bin/g++", "cc", "c++", "clang", "clang++-14",
		"x86_64-linux-gnu-gcc-12", "aarch64-linux-gnu-g++", "gcc-12", "/usr/bin/clang-16", NULL };
	static const char *const no[] = { "segv-driver", "./slow-driver", "ccache", "mycc", "ld",
		"rustc", "distcc", "icecc", "gccwrap", NULL };

	(void)state;
	for (const char *const *n = yes; *n; n++)
		assert_true(lk_expand_knows_hash3(*n, NULL));
	for (const char *const *n = no; *n; n++)
		assert_false(lk_expand_knows_hash3(*n, NULL));
	assert_true(lk_expand_knows_hash3("cc-wrapper-script", "/usr/bin/x86_64-linux-gnu-gcc-12"));
}

static size_t count_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	size_t n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.' || (de->d_name[1] && strcmp(de->d_name, ".."));
	closedir(d);
	return n;
}

/* A copy that fails half-way (a full disk; here a file size limit) closes and unlinks its temporary. */
static void test_shim_keep_failure_releases_the_blob(void **state)
{
	struct lk_keep_limits limits = { (int64_t)16 << 20, (int64_t)64 << 20 };
	struct lk_record_draft rec;
	struct lk_err err = LK_ERR_INIT;
	struct rlimit old, small = { 64 << 10, 0 };
	char big[PATH_MAX], blobs[PATH_MAX];
	size_t fds_before;
	int64_t used = 0;
	FILE *fp;

	(void)state;
	snprintf(big, sizeof(big), "%s/big.o", dir);
	snprintf(blobs, sizeof(blobs), "%s/blobs", dir);
	fp = fopen(big, "w");
	for (int i = 0; i < 4096; i++)
		fputs("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n", fp);
	fclose(fp);
	memset(&rec, 0, sizeof(rec));
	fds_before = count_entries("/proc/self/fd");
	getrlimit(RLIMIT_FSIZE, &old);
	small.rlim_max = old.rlim_max;
	signal(SIGXFSZ, SIG_IGN);
	setrlimit(RLIMIT_FSIZE, &small);
	assert_int_equal(lk_keep_file(&rec, dir, big, "source", &limits, &used, &err), -1);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	assert_non_null(strstr(err.msg, "cannot copy"));
	assert_int_equal(count_entries("/proc/self/fd"), fds_before);
	assert_int_equal(count_entries(blobs), 0);
	assert_int_equal(rec.kept.nr, 0);
}

static void keep_small(struct lk_record_draft *rec, const char *recdir, const char *src)
{
	struct lk_keep_limits limits = { (int64_t)16 << 20, (int64_t)64 << 20 };
	struct lk_err err = LK_ERR_INIT;
	int64_t used = 0;

	memset(rec, 0, sizeof(*rec));
	assert_int_equal(lk_keep_file(rec, recdir, src, "small-object", &limits, &used, &err), 0);
	assert_int_equal(rec->kept.nr, 1);
}

static void drop_kept(struct lk_record_draft *rec)
{
	for (size_t i = 0; i < rec->kept.nr; i++)
		free(rec->kept.items[i].path);
	free(rec->kept.items);
}

/*
 * A kept copy is held under the link's own name until its record is
 * written: a blob's name that a prune removed meanwhile is put back, and
 * a blob still there stays as it is.
 */
static void test_shim_keep_settle_puts_back_a_pruned_blob(void **state)
{
	struct lk_record_draft rec;
	char recdir[PATH_MAX], src[PATH_MAX], blobs[PATH_MAX], blob[PATH_MAX * 2];
	struct stat st;
	FILE *fp;

	(void)state;
	snprintf(recdir, sizeof(recdir), "%s/settle", dir);
	snprintf(blobs, sizeof(blobs), "%s/blobs", recdir);
	snprintf(src, sizeof(src), "%s/small.o", dir);
	assert_int_equal(mkdir(recdir, 0700), 0);
	assert_non_null(fp = fopen(src, "w"));
	fputs("content", fp);
	fclose(fp);

	keep_small(&rec, recdir, src);
	snprintf(blob, sizeof(blob), "%s/%s", blobs, rec.kept.items[0].sha256);
	assert_int_equal(count_entries(blobs), 2);	/* the blob and the held copy */
	assert_int_equal(unlink(blob), 0);		/* a prune took the name */
	lk_keep_settle(&rec, recdir);
	assert_int_equal(count_entries(blobs), 1);
	assert_int_equal(stat(blob, &st), 0);
	assert_int_equal(st.st_size, 7);
	drop_kept(&rec);

	keep_small(&rec, recdir, src);			/* the same content again */
	lk_keep_settle(&rec, recdir);
	assert_int_equal(count_entries(blobs), 1);
	drop_kept(&rec);
	assert_int_equal(unlink(blob), 0);
	assert_int_equal(rmdir(blobs), 0);
	assert_int_equal(rmdir(recdir), 0);
	assert_int_equal(unlink(src), 0);
}

/* A FIFO is never opened: not for keeping, not as an @file (its bytes are the driver's). */
static void test_shim_fifo_never_blocks(void **state)
{
	struct lk_keep_limits limits = { (int64_t)16 << 20, (int64_t)64 << 20 };
	struct lk_record_draft rec;
	struct lk_err err = LK_ERR_INIT;
	struct lk_args args;
	struct lk_rspfiles files;
	char fifo[PATH_MAX], at[PATH_MAX + 1];
	const char *argv[] = { "cc", at };
	int64_t used = 0;

	(void)state;
	snprintf(fifo, sizeof(fifo), "%s/fifo.rsp", dir);
	snprintf(at, sizeof(at), "@%s", fifo);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	alarm(10);	/* a regression blocks in open(): fail, do not hang */
	memset(&rec, 0, sizeof(rec));
	assert_int_equal(lk_keep_file(&rec, dir, fifo, "response-file", &limits, &used, &err), -1);
	assert_non_null(strstr(err.msg, "not a regular file"));
	memset(&args, 0, sizeof(args));
	memset(&files, 0, sizeof(files));
	assert_int_equal(lk_rsp_expand(argv, 2, &args, &files, &err), 0);
	alarm(0);
	assert_int_equal(files.nr, 1);
	assert_int_equal(files.items[0].status, LK_RSP_UNREADABLE);
	assert_int_equal(args.nr, 2);
	assert_string_equal(args.items[1].text, at);
	lk_args_release(&args);
	lk_rspfiles_release(&files);
	unlink(fifo);
}

/*
 * `-o lib/libfoo.so -L lib -lalias`, lib/libalias.so a symlink to the
 * output: the candidate is the output whatever point of the link the shim
 * looks at it (113 read it mid-link: 0 bytes, or no candidate at all).
 * `replace`: what the link has done to the output by then, as GNU ld does
 * (unlink the old file, then write a new one).
 */
static int alias_is_output(const char *replace)
{
	const char *argv[] = { "cc", "main.o", "-o", "lib/libfoo.so", "-Llib", "-lalias" };
	struct lk_args args = { NULL, 0, 0 };
	struct lk_rspfiles files = { NULL, 0, 0 };
	struct lk_err err = LK_ERR_INIT;
	struct lk_argv_info info;
	struct lk_output_before out;
	struct lk_record_draft rec;
	char cwd[4096], cmd[512];
	int flagged;

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(system("rm -rf lib && mkdir lib && echo old >lib/libfoo.so && ln -s libfoo.so lib/libalias.so"), 0);
	assert_int_equal(lk_rsp_expand(argv, 6, &args, &files, &err), 0);
	lk_argv_classify(&args, &info);
	lk_fingerprint_note_output(&out, &info);
	snprintf(cmd, sizeof(cmd), "%s", replace);
	assert_int_equal(system(cmd), 0);
	memset(&rec, 0, sizeof(rec));
	rec.info = &info;
	flagged = lk_fingerprint_inputs(&rec, &out);
	lk_record_inputs_release(&rec);
	lk_argv_info_release(&info);
	lk_rspfiles_release(&files);
	lk_args_release(&args);
	assert_int_equal(chdir(cwd), 0);
	return flagged;
}

static void test_shim_symlink_to_the_output_mid_link(void **state)
{
	(void)state;
	/* Before the link touched it: the same file as before. */
	assert_true(alias_is_output("true"));
	/* Replaced already: the symlink leads to the new file. */
	assert_true(alias_is_output("rm lib/libfoo.so && : >lib/libfoo.so"));
	/* Unlinked, not written yet: the symlink leads nowhere. */
	assert_true(alias_is_output("rm lib/libfoo.so"));
	/* A symlink to another file is not the output. */
	assert_false(alias_is_output("echo other >lib/other.so && ln -sf other.so lib/libalias.so"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shim_driver_skips_itself_on_path),
		cmocka_unit_test(test_shim_driver_only_itself_is_refused),
		cmocka_unit_test(test_shim_driver_missing),
		cmocka_unit_test(test_shim_expand_parse_gcc12),
		cmocka_unit_test(test_shim_expand_known_drivers),
		cmocka_unit_test(test_shim_linkerid_flavor),
		cmocka_unit_test(test_shim_keep_failure_releases_the_blob),
		cmocka_unit_test(test_shim_fifo_never_blocks),
		cmocka_unit_test(test_shim_keep_settle_puts_back_a_pruned_blob),
		cmocka_unit_test(test_shim_symlink_to_the_output_mid_link),
	};
	return cmocka_run_group_tests_name("shim", tests, setup, teardown);
}
