/* Markdown escaping (md.c) and the probes of report --failed (probe.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "md.h"
#include "probe.h"

/* What `fn` writes of `s`, malloc'd. */
static char *written(void (*fn)(FILE *, const char *, unsigned), const char *s, unsigned flags)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, s, flags);
	fclose(f);
	return buf;
}

static void check(void (*fn)(FILE *, const char *, unsigned), const char *s, unsigned flags, const char *want)
{
	char *got = written(fn, s, flags);

	assert_string_equal(got, want);
	free(got);
}

static void test_md_text_escapes_markup(void **state)
{
	(void)state;
	check(lk_md_text, "std::char_traits<char>", 0, "std::char\\_traits\\<char\\>");
	check(lk_md_text, "char const**, *p", 0, "char const\\*\\*, \\*p");
	check(lk_md_text, "a | b", LK_MD_CELL, "a \\| b");
	check(lk_md_text, "a & b `c` [d]", 0, "a \\& b \\`c\\` \\[d\\]");
	check(lk_md_text, "two\nlines", 0, "two lines");
}

static void test_md_text_block_markers_at_start(void **state)
{
	(void)state;
	check(lk_md_text, "# not a heading", 0, "\\# not a heading");
	check(lk_md_text, "- not an item", 0, "\\- not an item");
	check(lk_md_text, "12. not a list", 0, "12\\. not a list");
	check(lk_md_text, "12 links", 0, "12 links");
	check(lk_md_text, "a-b # c", 0, "a-b # c");
}

static void test_md_code_fence(void **state)
{
	(void)state;
	check(lk_md_code, "std::char_traits<char>", 0, "`std::char_traits<char>`");
	check(lk_md_code, "undefined reference to `f'", 0, "``undefined reference to `f'``");
	check(lk_md_code, "`x``", 0, "``` `x`` ```");
	check(lk_md_code, "a|b", LK_MD_CELL, "`a\\|b`");
	check(lk_md_code, "", 0, "(empty)");
}

/* A record with just the fields lk_probe_of looks at. */
static const char *probe(const char *cwd, const char *output, const char *input)
{
	struct lk_arg args[2] = { { (char *)"cc", 0, -1 }, { (char *)input, 1, -1 } };
	struct lk_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.cwd = (char *)cwd;
	rec.output = (char *)output;
	rec.args.items = args;
	rec.args.nr = input ? 2 : 1;
	return lk_probe_of(&rec);
}

static void test_probe_names(void **state)
{
	(void)state;
	assert_string_equal(probe("/src/pkg", "conftest", "conftest.c"), "autoconf conftest");
	assert_string_equal(probe("/src/pkg", "conftest.exe", NULL), "autoconf conftest");
	assert_string_equal(probe("/b/CMakeFiles/CMakeScratch/TryCompile-abc123", "cmTC_1f2e3", NULL), "CMake try_compile");
	assert_string_equal(probe("/b/CMakeFiles/CMakeTmp", "cmTC_1f2e3", NULL), "CMake try_compile");
	assert_string_equal(probe("/b", "meson-private/sanitycheckc.exe", NULL), "meson compiler check");
	assert_string_equal(probe("/b/meson-private/tmpq1w2e3r4", "output.exe", "testfile.c"), "meson compiler check");
	assert_string_equal(probe("/t/debug/build/x-1/out", "/t/debug/build/x-1/out/flag_check", NULL),
			    "cargo build-script probe");
	assert_null(probe("/src/pkg", "app", "main.o"));
	assert_null(probe("/src/conftests", "app", "conftest_helper.o"));
	assert_null(probe("/b/meson-private-not", "app", NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_md_text_escapes_markup),
		cmocka_unit_test(test_md_text_block_markers_at_start),
		cmocka_unit_test(test_md_code_fence),
		cmocka_unit_test(test_probe_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
