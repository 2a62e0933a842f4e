/* The provider index: aliases, machines, the cache and its robustness. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glob.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "provider.h"
#include "testdir.h"

/* A dir with libz under three names (one file), an archive of it, and a text file named like a library. */
#define FILL "cp -L \"$(cc -print-file-name=libz.so)\" libz.so.1.2 && ln -s libz.so.1.2 libz.so.1 && " \
	     "ln -s libz.so.1 libz.so && cp \"$(cc -print-file-name=libz.a)\" libz.a && " \
	     "echo 'GROUP ( libz.so )' > libscript.so && mkdir cache"

static void build(struct lk_provider_index *ix, const char *dir, int machine)
{
	struct lk_strvec dirs = LK_STRVEC_INIT;
	char cache[128];

	snprintf(cache, sizeof(cache), "%s/cache", dir);
	lk_strvec_push(&dirs, dir);
	lk_provider_index_dirs(ix, &dirs, machine, cache, NULL);
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
	build(&ix, dir, TEST_HOST_MACHINE);
	/* libz.so, libz.so.1 and libz.so.1.2 are one file: indexed once, as libz.so; and libz.a. */
	assert_int_equal(ix.files.nr, 2);
	f = hit0(&ix, "zlibVersion");
	assert_true(f >= 0);
	assert_string_equal(ix.files.items[f].name, "libz.so");
	assert_true(ix.files.items[f].shared);
	assert_int_equal(hit0(&ix, "no_such_symbol_anywhere"), -1);
	lk_provider_index_release(&ix);
	/* Another machine's libraries are no providers. */
	build(&ix, dir, TEST_OTHER_MACHINE);
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
	build(&ix, dir, TEST_HOST_MACHINE);
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
	build(&ix, dir, TEST_HOST_MACHINE);
	assert_int_equal(ix.read, 3);	/* libz.so, libz.a and the script (not a provider, remembered) */
	lk_provider_index_release(&ix);
	build(&ix, dir, TEST_HOST_MACHINE);
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
	build(&ix, dir, TEST_HOST_MACHINE);
	assert_int_equal(ix.read, 1);
	lk_provider_index_release(&ix);
	/* A corrupt cache is ignored, noted and rebuilt: never trusted in part. */
	snprintf(cmd, sizeof(cmd), "for f in %s/cache/*.idx; do head -c 120 \"$f\" > \"$f.t\"; mv \"$f.t\" \"$f\"; done", dir);
	assert_int_equal(system(cmd), 0);
	build(&ix, dir, TEST_HOST_MACHINE);
	assert_int_equal(ix.read, 3);
	assert_int_equal(ix.notes.nr, 1);
	assert_true(hit0(&ix, "zlibVersion") >= 0);
	lk_provider_index_release(&ix);
	snprintf(cmd, sizeof(cmd), "for f in %s/cache/*.idx; do head -c 4000 /dev/urandom > \"$f\"; done", dir);
	assert_int_equal(system(cmd), 0);
	build(&ix, dir, TEST_HOST_MACHINE);
	assert_int_equal(ix.read, 3);
	assert_true(hit0(&ix, "zlibVersion") >= 0);
	lk_provider_index_release(&ix);
	assert_int_equal(stat(dir, &st), 0);
	test_dir_remove(dir);
}

