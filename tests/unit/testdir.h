/*
 * A scratch directory for unit tests: made under /tmp, optionally filled
 * by a shell command run inside it, removed whole afterwards.
 * Include after <cmocka.h>.
 */
#ifndef TESTS_UNIT_TESTDIR_H
#define TESTS_UNIT_TESTDIR_H

#include <stdio.h>
#include <stdlib.h>

/* Make `dir` (char[64]) from `prefix`, then run `fill` (may be NULL) inside it. */
static inline void test_dir_make(char *dir, size_t size, const char *prefix, const char *fill)
{
	char cmd[4096];

	snprintf(dir, size, "/tmp/%s-XXXXXX", prefix);
	assert_non_null(mkdtemp(dir));
	if (fill) {
		/* A fill command cut short would fail in ways hard to read. */
		assert_true((size_t)snprintf(cmd, sizeof(cmd), "cd '%s' && %s", dir, fill) < sizeof(cmd));
		assert_int_equal(system(cmd), 0);
	}
}

static inline void test_dir_remove(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

#endif
