/* The argv model: link detection, inputs, -lc, groups, linker choice. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linkscope/argv.h"
#include "linkscope/rsp.h"

struct model {
	struct lk_args args;
	struct lk_argv_info info;
};

static struct model *classify(const char *const *argv, size_t argc)
{
	struct model *m = calloc(1, sizeof(*m));
	struct lk_rspfiles files = { NULL, 0, 0 };
	struct lk_err err = LK_ERR_INIT;

	assert_int_equal(lk_rsp_expand(argv, argc, &m->args, &files, &err), 0);
	lk_rspfiles_release(&files);
	lk_argv_classify(&m->args, &m->info);
	return m;
}

static void model_free(struct model *m)
{
	lk_argv_info_release(&m->info);
	lk_args_release(&m->args);
	free(m);
}

#define CLASSIFY(...) ({ \
	static const char *const v_[] = { __VA_ARGS__ }; \
	classify(v_, sizeof(v_) / sizeof(*v_)); })

static void expect_nolink(struct model *m, const char *reason)
{
	assert_int_equal(m->info.links, 0);
	assert_string_equal(m->info.nolink_reason, reason);
	model_free(m);
}

static void test_argv_compiles_and_queries_do_not_link(void **state)
{
	(void)state;
	expect_nolink(CLASSIFY("cc", "-c", "a.c", "-o", "a.o"), "-c");
	expect_nolink(CLASSIFY("cc", "-S", "a.c"), "-S");
	expect_nolink(CLASSIFY("cc", "-E", "a.c"), "-E");
	expect_nolink(CLASSIFY("cc", "-M", "a.c"), "-M");
	expect_nolink(CLASSIFY("cc", "-MM", "a.c"), "-MM");
	expect_nolink(CLASSIFY("cc", "--version"), "--version");
	expect_nolink(CLASSIFY("cc", "-dumpmachine"), "-dumpmachine");
	expect_nolink(CLASSIFY("cc", "-print-prog-name=ld"), "-print-");
	expect_nolink(CLASSIFY("cc", "--print-file-name=libc.so"), "--print-");
	expect_nolink(CLASSIFY("cc", "-###", "a.o"), "-###");
	expect_nolink(CLASSIFY("cc", "-v"), "-v without inputs");
	expect_nolink(CLASSIFY("cc", "-fsyntax-only", "a.c"), "-fsyntax-only");
	expect_nolink(CLASSIFY("cc", "a.h"), "headers only (precompiled header)");
	expect_nolink(CLASSIFY("cc", "-O2"), "no input files");
}

static void test_argv_links_with_dump_options(void **state)
{
	/* -dumpdir/-dumpbase take a value and do not stop the driver. */
	struct model *m = CLASSIFY("cc", "-dumpdir", "x/", "-dumpbase", "y", "a.o", "-o", "prog");

	(void)state;
	assert_int_equal(m->info.links, 1);
	assert_int_equal(m->info.inputs.nr, 1);
	assert_string_equal(m->info.inputs.items[0].path, "a.o");
	assert_string_equal(m->info.output_path, "prog");
	assert_int_equal(m->info.output, 7);
	model_free(m);
}

static void test_argv_mixed_md_still_links(void **state)
{
	struct model *m = CLASSIFY("cc", "-MD", "-MF", "a.d", "a.c", "-o", "a");

	(void)state;
	assert_int_equal(m->info.links, 1);
	assert_int_equal(m->info.inputs.nr, 1);
	assert_int_equal(m->info.inputs.items[0].kind, LK_IN_SOURCE);
	model_free(m);
}

