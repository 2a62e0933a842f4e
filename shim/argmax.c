/*
 * Room under the kernel's limit on an exec's argv and environment.
 *
 * Linux (fs/exec.c, bprm_stack_limits) refuses an execve with E2BIG when
 * the argv and envp strings (with their NULs) and one pointer for each
 * add up to more than a quarter of RLIMIT_STACK, at most 3/4 of _STK_LIM
 * (6 MiB) and at least ARG_MAX (32 pages, 128 KiB); the file name is
 * copied beside them. The shim's driver gets a few more bytes than the
 * plain call would (LINKSCOPE_ACTIVE=1, a private TMPDIR, gcc's argv[0] as
 * a path): within them of that limit, the link would fail through the
 * shim and not without it. Not only the driver's own exec: gcc runs
 * collect2 and ld with the same environment and the arguments twice
 * (argv, and again in COLLECT_GCC_OPTIONS). Measured with gcc 12 on
 * x86_64 (docs/security.md): collect2's exec needs 1,941 bytes more than
 * the driver's for a three-word line, 12,593 more with 300 -L words
 * (10,092 bytes of arguments). The headroom kept is twice the arguments
 * and 4 KiB: within it, the shim runs the driver as it is, unrecorded.
 */
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>

#include "linkscope/banned.h"
#include "argmax.h"

#define ARG_MAX_FLOOR ((size_t)32 * 4096)	/* the kernel's ARG_MAX: the limit is never below it */
#define STK_LIM_ARGS ((size_t)8 * 1024 * 1024 / 4 * 3)	/* 3/4 of _STK_LIM */
#define HEADROOM_FIXED ((size_t)4096)

/* The strings of a NULL-terminated array, each with its NUL and its pointer; their bytes alone in *strings. */
static size_t array_size(char *const v[], size_t *strings)
{
	size_t n = 0;

	*strings = 0;
	for (; v && *v; v++, n++)
		*strings += strlen(*v) + 1;
	return *strings + n * sizeof(char *);
}

/* The kernel's limit for this process's children, as bprm_stack_limits computes it. */
static size_t exec_limit(void)
{
	struct rlimit st;
	size_t limit = STK_LIM_ARGS;

	if (getrlimit(RLIMIT_STACK, &st) == 0 && st.rlim_cur != RLIM_INFINITY &&
	    st.rlim_cur / 4 < limit)
		limit = (size_t)(st.rlim_cur / 4);
	return limit < ARG_MAX_FLOOR ? ARG_MAX_FLOOR : limit;
}

int lk_argmax_near(const char *path, char *const argv[], char *const envp[], size_t added,
		   size_t *size, size_t *limit)
{
	size_t arg_strings, env_strings, need;

	*size = strlen(path) + 1 + array_size(argv, &arg_strings) + array_size(envp, &env_strings) +
		added;
	need = *size + 2 * arg_strings + HEADROOM_FIXED;
	/* Under the floor no limit can be near: no system call for the common case. */
	if (need <= ARG_MAX_FLOOR)
		return 0;
	*limit = exec_limit();
	return need > *limit;
}
