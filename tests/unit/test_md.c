/* Markdown escaping (md.c) and the probes of report --failed (probe.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/buf.h"
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

/* The names every --format github and Markdown writer is fed (issue #41, point 1). */
static const char *const hostile[] = {
	"app\n::stop-commands::x\n::add-mask::y", "a\r::error::b", "100%0A::warning::c", "a|b||c",
	"```x``` `y`", "<img src=x onerror=alert(1)>", "<!-- -->&lt;", "\x1b]0;title\x07\x1b[31mred\x1b[0m\b",
	"- item", "# head", "1. list", "[l](http://x)", "*e* _u_ ~s~",
};

/* Is the byte at `p` in `s` escaped by an odd run of backslashes before it? */
static int escaped(const char *s, const char *p)
{
	size_t n = 0;

	while (p > s && p[-1] == '\\') {
		p--;
		n++;
	}
	return n % 2;
}

/* Nothing of `s` that is not plain text survives: no line break, no control byte. */
static void no_control(const char *s)
{
	for (const char *p = s; *p; p++)
		assert_false((unsigned char)*p < 0x20 || *p == 0x7f);
}

static void test_hostile_names_escaped_everywhere(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		char *text = written(lk_md_text, hostile[i], LK_MD_CELL), *code = written(lk_md_code, hostile[i], LK_MD_CELL);
		struct lk_buf data = LK_BUF_INIT, prop = LK_BUF_INIT;

		no_control(text);
		no_control(code);
		/* Markdown text: every character that opens markup escaped; a cell's '|' even in a code span. */
		for (const char *p = text; *p; p++)
			if (strchr("<>`|*_[]&~", *p))
				assert_true(escaped(text, p));
		for (const char *p = code; *p; p++)
			if (*p == '|')
				assert_true(escaped(code, p));
		/* A code span's fence is longer than any run of backquotes in it: one span. */
		assert_true(code[0] == '`' || !strcmp(code, "(empty)"));
		/* A workflow command's data: one line, no '%' the runner would decode; a property also no ':' or ','. */
		lk_gh_escape(&data, hostile[i], 0);
		lk_gh_escape(&prop, hostile[i], 1);
		no_control(data.buf);
		no_control(prop.buf);
		for (const char *p = data.buf; *p; p++)
			if (*p == '%')
				assert_true(!strncmp(p, "%25", 3) || !strncmp(p, "%0A", 3) || !strncmp(p, "%0D", 3));
		assert_null(strchr(prop.buf, ':'));
		assert_null(strchr(prop.buf, ','));
		free(text);
		free(code);
		lk_buf_release(&data);
		lk_buf_release(&prop);
	}
	check(lk_md_text, "\x1b[31mred", 0, "?\\[31mred");
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
		cmocka_unit_test(test_hostile_names_escaped_everywhere),
		cmocka_unit_test(test_probe_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
