/* Response files: GCC's @file rules (libiberty buildargv/expandargv). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscope/buf.h"
#include "linkscope/rsp.h"
#include "linkscope/strvec.h"
#include "testdir.h"

struct fixture {
	char dir[64];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	test_dir_make(f->dir, sizeof(f->dir), "lk-rsp", NULL);
	assert_int_equal(chdir(f->dir), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(chdir("/"), 0);
	test_dir_remove(f->dir);
	free(f);
	return 0;
}

static void write_file(const char *name, const char *text)
{
	FILE *fp = fopen(name, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void split_expect(const char *text, const char *const *want, size_t n)
{
	struct lk_strvec v = LK_STRVEC_INIT;

	lk_rsp_split(text, &v);
	assert_int_equal(v.nr, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(v.items[i], want[i]);
	lk_strvec_release(&v);
}

static void test_rsp_split_whitespace(void **state)
{
	static const char *const want[] = { "-o", "out", "a.o" };

	(void)state;
	split_expect("  -o\tout\n\na.o  \n", want, 3);
	split_expect(" \n\t ", NULL, 0);
	split_expect("", NULL, 0);
}

static void test_rsp_split_quotes(void **state)
{
	static const char *const want[] = { "a b", "c'd", "e\"f", "", "gh" };

	(void)state;
	split_expect("'a b' \"c'd\" 'e\"f' '' g\"\"h", want, 5);
}

static void test_rsp_backslash_in_quotes(void **state)
{
	/* buildargv honours a backslash even inside quotes. */
	static const char *const want[] = { "a\"b", "c'd", "x y", "\\" };

	(void)state;
	split_expect("\"a\\\"b\" 'c\\'d' x\\ y \\\\", want, 4);
}

static void test_rsp_rustc_escaping(void **state)
{
	/* rustc writes linker-arguments with '\' before spaces and backslashes. */
	static const char *const want[] = { "/tmp/with space/a.o", "C:\\x", "-lc" };

	(void)state;
	split_expect("/tmp/with\\ space/a.o\nC:\\\\x\n-lc\n", want, 3);
}

static void expand(const char *const *argv, size_t argc, struct lk_args *out,
		   struct lk_rspfiles *files, int want_rc)
{
	struct lk_err err = LK_ERR_INIT;

	memset(out, 0, sizeof(*out));
	memset(files, 0, sizeof(*files));
	assert_int_equal(lk_rsp_expand(argv, argc, out, files, &err), want_rc);
}

static void test_rsp_nested_with_origins(void **state)
{
	const char *argv[] = { "cc", "-o", "x", "@outer", "tail.o" };
	struct lk_args a;
	struct lk_rspfiles f;

	(void)state;
	write_file("outer", "first.o @inner last.o");
	write_file("inner", "'in 1.o' in2.o");
	expand(argv, 5, &a, &f, 0);
	assert_int_equal(a.nr, 8);
	assert_string_equal(a.items[3].text, "first.o");
	assert_string_equal(a.items[4].text, "in 1.o");
	assert_string_equal(a.items[5].text, "in2.o");
	assert_string_equal(a.items[6].text, "last.o");
	assert_string_equal(a.items[7].text, "tail.o");
	assert_int_equal(a.items[3].argv_index, 3);
	assert_int_equal(a.items[4].argv_index, 3);
	assert_int_equal(a.items[7].argv_index, 4);
	assert_int_equal(a.items[3].rsp, 0);
	assert_int_equal(a.items[4].rsp, 1);
	assert_int_equal(a.items[6].rsp, 0);
	assert_int_equal(a.items[7].rsp, -1);
	assert_int_equal(f.nr, 2);
	assert_int_equal(f.items[1].parent, 0);
	assert_int_equal(f.items[0].nargs, 3);
	lk_args_release(&a);
	lk_rspfiles_release(&f);
}