static void test_argv_input_kinds(void **state)
{
	struct model *m = CLASSIFY("cc", "a.o", "libx.a", "liby.so", "libz.so.1.2",
				   "libstd-1.rlib", "main.c", "script.ld", "-T", "link.ld",
				   "-x", "c", "noext", "-x", "none", "b.o", "-");
	static const enum lk_input_kind want[] = {
		LK_IN_OBJECT, LK_IN_ARCHIVE, LK_IN_SHARED, LK_IN_SHARED, LK_IN_RLIB,
		LK_IN_SOURCE, LK_IN_OTHER, LK_IN_SCRIPT, LK_IN_SOURCE, LK_IN_OBJECT,
		LK_IN_STDIN,
	};

	(void)state;
	assert_int_equal(m->info.inputs.nr, sizeof(want) / sizeof(*want));
	for (size_t i = 0; i < m->info.inputs.nr; i++)
		assert_int_equal(m->info.inputs.items[i].kind, want[i]);
	assert_string_equal(m->info.inputs.items[7].path, "link.ld");
	assert_int_equal(m->info.inputs.items[7].index, 9);
	model_free(m);
}

/* "-" is a source only under -x (gcc: "-E or -x required when input is from standard input"). */
static void test_argv_stdin_source(void **state)
{
	struct model *m = CLASSIFY("cc", "-xc", "-", "-x", "none", "a.o", "main.cc", "-o", "x");
	struct model *bare = CLASSIFY("cc", "-", "a.o");

	(void)state;
	assert_int_equal(m->info.inputs.nr, 3);
	assert_int_equal(m->info.inputs.items[0].kind, LK_IN_STDIN);
	assert_string_equal(m->info.inputs.items[0].lang, "c");
	assert_true(lk_argv_compiles(&m->info.inputs.items[0]));
	assert_false(lk_argv_compiles(&m->info.inputs.items[1]));
	assert_true(lk_argv_compiles(&m->info.inputs.items[2]));
	assert_int_equal(lk_argv_count_compiled(&m->info), 2);
	assert_string_equal(lk_argv_language_at(&m->args, 2), "c");
	assert_string_equal(lk_argv_language_at(&m->args, 6), "c++");
	assert_null(lk_argv_language_at(&m->args, 5));
	assert_false(lk_argv_compiles(&bare->info.inputs.items[0]));
	assert_int_equal(lk_argv_count_compiled(&bare->info), 0);
	model_free(bare);
	/* A record's -x word that is no language of gcc's is not passed on. */
	bare = CLASSIFY("cc", "-x", "c;rm", "-", "-xc++", "-");
	assert_null(lk_argv_language_at(&bare->args, 3));
	assert_string_equal(lk_argv_language_at(&bare->args, 5), "c++");
	assert_int_equal(lk_argv_count_compiled(&bare->info), 2);
	model_free(m);
	model_free(bare);
}

static void test_argv_libs_and_lc(void **state)
{
	struct model *m = CLASSIFY("cc", "a.o", "-lm", "-l", "c", "-L", "/d1", "-L/d2",
				   "-Wl,-lfoo,--as-needed", "-Xlinker", "-lc",
				   "-l:libc.so.6", "-lcrypto");

	(void)state;
	assert_int_equal(m->info.libs.nr, 6);
	assert_int_equal(m->info.libs.items[2].name_len, 3);
	assert_memory_equal(m->info.libs.items[2].name, "foo", 3);
	assert_int_equal(m->info.libdirs.nr, 2);
	assert_string_equal(m->info.libdirs.items[1], "/d2");
	/* "-l c" at 3, -Xlinker's -lc (the value, at 10), -l:libc.so.6 at 11; not -lcrypto. */
	assert_int_equal(m->info.lc.nr, 3);
	assert_int_equal(m->info.lc.items[0], 3);
	assert_int_equal(m->info.lc.items[1], 10);
	assert_int_equal(m->info.lc.items[2], 11);
	model_free(m);
}