/* The one cache file of `dir`'s index (build()), read whole into `out` (malloc'd); its length. */
static size_t cache_read(const char *dir, char *path, size_t size, char **out)
{
	char pattern[128];
	glob_t g;
	FILE *f;
	long len;

	snprintf(pattern, sizeof(pattern), "%s/cache/dir-*.idx", dir);
	assert_int_equal(glob(pattern, 0, NULL, &g), 0);
	assert_int_equal(g.gl_pathc, 1);
	snprintf(path, size, "%s", g.gl_pathv[0]);
	globfree(&g);
	assert_non_null(f = fopen(path, "rb"));
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	*out = malloc((size_t)len + 1);
	assert_int_equal(fread(*out, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return (size_t)len;
}

static void cache_write(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* Where the names start in a format-2 cache file, and how many bytes and slots it says. */
static size_t names_at(const char *text, size_t len, size_t *bytes, size_t *slots)
{
	const char *line = NULL, *nl;

	for (const char *p = text; p < text + len && (nl = memchr(p, '\n', (size_t)(text + len - p))); p = nl + 1)
		if (!strncmp(p, "names ", 6)) {
			line = p;
			break;
		}
	assert_non_null(line);
	assert_int_equal(sscanf(line, "names %zu %zu", bytes, slots), 2);
	return (size_t)(strchr(line, '\n') + 1 - text);
}

/* A cache file broken in one way: noted as such, every library read again, the same answer. */
static void broken_is_rebuilt(const char *dir, const char *path, const char *data, size_t len, const char *what)
{
	struct lk_provider_index ix;

	cache_write(path, data, len);
	build(&ix, dir, TEST_HOST_MACHINE);
	if (ix.read != 3 || ix.notes.nr != 1 || !strstr(ix.notes.items[0], "does not parse: rebuilt"))
		fail_msg("%s: read %zu, %zu notes (%s)", what, ix.read, ix.notes.nr, ix.notes.nr ? ix.notes.items[0] : "");
	assert_true(hit0(&ix, "zlibVersion") >= 0);
	lk_provider_index_release(&ix);
}

/*
 * The cache's format 2: each file's name count and bytes, the names, and
 * the table over them, which lookups probe in place. Cut, grown, a slot
 * emptied or out of range, names that do not end: it does not parse, and
 * is rebuilt. Format 1 (an older linkscope's) is rebuilt without a note.
 */
static void test_provider_cache_format(void **state)
{
	struct lk_provider_index ix;
	char dir[64], path[256];
	char *orig, *v;
	size_t len, at, bytes, slots, used = 0;
	FILE *f;

	(void)state;
	test_dir_make(dir, sizeof(dir), "lk-prov", FILL);
	build(&ix, dir, TEST_HOST_MACHINE);
	lk_provider_index_release(&ix);
	len = cache_read(dir, path, sizeof(path), &orig);
	assert_memory_equal(orig, "linkscope-provider-index 2\n", 27);
	at = names_at(orig, len, &bytes, &slots);
	assert_int_equal(len, at + bytes + 8 * slots);
	assert_true(slots > 0 && !(slots & (slots - 1)));
	v = malloc(len + 1);
	for (size_t s = 0; s < slots; s++) {
		uint32_t ref;

		memcpy(&ref, orig + at + bytes + 8 * s + 4, 4);
		used += ref != 0;
		if (ref && used == 1) {
			/* the first slot in use, emptied; then pointing past the names */
			memcpy(v, orig, len);
			memset(v + at + bytes + 8 * s + 4, 0, 4);
			broken_is_rebuilt(dir, path, v, len, "a slot emptied");
			memcpy(v, orig, len);
			ref = (uint32_t)bytes + 1;
			memcpy(v + at + bytes + 8 * s + 4, &ref, 4);
			broken_is_rebuilt(dir, path, v, len, "a slot past the names");
		}
	}
	assert_true(used >= 2);	/* zlib's names, in both files */
	broken_is_rebuilt(dir, path, orig, len - 1, "cut by a byte");
	memcpy(v, orig, len);
	v[len] = 'x';
	broken_is_rebuilt(dir, path, v, len + 1, "grown by a byte");
	memcpy(v, orig, len);
	v[at + bytes - 1] = 'x';
	broken_is_rebuilt(dir, path, v, len, "names that do not end");
	/* The same index in format 1, which an older linkscope trusted: rebuilt, no note. */
	assert_non_null(f = fopen(path, "wb"));
	fprintf(f, "linkscope-provider-index 1\ndir %s\n", dir);
	for (const char *p = strchr(orig, '\n') + 1, *n = orig + at; !strncmp(p = strchr(p, '\n') + 1, "f ", 2); ) {
		size_t count, nb;
		const char *e = strchr(p, '\n'), *sp = e;

		for (int k = 0; k < 2; k++)
			while (*--sp != ' ')
				;
		assert_int_equal(sscanf(sp, " %zu %zu", &count, &nb), 2);
		fprintf(f, "%.*s\n", (int)(sp - p), p);
		for (size_t k = 0; k < count; n += strlen(n) + 1, k++)
			fprintf(f, "%s\n", n);
		p = e;
	}
	fclose(f);
	build(&ix, dir, TEST_HOST_MACHINE);
	assert_int_equal(ix.read, 3);
	assert_int_equal(ix.notes.nr, 0);
	lk_provider_index_release(&ix);
	/* Rebuilt: format 2 again, and read from it. */
	build(&ix, dir, TEST_HOST_MACHINE);
	assert_int_equal(ix.read, 0);
	assert_true(hit0(&ix, "compressBound") >= 0);
	lk_provider_index_release(&ix);
	free(v);
	free(orig);
	test_dir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_provider_aliases_and_ranking),
		cmocka_unit_test(test_provider_rank_private_and_tool),
		cmocka_unit_test(test_provider_cache),
		cmocka_unit_test(test_provider_cache_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
