/* The line model: linker-script parsing, driver-position matching, -l search. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "line.h"
#include "linkscope/rsp.h"
#include "script.h"
#include "testdir.h"

static void parse_ok(const char *text, struct lk_script *s)
{
	struct lk_err err = LK_ERR_INIT;

	if (lk_script_parse(text, "t.ld", s, &err) < 0)
		fail_msg("parse failed: %s", err.msg);
}

static void test_line_script_debian_libc_x86_64(void **state)
{
	static const char text[] =
		"/* GNU ld script\n   Use the shared library, but some functions are only in\n"
		"   the static library, so try that secondarily.  */\n"
		"OUTPUT_FORMAT(elf64-x86-64)\n"
		"GROUP ( /lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libc_nonshared.a  "
		"AS_NEEDED ( /lib64/ld-linux-x86-64.so.2 ) )\n";
	struct lk_script s;

	(void)state;
	parse_ok(text, &s);
	assert_int_equal(s.inputs.nr, 3);
	assert_string_equal(s.inputs.items[0].name, "/lib/x86_64-linux-gnu/libc.so.6");
	assert_int_equal(s.inputs.items[0].as_needed, 0);
	assert_int_equal(s.inputs.items[0].in_group, 1);
	assert_string_equal(s.inputs.items[2].name, "/lib64/ld-linux-x86-64.so.2");
	assert_int_equal(s.inputs.items[2].as_needed, 1);
	assert_int_equal(s.has_sections, 0);
	lk_script_release(&s);
}

static void test_line_script_aarch64_cross_and_more(void **state)
{
	static const char text[] =
		"OUTPUT_FORMAT(elf64-littleaarch64)\n"
		"GROUP ( /usr/aarch64-linux-gnu/lib/libc.so.6 /usr/aarch64-linux-gnu/lib/libc_nonshared.a  "
		"AS_NEEDED ( /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ) )\n"
		"SEARCH_DIR(\"=/opt/lib\"); INPUT(-lfoo, \"with space.o\")\n"
		"SECTIONS { .text : { *(.text) } }\nfoo = 0x10;\n";
	struct lk_script s;

	(void)state;
	parse_ok(text, &s);
	assert_int_equal(s.inputs.nr, 5);
	assert_int_equal(s.inputs.items[2].as_needed, 1);
	assert_string_equal(s.inputs.items[3].name, "-lfoo");
	assert_int_equal(s.inputs.items[3].in_group, 0);
	assert_string_equal(s.inputs.items[4].name, "with space.o");
	assert_int_equal(s.search_dirs.nr, 1);
	assert_string_equal(s.search_dirs.items[0], "=/opt/lib");
	assert_int_equal(s.has_sections, 1);
	lk_script_release(&s);
}

static void expect_parse_error(const char *text, const char *want)
{
	struct lk_err err = LK_ERR_INIT;
	struct lk_script s;

	assert_int_equal(lk_script_parse(text, "bad.ld", &s, &err), -1);
	if (!strstr(err.msg, want))
		fail_msg("'%s' does not contain '%s'", err.msg, want);
	lk_script_release(&s);
}

static void test_line_script_errors(void **state)
{
	(void)state;
	expect_parse_error("GROUP ( a.o\n b.o\n", "'bad.ld' line 3: expected ')' before end of file");
	expect_parse_error("/* open comment", "line 1: unterminated comment");
	expect_parse_error("hello world\n", "'hello' is not a linker script command");
	expect_parse_error("\n\nGROUP a.o", "line 3: expected '(', found 'a.o'");
	expect_parse_error("INPUT ( a.o ; )", "unexpected ';' in a file list");
}