/* The one libc rule (record's "lc", warnings, -lc roles, show), the temporary-object guess, source languages. */
static void test_argv_libc_and_driver_temp(void **state)
{
	(void)state;
	assert_true(lk_argv_is_libc("c", 1));
	assert_true(lk_argv_is_libc(":libc.so.6", 10));
	assert_true(lk_argv_is_libc(":libc.a", 7));
	assert_true(lk_argv_is_libc("c,--as-needed", 1));	/* inside a -Wl, list */
	assert_false(lk_argv_is_libc("crypto", 6));
	assert_false(lk_argv_is_libc(":libc.ax", 8));
	assert_true(lk_argv_is_driver_temp("/tmp/ccAbCdEf.o"));
	assert_true(lk_argv_is_driver_temp("/tmp/lk-tmp.x/cc1.o"));
	assert_false(lk_argv_is_driver_temp("/home/ccuser/main.o"));	/* "/cc" in a dir name */
	assert_false(lk_argv_is_driver_temp("/tmp/cc.o"));
	assert_false(lk_argv_is_driver_temp("ccAbCdEf.o"));	/* the driver's are absolute */
	assert_false(lk_argv_is_driver_temp("/tmp/ccAbCdEf.c"));
	/* One suffix table for "is it a source" and "compile it as what". */
	assert_string_equal(lk_argv_source_language("src/a.c"), "c");
	assert_string_equal(lk_argv_source_language("b.CPP"), "c++");
	assert_string_equal(lk_argv_source_language("start.S"), "assembler-with-cpp");
	assert_null(lk_argv_source_language("a.o"));
	assert_null(lk_argv_source_language("dir.c/README"));
	assert_null(lk_argv_source_language("x.h"));
}

static void test_argv_groups(void **state)
{
	struct model *m = CLASSIFY("cc", "main.o", "-lc", "-Wl,--start-group", "-l:liba.a",
				   "-l:libb.a", "-Wl,--end-group", "-Wl,-(,x.a,-)",
				   "-Xlinker", "--start-group", "y.a");

	(void)state;
	assert_int_equal(m->info.groups.nr, 3);
	assert_int_equal(m->info.groups.items[0].start, 3);
	assert_int_equal(m->info.groups.items[0].end, 6);
	assert_int_equal(m->info.groups.items[1].start, 7);
	assert_int_equal(m->info.groups.items[1].end, 7);
	assert_int_equal(m->info.groups.items[2].start, 9);
	assert_int_equal(m->info.groups.items[2].end, -1);
	assert_int_equal(m->info.lc.nr, 1);
	assert_int_equal(m->info.lc.items[0], 2);
	model_free(m);
}

static void test_argv_linker_choice(void **state)
{
	struct model *m = CLASSIFY("cc", "a.o", "-fuse-ld=gold", "-B/x/gcc-ld", "-B", "/y",
				   "-fuse-ld=lld", "--target=aarch64-linux-gnu", "-nodefaultlibs",
				   "-shared");

	(void)state;
	assert_string_equal(m->info.fuse_ld, "lld");
	assert_int_equal(m->info.fuse_ld_index, 6);
	assert_int_equal(m->info.bdirs.nr, 2);
	assert_string_equal(m->info.bdirs.items[0], "/x/gcc-ld");
	assert_string_equal(m->info.bdirs.items[1], "/y");
	assert_string_equal(m->info.target, "aarch64-linux-gnu");
	assert_int_equal(m->info.flags, LK_ARGV_NODEFAULTLIBS | LK_ARGV_SHARED);
	model_free(m);
}

static void test_argv_wl_words(void **state)
{
	struct model *m = CLASSIFY("cc", "a.o", "-Wl,-l,bar", "-Wl,--library=baz");

	(void)state;
	assert_int_equal(m->info.libs.nr, 2);
	assert_memory_equal(m->info.libs.items[0].name, "bar", 3);
	assert_memory_equal(m->info.libs.items[1].name, "baz", 3);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_argv_compiles_and_queries_do_not_link),
		cmocka_unit_test(test_argv_links_with_dump_options),
		cmocka_unit_test(test_argv_mixed_md_still_links),
		cmocka_unit_test(test_argv_input_kinds),
		cmocka_unit_test(test_argv_stdin_source),
		cmocka_unit_test(test_argv_libs_and_lc),
		cmocka_unit_test(test_argv_libc_and_driver_temp),
		cmocka_unit_test(test_argv_groups),
		cmocka_unit_test(test_argv_linker_choice),
		cmocka_unit_test(test_argv_wl_words),
	};
	return cmocka_run_group_tests_name("argv", tests, NULL, NULL);
}
