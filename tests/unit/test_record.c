/* The record: UTF-8 handling, atomic write, and the reader's errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "linkscope/record.h"
#include "linkscope/sha256.h"
#include "linkscope/vec.h"
#include "testdir.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	test_dir_make(dir, sizeof(dir), "lk-record", NULL);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	test_dir_remove(dir);
	return 0;
}

static void test_record_utf8_lossy(void **state)
{
	char *s;

	(void)state;
	s = lk_record_utf8_lossy("ok \xc3\xa9", 5);
	assert_string_equal(s, "ok \xc3\xa9");
	free(s);
	s = lk_record_utf8_lossy("a\xff" "b\xc3", 4);
	assert_string_equal(s, "a\xef\xbf\xbd" "b\xef\xbf\xbd");
	free(s);
	/* Overlong encodings and surrogates are invalid too. */
	s = lk_record_utf8_lossy("\xc0\xaf\xed\xa0\x80", 5);
	assert_int_equal(strncmp(s, "\xef\xbf\xbd", 3), 0);
	free(s);
}

/* Write a minimal but complete record, as the shim would fill it, into `in_dir`. */
static int write_record(const char *in_dir, const char *argv1, char **path,
			struct lk_err *err)
{
	const char *argv[] = { "cc", argv1, "-o", "prog" };
	struct lk_args args = { NULL, 0, 0 };
	struct lk_rspfiles files = { NULL, 0, 0 };
	struct lk_argv_info info;
	struct lk_provenance prov;
	struct lk_envvars env = { NULL, 0, 0 };
	struct lk_record_draft rec;
	int rc;

	assert_int_equal(lk_rsp_expand(argv, 4, &args, &files, err), 0);
	lk_argv_classify(&args, &info);
	lk_rustc_provenance(&args, NULL, &prov);
	memset(&rec, 0, sizeof(rec));
	rec.id = strdup("20261130T000000.000000Z-1-00000000");
	rec.start_ns = 1796000000000000000LL;
	rec.tool_version = "test";
	rec.mode = "linker";
	rec.driver_given = "cc";
	rec.driver_source = "default";
	rec.argv = argv;
	rec.argc = 4;
	rec.args = &args;
	rec.rspfiles = &files;
	rec.info = &info;
	rec.prov = &prov;
	rec.env = &env;
	rec.linker_flavor = "default";
	rec.ran = 1;
	rec.exit_status = 1;
	rec.shim_exit = 1;
	rec.stderr_text = "bad \xff byte\n";
	rec.stderr_len = strlen(rec.stderr_text);
	rc = lk_record_write(&rec, in_dir, NULL, path, err);
	lk_record_draft_release(&rec);
	lk_provenance_release(&prov);
	lk_argv_info_release(&info);
	lk_args_release(&args);
	lk_rspfiles_release(&files);
	return rc;
}

static char *write_minimal(const char *argv1)
{
	struct lk_err err = LK_ERR_INIT;
	char *path = NULL;

	assert_int_equal(write_record(dir, argv1, &path, &err), 0);
	return path;
}

static void test_record_write_and_summary(void **state)
{
	struct lk_record s;
	struct lk_err err = LK_ERR_INIT;
	char *path = write_minimal("main.o");
	char tmp[128];

	(void)state;
	assert_int_equal(lk_record_load(path, &s, &err), 0);
	assert_string_equal(s.id, "20261130T000000.000000Z-1-00000000");
	assert_string_equal(s.args.items[0].text, "cc");
	assert_int_equal(s.prov[1], LK_PROV_USER);
	assert_string_equal(s.output, "prog");
	assert_int_equal(s.has_exit, 1);
	assert_int_equal(s.exit_status, 1);
	assert_int_equal(s.args.nr, 4);
	lk_record_release(&s);
	/* No temporary file is left behind. */
	snprintf(tmp, sizeof(tmp), "%s/.20261130T000000.000000Z-1-00000000.json.tmp", dir);
	assert_int_equal(access(tmp, F_OK), -1);
	free(path);
}

static void test_record_non_utf8_argument_is_hex(void **state)
{
	char *path = write_minimal("caf\xe9.o");
	FILE *fp = fopen(path, "r");
	char text[8192];
	size_t n;

	(void)state;
	assert_non_null(fp);
	n = fread(text, 1, sizeof(text) - 1, fp);
	text[n] = '\0';
	fclose(fp);
	assert_non_null(strstr(text, "\"hex\": \"636166e92e6f\""));
	free(path);
}

