/*
 * The linker-script parser (analyzer/model/script.c): GROUP, INPUT and AS_NEEDED
 * lists, SEARCH_DIR, comments, quoted names, skipped commands, full
 * scripts, and one-line errors for bad syntax.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "script.h"

static void parse_ok(const char *text, struct lk_script *s)
{
	struct lk_err err = LK_ERR_INIT;

	if (lk_script_parse(text, "t.ld", s, &err) < 0)
		fail_msg("parse failed: %s", err.msg);
}

static void test_script_debian_libc_x86_64(void **state)
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

static void test_script_aarch64_cross_and_more(void **state)
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
	/* One line, naming the file. */
	assert_non_null(strstr(err.msg, "'bad.ld'"));
	assert_null(strchr(err.msg, '\n'));
	lk_script_release(&s);
}

static void test_script_errors(void **state)
{
	(void)state;
	expect_parse_error("GROUP ( a.o\n b.o\n", "'bad.ld' line 3: expected ')' before end of file");
	expect_parse_error("/* open comment", "line 1: unterminated comment");
	expect_parse_error("hello world\n", "'hello' is not a linker script command");
	expect_parse_error("\n\nGROUP a.o", "line 3: expected '(', found 'a.o'");
	expect_parse_error("INPUT ( a.o ; )", "unexpected ';' in a file list");
}


/* Names and flags of the parsed inputs, as "name:an:ig" (as_needed, in_group), space-separated. */
static void assert_inputs(const char *text, const char *want)
{
	struct lk_script s;
	char got[1024] = "";
	size_t len = 0;

	parse_ok(text, &s);
	for (size_t i = 0; i < s.inputs.nr; i++)
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s:%d:%d", i ? " " : "",
					s.inputs.items[i].name, s.inputs.items[i].as_needed,
					s.inputs.items[i].in_group);
	if (strcmp(got, want))
		fail_msg("'%s' gave [%s], want [%s]", text, got, want);
	lk_script_release(&s);
}

static void test_script_group_input_as_needed(void **state)
{
	(void)state;
	/* Blanks or commas separate names; AS_NEEDED applies inside its parentheses only. */
	assert_inputs("GROUP(a.o, AS_NEEDED(b.so, c.so), d.o)", "a.o:0:1 b.so:1:1 c.so:1:1 d.o:0:1");
	assert_inputs("INPUT(AS_NEEDED(-lm) x.o)", "-lm:1:0 x.o:0:0");
	assert_inputs("INPUT(a.o) GROUP(b.a) INPUT(c.o)", "a.o:0:0 b.a:0:1 c.o:0:0");
	assert_inputs("GROUP ( , , a.o , )", "a.o:0:1");
	assert_inputs("GROUP ( )", "");
	/* Statements may end with ';'. */
	assert_inputs("INPUT(a.o);;GROUP(b.a);", "a.o:0:0 b.a:0:1");
}

static void test_script_comments(void **state)
{
	(void)state;
	assert_inputs("/* a */ GROUP /* b */ ( /* c\n d */ a.o/**/b.o ) /* end */", "a.o:0:1 b.o:0:1");
	assert_inputs("/* only a comment */\n", "");
	assert_inputs("", "");
	/* A comment's newlines count for the line numbers of errors. */
	expect_parse_error("/* 1\n2\n3 */\nbogus x", "'bad.ld' line 4: 'bogus' is not a linker script command");
}

static void test_script_quoted_names(void **state)
{
	(void)state;
	/* Inside quotes, blanks, commas, parentheses and comment openers are part of the name. */
	assert_inputs("INPUT(\"a b.o\", \"c(d).o\" \"e,f.o\" \"/*x*/.o\")",
		      "a b.o:0:0 c(d).o:0:0 e,f.o:0:0 /*x*/.o:0:0");
	/* A quoted keyword or parenthesis is a file name. */
	assert_inputs("GROUP(\"AS_NEEDED\" \")\")", "AS_NEEDED:0:1 ):0:1");
}

