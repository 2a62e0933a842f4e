/*
 * The Rust crate of an input by its path (analyzer/fix/crate.c): rlibs,
 * codegen units, and a library a build script made in its OUT_DIR
 * (TARGET/PROFILE/build/PKG-HASH/out/); paths of another shape name none.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "crate.h"

static void expect_crate(const char *path, const char *want)
{
	char *got = lk_crate_of_path(path);

	if (!want) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_crate_rlib_and_codegen_unit(void **state)
{
	(void)state;
	expect_crate("/t/debug/deps/libpcre2_sys-0123456789abcdef.rlib", "pcre2_sys");
	expect_crate("/t/debug/deps/zapp-47ce74450ac03d28.22rxv6ncaswbz16hjhhnhkwu2.02q4fog.rcgu.o", "zapp");
	expect_crate("libplain.rlib", "plain");
	expect_crate("/t/debug/deps/notlib-0123.rlib", NULL);
}

static void test_crate_out_dir(void **state)
{
	(void)state;
	expect_crate("/t/debug/build/zapp-ff2fbc24bdfedc02/out/libzbound.a", "zapp");
	expect_crate("/t/debug/build/minz-sys-0123456789abcdef/out/lib/libz.a", "minz-sys");
	/* the last build/PKG-HASH/out/ of the path */
	expect_crate("/build/x-0123456789abcdef/out/t/debug/build/y-fedcba9876543210/out/liby.a", "y");
	assert_int_equal(lk_crate_out_dir("/t/debug/build/zapp-ff2fbc24bdfedc02/out/libzbound.a"), 1);
	/* not cargo's: a hash of another length, upper case, no out/, no hash */
	expect_crate("/t/build/zapp-ff2fbc24bdfedc0/out/libz.a", NULL);
	expect_crate("/t/build/zapp-FF2FBC24BDFEDC02/out/libz.a", NULL);
	expect_crate("/t/build/zapp-ff2fbc24bdfedc02/libz.a", NULL);
	expect_crate("/src/build/lib/libz.a", NULL);
	expect_crate("/src/build/-0123456789abcdef/out/libz.a", NULL);
	assert_int_equal(lk_crate_out_dir("/src/build/lib/libz.a"), 0);
	assert_int_equal(lk_crate_out_dir(NULL), 0);
	expect_crate(NULL, NULL);
}

static void test_crate_same(void **state)
{
	(void)state;
	assert_true(lk_crate_same("foo-sys", "foo_sys"));
	assert_true(lk_crate_same("zapp", "zapp"));
	assert_false(lk_crate_same("foo-sys", "foo"));
	assert_false(lk_crate_same("foo", "bar"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crate_rlib_and_codegen_unit),
		cmocka_unit_test(test_crate_out_dir),
		cmocka_unit_test(test_crate_same),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
