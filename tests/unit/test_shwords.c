/* Shell words (common/shwords.c): POSIX sh's quoting, operators and refusals, nothing expanded. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/buf.h"
#include "linkscope/shwords.h"

/* The tokens of `text` as one string: words in [], operators bare. 0 or -1 from lk_sh_split. */
static int show(const char *text, struct lk_buf *b, struct lk_err *err)
{
	struct lk_sh_tokens t = LK_SH_TOKENS_INIT;
	int rc = lk_sh_split(text, strlen(text), &t, err);

	for (size_t i = 0; i < t.nr; i++) {
		if (t.items[i].op == LK_SH_WORD)
			lk_buf_addf(b, "%s[%s]", i ? " " : "", t.items[i].text);
		else
			lk_buf_addf(b, "%s%s", i ? " " : "", t.items[i].op == LK_SH_SEMI && t.items[i].text[0] == '\n' ? "NL" : t.items[i].text);
	}
	lk_sh_tokens_release(&t);
	return rc;
}

static void expect(const char *text, const char *want)
{
	struct lk_buf b = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;

	if (show(text, &b, &err) < 0)
		fail_msg("'%s': %s", text, err.msg);
	assert_string_equal(b.buf, want);
	lk_buf_release(&b);
}

static void refused(const char *text, const char *why)
{
	struct lk_buf b = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;

	assert_int_equal(show(text, &b, &err), -1);
	if (!strstr(err.msg, why))
		fail_msg("'%s': '%s' does not say '%s'", text, err.msg, why);
	lk_buf_release(&b);
}

static void test_shwords_blanks_and_operators(void **state)
{
	(void)state;
	expect("  cc  -o app\tmain.o  ", "[cc] [-o] [app] [main.o]");
	expect("cd /b && cc -o a a.o;echo x||true | cat &", "[cd] [/b] && [cc] [-o] [a] [a.o] ; [echo] [x] || [true] | [cat] &");
	expect("a\nb", "[a] NL [b]");
	expect("", "");
	expect("cc x.o # -lm", "[cc] [x.o]");
	expect("cc a#b", "[cc] [a#b]");
}

static void test_shwords_quotes(void **state)
{
	(void)state;
	expect("cc '-DX=a b' \"-DY=\\\"q\\\"\" a\\ b", "[cc] [-DX=a b] [-DY=\"q\"] [a b]");
	/* a backslash inside '...' is itself; inside "..." only before $ ` \" \\ newline */
	expect("'a\\b' \"c\\d\" \"e\\\\f\"", "[a\\b] [c\\d] [e\\f]");
	expect("'' \"\" x", "[] [] [x]");
	expect("a'b'\"c\"d", "[abcd]");
	expect("'$HOME' \"a$\" \\$x $ a$", "[$HOME] [a$] [$x] [$] [a$]");
	expect("'*' \\? \"[x]\"", "[*] [?] [[x]]");
}

static void test_shwords_continuation(void **state)
{
	(void)state;
	expect("cc -o app \\\n  main.o", "[cc] [-o] [app] [main.o]");
	expect("cc ma\\\nin.o", "[cc] [main.o]");
	expect("'a\\\nb'", "[a\\\nb]");
	expect("\"a\\\nb\"", "[ab]");
}

static void test_shwords_redirections(void **state)
{
	(void)state;
	expect("cc -o a a.o 2>&1 >log <in >>x", "[cc] [-o] [a] [a.o] 2>& [1] > [log] < [in] >> [x]");
	expect("cc a2>b", "[cc] [a2] > [b]");
}

static void test_shwords_refusals(void **state)
{
	(void)state;
	refused("cc $LDFLAGS -o a", "'$LDFLAGS' (a variable)");
	refused("cc ${X} -o a", "a variable");
	refused("cc -o a $(pkg-config --libs z)", "a command substitution");
	refused("cc -o a `pkg-config --libs z`", "a command substitution");
	refused("cc \"$X\"", "a variable");
	refused("cc \"`x`\"", "a command substitution");
	refused("echo $((1+2))", "an arithmetic expansion");
	refused("cc *.o", "file names");
	refused("cc obj/?.o", "file names");
	refused("cc ~/x.o", "a home directory");
	refused("cc 'unclosed", "an unclosed quote");
	refused("cc \"unclosed", "an unclosed quote");
	refused("(cd x && cc)", "a subshell");
	refused("cat <<EOF", "a here-document");
	refused("echo $?", "a variable");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shwords_blanks_and_operators),
		cmocka_unit_test(test_shwords_quotes),
		cmocka_unit_test(test_shwords_continuation),
		cmocka_unit_test(test_shwords_redirections),
		cmocka_unit_test(test_shwords_refusals),
	};

	return cmocka_run_group_tests_name("shwords", tests, NULL, NULL);
}
