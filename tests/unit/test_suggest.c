/* "Did you mean": edit distance and the nearest candidate (common/suggest.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "linkscope/suggest.h"

static void test_suggest_distance(void **state)
{
	(void)state;
	assert_int_equal(lk_suggest_distance("list", "list", 5), 0);
	assert_int_equal(lk_suggest_distance("lsit", "list", 5), 1);	/* a swap is one slip */
	assert_int_equal(lk_suggest_distance("lst", "list", 5), 1);
	assert_int_equal(lk_suggest_distance("lisst", "list", 5), 1);
	assert_int_equal(lk_suggest_distance("kitten", "sitting", 5), 3);
	assert_int_equal(lk_suggest_distance("", "abc", 5), 3);
	assert_int_equal(lk_suggest_distance("abc", "", 5), 3);
	/* Past the limit: limit + 1, from the lengths alone or the rows. */
	assert_int_equal(lk_suggest_distance("a", "abcdefgh", 2), 3);
	assert_int_equal(lk_suggest_distance("abcd", "wxyz", 2), 3);
}

static const char *best_of(const char *word, const char *const *cands)
{
	struct lk_suggest s;

	lk_suggest_init(&s, word);
	for (; *cands; cands++)
		lk_suggest_add(&s, *cands);
	return lk_suggest_best(&s);
}

static void test_suggest_nearest(void **state)
{
	static const char *const cmds[] = { "list", "show", "explain", "report", "why", "diff", "check", NULL };
	static const char *const opts[] = { "--json", "--full", "--format", "--dir", "--help", NULL };

	(void)state;
	assert_string_equal(best_of("lsit", cmds), "list");
	assert_string_equal(best_of("explian", cmds), "explain");
	assert_string_equal(best_of("--jsno", opts), "--json");
	assert_string_equal(best_of("--formta", opts), "--format");
	/* Too far to be a slip: nothing. */
	assert_null(best_of("frobnicate", cmds));
	assert_null(best_of("x", cmds));
	/* The word itself is no suggestion. */
	assert_null(best_of("list", (const char *const[]){ "list", NULL }));
}

static void test_suggest_tie_is_no_answer(void **state)
{
	(void)state;
	/* "fob" is one edit from both: saying either would be a guess. */
	assert_null(best_of("fob", (const char *const[]){ "foo", "fab", NULL }));
	assert_string_equal(best_of("fooo", (const char *const[]){ "foo", "bar", NULL }), "foo");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suggest_distance),
		cmocka_unit_test(test_suggest_nearest),
		cmocka_unit_test(test_suggest_tie_is_no_answer),
	};
	return cmocka_run_group_tests_name("suggest", tests, NULL, NULL);
}
