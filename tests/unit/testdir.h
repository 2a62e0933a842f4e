/*
 * A scratch directory for unit tests: made under /tmp, optionally filled
 * by a shell command run inside it, removed whole afterwards.
 * Include after <cmocka.h>.
 */
#ifndef TESTS_UNIT_TESTDIR_H
#define TESTS_UNIT_TESTDIR_H

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The host's architecture, as the cc that built this test targets (the
 * fills below run that cc), and the other one the tests link for: its
 * cross gcc, which a test that needs it skips without (test_other_cc).
 */
#if defined(__x86_64__)
#define TEST_HOST_MACHINE EM_X86_64
#define TEST_HOST_UNAME "x86_64"
#define TEST_OTHER_MACHINE EM_AARCH64
#define TEST_HOST_MACHINE_NAME "x86-64"
#define TEST_HOST_EMULATION "elf_x86_64"
#define TEST_HOST_MULTIARCH "x86_64-linux-gnu"
#define TEST_OTHER_CC "aarch64-linux-gnu-gcc"
#define TEST_OTHER_MACHINE_NAME "AArch64"
#elif defined(__aarch64__)
#define TEST_HOST_MACHINE EM_AARCH64
#define TEST_HOST_UNAME "aarch64"
#define TEST_OTHER_MACHINE EM_X86_64
#define TEST_HOST_MACHINE_NAME "AArch64"
#define TEST_HOST_EMULATION "aarch64linux"
#define TEST_HOST_MULTIARCH "aarch64-linux-gnu"
#define TEST_OTHER_CC "x86_64-linux-gnu-gcc"
#define TEST_OTHER_MACHINE_NAME "x86-64"
#else
#error "the unit tests know x86_64 and aarch64 hosts"
#endif

/* 1 when the other architecture's cross gcc is installed. */
static inline int test_other_cc(void)
{
	return system("command -v " TEST_OTHER_CC " >/dev/null 2>&1") == 0;
}

/*
 * The machine the kernel runs (`kernel`, char[32]) when it is not the one
 * this test was built for: a user-mode emulator runs us (qemu-user through
 * binfmt_misc, as make check-arm64 does), which fakes uname(2) but not
 * /proc/sys/kernel/arch. 0 on the machine itself or a kernel without it.
 */
static inline int test_emulated(char *kernel, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/arch", "r");
	int emulated = 0;

	if (!f)
		return 0;
	if (fgets(kernel, (int)size, f)) {
		kernel[strcspn(kernel, "\n")] = '\0';
		emulated = *kernel && strcmp(kernel, TEST_HOST_UNAME) != 0;
	}
	fclose(f);
	return emulated;
}

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
