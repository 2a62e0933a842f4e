/*
 * The readers of `linkscope whatif` (analyzer/whatif/cmake.c, make.c,
 * argv_file.c): each one's line from files made in a scratch dir, and
 * its error (naming the file) for what it cannot read. Real CMake and
 * make trees are tests/integ/142-whatif-sources.sh's, through this
 * binary's hidden entry point:
 *   test_whatif_sources --read cmake|make|argv-file RECORD PATH [TARGET]
 * prints the line as JSON ({"argv", "cwd", "said", "cannot_see", "unknown"}),
 * or the error on stderr and exits 1.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscope/json.h"
#include "linkscope/vec.h"
#include "source.h"
#include "src_parts.h"
#include "testdir.h"

/* Release `l` and make it empty again, for the next read (whatever the release leaves). */
static void line_done(struct lk_whatif_line *l)
{
	static const struct lk_whatif_line empty = LK_WHATIF_LINE_INIT;

	lk_whatif_line_release(l);
	*l = empty;
}

static void rec_init(struct lk_record *rec, const char *cwd, const char *output, const char *driver)
{
	memset(rec, 0, sizeof(*rec));
	rec->cwd = cwd ? lk_xstrdup(cwd) : NULL;
	rec->output = output ? lk_xstrdup(output) : NULL;
	rec->link_args_start = rec->link_args_end = -1;
	LK_GROW(rec->args.items, 1, rec->args.alloc);
	rec->args.items[0].text = lk_xstrdup(driver ? driver : "cc");
	rec->args.items[0].rsp = -1;
	rec->args.nr = 1;
}

static void rec_release(struct lk_record *rec)
{
	free(rec->args.items[0].text);
	free(rec->args.items);
	free(rec->cwd);
	free(rec->output);
}

/* The argv as one string, words between single spaces. */
static char *joined(const struct lk_strvec *v)
{
	struct lk_buf b = LK_BUF_INIT;

	for (size_t i = 0; i < v->nr; i++)
		lk_buf_addf(&b, "%s%s", i ? " " : "", v->items[i]);
	return lk_buf_detach(&b);
}

static void assert_argv(const struct lk_whatif_line *l, const char *want)
{
	char *got = joined(&l->argv);

	assert_string_equal(got, want);
	free(got);
}

static void assert_err_has(const struct lk_err *err, const char *want)
{
	if (!strstr(err->msg, want))
		fail_msg("error '%s' does not say '%s'", err->msg, want);
}

TEST_DIR_GROUP("lk-whatif-src", NULL)