static void test_script_sysroot_names(void **state)
{
	struct lk_script s;

	(void)state;
	/* In a file list a name may start with the sysroot's '=' (ldlex.l's INPUTLIST), and "$SYSROOT" is a name's start too. */
	assert_inputs("GROUP ( =/lib/libfoo.a AS_NEEDED ( =/lib/ld.so ) )", "=/lib/libfoo.a:0:1 =/lib/ld.so:1:1");
	assert_inputs("INPUT ( $SYSROOT/lib/libfoo.a )", "$SYSROOT/lib/libfoo.a:0:0");
	/* OUTPUT_FORMAT's first name is kept: a -l search skips a script of another target (libsearch.c). */
	parse_ok("OUTPUT_FORMAT(\"elf32-i386\", \"elf32-i386\", \"elf32-i386\")\nGROUP ( a.so )", &s);
	assert_string_equal(s.output_format, "elf32-i386");
	lk_script_release(&s);
	parse_ok("OUTPUT_FORMAT(elf64-x86-64) GROUP ( a.so )", &s);
	assert_string_equal(s.output_format, "elf64-x86-64");
	lk_script_release(&s);
}

static void test_script_skipped_commands(void **state)
{
	struct lk_script s;

	(void)state;
	/* Commands with parenthesized arguments are skipped, nested parentheses too. */
	assert_inputs("OUTPUT_FORMAT(\"elf64-x86-64\", \"elf64-x86-64\", \"elf64-x86-64\")\n"
		      "OUTPUT_ARCH(i386:x86-64) ENTRY(_start) ASSERT((1), \"x)\")\n"
		      "PROVIDE(__x = 1) GROUP(a.o)\nsym = 0x10 + 2;", "a.o:0:1");
	parse_ok("OUTPUT_ARCH(aarch64) INPUT(a.o)", &s);
	assert_int_equal(s.has_sections, 0);
	lk_script_release(&s);
	/* SECTIONS, MEMORY, PHDRS and VERSION blocks make a full script. */
	for (int i = 0; i < 4; i++) {
		static const char *const full[] = {
			"SECTIONS { .text : { *(.text) } .data : { *(.data) } }",
			"MEMORY { rom (rx) : ORIGIN = 0, LENGTH = 64K }",
			"PHDRS { text PT_LOAD; }",
			"VERSION { V1 { global: f; local: *; }; }",
		};

		parse_ok(full[i], &s);
		assert_int_equal(s.has_sections, 1);
		assert_int_equal(s.inputs.nr, 0);
		lk_script_release(&s);
	}
}

/* The top-level commands, in order, for lld's and mold's models (replay/script_commands.c). */
static void test_script_commands_kept(void **state)
{
	static const char *const want[] = { "FORCE_COMMON_ALLOCATION", "OUTPUT_FORMAT", "INPUT", "SEARCH_DIR", "=",
					     "SECTIONS" };
	struct lk_script s;

	(void)state;
	parse_ok("FORCE_COMMON_ALLOCATION\nOUTPUT_FORMAT(elf64-x86-64) INPUT(a.o AS_NEEDED(b.o))\n"
		 "SEARCH_DIR(.) x = 1;\nSECTIONS { .text : { *(.text) } }", &s);
	assert_int_equal(s.commands.nr, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < s.commands.nr; i++)
		assert_string_equal(s.commands.items[i], want[i]);
	lk_script_release(&s);
}

static void test_script_bad_syntax(void **state)
{
	(void)state;
	expect_parse_error("INPUT(\"a.o)", "'bad.ld' line 1: unterminated string");
	expect_parse_error("GROUP(a.o AS_NEEDED(b.so)", "expected ')' before end of file");
	expect_parse_error("GROUP(a.o AS_NEEDED b.so)", "expected '(', found 'b.so'");
	expect_parse_error("GROUP(a.o) )", "')' closes nothing");
	expect_parse_error("INPUT(a.o { b.o })", "unexpected '{' in a file list");
	expect_parse_error("foo = 1", "expected ';' after assignment to 'foo'");
	expect_parse_error("SECTIONS { .text : { *(.text) }", "expected '}' before end of file");
	expect_parse_error("OUTPUT_FORMAT(elf64", "expected ')' before end of file");
	expect_parse_error("SEARCH_DIR(a b)", "expected ')', found 'b'");
	expect_parse_error("SECTIONS .text", "expected '{', found '.text'");
	expect_parse_error("\n\n\nINPUT", "line 4: expected '(', found 'end of file'");
	/* A quoted name holding a newline or a control byte is shown on one line (found by fuzz_script). */
	expect_parse_error("SEARCH_DIR(\"a\" \"b\nc\x01\")", "expected ')', found 'b\\nc\\x01'");
	/* A name at a statement's start that no assignment follows: ld's "syntax error" at what follows. */
	expect_parse_error("\"x\ny\" 1", "'x\\ny' is not a linker script command");
}

