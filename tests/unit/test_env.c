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
	assert_string_equal(vars.items[0].name, "CARGO_TARGET_X_PASSWORD");
	assert_string_equal(vars.items[0].value, "[redacted]");
	assert_int_equal(vars.items[0].redacted, 1);
	assert_string_equal(vars.items[1].name, "CFLAGS");
	assert_string_equal(vars.items[1].value, "-DKEY=https://u:[redacted]@h/");
	assert_string_equal(vars.items[2].name, "PATH");
	assert_int_equal(vars.items[2].redacted, 0);
	assert_string_equal(vars.items[3].name, "RUSTFLAGS");
	lk_envvars_release(&vars);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_env_allow_list),
		cmocka_unit_test(test_env_secret_names),
		cmocka_unit_test(test_env_redact_values),
		cmocka_unit_test(test_env_collect_filters_and_sorts),
	};
	return cmocka_run_group_tests_name("env", tests, NULL, NULL);
}