static void test_line_match_gcc_hoisting(void **state)
{
	/* The driver line and the collect2 line gcc 12 made of it (cc -### ...). */
	const char *driver[] = {
		"cc", "m.o", "-L/opt/x", "-lfoo", "-Wl,--as-needed,-lbar", "-Xlinker",
		"--no-as-needed", "-L", "/opt/y", "-l", "c", "-rdynamic", "-o", "out",
	};
	const char *linker[] = {
		"collect2", "-plugin", "p.so", "--eh-frame-hdr", "-m", "elf_x86_64",
		"--as-needed", "-export-dynamic", "-pie", "-o", "out", "Scrt1.o", "crti.o",
		"-L/opt/x", "-L/opt/y", "-L/usr/lib", "m.o", "-lfoo", "--as-needed", "-lbar",
		"--no-as-needed", "-lc", "-lgcc", "-lc", "crtn.o",
	};
	static const long want[] = {
		-1, -1, -1, -1, -1, -1, -1, 11, -1, 12, 13, -1, -1,
		2, 7, -1, 1, 3, 4, 4, 6, 9, -1, -1, -1,
	};
	struct lk_rspfiles files = { NULL, 0, 0 };
	struct lk_strvec lv = LK_STRVEC_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct lk_args args = { NULL, 0, 0 };
	long pos[25];

	(void)state;
	assert_int_equal(lk_rsp_expand(driver, 14, &args, &files, &err), 0);
	for (size_t i = 0; i < 25; i++)
		lk_strvec_push(&lv, linker[i]);
	lk_line_match(&args, &lv, pos);
	for (size_t i = 0; i < 25; i++)
		if (pos[i] != want[i])
			fail_msg("linker word %zu '%s': position %ld, want %ld", i, linker[i], pos[i], want[i]);
	lk_strvec_release(&lv);
	lk_args_release(&args);
	lk_rspfiles_release(&files);
}

static char dir[64];

static int setup_libs(void **state)
{
	(void)state;
	test_dir_make(dir, sizeof(dir), "lk-line",
		      "mkdir a b && printf 'int f(void){return 1;}' >f.c && "
		      "cc -c -fPIC f.c -o f.o && ar rcs a/libfoo.a f.o && cc -shared f.o -o b/libfoo.so && "
		      "ar rcs b/libfoo.a f.o && cp b/libfoo.so a/exact.name");
	return 0;
}

static int teardown_libs(void **state)
{
	(void)state;
	test_dir_remove(dir);
	return 0;
}

static void search(const char *word, unsigned st, const char *want_suffix, size_t want_tried)
{
	struct lk_line line;
	struct lk_line_item it;
	char a[128], b[128];
	int rc;

	memset(&line, 0, sizeof(line));
	memset(&it, 0, sizeof(it));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	lk_strvec_push(&line.libdirs, a);
	lk_strvec_push(&line.libdirs, b);
	it.kind = LK_ITEM_LIB;
	it.word = (char *)word;
	it.state = st;
	rc = lk_line_search_lib(&line, &it);
	if (want_suffix) {
		assert_int_equal(rc, 0);
		if (strlen(it.path) < strlen(want_suffix) ||
		    strcmp(it.path + strlen(it.path) - strlen(want_suffix), want_suffix))
			fail_msg("%s resolved to %s, want ...%s", word, it.path, want_suffix);
	} else {
		assert_int_equal(rc, -1);
	}
	assert_int_equal(it.tried.nr, want_tried);
	free(it.path);
	lk_strvec_release(&it.tried);
	lk_elf_info_release(&it.info);
	lk_strvec_release(&line.libdirs);
}

static void test_line_search_like_ld(void **state)
{
	(void)state;
	/* Each dir: .so then .a; a/ has only the .a, so it wins over b/libfoo.so. */
	search("-lfoo", 0, "/a/libfoo.a", 2);
	/* -Bstatic: .a only. */
	search("-lfoo", LK_ST_STATIC, "/a/libfoo.a", 1);
	/* -l:name is literal. */
	search("-l:exact.name", 0, "/a/exact.name", 1);
	search("-l:libfoo.so", 0, "/b/libfoo.so", 2);
	search("-lnope", 0, NULL, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_script_debian_libc_x86_64),
		cmocka_unit_test(test_line_script_aarch64_cross_and_more),
		cmocka_unit_test(test_line_script_errors),
		cmocka_unit_test(test_line_match_gcc_hoisting),
		cmocka_unit_test_setup_teardown(test_line_search_like_ld, setup_libs, teardown_libs),
	};
	return cmocka_run_group_tests_name("line", tests, NULL, NULL);
}