/* A failure says whether ld's "syntax error" is sure (its line and token) or the script is only not modelled. */
static void expect_verdict(const char *text, int line, const char *token, const char *unmodelled)
{
	struct lk_err err = LK_ERR_INIT;
	struct lk_script s;

	assert_int_equal(lk_script_parse(text, "v.ld", &s, &err), -1);
	assert_int_equal(s.error_line, line);
	if (token)
		assert_string_equal(s.error_token, token);
	else
		assert_null(s.error_token);
	if (unmodelled)
		assert_string_equal(s.unmodelled, unmodelled);
	else
		assert_null(s.unmodelled);
	lk_script_release(&s);
}

static void test_script_error_verdicts(void **state)
{
	struct lk_script s;

	(void)state;
	expect_verdict("GROUP ( f.o )\nFOO BAR\n", 2, "BAR", NULL);
	expect_verdict("/* x */\nINPUT(f.o) )\n", 2, ")", NULL);
	expect_verdict("GROUP ( f.o \n", 2, NULL, NULL);
	expect_verdict("GROUP f.o", 1, "f.o", NULL);
	expect_verdict("INCLUDE other.ld\n", 0, NULL, "INCLUDE");
	expect_verdict("STARTUP(crt0.o)\n", 0, NULL, "STARTUP");
	expect_verdict("foo += 4;\n", 0, NULL, "foo");
	expect_verdict("MYSTERY(x)\n", 0, NULL, "MYSTERY");
	/* A plain name (not a keyword: ld's are all capitals) that no '=' follows is a NAME ld cannot parse there. */
	expect_verdict("a=1;\n", 1, ";", NULL);
	expect_verdict("#!/bin/sh\necho plugin\n", 2, "plugin", NULL);
	expect_verdict("plugin=1\nname=\"x\"\n", 2, "name=", NULL);
	expect_verdict("{ \"a\": 1 }\n", 1, "{", NULL);
	/* What ld accepts parses: commands of no arguments too. */
	parse_ok("FORCE_COMMON_ALLOCATION\nINHIBIT_COMMON_ALLOCATION INPUT(a.o)", &s);
	assert_int_equal(s.inputs.nr, 1);
	lk_script_release(&s);
}

/* A text input is lexed whole first: a character ld's script lexer does not take makes it no script (tests/integ/128). */
static void test_script_invalid_character(void **state)
{
	char shown[8];

	(void)state;
	assert_int_equal(lk_script_invalid_character("GROUP ( libc.so.6 )\n@@@\n", shown), 2);
	assert_string_equal(shown, "@");
	assert_int_equal(lk_script_invalid_character("x = 1 * 2;\n", shown), 1);
	assert_int_equal(lk_script_invalid_character("\n\nGROUP ( a ) \x80", shown), 3);
	assert_string_equal(shown, "\\x80");
	/* Not in a comment, a quoted name or a '#' comment; the operators *=, |=, &= and <<= are tokens. */
	assert_int_equal(lk_script_invalid_character("/* @ * */ GROUP ( \"a@b\" ) # <<@>>\nx *= 2; y |= 1; z <<= 1;", shown), 0);
	/* An unterminated string's quote is the character. */
	assert_int_equal(lk_script_invalid_character("GROUP ( a )\n\"b\n", shown), 2);
	assert_string_equal(shown, "\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_script_debian_libc_x86_64),
		cmocka_unit_test(test_script_aarch64_cross_and_more),
		cmocka_unit_test(test_script_errors),
		cmocka_unit_test(test_script_group_input_as_needed),
		cmocka_unit_test(test_script_comments),
		cmocka_unit_test(test_script_quoted_names),
		cmocka_unit_test(test_script_sysroot_names),
		cmocka_unit_test(test_script_skipped_commands),
		cmocka_unit_test(test_script_commands_kept),
		cmocka_unit_test(test_script_bad_syntax),
		cmocka_unit_test(test_script_error_verdicts),
		cmocka_unit_test(test_script_invalid_character),
	};
	return cmocka_run_group_tests_name("script", tests, NULL, NULL);
}
