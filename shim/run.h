/* Running the real driver: same argv, live stderr with a bounded copy. */
#ifndef SHIM_RUN_H
#define SHIM_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "linkscope/buf.h"

/* How much of the driver's stderr a record keeps: this much of the start and of the end. */
#define LK_RUN_STDERR_KEEP ((size_t)64 << 10)

struct lk_run {
	int ran;		/* the program was started */
	int spawn_errno;	/* why it was not */
	int exit_status;	/* when it exited */
	int signal;		/* when a signal killed it, else 0 */
	struct lk_buf stderr_text;	/* head, a "[...]" marker when cut, tail */
	uint64_t stderr_bytes;	/* everything it wrote to stderr */
	int stderr_truncated;
};

/*
 * Run `path` with `argv` and `envp`, stdin and stdout inherited. Its stderr
 * goes through a pipe: each chunk is written to our stderr at once, and the
 * first and last `keep` bytes are kept. SIGINT, SIGTERM and SIGHUP sent to
 * the shim (and QUIT, USR1, USR2, ALRM, WINCH, CONT, ...: what a shell
 * forwards) are passed on to the child. Returns 0 once the child has ended
 * (or could not start: see `ran`), -1 only if the pipe could not be made.
 * Release with lk_run_release().
 */
int lk_run(const char *path, char *const argv[], char *const envp[],
	   size_t keep, struct lk_run *res);
void lk_run_release(struct lk_run *res);

/*
 * Die by `sig` as the child did: default action, unblocked, raised, with
 * no core file of the shim's own (RLIMIT_CORE 0). Falls back to
 * _exit(128 + sig) for a signal that does not end a process.
 */
_Noreturn void lk_run_die_like(int sig);

/* The shell's view of the result: the exit status, or 128+signal, or 126/127. */
int lk_run_shell_status(const struct lk_run *res);

#endif
