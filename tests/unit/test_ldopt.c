/* The linkers' option tables read (model/ldopt.c): spellings, separate values, refusals in each linker's words. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "ldopt.h"

/* The refusal of `word` (with `next`) by `linker`: its message, or "" when it takes it. */
static void expect_refusal(enum lk_ldopt_linker linker, const char *word, const char *next, const char *want,
			   const char *want_suggest)
{
	struct lk_buf msg = LK_BUF_INIT, suggest = LK_BUF_INIT;
	int refused = lk_ldopt_refused(linker, word, next, &msg, &suggest);

	assert_int_equal(refused, *want != '\0');
	assert_string_equal(msg.buf, want);
	assert_string_equal(suggest.buf, want_suggest);
	lk_buf_release(&msg);
	lk_buf_release(&suggest);
}

static void test_ldopt_unknown_option_each_linker(void **state)
{
	(void)state;
	expect_refusal(LK_LDOPT_BFD, "--gdb-index", NULL, "unrecognized option '--gdb-index'", "");
	expect_refusal(LK_LDOPT_LLD14, "--gdb-index", NULL, "", "");
	expect_refusal(LK_LDOPT_LLD14, "-no-relax", NULL, "unknown argument '-no-relax', did you mean '--no-relax'",
		       "--no-relax");
	expect_refusal(LK_LDOPT_LLD_NEW, "-no-relax", NULL, "unknown argument '-no-relax', did you mean '--no-relax'",
		       "--no-relax");
	expect_refusal(LK_LDOPT_MOLD, "-no-relax", NULL, "", "");
	expect_refusal(LK_LDOPT_MOLD, "--dynamic-list-data", NULL, "unknown command line option: --dynamic-list-data", "");
	expect_refusal(LK_LDOPT_LLD14, "--filler", "0xfe", "unknown argument '--filler', did you mean '--filter'",
		       "--filter");
	/* lld knows it to refuse it in its own words: not "-T" with "text-segment=...". */
	expect_refusal(LK_LDOPT_LLD14, "-Ttext-segment=0x500000", NULL,
		       "-Ttext-segment is not supported. Use --image-base if you intend to set the base address", "");
	expect_refusal(LK_LDOPT_BFD, "-Ttext-segment=0x500000", NULL, "", "");
	/* lld 14 knows no --require-defined at all. */
	expect_refusal(LK_LDOPT_LLD14, "-require-defined", "main", "unknown argument '-require-defined'", "");
	/* rust-lld refuses "-no-relax" and says what it meant; it suggests nothing for "-init" (it takes it). */
	expect_refusal(LK_LDOPT_LLD_NEW, "-init", "foo", "", "");
}

static void test_ldopt_values_each_linker(void **state)
{
	(void)state;
	expect_refusal(LK_LDOPT_LLD14, "--compress-debug-sections=zstd", NULL,
		       "unknown --compress-debug-sections value: zstd",
		       "--compress-debug-sections=none, --compress-debug-sections=zlib");
	expect_refusal(LK_LDOPT_LLD_NEW, "--compress-debug-sections=zstd", NULL, "", "");
	expect_refusal(LK_LDOPT_BFD, "--compress-debug-sections=zstd", NULL, "", "");
	/* GNU ld only warns on a --build-id style it does not know; lld stops. */
	expect_refusal(LK_LDOPT_BFD, "-build-id=sha256", NULL, "", "");
	expect_refusal(LK_LDOPT_MOLD, "-build-id=sha256", NULL, "", "");
	expect_refusal(LK_LDOPT_LLD14, "--build-id=0xdeadbeef", NULL, "", "");
	expect_refusal(LK_LDOPT_LLD14, "--hash-style", "gnu", "", "");
	expect_refusal(LK_LDOPT_MOLD, "--hash-style", "bogus", "invalid --hash-style argument: bogus",
		       "--hash-style=both, --hash-style=gnu, --hash-style=sysv");
	/* An unknown -z keyword only warns, in every linker. */
	expect_refusal(LK_LDOPT_LLD14, "-z", "bogus", "", "");
	expect_refusal(LK_LDOPT_LLD14, "-(", NULL, "", "");
	expect_refusal(LK_LDOPT_LLD14, "foo.o", NULL, "", "");
}

static void test_ldopt_separate_value(void **state)
{
	const char *v;

	(void)state;
	assert_true(lk_ldopt_takes_next(LK_LDOPT_BFD, "-init"));
	assert_true(lk_ldopt_takes_next(LK_LDOPT_BFD, "-wrap"));
	assert_true(lk_ldopt_takes_next(LK_LDOPT_BFD, "-version-script"));
	assert_true(lk_ldopt_takes_next(LK_LDOPT_MOLD, "--filler"));
	assert_false(lk_ldopt_takes_next(LK_LDOPT_BFD, "--wrap=foo"));
	assert_false(lk_ldopt_takes_next(LK_LDOPT_BFD, "--build-id"));
	assert_false(lk_ldopt_takes_next(LK_LDOPT_BFD, "--as-needed"));
	/* GNU ld takes an unambiguous prefix of a long option. */
	assert_non_null(lk_ldopt_find(LK_LDOPT_BFD, "--whole-arch", &v));
	assert_null(lk_ldopt_find(LK_LDOPT_LLD14, "--whole-arch", &v));
	/* One letter, its value joined. */
	assert_non_null(lk_ldopt_find(LK_LDOPT_LLD14, "-lfoo", &v));
	assert_string_equal(v, "foo");
	/* rustc's -Wl,-O1 on every optimized link: GNU ld's getopt reads "-O" with the value "1" (issue #40). */
	expect_refusal(LK_LDOPT_BFD, "-O1", NULL, "", "");
	assert_true(lk_ldopt_takes_next(LK_LDOPT_BFD, "-O"));
	assert_non_null(lk_ldopt_find(LK_LDOPT_BFD, "-eentry", &v));
	assert_string_equal(v, "entry");
	expect_refusal(LK_LDOPT_BFD, "--O1", NULL, "unrecognized option '--O1'", "--EB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ldopt_unknown_option_each_linker),
		cmocka_unit_test(test_ldopt_values_each_linker),
		cmocka_unit_test(test_ldopt_separate_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
