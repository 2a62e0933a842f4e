/* rustc awareness: -C link-arg parsing and argument provenance. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscope/cargo_output.h"
#include "linkscope/rsp.h"
#include "linkscope/rustc.h"
#include "testdir.h"

static void test_rustc_link_args_all_spellings(void **state)
{
	const char *argv[] = {
		"rustc", "-C", "link-arg=-la", "-Clink-arg=-lb", "--codegen", "link-args=-lc  -ld",
		"--codegen=link-arg=-Wl,--start-group", "-C", "opt-level=3", "-C",
	};
	struct lk_strvec out = LK_STRVEC_INIT;

	(void)state;
	lk_rustc_link_args(argv, sizeof(argv) / sizeof(*argv), &out);
	assert_int_equal(out.nr, 5);
	assert_string_equal(out.items[0], "-la");
	assert_string_equal(out.items[1], "-lb");
	assert_string_equal(out.items[2], "-lc");
	assert_string_equal(out.items[3], "-ld");
	assert_string_equal(out.items[4], "-Wl,--start-group");
	lk_strvec_release(&out);
}

static void args_from(const char *const *argv, size_t argc, struct lk_args *out)
{
	struct lk_rspfiles files = { NULL, 0, 0 };
	struct lk_err err = LK_ERR_INIT;

	memset(out, 0, sizeof(*out));
	assert_int_equal(lk_rsp_expand(argv, argc, out, &files, &err), 0);
	lk_rspfiles_release(&files);
}

/* A line of rustc 1.95's shape, with the user's -l:x.a also appearing earlier. */
static const char *const rust_line[] = {
	"cc", "-m64", "/t/deps/rustcAbC123/symbols.o", "/t/deps/m.m.0.rcgu.o",
	"-Wl,--as-needed", "-Wl,-Bstatic", "/r/libstd-1.rlib", "-l:x.a", "-Wl,-Bdynamic",
	"-lgcc_s", "-lc", "-o", "/t/deps/m", "-nodefaultlibs",
	"-Wl,--start-group", "-l:x.a", "-Wl,--end-group",
};

static void test_rustc_provenance_from_cmdline(void **state)
{
	struct lk_rustc_caller caller;
	struct lk_provenance prov;
	struct lk_args args;

	(void)state;
	memset(&caller, 0, sizeof(caller));
	caller.is_rustc = 1;
	lk_strvec_push(&caller.link_args, "-Wl,--start-group");
	lk_strvec_push(&caller.link_args, "-l:x.a");
	lk_strvec_push(&caller.link_args, "-Wl,--end-group");
	args_from(rust_line, sizeof(rust_line) / sizeof(*rust_line), &args);
	lk_rustc_provenance(&args, &caller, &prov);
	assert_string_equal(prov.method, "rustc-cmdline");
	assert_int_equal(prov.link_args_start, 14);
	assert_int_equal(prov.link_args_end, 17);
	assert_int_equal(prov.items[0], LK_PROV_DRIVER);
	assert_int_equal(prov.items[2], LK_PROV_RUSTC_OBJECT);
	assert_int_equal(prov.items[6], LK_PROV_RUSTC_RLIB);
	assert_int_equal(prov.items[7], LK_PROV_RUSTC_NATIVE);
	assert_int_equal(prov.items[10], LK_PROV_RUSTC_NATIVE);
	assert_int_equal(prov.items[13], LK_PROV_RUSTC_FLAG);
	assert_int_equal(prov.items[15], LK_PROV_LINK_ARG);
	lk_provenance_release(&prov);
	lk_rustc_caller_release(&caller);
	lk_args_release(&args);
}

static void test_rustc_provenance_heuristic_without_caller(void **state)
{
	struct lk_provenance prov;
	struct lk_args args;

	(void)state;
	args_from(rust_line, sizeof(rust_line) / sizeof(*rust_line), &args);
	lk_rustc_provenance(&args, NULL, &prov);
	assert_string_equal(prov.method, "rustc-heuristic");
	assert_int_equal(prov.link_args_start, 14);
	assert_int_equal(prov.link_args_end, 17);
	lk_provenance_release(&prov);
	lk_args_release(&args);
}

