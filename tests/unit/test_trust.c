/* What the analyzer may run for an untrusted record: driver names and the option allow-list. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linkscope/record.h"
#include "linkscope/runcmd.h"
#include "linkscope/argv.h"
#include "trust.h"

static void record_of(struct lk_record *rec, const char *const *words)
{
	memset(rec, 0, sizeof(*rec));
	rec->cwd = (char *)"/work/proj";
	for (; *words; words++) {
		rec->args.items = realloc(rec->args.items, (rec->args.nr + 1) * sizeof(*rec->args.items));
		memset(&rec->args.items[rec->args.nr], 0, sizeof(*rec->args.items));
		rec->args.items[rec->args.nr++].text = (char *)*words;
	}
}

static char *joined(const struct lk_strvec *v)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < v->nr; i++)
		len += strlen(v->items[i]) + 1;
	s = calloc(1, len);
	for (size_t i = 0; i < v->nr; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, v->items[i]);
	}
	return s;
}

static void check_filter(const char *const *words, enum lk_trust_use use, const char *want_kept,
			 const char *want_dropped)
{
	struct lk_record rec;
	struct lk_strvec kept = LK_STRVEC_INIT, dropped = LK_STRVEC_INIT;
	char *k, *d;

	record_of(&rec, words);
	lk_trust_filter(&rec, use, &kept, &dropped);
	k = joined(&kept);
	d = joined(&dropped);
	assert_string_equal(k, want_kept);
	assert_string_equal(d, want_dropped);
	free(k);
	free(d);
	lk_strvec_release(&kept);
	lk_strvec_release(&dropped);
	free(rec.args.items);
}

static void test_trust_driver_names(void **state)
{
	(void)state;
	assert_true(lk_argv_is_driver_name("cc"));
	assert_true(lk_argv_is_driver_name("gcc-12"));
	assert_true(lk_argv_is_driver_name("g++"));
	assert_true(lk_argv_is_driver_name("clang++-16"));
	assert_true(lk_argv_is_driver_name("aarch64-linux-gnu-gcc"));
	assert_true(lk_argv_is_driver_name("x86_64-linux-gnu-g++-12"));
	assert_false(lk_argv_is_driver_name("env"));
	assert_false(lk_argv_is_driver_name("sh"));
	assert_false(lk_argv_is_driver_name("evil-cc"));	/* only gcc/g++/clang get a target prefix */
	assert_false(lk_argv_is_driver_name("gcc;rm"));
	assert_false(lk_argv_is_driver_name(""));
	assert_false(lk_argv_is_driver_name("linkscope-cc"));
}

static void test_trust_link_drops_what_writes_or_runs(void **state)
{
	static const char *const words[] = { "cc", "main.o", "-L", "lib", "-lfoo", "-o", "out",
		"-Wl,--as-needed,-Map=/x/map,-lbar", "-Wl,-o,/x/o", "-MD", "-MF/x/d", "-B/evil/",
		"-specs=/x/s", "-wrapper", "/x/w", "-fplugin=/x/p.so", "-fPIC", "-fuse-ld=lld",
		"-fdump-tree-all", "@/x/rsp", "-Xlinker", "--plugin", "-Xlinker", "/x/p.so",
		"-Wa,-adhln=/x/l", "-static", "-Wl,-rpath-link,rel", "-save-temps", NULL };

	(void)state;
	check_filter(words, LK_TRUST_LINK,
		     "/work/proj/main.o -L /work/proj/lib -lfoo -Wl,--as-needed,-lbar -fPIC -fuse-ld=lld -static -Wl,-rpath-link,/work/proj/rel",
		     "-Wl,-Map=/x/map -Wl,-o -Wl,/x/o -MD -MF/x/d -B/evil/ -specs=/x/s -wrapper /x/w -fplugin=/x/p.so -fdump-tree-all @/x/rsp -Xlinker --plugin -Xlinker /x/p.so -Wa,-adhln=/x/l -save-temps");
}

static void test_trust_compile_keeps_compile_options(void **state)
{
	static const char *const words[] = { "cc", "-O2", "-Iinc", "-DX=1", "-lm", "-Wl,-z,now",
		"main.c", "-o", "prog", "-MD", "-std=c11", "-m64", "-march=x86-64", NULL };

	(void)state;
	check_filter(words, LK_TRUST_COMPILE, "-O2 -I/work/proj/inc -DX=1 -std=c11 -m64 -march=x86-64", "-MD");
}

