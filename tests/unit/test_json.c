/* Strings in linkscope's JSON (common/json.c): UTF-8 as is, other bytes as {"hex": ...}, and back. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linkscope/json.h"

static void round_trip(const char *s, int want_hex)
{
	json_t *j = lk_json_str(s);
	char *back;

	assert_non_null(j);
	assert_int_equal(json_is_object(j), want_hex);
	assert_int_equal(json_is_string(j), !want_hex);
	back = lk_json_bytes(j);
	assert_non_null(back);
	assert_string_equal(back, s);
	free(back);
	json_decref(j);
}

static void test_json_strings_round_trip(void **state)
{
	json_t *j;

	(void)state;
	round_trip("plain", 0);
	round_trip("", 0);
	round_trip("\xc3\xa9t\xc3\xa9", 0);		/* "été": valid UTF-8 stays a string */
	round_trip("sym\xffname", 1);
	round_trip("/tmp/d\xfe/m\xff.o", 1);
	round_trip("\xc3", 1);				/* a cut sequence */
	round_trip("\xed\xa0\x80", 1);			/* a UTF-16 surrogate */
	j = lk_json_str("a\xff");
	assert_string_equal(json_string_value(json_object_get(j, "hex")), "61ff");
	json_decref(j);
	j = lk_json_str(NULL);
	assert_true(json_is_null(j));
	json_decref(j);
}

static void test_json_bytes_rejects_what_is_not_a_string(void **state)
{
	static const char *const bad[] = {
		"{\"hex\": \"6\"}",			/* odd length */
		"{\"hex\": \"zz\"}",			/* not hex */
		"{\"hex\": \"61\", \"x\": 1}",		/* another key */
		"{\"hex\": 61}",			/* not a string */
		"{}", "[\"a\"]", "1", "null",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *j = json_loads(bad[i], JSON_DECODE_ANY, NULL);
		char *b;

		assert_non_null(j);
		b = lk_json_bytes(j);
		if (b)
			fail_msg("'%s' decoded to '%s'", bad[i], b);
		json_decref(j);
	}
	assert_null(lk_json_bytes(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_strings_round_trip),
		cmocka_unit_test(test_json_bytes_rejects_what_is_not_a_string),
	};
	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
