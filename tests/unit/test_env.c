/* The recorded environment: allow-list and credential redaction. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linkscope/env.h"

static void expect_redact(const char *in, const char *want, int want_changed)
{
	int changed = -1;
	char *out = lk_env_redact(in, &changed);

	assert_string_equal(out, want);
	assert_int_equal(changed, want_changed);
	free(out);
}

static void test_env_allow_list(void **state)
{
	(void)state;
	assert_true(lk_env_allowed("PATH"));
	assert_true(lk_env_allowed("RUSTFLAGS"));
	/* What changes what the driver and ld do (issue #9). */
	assert_true(lk_env_allowed("LIBRARY_PATH"));
	assert_true(lk_env_allowed("COMPILER_PATH"));
	assert_true(lk_env_allowed("GCC_EXEC_PREFIX"));
	assert_true(lk_env_allowed("LDEMULATION"));
	assert_true(lk_env_allowed("GNUTARGET"));
	assert_true(lk_env_allowed("CARGO_ENCODED_RUSTFLAGS"));
	assert_true(lk_env_allowed("CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER"));
	assert_true(lk_env_allowed("CC_aarch64_unknown_linux_gnu"));
	assert_false(lk_env_allowed("HOME"));
	assert_false(lk_env_allowed("GITHUB_TOKEN"));
	assert_false(lk_env_allowed("AWS_SECRET_ACCESS_KEY"));
	assert_false(lk_env_allowed("SSH_AUTH_SOCK"));
	assert_false(lk_env_allowed("PATHX"));
}

static void test_env_secret_names(void **state)
{
	(void)state;
	assert_true(lk_env_name_is_secret("CARGO_REGISTRIES_X_TOKEN"));
	assert_true(lk_env_name_is_secret("db_password"));
	assert_true(lk_env_name_is_secret("CARGO_TARGET_X_API_KEY"));
	assert_false(lk_env_name_is_secret("RUSTFLAGS"));
	assert_false(lk_env_name_is_secret("LD_LIBRARY_PATH"));
	/* The end of the name says it, whatever the separators and the case. */
	assert_true(lk_env_name_is_secret("AWS_SECRET_ACCESS_KEY"));
	assert_true(lk_env_name_is_secret("npmAuthToken"));
	assert_true(lk_env_name_is_secret("authtoken"));
	assert_true(lk_env_name_is_secret("api-key"));
	assert_true(lk_env_name_is_secret("USE_AUTH"));
	assert_true(lk_env_name_is_secret("GITHUB_TOKENS"));
	assert_true(lk_env_name_is_secret("JSESSIONID"));
	/* A name that goes on past the word names something about the secret. */
	assert_false(lk_env_name_is_secret("session_base"));
	assert_false(lk_env_name_is_secret("SESSION_TIMEOUT"));
	assert_false(lk_env_name_is_secret("TOKEN_FILE"));
	assert_false(lk_env_name_is_secret("AUTH_METHOD"));
	assert_false(lk_env_name_is_secret("ENABLE_TOKENIZER"));
	assert_false(lk_env_name_is_secret("CARGO_PKG_AUTHORS"));
}

static void test_env_redact_values(void **state)
{
	(void)state;
	expect_redact("-Clinker=cc -L/usr/lib", "-Clinker=cc -L/usr/lib", 0);
	expect_redact("https://bob:hunter2@git.example.com/x.git",
		      "https://bob:[redacted]@git.example.com/x.git", 1);
	expect_redact("https://git.example.com/x.git", "https://git.example.com/x.git", 0);
	expect_redact("x ghp_abcdefghijklmnopqrstuvwxyz0123456789 y", "x [redacted] y", 1);
	expect_redact("github_pat_11ABCDEFG0123456789_abcdefghijkl", "[redacted]", 1);
	expect_redact("AKIAIOSFODNN7EXAMPLE", "[redacted]", 1);
	expect_redact("--token=s3cr3t -O2", "--token=[redacted] -O2", 1);
	expect_redact("API_KEY=xyz", "API_KEY=[redacted]", 1);
	/* Words that merely start like a token are not secrets. */
	expect_redact("-lnpm_x AKIA", "-lnpm_x AKIA", 0);
}