static void expect_read_error(const char *content, const char *needle)
{
	struct lk_record s;
	struct lk_err err = LK_ERR_INIT;
	char path[128];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/bad.json", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(content, fp);
	fclose(fp);
	assert_int_equal(lk_record_load(path, &s, &err), -1);
	if (!strstr(err.msg, needle))
		fail_msg("'%s' does not contain '%s'", err.msg, needle);
	assert_non_null(strstr(err.msg, "bad.json"));
}

static void test_record_reader_errors(void **state)
{
	struct lk_record s;
	struct lk_err err = LK_ERR_INIT;

	(void)state;
	expect_read_error("{\"schema\": \"linkscope-record/1\", \"id\": ", "not valid JSON (line 1");
	expect_read_error("[1, 2]", "not a JSON object");
	expect_read_error("{\"id\": \"x\"}", "no \"schema\" field");
	expect_read_error("{\"schema\": \"other/1\"}", "schema is 'other/1'");
	expect_read_error("{\"schema\": \"linkscope-record/2\"}", "schema version 2; this linkscope reads up to 1");
	expect_read_error("{\"schema\": \"linkscope-record/x\"}", "malformed schema version");
	expect_read_error("{\"schema\": \"linkscope-record/1\", \"id\": \"x\"}", "truncated or malformed");
	expect_read_error("{\"schema\": \"linkscope-record/1\", \"argv_expanded\": [\"cc\"], \"arg_origins\": []}",
			  "bad argv_expanded or arg_origins");
	assert_int_equal(lk_record_load("/nonexistent/r.json", &s, &err), -1);
	assert_non_null(strstr(err.msg, "cannot read '/nonexistent/r.json'"));
}

static void test_record_write_fails_cleanly(void **state)
{
	struct lk_err err = LK_ERR_INIT;
	char *path = NULL;

	(void)state;
	assert_int_equal(write_record("/nonexistent/lk", "a.o", &path, &err), -1);
	assert_non_null(strstr(err.msg, "cannot create '/nonexistent/lk/.20261130T000000.000000Z-1-00000000.json.tmp'"));
	assert_null(path);
}