static const char *put(const char *name, const char *text)
{
	const char *path = at(name);
	char cmd[512];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* ---- make -n ---- */

static int make_read(const char *text, const char *cwd, const char *output, const char *target,
		     struct lk_whatif_line *l, struct lk_err *err)
{
	struct lk_record rec;
	char file[160];
	int rc;

	snprintf(file, sizeof(file), "%s", put("make-n.txt", text));
	rec_init(&rec, cwd, output, "cc");
	rc = lk_whatif_from_make(&rec, file, target, l, err);
	rec_release(&rec);
	return rc;
}

static void test_whatif_make_directories_and_compiles(void **state)
{
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;

	(void)state;
	assert_int_equal(make_read("make: Entering directory '/src/top'\n"
				   "cc -c -o main.o main.c\n"
				   "make[1]: Entering directory '/src/top/sub'\n"
				   "cc -O2 -c lib.c -o lib.o\n"
				   "ar rcs libx.a lib.o\n"
				   "cc -o app main.o libx.a -lz\n"
				   "make[1]: Leaving directory '/src/top/sub'\n"
				   "make: Leaving directory '/src/top'\n",
				   "/src/top/sub", "app", NULL, &l, &err), 0);
	assert_argv(&l, "cc -o app main.o libx.a -lz");
	assert_string_equal(l.cwd, "/src/top/sub");
	assert_string_equal(l.source, "make");
	assert_int_equal(l.unknown.nr, 0);
	line_done(&l);
}

static void test_whatif_make_cd_chain_continuation(void **state)
{
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;

	(void)state;
	assert_int_equal(make_read("echo linking; cd out && ccache gcc -o ../bin/app \\\n"
				   "\t'main file.o' -Wl,--as-needed -lm && echo done\n",
				   "/b", "bin/app", NULL, &l, &err), 0);
	assert_argv(&l, "gcc -o ../bin/app main file.o -Wl,--as-needed -lm");
	assert_string_equal(l.cwd, "/b/out");
	line_done(&l);
}

static void test_whatif_make_last_and_target(void **state)
{
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;
	const char *text = "cc -o app a.o\n"
			   "cc -o tool t.o\n"
			   "/x/linkscope-cc -- cc -o app a.o -lz\n";

	(void)state;
	assert_int_equal(make_read(text, "/b", "app", NULL, &l, &err), 0);
	assert_argv(&l, "cc -o app a.o -lz");
	line_done(&l);
	assert_int_equal(make_read(text, "/b", "app", "tool", &l, &err), 0);
	assert_argv(&l, "cc -o tool t.o");
	line_done(&l);
}

static void test_whatif_make_trace_lines_skipped(void **state)
{
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;

	(void)state;
	assert_int_equal(make_read("Makefile:4: update target 'app' due to: main.o\n"
				   "gcc main.o -o app\n"
				   "make: 'other' is up to date.\n",
				   "/b", "app", NULL, &l, &err), 0);
	assert_argv(&l, "gcc main.o -o app");
	line_done(&l);
}

static void test_whatif_make_shell_only_lines(void **state)
{
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;

	(void)state;
	/* a line only a shell can read that does not name the output: not the link */
	assert_int_equal(make_read("for f in *.c; do echo $f; done\ncc -o app main.o\n", "/b", "app", NULL, &l, &err), 0);
	assert_argv(&l, "cc -o app main.o");
	line_done(&l);
	/* one that may be the link: an error naming the file and the line */
	assert_int_equal(make_read("cc -c main.c\ncc -o app main.o $(pkg-config --libs zlib)\n", "/b", "app", NULL, &l,
				   &err), -1);
	assert_err_has(&err, "make-n.txt' line 2 may be the link of 'app'");
	assert_err_has(&err, "a command substitution");
	line_done(&l);
}

static void test_whatif_make_libtool_unknown(void **state)
{
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;

	(void)state;
	assert_int_equal(make_read("/bin/bash ./libtool  --tag=CC   --mode=link gcc  -g -O2   -o app main.o libx.la\n",
				   "/b", "app", NULL, &l, &err), 0);
	assert_argv(&l, "gcc -g -O2 -o app main.o libx.la");
	assert_int_equal(l.unknown.nr, 1);
	assert_non_null(strstr(l.unknown.items[0], "libtool"));
	line_done(&l);
}

static void test_whatif_make_no_link(void **state)
{
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;

	(void)state;
	assert_int_equal(make_read("cc -c main.c\ncc -o other main.o\n", "/b", "app", NULL, &l, &err), -1);
	assert_err_has(&err, "make-n.txt' shows no link that writes 'app' (links seen: 'other')");
	line_done(&l);
	/* a CMake-generated Makefile's make -n: the link is link.txt's */
	assert_int_equal(make_read("cd /b && /usr/bin/cmake -E cmake_link_script CMakeFiles/app.dir/link.txt --verbose=1\n",
				   "/b", "app", NULL, &l, &err), -1);
	assert_err_has(&err, "shows no link that writes 'app'; it is a CMake build's, whose links are in link.txt files: --cmake BUILD_DIR");
	line_done(&l);
	assert_int_equal(lk_whatif_from_make(&(struct lk_record){ .cwd = NULL }, at("missing.txt"), NULL, &l, &err), -1);
	assert_err_has(&err, "missing.txt'");
}

/* ---- CMake ---- */

static int cmake_read(const char *bdir, const char *cwd, const char *output, const char *target,
		      struct lk_whatif_line *l, struct lk_err *err)
{
	struct lk_record rec;
	int rc;

	rec_init(&rec, cwd, output, "/usr/bin/cc");
	rc = lk_whatif_from_cmake(&rec, bdir, target, l, err);
	rec_release(&rec);
	return rc;
}

static void test_whatif_cmake_makefiles(void **state)
{
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;
	char top[160], sub[160], list[512];

	(void)state;
	snprintf(top, sizeof(top), "%s/mk", dir);
	snprintf(sub, sizeof(sub), "%s/mk/tools", dir);
	snprintf(list, sizeof(list), "%s/CMakeFiles/shapes.dir\n%s/CMakeFiles/app.dir\n%s/CMakeFiles/meter.dir\n"
		 "%s/CMakeFiles/edit_cache.dir\n", top, top, sub, top);
	put("mk/CMakeFiles/TargetDirectories.txt", list);
	put("mk/CMakeFiles/shapes.dir/link.txt", "/usr/bin/ar qc libshapes.a CMakeFiles/shapes.dir/s.c.o\n"
						 "/usr/bin/ranlib libshapes.a\n");
	put("mk/CMakeFiles/app.dir/link.txt",
	    "/opt/lk/linkscope-cc -- /usr/bin/cc CMakeFiles/app.dir/main.c.o -o app  libshapes.a -lz -lm \n");
	put("mk/tools/CMakeFiles/meter.dir/link.txt", "/usr/bin/cc CMakeFiles/meter.dir/meter.c.o -o meter \n");
	assert_int_equal(cmake_read(top, top, "app", NULL, &l, &err), 0);
	assert_argv(&l, "/usr/bin/cc CMakeFiles/app.dir/main.c.o -o app libshapes.a -lz -lm");
	assert_string_equal(l.cwd, top);
	assert_string_equal(l.source, "cmake");
	line_done(&l);
	/* a subdirectory's target runs from its own binary dir */
	assert_int_equal(cmake_read(top, sub, "meter", NULL, &l, &err), 0);
	assert_argv(&l, "/usr/bin/cc CMakeFiles/meter.dir/meter.c.o -o meter");
	assert_string_equal(l.cwd, sub);
	line_done(&l);
	assert_int_equal(cmake_read(top, top, "app", "meter", &l, &err), 0);
	assert_string_equal(l.cwd, sub);
	line_done(&l);
	/* no target links the baseline's output; a target that does not link */
	assert_int_equal(cmake_read(top, top, "nothere", NULL, &l, &err), -1);
	assert_err_has(&err, "links 'nothere' (targets that link: app (-o app), meter (-o meter)); --target NAME chooses");
	assert_int_equal(cmake_read(top, top, "app", "shapes", &l, &err), -1);
	assert_err_has(&err, "has no target 'shapes' that links");
	/* not a build dir */
	assert_int_equal(cmake_read(at("nope"), top, "app", NULL, &l, &err), -1);
	assert_err_has(&err, "is not a configured CMake build dir");
}

static void test_whatif_cmake_makefiles_ambiguous(void **state)
{
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;
	char top[160], list[512];

	(void)state;
	snprintf(top, sizeof(top), "%s/amb", dir);
	snprintf(list, sizeof(list), "%s/a/CMakeFiles/one.dir\n%s/b/CMakeFiles/two.dir\n", top, top);
	put("amb/CMakeFiles/TargetDirectories.txt", list);
	put("amb/a/CMakeFiles/one.dir/link.txt", "cc x.o -o app\n");
	put("amb/b/CMakeFiles/two.dir/link.txt", "cc y.o -o app\n");
	/* the baseline ran elsewhere: the file name alone, twice */
	assert_int_equal(cmake_read(top, "/elsewhere", "app", NULL, &l, &err), -1);
	assert_err_has(&err, "several targets of");
	assert_err_has(&err, "one (-o app), two (-o app); --target NAME chooses");
	/* the same path chooses */
	snprintf(list, sizeof(list), "%s/b", top);
	assert_int_equal(cmake_read(top, list, "app", NULL, &l, &err), 0);
	assert_argv(&l, "cc y.o -o app");
	line_done(&l);
	assert_int_equal(cmake_read(top, "/elsewhere", "app", "one", &l, &err), 0);
	assert_argv(&l, "cc x.o -o app");
	line_done(&l);
}

static void test_whatif_cmake_ninja(void **state)
{
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;
	char top[160];

	(void)state;
	snprintf(top, sizeof(top), "%s/nj", dir);
	put("nj/CMakeFiles/rules.ninja",
	    "rule C_EXECUTABLE_LINKER__my.2eapp_\n"
	    "  command = $PRE_LINK && /x/linkscope-cc -- /usr/bin/cc $FLAGS $LINK_FLAGS $in -o $TARGET_FILE $LINK_PATH $LINK_LIBRARIES && $POST_BUILD\n"
	    "  description = Linking C executable $TARGET_FILE\n"
	    "rule C_SHARED_LIBRARY_LINKER__dyn_\n"
	    "  command = $PRE_LINK && /usr/bin/cc -fPIC -shared $SONAME_FLAG$SONAME -o $out @$RSP_FILE && $POST_BUILD\n"
	    "  rspfile = $RSP_FILE\n"
	    "  rspfile_content = $in_newline $LINK_PATH $LINK_LIBRARIES\n"
	    "rule C_STATIC_LIBRARY_LINKER__shapes_\n"
	    "  command = $PRE_LINK && /usr/bin/ar qc $TARGET_FILE $in && $POST_BUILD\n");
	put("nj/build.ninja",
	    "# comment\n"
	    "cmake_ninja_workdir = /ignored/\n"
	    "include CMakeFiles/rules.ninja\n"
	    "build libshapes.a: C_STATIC_LIBRARY_LINKER__shapes_ CMakeFiles/shapes.dir/s.c.o\n"
	    "  TARGET_FILE = libshapes.a\n"
	    "build bin/my.app: C_EXECUTABLE_LINKER__my.2eapp_ CMakeFiles/my.app.dir/main.c.o $\n"
	    "    CMakeFiles/my.app.dir/with$ space.c.o | libshapes.a || libshapes.a\n"
	    "  FLAGS = -O2\n"
	    "  LINK_LIBRARIES = libshapes.a  -lz  -lm\n"
	    "  LINK_PATH = -L/opt/x/lib\n"
	    "  PRE_LINK = cd /somewhere/else && /usr/bin/cmake -E echo pre && cd " "BUILD" "\n"
	    "  POST_BUILD = :\n"
	    "  TARGET_FILE = bin/my.app\n"
	    "build libdyn.so | libdyn.pdb: C_SHARED_LIBRARY_LINKER__dyn_ CMakeFiles/dyn.dir/d.c.o\n"
	    "  PRE_LINK = :\n"
	    "  POST_BUILD = :\n"
	    "  SONAME = libdyn.so\n"
	    "  SONAME_FLAG = -Wl,-soname,\n"
	    "  TARGET_FILE = libdyn.so\n"
	    "  RSP_FILE = CMakeFiles/dyn.rsp\n"
	    "  LINK_LIBRARIES = -lz\n"
	    "build my.app: phony bin/my.app\n");
	/* the PRE_LINK cd goes back to the build dir: write it there */
	{
		char cmd[512];

		snprintf(cmd, sizeof(cmd), "sed -i 's|cd BUILD|cd %s|' '%s/nj/build.ninja'", top, dir);
		assert_int_equal(system(cmd), 0);
	}
	assert_int_equal(cmake_read(top, top, "bin/my.app", NULL, &l, &err), 0);
	assert_argv(&l, "/usr/bin/cc -O2 CMakeFiles/my.app.dir/main.c.o CMakeFiles/my.app.dir/with space.c.o -o bin/my.app "
			"-L/opt/x/lib libshapes.a -lz -lm");
	assert_string_equal(l.cwd, top);
	line_done(&l);
	/* the target's name decoded from its rule's */
	assert_int_equal(cmake_read(top, "/elsewhere", "x", "my.app", &l, &err), 0);
	assert_argv(&l, "/usr/bin/cc -O2 CMakeFiles/my.app.dir/main.c.o CMakeFiles/my.app.dir/with space.c.o -o bin/my.app "
			"-L/opt/x/lib libshapes.a -lz -lm");
	line_done(&l);
	/* @$RSP_FILE: rspfile_content in its place */
	assert_int_equal(cmake_read(top, top, "libdyn.so", NULL, &l, &err), 0);
	assert_argv(&l, "/usr/bin/cc -fPIC -shared -Wl,-soname,libdyn.so -o libdyn.so CMakeFiles/dyn.dir/d.c.o -lz");
	line_done(&l);
	/* a static library is no link */
	assert_int_equal(cmake_read(top, top, "libshapes.a", NULL, &l, &err), -1);
	assert_err_has(&err, "no target of");
}

static void test_whatif_cmake_ninja_bounds(void **state)
{
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_buf text = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;
	char top[160];

	(void)state;
	/* a file variable doubling at each line: 2^40 bytes if it were believed */
	lk_buf_addstr(&text, "v0 = xxxxxxxx\n");
	for (int i = 1; i <= 40; i++)
		lk_buf_addf(&text, "v%d = $v%d$v%d\n", i, i - 1, i - 1);
	put("bound1/build.ninja", text.buf);
	snprintf(top, sizeof(top), "%s/bound1", dir);
	assert_int_equal(cmake_read(top, top, "app", NULL, &l, &err), -1);
	assert_err_has(&err, "bound1/build.ninja' line 23: its variables expand past 16 MiB");
	assert_err_has(&err, "expand past");
	/* rule variables naming each other: a loop */
	put("bound2/build.ninja", "rule C_EXECUTABLE_LINKER__app_\n  command = cc $a -o app\n  a = $b\n  b = $a\n"
				  "build app: C_EXECUTABLE_LINKER__app_ m.o\n");
	snprintf(top, sizeof(top), "%s/bound2", dir);
	assert_int_equal(cmake_read(top, top, "app", NULL, &l, &err), -1);
	assert_err_has(&err, "bound2/build.ninja' line 5: the link command's variables expand past");
	lk_buf_release(&text);
}

/* ---- argv files ---- */

static void test_whatif_argv_file_lines(void **state)
{
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct lk_record rec;
	char want[200];

	(void)state;
	rec_init(&rec, "/base", "app", "cc");
	put("av/args.txt", "# the link, by hand\n#\ncwd: ../work\ngcc\n-o\napp\nmain file.o\n\n# not a comment\n-lm\r\n");
	assert_int_equal(lk_whatif_from_argv_file(&rec, at("av/args.txt"), &l, &err), 0);
	assert_int_equal(l.argv.nr, 7);
	assert_string_equal(l.argv.items[3], "main file.o");
	assert_string_equal(l.argv.items[4], "");
	assert_string_equal(l.argv.items[5], "# not a comment");
	assert_string_equal(l.argv.items[6], "-lm");
	snprintf(want, sizeof(want), "%s/work", dir);
	assert_string_equal(l.cwd, want);
	assert_string_equal(l.source, "argv-file");
	line_done(&l);
	/* no cwd: the baseline's */
	put("av/plain.txt", "cc\nmain.o\n");
	assert_int_equal(lk_whatif_from_argv_file(&rec, at("av/plain.txt"), &l, &err), 0);
	assert_null(l.cwd);
	assert_argv(&l, "cc main.o");
	line_done(&l);
	rec_release(&rec);
}

static void test_whatif_argv_file_json_and_errors(void **state)
{
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct lk_record rec;

	(void)state;
	rec_init(&rec, "/base", "app", "cc");
	put("av/a.json", " [\"gcc\", \"-o\", \"app\", \"a b.o\", {\"hex\": \"2d6c6d\"}]\n");
	assert_int_equal(lk_whatif_from_argv_file(&rec, at("av/a.json"), &l, &err), 0);
	assert_argv(&l, "gcc -o app a b.o -lm");
	line_done(&l);
	put("av/bad.json", "[\"gcc\", 3]");
	assert_int_equal(lk_whatif_from_argv_file(&rec, at("av/bad.json"), &l, &err), -1);
	assert_err_has(&err, "bad.json': element 1 is not a string");
	put("av/empty.txt", "# nothing\n");
	assert_int_equal(lk_whatif_from_argv_file(&rec, at("av/empty.txt"), &l, &err), -1);
	assert_err_has(&err, "empty.txt' names no driver");
	assert_int_equal(lk_whatif_from_argv_file(&rec, at("av/none.txt"), &l, &err), -1);
	assert_err_has(&err, "cannot read '");
	assert_err_has(&err, "none.txt'");
	rec_release(&rec);
}

/* ---- the shared parts ---- */

static void expect_path(const char *d, const char *name, const char *want)
{
	char *got = ws_path(d, name);

	assert_string_equal(got, want);
	free(got);
}

static void test_whatif_paths_and_names(void **state)
{
	char *cwd, *got, old[256];

	(void)state;
	expect_path("/b", "out/../bin/./app", "/b/bin/app");
	expect_path("/b/x", "../../../y", "/y");
	expect_path("/b", "/abs//p/", "/abs/p");
	expect_path(NULL, "../a/../../b", "../../b");
	expect_path("a", "..", ".");
	expect_path(NULL, "./", ".");
	/* a relative build dir or argv file is taken from where the command runs */
	assert_non_null(getcwd(old, sizeof(old)));
	assert_int_equal(chdir(dir), 0);
	got = ws_abs("b/../c");
	cwd = ws_path(dir, "c");
	assert_string_equal(got, cwd);
	free(got);
	free(cwd);
	assert_int_equal(chdir(old), 0);
	assert_true(ws_names_file("cc -o bin/app x.o", "app"));
	assert_true(ws_names_file("cc -o 'app' $(X)", "app"));
	assert_false(ws_names_file("cc -o apps $(X)", "app"));
	assert_false(ws_names_file("echo $(date) >happ.log", "app"));
	assert_false(ws_names_file("anything", ""));
}

static void test_whatif_relative_dirs(void **state)
{
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct lk_record rec;
	char old[256], want[200];

	(void)state;
	put("rel/nj/build.ninja", "rule C_EXECUTABLE_LINKER__app_\n  command = cc $in -o $TARGET_FILE\n"
				  "build app: C_EXECUTABLE_LINKER__app_ m.o\n  TARGET_FILE = app\n");
	put("rel/args.txt", "cwd: nj\ncc\nm.o\n");
	rec_init(&rec, "/elsewhere", "app", "cc");
	assert_non_null(getcwd(old, sizeof(old)));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(lk_whatif_from_cmake(&rec, "rel/nj", NULL, &l, &err), 0);
	snprintf(want, sizeof(want), "%s/rel/nj", dir);
	assert_string_equal(l.cwd, want);
	line_done(&l);
	assert_int_equal(lk_whatif_from_argv_file(&rec, "rel/args.txt", &l, &err), 0);
	assert_string_equal(l.cwd, want);
	line_done(&l);
	assert_int_equal(chdir(old), 0);
	rec_release(&rec);
}

/* The hidden entry point: one reader on a real record and tree, its line as JSON. */
static int read_main(int argc, char **argv)
{
	struct lk_record rec;
	struct lk_whatif_line l = LK_WHATIF_LINE_INIT;
	struct lk_err err = LK_ERR_INIT;
	const char *target = argc > 5 ? argv[5] : NULL;
	json_t *o, *a;
	int rc;

	if (argc < 5) {
		fprintf(stderr, "usage: %s --read cmake|make|argv-file RECORD PATH [TARGET]\n", argv[0]);
		return 2;
	}
	if (lk_record_load(argv[3], &rec, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	if (!strcmp(argv[2], "cmake"))
		rc = lk_whatif_from_cmake(&rec, argv[4], target, &l, &err);
	else if (!strcmp(argv[2], "make"))
		rc = lk_whatif_from_make(&rec, argv[4], target, &l, &err);
	else
		rc = lk_whatif_from_argv_file(&rec, argv[4], &l, &err);
	if (rc < 0) {
		fprintf(stderr, "%s\n", err.msg);
		lk_record_release(&rec);
		return 1;
	}
	o = json_object();
	json_object_set_new(o, "cwd", lk_json_str(l.cwd));
	json_object_set_new(o, "source", lk_json_str(l.source));
	json_object_set_new(o, "read", lk_json_str(l.read));
	{
		const struct { const char *key; const struct lk_strvec *v; } lists[] = {
			{ "argv", &l.argv }, { "said", &l.said }, { "cannot_see", &l.cannot_see }, { "unknown", &l.unknown },
		};

		for (size_t k = 0; k < sizeof(lists) / sizeof(lists[0]); k++) {
			a = json_array();
			for (size_t i = 0; i < lists[k].v->nr; i++)
				json_array_append_new(a, lk_json_str(lists[k].v->items[i]));
			json_object_set_new(o, lists[k].key, a);
		}
	}
	json_dumpf(o, stdout, JSON_COMPACT);
	putchar('\n');
	json_decref(o);
	line_done(&l);
	lk_record_release(&rec);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whatif_make_directories_and_compiles),
		cmocka_unit_test(test_whatif_make_cd_chain_continuation),
		cmocka_unit_test(test_whatif_make_last_and_target),
		cmocka_unit_test(test_whatif_make_trace_lines_skipped),
		cmocka_unit_test(test_whatif_make_shell_only_lines),
		cmocka_unit_test(test_whatif_make_libtool_unknown),
		cmocka_unit_test(test_whatif_make_no_link),
		cmocka_unit_test(test_whatif_cmake_makefiles),
		cmocka_unit_test(test_whatif_cmake_makefiles_ambiguous),
		cmocka_unit_test(test_whatif_cmake_ninja),
		cmocka_unit_test(test_whatif_cmake_ninja_bounds),
		cmocka_unit_test(test_whatif_argv_file_lines),
		cmocka_unit_test(test_whatif_argv_file_json_and_errors),
		cmocka_unit_test(test_whatif_paths_and_names),
		cmocka_unit_test(test_whatif_relative_dirs),
	};

	if (argc > 1 && !strcmp(argv[1], "--read"))
		return read_main(argc, argv);
	return cmocka_run_group_tests_name("whatif_sources", tests, setup, teardown);
}
