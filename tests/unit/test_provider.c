/* The provider index: aliases, machines, the cache and its robustness. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "provider.h"
#include "testdir.h"

/* A dir with libz under three names (one file), an archive of it, and a text file named like a library. */
#define FILL "cp -L /usr/lib/x86_64-linux-gnu/libz.so libz.so.1.2 && ln -s libz.so.1.2 libz.so.1 && " \
	     "ln -s libz.so.1 libz.so && cp /usr/lib/x86_64-linux-gnu/libz.a libz.a && " \
	     "echo 'GROUP ( libz.so )' > libscript.so && mkdir cache"

static void build(struct lk_provider_index *ix, const char *dir, int machine)
{
	struct lk_strvec dirs = LK_STRVEC_INIT;
	char cache[128];

	snprintf(cache, sizeof(cache), "%s/cache", dir);
	lk_strvec_push(&dirs, dir);
	lk_provider_index_dirs(ix, &dirs, machine, cache);
	lk_strvec_release(&dirs);
}

static long hit0(const struct lk_provider_index *ix, const char *name)
{
	const char *names[1] = { name };
	long *hits[1];
	long first;

	lk_provider_lookup(ix, names, 1, hits);
	first = hits[0][0];
	free(hits[0]);
	return first;
}

static void test_provider_aliases_and_ranking(void **state)
{
	struct lk_provider_index ix;
	char dir[64];
	long f;

	(void)state;
	test_dir_make(dir, sizeof(dir), "lk-prov", FILL);
	build(&ix, dir, 62);
	/* libz.so, libz.so.1 and libz.so.1.2 are one file: indexed once, as libz.so; and libz.a. */
	assert_int_equal(ix.files.nr, 2);
	f = hit0(&ix, "zlibVersion");
	assert_true(f >= 0);
	assert_string_equal(ix.files.items[f].name, "libz.so");
	assert_true(ix.files.items[f].shared);
	assert_int_equal(hit0(&ix, "no_such_symbol_anywhere"), -1);
	lk_provider_index_release(&ix);
	/* Another machine's libraries are no providers. */
	build(&ix, dir, 183);
	assert_int_equal(hit0(&ix, "zlibVersion"), -1);
	lk_provider_index_release(&ix);
	test_dir_remove(dir);
}

/* Which libraries are a fix (provider_rank.c): a private library and a test library are set aside, the public one stays. */
static void test_provider_rank_private_and_tool(void **state)
{
	struct lk_provider_index ix;
	const char *names[2] = { "zlibVersion", "main" };
	long *hits[2], *aside[2];
	char dir[64];

	(void)state;
	test_dir_make(dir, sizeof(dir), "lk-prov",
		      FILL " && cp -L libz.so libhelpers-1.2.so && cp -L libz.so libgtest.so");
	build(&ix, dir, 62);
	lk_provider_lookup(&ix, names, 2, hits);
	lk_provider_rank_filter(&ix, names, 2, hits, aside);
	assert_true(hits[0][0] >= 0);
	assert_string_equal(ix.files.items[hits[0][0]].name, "libz.so");
	for (long *p = hits[0]; *p >= 0; p++)
		assert_null(lk_provider_no_fix_reason(&ix, *p, names[0]));
	assert_true(aside[0][0] >= 0 && aside[0][1] >= 0 && aside[0][2] == -1);
	for (long *p = aside[0]; *p >= 0; p++) {
		const char *why = lk_provider_no_fix_reason(&ix, *p, names[0]);

		assert_non_null(why);
		assert_string_equal(why, strcmp(ix.files.items[*p].name, "libgtest.so") ?
				    "a package's private library (a version in its name, no -l or runtime name beside it)" :
				    "a test or tool library");
	}
	/* main: no provider at all (nothing here defines it either). */
	assert_int_equal(hits[1][0], -1);
	assert_true(lk_provider_entry_symbol("main") && lk_provider_entry_symbol("_start") &&
		    !lk_provider_entry_symbol("mainloop"));
	for (int i = 0; i < 2; i++) {
		free(hits[i]);
		free(aside[i]);
	}
	lk_provider_index_release(&ix);
	test_dir_remove(dir);
}

static void test_provider_cache(void **state)
{
	struct lk_provider_index ix;
	char dir[64], cmd[256];
	struct stat st;

	(void)state;
	test_dir_make(dir, sizeof(dir), "lk-prov", FILL);
	build(&ix, dir, 62);
	assert_int_equal(ix.read, 3);	/* libz.so, libz.a and the script (not a provider, remembered) */
	lk_provider_index_release(&ix);
	build(&ix, dir, 62);
	assert_int_equal(ix.read, 0);
	assert_int_equal(ix.cached, 3);
	assert_true(hit0(&ix, "compressBound") >= 0);
	lk_provider_index_release(&ix);
	/* Private: the cache files are 0600. */
	snprintf(cmd, sizeof(cmd), "test \"$(stat -c %%a %s/cache/*.idx)\" = 600", dir);
	assert_int_equal(system(cmd), 0);
	/* A changed file is read again; the others come from the cache. */
	snprintf(cmd, sizeof(cmd), "touch -d '2001-01-01' %s/libz.a", dir);
	assert_int_equal(system(cmd), 0);
	build(&ix, dir, 62);
	assert_int_equal(ix.read, 1);
	lk_provider_index_release(&ix);
	/* A corrupt cache is ignored, noted and rebuilt: never trusted in part. */
	snprintf(cmd, sizeof(cmd), "for f in %s/cache/*.idx; do head -c 120 \"$f\" > \"$f.t\"; mv \"$f.t\" \"$f\"; done", dir);
	assert_int_equal(system(cmd), 0);
	build(&ix, dir, 62);
	assert_int_equal(ix.read, 3);
	assert_int_equal(ix.notes.nr, 1);
	assert_true(hit0(&ix, "zlibVersion") >= 0);
	lk_provider_index_release(&ix);
	snprintf(cmd, sizeof(cmd), "for f in %s/cache/*.idx; do head -c 4000 /dev/urandom > \"$f\"; done", dir);
	assert_int_equal(system(cmd), 0);
	build(&ix, dir, 62);
	assert_int_equal(ix.read, 3);
	assert_true(hit0(&ix, "zlibVersion") >= 0);
	lk_provider_index_release(&ix);
	assert_int_equal(stat(dir, &st), 0);
	test_dir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_provider_aliases_and_ranking),
		cmocka_unit_test(test_provider_rank_private_and_tool),
		cmocka_unit_test(test_provider_cache),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