/* Issue #15: the redactor replaces the secret value and nothing else. */
static void test_env_redact_only_the_value(void **state)
{
	(void)state;
	/* Each item of a -Wl, word is a word of its own: the value ends at the comma. */
	expect_redact("-Wl,--defsym,session_base=0,-lfoo", "-Wl,--defsym,session_base=0,-lfoo", 0);
	expect_redact("-Wl,--password=hunter2hunter2,-lfoo", "-Wl,--password=[redacted],-lfoo", 1);
	expect_redact("-Wl,--defsym=api_token=0x12345678,-L/x,-lfoo",
		      "-Wl,--defsym=api_token=[redacted],-L/x,-lfoo", 1);
	expect_redact("-Clink-arg=-Wl,--token=rustsecret12345,-lbar",
		      "-Clink-arg=-Wl,--token=[redacted],-lbar", 1);
	expect_redact("-O2 -Wl,-rpath,https://u:pw@h/x,-lfoo -g",
		      "-O2 -Wl,-rpath,https://u:[redacted]@h/x,-lfoo -g", 1);
	expect_redact("-Wl,-soname,libauth.so", "-Wl,-soname,libauth.so", 0);
	/* Outside such a word a comma may be part of a password. */
	expect_redact("--password=a,b -O2", "--password=[redacted] -O2", 1);
	/* A value that cannot be a credential stays. */
	expect_redact("-DUSE_AUTH=1", "-DUSE_AUTH=1", 0);
	expect_redact("-DWITH_COOKIES=yes -DMAX_SESSIONS=100 -DNO_AUTH=-1 --auth=",
		      "-DWITH_COOKIES=yes -DMAX_SESSIONS=100 -DNO_AUTH=-1 --auth=", 0);
	expect_redact("PASSWORD=123456", "PASSWORD=[redacted]", 1);
	expect_redact("-DHTTP_AUTH=user:pw", "-DHTTP_AUTH=[redacted]", 1);
	expect_redact("-DAPI_KEY=\"xyz\"", "-DAPI_KEY=[redacted]", 1);
	expect_redact("-DapiKey=abc", "-DapiKey=[redacted]", 1);
	/* Names that say something about a secret, not the secret. */
	expect_redact("-DSESSION_TIMEOUT=3600 -DAUTH_METHOD=AUTH_PAM -DTOKEN_FILE=/run/t",
		      "-DSESSION_TIMEOUT=3600 -DAUTH_METHOD=AUTH_PAM -DTOKEN_FILE=/run/t", 0);
	/* In quotes, as in ld's messages, the value ends at the closing one. */
	expect_redact("ld: unrecognized option '--token=abc-def'\n",
		      "ld: unrecognized option '--token=[redacted]'\n", 1);
	expect_redact("ld: unrecognized option `--token=abc-def'", "ld: unrecognized option `--token=[redacted]'", 1);
	/* Redacting again changes nothing more. */
	expect_redact("-Wl,--password=[redacted],-lfoo", "-Wl,--password=[redacted],-lfoo", 1);
}

static void test_env_collect_filters_and_sorts(void **state)
{
	const char *envp[] = {
		"ZZZ=1", "RUSTFLAGS=-Clinker=x", "GITHUB_TOKEN=ghp_aaaaaaaaaaaaaaaaaaaa",
		"PATH=/bin", "CARGO_TARGET_X_PASSWORD=pw",
		"CFLAGS=-DKEY=https://u:p@h/", "NOEQUALS", NULL,
	};
	struct lk_envvars vars = { NULL, 0, 0 };

	(void)state;
	lk_env_collect(envp, &vars);
	assert_int_equal(vars.nr, 4);
	/* As they are: the record's writer redacts them (test_record). */
	assert_string_equal(vars.items[0].name, "CARGO_TARGET_X_PASSWORD");
	assert_string_equal(vars.items[0].value, "pw");
	assert_string_equal(vars.items[1].name, "CFLAGS");
	assert_string_equal(vars.items[1].value, "-DKEY=https://u:p@h/");
	assert_string_equal(vars.items[2].name, "PATH");
	assert_string_equal(vars.items[3].name, "RUSTFLAGS");
	lk_envvars_release(&vars);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_env_allow_list),
		cmocka_unit_test(test_env_secret_names),
		cmocka_unit_test(test_env_redact_values),
		cmocka_unit_test(test_env_redact_only_the_value),
		cmocka_unit_test(test_env_collect_filters_and_sorts),
	};
	return cmocka_run_group_tests_name("env", tests, NULL, NULL);
}