static void test_trust_expand_keeps_words_as_recorded(void **state)
{
	static const char *const words[] = { "cc", "main.o", "-Llib", "-B/opt/x/", "-o", "out",
		"-Wl,-Map=m", NULL };

	(void)state;
	/* -### runs nothing: -B and -o stay, paths unchanged so words still match the record. */
	check_filter(words, LK_TRUST_EXPAND, "main.o -Llib -B/opt/x/ -o out", "-Wl,-Map=m");
}

/*
 * Issue #15: the spellings gcc and clang document that run or load
 * something, or write where they say, each dropped and named; the options
 * that change code or the link kept, each value checked.
 */
static void test_trust_link_drops_what_runs_or_loads(void **state)
{
	static const char *const words[] = { "cc", "main.o",
		"-fmodules-ts", "-fmodule-mapper=|sh -c touch${IFS}MARK", "-fplugin=./x.so",
		"-fplugin=annobin", "-fplugin-arg-annobin-x", "-fpass-plugin=x.so", "-wrapper",
		"sh,-c,touch MARK", "-specs=s", "--specs=s", "-B", "dir", "-Bdir", "-fprofile-generate=dir",
		"-fprofile-use", "-fprofile-dir=d", "-fdump-tree-all", "-fdump-rtl-expand",
		"-fcompare-debug=-O0", "-fstack-usage", "-fcallgraph-info", "-ffile-prefix-map=a=b",
		"-fsanitize-ignorelist=x", "-fdiagnostics-format=json-file", "-fuse-ld=/abs/ld",
		"-fuse-ld=evil", "-fvisibility=x;y", "-march=$(x)", "@file", "-Xlinker", "-plugin",
		"-Xlinker", "x.so", "-Wl,-plugin,x.so", "-Wl,--plugin=x.so", "-Wl,--error-handling-script=x",
		"-Wl,-mllvm,-x", "-Wl,--version", "-Wl,-z,a/b", "--ld-path=x", "-save-temps=obj", "-Wa,--x",
		"-Xassembler", "x", "-fno-integrated-as", "-mllvm", "-x", "-Xclang", "-load",
		"-Wl,-z", "-Xlinker", "a/b", NULL };

	(void)state;
	check_filter(words, LK_TRUST_LINK, "/work/proj/main.o",
		     "-fmodules-ts -fmodule-mapper=|sh -c touch${IFS}MARK -fplugin=./x.so "
		     "-fplugin=annobin -fplugin-arg-annobin-x -fpass-plugin=x.so -wrapper "
		     "sh,-c,touch MARK -specs=s --specs=s -B dir -Bdir -fprofile-generate=dir "
		     "-fprofile-use -fprofile-dir=d -fdump-tree-all -fdump-rtl-expand "
		     "-fcompare-debug=-O0 -fstack-usage -fcallgraph-info -ffile-prefix-map=a=b "
		     "-fsanitize-ignorelist=x -fdiagnostics-format=json-file -fuse-ld=/abs/ld "
		     "-fuse-ld=evil -fvisibility=x;y -march=$(x) @file -Xlinker -plugin "
		     "-Xlinker x.so -Wl,-plugin -Wl,x.so -Wl,--plugin=x.so -Wl,--error-handling-script=x "
		     "-Wl,-mllvm -Wl,-x -Wl,--version -Wl,-z -Wl,a/b --ld-path=x -save-temps=obj -Wa,--x "
		     "-Xassembler x -fno-integrated-as -mllvm -x -Xclang -load -Wl,-z -Xlinker a/b");
}

static void test_trust_keeps_what_changes_code_or_the_link(void **state)
{
	static const char *const words[] = { "cc", "-fPIC", "-fno-common", "-fvisibility=hidden",
		"-flto", "-flto=auto", "-fno-lto", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
		"-fuse-ld=lld", "-m32", "-march=x86-64-v2", "-mcmodel=large", "-mno-red-zone", "-mavx512f",
		"-fno-builtin-memcpy", "-fstack-protector-strong", "-fopenmp", "-fprofile-arcs",
		"-fprofile-generate", "--coverage", "-g3", "-gsplit-dwarf", "-gz=zlib", "-O2", "-Wall",
		"-Wno-unused", "-Werror=format", "-std=gnu11", "-stdlib=libc++", "-pthread",
		"-Wl,-z,now,-rpath,$ORIGIN/../lib,--hash-style=gnu,-melf_x86_64", "-Wl,-z", "-Wl,relro",
		"-Wl,-zmax-page-size=0x1000",
		"-Xlinker", "-rpath-link", "-Xlinker", "rel", NULL };

	(void)state;
	check_filter(words, LK_TRUST_LINK,
		     "-fPIC -fno-common -fvisibility=hidden -flto -flto=auto -fno-lto "
		     "-fsanitize=address,undefined -fno-sanitize-recover=all -fuse-ld=lld -m32 "
		     "-march=x86-64-v2 -mcmodel=large -mno-red-zone -mavx512f -fno-builtin-memcpy "
		     "-fstack-protector-strong -fopenmp -fprofile-arcs -fprofile-generate --coverage -g3 "
		     "-gsplit-dwarf -gz=zlib -O2 -Wall -Wno-unused -Werror=format -std=gnu11 "
		     "-stdlib=libc++ -pthread -Wl,-z,now,-rpath,$ORIGIN/../lib,--hash-style=gnu,-melf_x86_64 "
		     "-Wl,-z -Wl,relro -Wl,-zmax-page-size=0x1000 -Xlinker -rpath-link -Xlinker /work/proj/rel",
		     "");
}