static void test_record_sha256_vectors(void **state)
{
	struct lk_sha256 ctx;
	char hex[65];
	char million[1000];

	(void)state;
	lk_sha256_init(&ctx);
	lk_sha256_final_hex(&ctx, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	lk_sha256_init(&ctx);
	lk_sha256_update(&ctx, "abc", 3);
	lk_sha256_final_hex(&ctx, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	memset(million, 'a', sizeof(million));
	lk_sha256_init(&ctx);
	for (int i = 0; i < 1000; i++)
		lk_sha256_update(&ctx, million, sizeof(million));
	lk_sha256_final_hex(&ctx, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void expect_json(json_t *node, const char *want)
{
	char *got = json_dumps(node, JSON_COMPACT | JSON_ENCODE_ANY);

	assert_string_equal(got, want);
	free(got);
}

/* The shim's redaction of a record: env by name and by value, every string alike, each change logged. */
static void test_record_redact(void **state)
{
	json_t *root = json_loads(
		"{\"argv\": [\"cc\", \"-Wl,--defsym,session_base=0,-lfoo\", \"-Wl,--token=tok3n-value,-lbar\"],"
		" \"env\": {\"vars\": {\"CARGO_TARGET_X_PASSWORD\": \"1\", \"CFLAGS\": \"-DKEY=https://u:p@h/\","
		" \"PATH\": \"/bin\"}, \"redacted\": []}, \"redactions\": []}", 0, NULL);

	(void)state;
	assert_non_null(root);
	lk_record_redact(root);
	expect_json(json_object_get(root, "argv"),
		    "[\"cc\",\"-Wl,--defsym,session_base=0,-lfoo\",\"-Wl,--token=[redacted],-lbar\"]");
	/* A variable whose name says a secret goes whole, whatever its value. */
	expect_json(json_object_get(json_object_get(root, "env"), "vars"),
		    "{\"CARGO_TARGET_X_PASSWORD\":\"[redacted]\",\"CFLAGS\":\"-DKEY=https://u:[redacted]@h/\","
		    "\"PATH\":\"/bin\"}");
	expect_json(json_object_get(json_object_get(root, "env"), "redacted"),
		    "[\"CARGO_TARGET_X_PASSWORD\",\"CFLAGS\"]");
	expect_json(json_object_get(root, "redactions"), "[\"argv[2]\",\"env.vars.CFLAGS\"]");
	json_decref(root);
}

/* jansson's text of `text` read back, with a newline, as the shim wrote before its streaming writer. */
static char *as_jansson(const char *text, int redact)
{
	json_t *root = json_loads(text, 0, NULL);
	char *dump, *out;

	assert_non_null(root);
	if (redact)
		lk_record_redact(root);
	dump = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	assert_non_null(dump);
	out = malloc(strlen(dump) + 2);
	assert_non_null(out);
	snprintf(out, strlen(dump) + 2, "%s\n", dump);
	free(dump);
	json_decref(root);
	return out;
}

/*
 * The streaming writer's record is jansson's, byte for byte: as written
 * unredacted, and redacted (the tree's redaction of the unredacted record,
 * what tools/redact-record does): escapes, control characters, UTF-8,
 * other bytes as hex, secrets in nested arrays and in the environment.
 */
static void test_record_stream_is_jansson(void **state)
{
	const char *argv[] = { "cc", "q\"uote\\back\tt\x01\x1f\x7f.o", "caf\xe9--token=s3cr3tvalue.o",
			       "\xf0\x9f\x98\x80-\xc3\xa9.o", "-Wl,--start-group", "-lz", "-Wl,--token=abcdefgh,-lm",
			       "-Wl,--end-group", "https://bob:pw@example.com/x.o", "-o", "prog" };
	const size_t argc = sizeof(argv) / sizeof(*argv);
	struct lk_args args = { NULL, 0, 0 };
	struct lk_rspfiles files = { NULL, 0, 0 };
	struct lk_argv_info info;
	struct lk_provenance prov;
	char n0[] = "API_TOKEN", v0[] = "hunter2", n1[] = "CFLAGS", v1[] = "-DKEY=https://u:p@h/ \xff";
	char n2[] = "CC_\xff", v2[] = "x", n3[] = "PATH", v3[] = "/bin";
	struct lk_envvar vars[] = { { n0, v0 }, { n1, v1 }, { n2, v2 }, { n3, v3 } };
	struct lk_envvars env = { vars, 4, 4 };
	struct lk_strvec cmd = { 0 };
	struct lk_record_draft rec;
	struct lk_err err = LK_ERR_INIT;
	char *plain, *redacted, *want;
	size_t len;

	(void)state;
	assert_int_equal(lk_rsp_expand(argv, argc, &args, &files, &err), 0);
	lk_argv_classify(&args, &info);
	lk_rustc_provenance(&args, NULL, &prov);
	memset(&rec, 0, sizeof(rec));
	rec.id = strdup("20261130T000000.000000Z-1-00000000");
	rec.start_ns = 1796000000123456789LL;
	rec.duration_ns = 12345678;
	rec.tool_version = "test";
	rec.mode = "linker";
	rec.driver_given = "cc";
	rec.driver_source = "default";
	rec.argv = argv;
	rec.argc = argc;
	rec.args = &args;
	rec.rspfiles = &files;
	rec.info = &info;
	rec.prov = &prov;
	rec.env = &env;
	rec.linker_flavor = "default";
	rec.ran = 1;
	rec.exit_status = 1;
	rec.shim_exit = 1;
	rec.stderr_text = "bad \xff byte\nAuthorization: Bearer abcdefghijkl\n";
	rec.stderr_len = strlen(rec.stderr_text);
	rec.expansion.done = 1;
	rec.expansion.trigger = "always";
	rec.expansion.linker_command = 0;
	lk_strvec_push(&cmd, "/usr/bin/ld");
	lk_strvec_push(&cmd, "--token=ghp_abcdefghijklmnopqrstuvwxyz");
	LK_GROW(rec.expansion.commands.items, 1, rec.expansion.commands.alloc);
	rec.expansion.commands.items[rec.expansion.commands.nr++] = cmd;
	lk_strvec_push(&rec.warnings, "a warning with a \"quote\"");
	lk_strvec_push(&rec.warnings, "cannot keep a copy of 'https://bob:pw@example.com/x.o'");

	rec.no_redaction = 1;
	plain = lk_record_text(&rec, &len, NULL);
	assert_int_equal(len, strlen(plain));
	want = as_jansson(plain, 0);
	assert_string_equal(plain, want);
	free(want);
	rec.no_redaction = 0;
	redacted = lk_record_text(&rec, &len, NULL);
	want = as_jansson(plain, 1);
	assert_string_equal(redacted, want);
	/* Not vacuous: the escapes, the hex and the redactions are there. */
	assert_non_null(strstr(redacted, "q\\\"uote\\\\back\\tt\\u0001\\u001F\x7f.o"));
	assert_non_null(strstr(redacted, "\"expansion.commands[0][1]\""));
	assert_non_null(strstr(redacted, "\"env.vars.CFLAGS\""));
	assert_non_null(strstr(redacted, "\"warnings[1]\""));
	assert_non_null(strstr(redacted, "\"API_TOKEN\": \"[redacted]\""));
	assert_non_null(strstr(redacted, "\"hex\": \"636166e92d2d746f6b656e3d5b72656461637465645d\""));
	assert_non_null(strstr(redacted, "\"duration_ms\": 12.34567"));
	/* A variable whose name is not UTF-8 is left out, as a jansson object could not hold it. */
	assert_null(strstr(redacted, "\"CC_"));
	assert_non_null(strstr(redacted, "\"PATH\": \"/bin\""));
	/*
	 * Written ahead while the link runs (lk_record_prerender), the rest
	 * after: the same text, redactions logged in the same order (the
	 * argv's, the stderr's, the expansion's, the env's, the warnings').
	 */
	for (int redact = 0; redact <= 1; redact++) {
		struct lk_record_parts parts;
		char *whole, *in_parts;

		rec.no_redaction = !redact;
		whole = lk_record_text(&rec, &len, NULL);
		lk_record_prerender(&rec, &parts);
		rec.prerendered = &parts;
		in_parts = lk_record_text(&rec, &len, NULL);
		rec.prerendered = NULL;
		assert_string_equal(in_parts, whole);
		assert_int_equal(len, strlen(whole));
		lk_record_parts_release(&parts);
		free(whole);
		free(in_parts);
	}
	free(want);
	free(plain);
	free(redacted);
	rec.env = NULL;
	lk_record_draft_release(&rec);
	lk_provenance_release(&prov);
	lk_argv_info_release(&info);
	lk_args_release(&args);
	lk_rspfiles_release(&files);
}

/* The record's times without gmtime_r (whose first call reads /etc/localtime): the same date and time. */
static void test_record_utc_is_gmtime(void **state)
{
	const int64_t fixed[] = { 0, -1, -86400, 951782400, 951868799, 4102444800LL, 1796000000,
				  253402300799LL, -62135596800LL };

	(void)state;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(*fixed) + 20000; i++) {
		/* The fixed ones, then every 3.7 days or so over 400 years around 1970 and now. */
		int64_t secs = i < sizeof(fixed) / sizeof(*fixed) ? fixed[i] :
			       -6311520000LL + (int64_t)(i - sizeof(fixed) / sizeof(*fixed)) * 631152LL + 3599;
		time_t t = (time_t)secs;
		struct tm want, got;

		assert_non_null(gmtime_r(&t, &want));
		lk_record_utc(secs, &got);
		assert_int_equal(got.tm_year, want.tm_year);
		assert_int_equal(got.tm_mon, want.tm_mon);
		assert_int_equal(got.tm_mday, want.tm_mday);
		assert_int_equal(got.tm_hour, want.tm_hour);
		assert_int_equal(got.tm_min, want.tm_min);
		assert_int_equal(got.tm_sec, want.tm_sec);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_utf8_lossy),
		cmocka_unit_test(test_record_write_and_summary),
		cmocka_unit_test(test_record_redact),
		cmocka_unit_test(test_record_stream_is_jansson),
		cmocka_unit_test(test_record_non_utf8_argument_is_hex),
		cmocka_unit_test(test_record_reader_errors),
		cmocka_unit_test(test_record_write_fails_cleanly),
		cmocka_unit_test(test_record_sha256_vectors),
		cmocka_unit_test(test_record_utc_is_gmtime),
	};
	return cmocka_run_group_tests_name("record", tests, setup, teardown);
}