static void test_rustc_provenance_plain_c_line(void **state)
{
	const char *argv[] = { "cc", "main.o", "-lc", "-o", "main" };
	struct lk_provenance prov;
	struct lk_args args;

	(void)state;
	args_from(argv, 5, &args);
	lk_rustc_provenance(&args, NULL, &prov);
	assert_string_equal(prov.method, "caller");
	assert_int_equal(prov.link_args_start, -1);
	assert_int_equal(prov.items[1], LK_PROV_USER);
	assert_int_equal(prov.items[2], LK_PROV_USER);
	lk_provenance_release(&prov);
	lk_args_release(&args);
}

static void test_rustc_temp_path(void **state)
{
	(void)state;
	assert_true(lk_rustc_temp_path("/t/deps/rustcAbC123/symbols.o"));
	assert_true(lk_rustc_temp_path("/tmp/rustcXXXXXX/linker-arguments"));
	assert_false(lk_rustc_temp_path("/t/deps/rustc/symbols.o"));
	assert_false(lk_rustc_temp_path("/t/deps/rustcAbC1234/symbols.o"));
	assert_false(lk_rustc_temp_path("symbols.o"));
}

static void test_rustc_caller_not_rustc(void **state)
{
	struct lk_rustc_caller caller;

	(void)state;
	/* Our parent is the test runner, not rustc; a dead pid is not rustc either. */
	assert_int_equal(lk_rustc_read_caller(getppid(), &caller), 0);
	lk_rustc_caller_release(&caller);
	assert_int_equal(lk_rustc_read_caller(0x7ffffff0, &caller), 0);
	lk_rustc_caller_release(&caller);
}


/* A build script's output: its link directives, both spellings, in order; the rest left out. */
static void test_cargo_output_link_directives(void **state)
{
	char dir[64], path[128];
	struct lk_rustc_caller caller;
	struct lk_cargo_directive d;

	(void)state;
	test_dir_make(dir, sizeof(dir), "lk-cargo-out",
		      "mkdir out && printf 'cargo:rerun-if-changed=csrc\\n"
		      "cargo:rustc-link-arg=-Wl,--start-group\\n"
		      "cargo::rustc-link-lib=static:+whole-archive=foo\\r\\n"
		      "compiling...\\ncargo:warning=hi\\ncargo::rustc-link-search=native=/x/out\\n"
		      "cargo:rustc-link-arg-bin=app=-lz\\ncargo:rustc-env=A=B\\ncargo:rustc-flags=-l bar -L /y' >output");
	memset(&caller, 0, sizeof(caller));
	snprintf(path, sizeof(path), "%s/out/", dir);
	lk_rustc_read_build_script(&caller, path);
	assert_non_null(caller.build_output);
	assert_int_equal(caller.build_directives.nr, 5);
	assert_string_equal(caller.build_directives.items[0], "rustc-link-arg=-Wl,--start-group");
	assert_string_equal(caller.build_directives.items[1], "rustc-link-lib=static:+whole-archive=foo");
	assert_string_equal(caller.build_directives.items[2], "rustc-link-search=native=/x/out");
	assert_string_equal(caller.build_directives.items[3], "rustc-link-arg-bin=app=-lz");
	assert_string_equal(caller.build_directives.items[4], "rustc-flags=-l bar -L /y");
	assert_int_equal(lk_cargo_directive_split(caller.build_directives.items[3], &d), 0);
	assert_true(lk_cargo_directive_is(&d, "rustc-link-arg-bin"));
	assert_string_equal(d.value, "app=-lz");
	lk_rustc_caller_release(&caller);
	/* No OUT_DIR, or one not ending in /out: nothing. */
	memset(&caller, 0, sizeof(caller));
	lk_rustc_read_build_script(&caller, NULL);
	lk_rustc_read_build_script(&caller, dir);
	assert_null(caller.build_output);
	assert_int_equal(caller.build_directives.nr, 0);
	test_dir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rustc_link_args_all_spellings),
		cmocka_unit_test(test_rustc_provenance_from_cmdline),
		cmocka_unit_test(test_rustc_provenance_heuristic_without_caller),
		cmocka_unit_test(test_rustc_provenance_plain_c_line),
		cmocka_unit_test(test_rustc_temp_path),
		cmocka_unit_test(test_rustc_caller_not_rustc),
		cmocka_unit_test(test_cargo_output_link_directives),
	};
	return cmocka_run_group_tests_name("rustc", tests, NULL, NULL);
}
