/* Room under the kernel's limit on an exec's argv and environment. */
#ifndef SHIM_ARGMAX_H
#define SHIM_ARGMAX_H

#include <stddef.h>

/*
 * Whether running `path` with `argv` and `envp` plus `added` bytes of
 * environment (what the shim sets for the driver: LINKSCOPE_ACTIVE, a
 * private TMPDIR, a reproducer's variable) comes so near the kernel's
 * limit that the driver, or a program it runs with the same environment
 * and its arguments again (gcc's collect2 and ld), could fail with E2BIG
 * where it would not without the shim. Fills `*size` and `*limit` (bytes,
 * as the kernel counts them) when it does.
 */
int lk_argmax_near(const char *path, char *const argv[], char *const envp[], size_t added,
		   size_t *size, size_t *limit);

#endif
