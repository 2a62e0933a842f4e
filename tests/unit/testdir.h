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

/*
 * One scratch directory for a whole group: `static char dir[64]`, the
 * group's setup (made from PREFIX, filled by FILL) and teardown, and
 * at(NAME), the path of NAME inside it (the last call's only).
 */
#define TEST_DIR_GROUP(prefix, fill)						\
	static char dir[64];							\
	static int setup(void **state)						\
	{									\
		(void)state;							\
		test_dir_make(dir, sizeof(dir), prefix, fill);			\
		return 0;							\
	}									\
	static int teardown(void **state)					\
	{									\
		(void)state;							\
		test_dir_remove(dir);						\
		return 0;							\
	}									\
	static const char *at(const char *name)					\
	{									\
		static char path[160];						\
										\
		snprintf(path, sizeof(path), "%s/%s", dir, name);		\
		return path;							\
	}

#endif