/* gcc reads a "specs" file from LIBRARY_PATH's dirs, and specs name programs: a link gets -L words. */
static void test_trust_link_library_path_as_l(void **state)
{
	static const char *const words[] = { "cc", "main.o", NULL };
	struct lk_envvar var = { (char *)"LIBRARY_PATH", (char *)"/opt/lib:rel::/x" };
	struct lk_record rec;
	struct lk_strvec kept = LK_STRVEC_INIT, dropped = LK_STRVEC_INIT, envp = LK_STRVEC_INIT;
	char *k, *e;

	(void)state;
	record_of(&rec, words);
	rec.env.items = &var;
	rec.env.nr = 1;
	lk_trust_filter(&rec, LK_TRUST_LINK, &kept, &dropped);
	k = joined(&kept);
	assert_string_equal(k, "/work/proj/main.o -L/opt/lib -L/work/proj/rel -L/x");
	lk_trust_env(&rec, LK_TRUST_LINK, "/scratch", &envp);
	e = joined(&envp);
	assert_null(strstr(e, "LIBRARY_PATH"));
	free(e);
	lk_strvec_release(&envp);
	/* -### runs nothing: it gets the record's LIBRARY_PATH as recorded. */
	lk_trust_env(&rec, LK_TRUST_EXPAND, "/scratch", &envp);
	e = joined(&envp);
	assert_non_null(strstr(e, " LIBRARY_PATH=/opt/lib:rel::/x"));
	free(e);
	free(k);
	lk_strvec_release(&envp);
	lk_strvec_release(&kept);
	lk_strvec_release(&dropped);
	free(rec.args.items);
}

/* The environment of a run is built, not ours filtered: PATH (absolute entries), LANG=C, TMPDIR. */
static void test_trust_env_is_built_not_inherited(void **state)
{
	struct lk_strvec envp = LK_STRVEC_INIT;
	char *e;

	(void)state;
	setenv("LK_TEST_SECRET", "1", 1);
	setenv("PATH", "rel:/usr/bin::/bin", 1);
	lk_trust_env(NULL, LK_TRUST_COMPILE, "/scratch/x", &envp);
	e = joined(&envp);
	assert_string_equal(e, "PATH=/usr/bin:/bin LANG=C TMPDIR=/scratch/x");
	free(e);
	lk_strvec_release(&envp);
	unsetenv("LK_TEST_SECRET");
}

static void test_trust_runcmd_timeout_and_capture(void **state)
{
	const char *const sleeper[] = { "/bin/sh", "-c", "echo out; echo err >&2; exec sleep 30", NULL };
	struct lk_buf out = LK_BUF_INIT, err = LK_BUF_INIT;
	struct lk_runcmd cmd = { 0 };
	struct lk_runcmd_result res;

	(void)state;
	cmd.path = "/bin/sh";
	cmd.argv = sleeper;
	cmd.out = &out;
	cmd.err = &err;
	cmd.timeout_ms = 300;
	assert_int_equal(lk_runcmd(&cmd, &res), -1);
	assert_true(res.timed_out);
	assert_string_equal(out.buf, "out\n");
	assert_string_equal(err.buf, "err\n");
	lk_buf_release(&out);
	lk_buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trust_driver_names),
		cmocka_unit_test(test_trust_link_drops_what_writes_or_runs),
		cmocka_unit_test(test_trust_compile_keeps_compile_options),
		cmocka_unit_test(test_trust_expand_keeps_words_as_recorded),
		cmocka_unit_test(test_trust_link_drops_what_runs_or_loads),
		cmocka_unit_test(test_trust_keeps_what_changes_code_or_the_link),
		cmocka_unit_test(test_trust_link_library_path_as_l),
		cmocka_unit_test(test_trust_env_is_built_not_inherited),
		cmocka_unit_test(test_trust_runcmd_timeout_and_capture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
