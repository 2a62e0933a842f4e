/*
 * The -l search (lk_resolve_search_lib in analyzer/model/resolve.c) as GNU ld's
 * ldfile_open_file_search does it: each dir in order, lib<name>.so then
 * lib<name>.a in it, .a only under -Bstatic, -l:<file> literal, the
 * linker's default dirs after the -L dirs (none under -nostdlib), libraries
 * of another machine skipped, and "=" dirs inside the sysroot. The
 * libraries are built at test time in a scratch dir.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "line.h"
#include "linkscope/vec.h"
#include "resolve.h"
#include "testdir.h"

static char dir[64];

/*
 * a/: libfoo.a, exact.name, libbar.so (the other architecture's, when its
 * cross gcc is installed); b/: libfoo.so, libfoo.a, libbar.a; c/ (a
 * default dir): libdef.so; sys/ a sysroot with opt/lib/libsr.so and
 * usr/lib/HOST-MULTIARCH/libsrdef.so.
 */
#define FILL \
	"mkdir -p a b c sys/opt/lib sys/usr/lib/" TEST_HOST_MULTIARCH " && " \
	"printf 'int f(void){return 1;}\\n' >f.c && cc -c -fPIC f.c -o f.o && " \
	"ar rcs a/libfoo.a f.o && cc -shared f.o -o b/libfoo.so && ar rcs b/libfoo.a f.o && " \
	"cp b/libfoo.so a/exact.name && ar rcs b/libbar.a f.o && " \
	"if command -v " TEST_OTHER_CC " >/dev/null; then " TEST_OTHER_CC " -c -fPIC f.c -o other.o && " \
	TEST_OTHER_CC " -shared -nostdlib other.o -o a/libbar.so; fi && " \
	"cp b/libfoo.so c/libdef.so && cp b/libfoo.so sys/opt/lib/libsr.so && " \
	"cp b/libfoo.so sys/usr/lib/" TEST_HOST_MULTIARCH "/libsrdef.so"

static int setup(void **state)
{
	(void)state;
	test_dir_make(dir, sizeof(dir), "lk-resolve", FILL);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	test_dir_remove(dir);
	return 0;
}

/* A line with -L a -L b, default dir c, linking for the host. */
static void line_init(struct lk_line *line, int nostdlib)
{
	char path[128];

	memset(line, 0, sizeof(*line));
	snprintf(path, sizeof(path), "%s/a", dir);
	lk_strvec_push(&line->libdirs, path);
	snprintf(path, sizeof(path), "%s/b", dir);
	lk_strvec_push(&line->libdirs, path);
	snprintf(path, sizeof(path), "%s/c", dir);
	lk_strvec_push(&line->default_dirs, path);
	line->machine = TEST_HOST_MACHINE;
	line->facts = nostdlib ? LK_LINE_NOSTDLIB : 0;
}

/*
 * Search `word` under `st`: want the file `want` ("a/libfoo.a", relative
 * to the scratch dir; NULL: not found) after trying exactly `tried`
 * (space-separated, relative too; a skipped file with its reason).
 */
static void search(const char *word, unsigned st, int nostdlib, const char *want, const char *tried)
{
	struct lk_line line;
	struct lk_line_item it;
	char got[1024] = "";
	size_t len = 0, skip = strlen(dir) + 1;
	int rc;

	line_init(&line, nostdlib);
	memset(&it, 0, sizeof(it));
	it.kind = LK_ITEM_LIB;
	it.word = (char *)word;
	it.state = st;
	rc = lk_resolve_search_lib(&line, &it);
	for (size_t i = 0; i < it.tried.nr; i++) {
		assert_memory_equal(it.tried.items[i], dir, skip - 1);
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s", i ? " " : "",
					it.tried.items[i] + skip);
	}
	if (strcmp(got, tried))
		fail_msg("%s tried [%s], want [%s]", word, got, tried);
	/* The files skipped as incompatible are kept, for "cannot find" explained (explain/notfound.c). */
	for (size_t i = 0, k = 0; i < it.tried.nr; i++)
		if (strstr(it.tried.items[i], " (skipped: ")) {
			assert_true(k < it.skipped.nr);
			assert_memory_equal(it.tried.items[i], it.skipped.items[k], strlen(it.skipped.items[k]));
			k++;
		}
	if (want) {
		assert_int_equal(rc, 0);
		assert_non_null(it.path);
		if (strcmp(it.path + skip, want))
			fail_msg("%s resolved to %s, want %s", word, it.path, want);
		assert_int_equal(it.info.kind, !strcmp(want + strlen(want) - 2, ".a") ?
				 LK_FILE_ARCHIVE : LK_FILE_SHARED);
	} else {
		assert_int_equal(rc, -1);
		assert_null(it.path);
	}
	free(it.path);
	lk_strvec_release(&it.tried);
	lk_strvec_release(&it.skipped);
	lk_elf_info_release(&it.info);
	lk_line_release(&line);
}

static void test_resolve_search_dir_order_then_so_before_a(void **state)
{
	(void)state;
	/* a/ has only the .a: a/ is searched first, so it wins over b/libfoo.so. */
	search("-lfoo", 0, 0, "a/libfoo.a", "a/libfoo.so a/libfoo.a");
	/* In one dir, the .so comes before the .a. */
	search("-l:libfoo.so", 0, 0, "b/libfoo.so", "a/libfoo.so b/libfoo.so");
	search("-ldef", 0, 0, "c/libdef.so", "a/libdef.so a/libdef.a b/libdef.so b/libdef.a c/libdef.so");
}

