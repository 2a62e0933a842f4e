/* The driver option table, and the three readers that share it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "linkscope/argv.h"
#include "linkscope/driveropt.h"
#include "line.h"
#include "linkscope/rsp.h"

static void test_driveropt_table_is_consistent(void **state)
{
	unsigned nr;
	const struct lk_driveropt *t = lk_driveropt_table(&nr);

	(void)state;
	assert_true(nr > 40);
	for (unsigned i = 0; i < nr; i++) {
		unsigned f = t[i].flags;

		if (t[i].name[0] != '-')
			fail_msg("'%s' is not an option", t[i].name);
		for (unsigned k = i + 1; k < nr; k++)
			if (!strcmp(t[i].name, t[k].name))
				fail_msg("'%s' is in the table twice", t[i].name);
		/* Hoisting, splitting and renaming are about what ld sees. */
		if ((f & (LK_DOPT_HOISTED | LK_DOPT_SPLIT)) && !(f & LK_DOPT_LD))
			fail_msg("'%s' is hoisted or split but ld does not see it", t[i].name);
		if (t[i].ld_word && !(f & LK_DOPT_LD))
			fail_msg("'%s' has an ld spelling but ld does not see it", t[i].name);
		if ((f & LK_DOPT_SPLIT) && !(f & LK_DOPT_JOINED))
			fail_msg("'%s' splits a joined value it cannot have", t[i].name);
		/* A query stops the driver: it has no value to skip. */
		if ((f & LK_DOPT_NOLINK) && (f & (LK_DOPT_SEPARATE | LK_DOPT_LD)))
			fail_msg("'%s' stops the driver yet has a value or reaches ld", t[i].name);
	}
}

static void test_driveropt_find_exact(void **state)
{
	const struct lk_driveropt *o;

	(void)state;
	o = lk_driveropt_find("-o");
	assert_non_null(o);
	assert_int_equal(o->flags, LK_DOPT_SEPARATE | LK_DOPT_JOINED | LK_DOPT_LD |
			 LK_DOPT_HOISTED | LK_DOPT_SPLIT);
	o = lk_driveropt_find("-Xlinker");
	assert_non_null(o);
	assert_true(o->flags & LK_DOPT_LD);
	assert_false(o->flags & LK_DOPT_HOISTED);	/* its word stays in place */
	o = lk_driveropt_find("-rdynamic");
	assert_non_null(o);
	assert_string_equal(o->ld_word, "-export-dynamic");
	assert_true(lk_driveropt_find("-mllvm")->flags & LK_DOPT_SEPARATE);
	assert_false(lk_driveropt_find("-static")->flags & LK_DOPT_SEPARATE);
	/* Exact only: a joined value is another question. */
	assert_null(lk_driveropt_find("-ofile"));
	assert_null(lk_driveropt_find("-lm"));
	assert_null(lk_driveropt_find("-Wall"));
}

static void test_driveropt_joined_longest_name(void **state)
{
	const char *v;

	(void)state;
	assert_string_equal(lk_driveropt_joined("-ofile", &v)->name, "-o");
	assert_string_equal(v, "file");
	assert_string_equal(lk_driveropt_joined("-Tlink.ld", &v)->name, "-T");
	assert_string_equal(v, "link.ld");
	/* -iwithprefix is a prefix of -iwithprefixbefore: the longer name wins. */
	assert_string_equal(lk_driveropt_joined("-iwithprefixbeforeinc", &v)->name, "-iwithprefixbefore");
	assert_string_equal(v, "inc");
	/* -M stops the driver but takes no joined value: -MFdeps is -MF. */
	assert_string_equal(lk_driveropt_joined("-MFdeps", &v)->name, "-MF");
	/* No value, no joined option. */
	assert_null(lk_driveropt_joined("-o", &v));
	assert_null(v);
	assert_null(lk_driveropt_joined("-shared", &v));
}

static void test_driveropt_nolink(void **state)
{
	(void)state;
	assert_string_equal(lk_driveropt_nolink("-c"), "-c");
	assert_string_equal(lk_driveropt_nolink("-MM"), "-MM");
	assert_string_equal(lk_driveropt_nolink("-print-file-name=libc.so"), "-print-");
	assert_string_equal(lk_driveropt_nolink("--help=warnings"), "--help=");
	assert_string_equal(lk_driveropt_nolink("--help"), "--help");
	assert_null(lk_driveropt_nolink("-MF"));
	assert_null(lk_driveropt_nolink("-cfoo"));
	assert_null(lk_driveropt_nolink("-shared"));
	/* The argv model's public question is the table's. */
	assert_string_equal(lk_argv_nolink_option("-dumpmachine"), "-dumpmachine");
}

/* The argv model skips a table option's separate value: it is not an input. */
static void test_driveropt_argv_skips_values(void **state)
{
	const char *argv[] = { "cc", "-specs", "my.specs", "-mllvm", "x", "-arch", "y", "a.o" };
	struct lk_rspfiles files = { NULL, 0, 0 };
	struct lk_err err = LK_ERR_INIT;
	struct lk_args args = { NULL, 0, 0 };
	struct lk_argv_info info;

	(void)state;
	assert_int_equal(lk_rsp_expand(argv, 8, &args, &files, &err), 0);
	lk_argv_classify(&args, &info);
	assert_int_equal(info.inputs.nr, 1);
	assert_string_equal(info.inputs.items[0].path, "a.o");
	lk_argv_info_release(&info);
	lk_args_release(&args);
	lk_rspfiles_release(&files);
}

/* The line model maps hoisted, split and renamed words back through the table. */
static void test_driveropt_line_match_hoisted(void **state)
{
	const char *driver[] = { "cc", "-ofoo", "-Tx.ld", "a.c", "-rdynamic", "-e", "go", "-lm" };
	const char *linker[] = {
		"collect2", "-export-dynamic", "-e", "go", "-o", "foo", "-T", "x.ld",
		"crt1.o", "/tmp/ccAb12Cd.o", "-lm", "-lc",
	};
	static const long want[] = { -1, 4, 5, 6, 1, 1, 2, 2, -1, 3, 7, -1 };
	struct lk_rspfiles files = { NULL, 0, 0 };
	struct lk_strvec lv = LK_STRVEC_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct lk_args args = { NULL, 0, 0 };
	long pos[12];

	(void)state;
	assert_int_equal(lk_rsp_expand(driver, 8, &args, &files, &err), 0);
	for (size_t i = 0; i < 12; i++)
		lk_strvec_push(&lv, linker[i]);
	lk_line_match(&args, &lv, pos);
	for (size_t i = 0; i < 12; i++)
		if (pos[i] != want[i])
			fail_msg("linker word %zu '%s': position %ld, want %ld", i, linker[i], pos[i], want[i]);
	lk_strvec_release(&lv);
	lk_args_release(&args);
	lk_rspfiles_release(&files);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_driveropt_table_is_consistent),
		cmocka_unit_test(test_driveropt_find_exact),
		cmocka_unit_test(test_driveropt_joined_longest_name),
		cmocka_unit_test(test_driveropt_nolink),
		cmocka_unit_test(test_driveropt_argv_skips_values),
		cmocka_unit_test(test_driveropt_line_match_hoisted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