static void test_rsp_missing_kept_literally(void **state)
{
	const char *argv[] = { "cc", "@nonexistent", "@", "a.o" };
	struct lk_args a;
	struct lk_rspfiles f;

	(void)state;
	expand(argv, 4, &a, &f, 0);
	assert_int_equal(a.nr, 4);
	assert_string_equal(a.items[1].text, "@nonexistent");
	assert_string_equal(a.items[2].text, "@");
	assert_int_equal(f.nr, 1);
	assert_int_equal(f.items[0].status, LK_RSP_MISSING);
	lk_args_release(&a);
	lk_rspfiles_release(&f);
}

static void test_rsp_directory_kept_literally(void **state)
{
	const char *argv[] = { "cc", "@sub" };
	struct lk_args a;
	struct lk_rspfiles f;

	(void)state;
	assert_int_equal(system("mkdir sub"), 0);
	expand(argv, 2, &a, &f, 0);
	assert_int_equal(a.nr, 2);
	assert_string_equal(a.items[1].text, "@sub");
	assert_int_equal(f.items[0].status, LK_RSP_UNREADABLE);
	lk_args_release(&a);
	lk_rspfiles_release(&f);
}

static void test_rsp_empty_file_removes_argument(void **state)
{
	const char *argv[] = { "cc", "@empty", "a.o" };
	struct lk_args a;
	struct lk_rspfiles f;

	(void)state;
	write_file("empty", " \n\t\n");
	expand(argv, 3, &a, &f, 0);
	assert_int_equal(a.nr, 2);
	assert_string_equal(a.items[1].text, "a.o");
	assert_int_equal(a.items[1].argv_index, 2);
	lk_args_release(&a);
	lk_rspfiles_release(&f);
}

static void test_rsp_argv0_never_expanded(void **state)
{
	const char *argv[] = { "@outer" };
	struct lk_args a;
	struct lk_rspfiles f;

	(void)state;
	write_file("outer", "x");
	expand(argv, 1, &a, &f, 0);
	assert_int_equal(a.nr, 1);
	assert_string_equal(a.items[0].text, "@outer");
	lk_args_release(&a);
	lk_rspfiles_release(&f);
}

static void test_rsp_recursion_limit(void **state)
{
	const char *argv[] = { "cc", "@self" };
	struct lk_args a;
	struct lk_rspfiles f;
	struct lk_err err = LK_ERR_INIT;

	(void)state;
	write_file("self", "x.o @self");
	memset(&a, 0, sizeof(a));
	memset(&f, 0, sizeof(f));
	assert_int_equal(lk_rsp_expand(argv, 2, &a, &f, &err), -1);
	assert_non_null(strstr(err.msg, "too many @-files"));
	assert_non_null(strstr(err.msg, "'self'"));
	lk_args_release(&a);
	lk_rspfiles_release(&f);
}

static void test_rsp_very_long_line(void **state)
{
	/* 100,000 arguments on one line, like rustc's linker-arguments for a huge crate graph. */
	const char *argv[] = { "cc", "@long" };
	struct lk_buf text = LK_BUF_INIT;
	struct lk_args a;
	struct lk_rspfiles f;
	FILE *fp;

	(void)state;
	for (int i = 0; i < 100000; i++)
		lk_buf_addf(&text, "/a/very/long/path/to/object-%06d.o ", i);
	fp = fopen("long", "w");
	assert_non_null(fp);
	fwrite(text.buf, 1, text.len, fp);
	fclose(fp);
	expand(argv, 2, &a, &f, 0);
	assert_int_equal(a.nr, 100001);
	assert_string_equal(a.items[100000].text, "/a/very/long/path/to/object-099999.o");
	lk_buf_release(&text);
	lk_args_release(&a);
	lk_rspfiles_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rsp_split_whitespace),
		cmocka_unit_test(test_rsp_split_quotes),
		cmocka_unit_test(test_rsp_backslash_in_quotes),
		cmocka_unit_test(test_rsp_rustc_escaping),
		cmocka_unit_test_setup_teardown(test_rsp_nested_with_origins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rsp_missing_kept_literally, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rsp_directory_kept_literally, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rsp_empty_file_removes_argument, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rsp_argv0_never_expanded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rsp_recursion_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rsp_very_long_line, setup, teardown),
	};
	return cmocka_run_group_tests_name("rsp", tests, NULL, NULL);
}