static void test_resolve_search_bstatic(void **state)
{
	(void)state;
	/* -Bstatic: the .a only, in every dir; a .so is never tried. */
	search("-lfoo", LK_ST_STATIC, 0, "a/libfoo.a", "a/libfoo.a");
	search("-ldef", LK_ST_STATIC, 0, NULL, "a/libdef.a b/libdef.a c/libdef.a");
	/* --as-needed or --whole-archive change nothing in the search. */
	search("-lfoo", LK_ST_AS_NEEDED | LK_ST_WHOLE_ARCHIVE, 0, "a/libfoo.a", "a/libfoo.so a/libfoo.a");
}

static void test_resolve_search_verbatim(void **state)
{
	(void)state;
	/* -l:name is the file name as is: no lib prefix, no suffix, one try per dir. */
	search("-l:exact.name", 0, 0, "a/exact.name", "a/exact.name");
	search("-l:libfoo.a", LK_ST_STATIC, 0, "a/libfoo.a", "a/libfoo.a");
	/* ... even under -Bstatic, the search finds a .so so named (ld then says if it cannot link it). */
	search("-l:libfoo.so", LK_ST_STATIC, 0, "b/libfoo.so", "a/libfoo.so b/libfoo.so");
	search("-l:nope", 0, 0, NULL, "a/nope b/nope c/nope");
}

static void test_resolve_search_nostdlib_and_machine(void **state)
{
	(void)state;
	/* -nostdlib: the linker's default dirs are not searched. */
	search("-ldef", 0, 1, NULL, "a/libdef.so a/libdef.a b/libdef.so b/libdef.a");
	/* The other architecture's library is skipped, as ld does ("skipping incompatible"), and said why. */
	if (!test_other_cc()) {
		print_message("skipped: no %s, to make the other architecture's library\n", TEST_OTHER_CC);
		skip();
	}
	search("-lbar", 0, 0, "b/libbar.a",
	       "a/libbar.so (skipped: " TEST_OTHER_MACHINE_NAME ", the link is " TEST_HOST_MACHINE_NAME
	       ") a/libbar.a b/libbar.so b/libbar.a");
}

/* A line whose -L dirs and default dirs start with "=": inside --sysroot. */
static void test_resolve_sysroot_equals_dirs(void **state)
{
	struct lk_record rec;
	struct lk_line line;
	char sysroot[128];
	static const char *const words[] = { "-lsr", "-lsrdef", "-lfoo" };

	(void)state;
	memset(&rec, 0, sizeof(rec));
	rec.cwd = dir;
	rec.link_args_start = rec.link_args_end = -1;
	memset(&line, 0, sizeof(line));
	snprintf(sysroot, sizeof(sysroot), "%s/sys", dir);
	line.sysroot = strdup(sysroot);
	line.emulation = strdup(TEST_HOST_EMULATION);
	lk_strvec_push(&line.libdirs, "=/opt/lib");
	lk_strvec_push(&line.libdirs, "a");	/* relative: to the record's cwd */
	for (size_t i = 0; i < 3; i++) {
		struct lk_line_item *it;

		LK_GROW(line.items.items, line.items.nr + 1, line.items.alloc);
		it = &line.items.items[line.items.nr++];
		memset(it, 0, sizeof(*it));
		it->kind = LK_ITEM_LIB;
		it->word = strdup(words[i]);
		it->position = -1;
		it->group = -1;
		it->parent = -1;
		for (int f = 0; f < LK_ST_COUNT; f++)
			it->since[f] = -1;
	}
	/* ld --verbose gives SEARCH_DIR("=/usr/lib/x86_64-linux-gnu") and others: all in the sysroot. */
	lk_resolve_line(&rec, &line);
	assert_true(line.default_dirs.nr > 0);
	for (size_t i = 0; i < line.default_dirs.nr; i++)
		if (strncmp(line.default_dirs.items[i], sysroot, strlen(sysroot)))
			fail_msg("default dir '%s' is not in the sysroot '%s'", line.default_dirs.items[i], sysroot);
	assert_string_equal(line.libdirs.items[0] + strlen(sysroot), "/opt/lib");
	assert_memory_equal(line.libdirs.items[0], sysroot, strlen(sysroot));
	assert_string_equal(line.libdirs.items[1] + strlen(dir), "/a");
	assert_string_equal(line.items.items[0].path + strlen(sysroot), "/opt/lib/libsr.so");
	assert_string_equal(line.items.items[1].path + strlen(sysroot),
			    "/usr/lib/" TEST_HOST_MULTIARCH "/libsrdef.so");
	assert_string_equal(line.items.items[2].path + strlen(dir), "/a/libfoo.a");
	lk_line_release(&line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve_search_dir_order_then_so_before_a),
		cmocka_unit_test(test_resolve_search_bstatic),
		cmocka_unit_test(test_resolve_search_verbatim),
		cmocka_unit_test(test_resolve_search_nostdlib_and_machine),
		cmocka_unit_test(test_resolve_sysroot_equals_dirs),
	};
	return cmocka_run_group_tests_name("resolve", tests, setup, teardown);
}
