/* Running the real driver: same argv, live stderr with a bounded copy. */
#ifndef SHIM_RUN_H
#define SHIM_RUN_H

#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <sys/types.h>

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

/* The bounded copy of the child's stderr, as it fills. */
struct lk_run_capture {
	size_t keep;
	struct lk_buf head;
	char *ring;		/* the last `keep` bytes once head is full */
	size_t ring_pos;	/* next write position */
	size_t ring_fill;
	uint64_t total;
	char *chunk;		/* LK_RUN_CHUNK bytes, each read(2)'s; taken while the child runs */
};

/* What one read of the child's stderr takes. */
#define LK_RUN_CHUNK 16384

/* A child being run: between lk_run_start and lk_run_wait. */
struct lk_run_job {
	struct lk_run_capture cap;
	sigset_t old;		/* our signal mask before the start */
	int active;		/* started, not yet waited for */
	int pipe_fd, sfd;	/* the stderr pipe's read end and the signalfd, or -1 */
	int status, child_done, reset_sigpipe;
	int watch_stderr;	/* our stderr is polled for its reader's going (POLLERR) */
	pid_t child;
};

/*
 * Run `path` with `argv` and `envp`, stdin and stdout inherited. Its stderr
 * goes through a pipe: each chunk is written to our stderr, and the first
 * and last `keep` bytes are kept. SIGINT, SIGTERM and SIGHUP sent to the
 * shim (and QUIT, USR1, USR2, ALRM, WINCH, CONT, ...: what a shell
 * forwards) are passed on to the child.
 *
 * In three steps, so that the caller can work while the child runs:
 * lk_run_start spawns it (0, or -1 if the pipe could not be made: then
 * nothing ran and lk_run_wait only returns); lk_run_service, called between
 * pieces of that work, copies what the pipe holds and passes pending
 * signals on, never blocking; lk_run_wait returns once the child has ended
 * (or could not start: see `ran`). The child blocks on a full pipe (64 KiB)
 * at most until the next lk_run_service or lk_run_wait, and no piece of
 * the caller's work waits on the child: it is delayed, never stuck. A
 * signal sent to the shim reaches it as late, for the same reason. Release
 * with lk_run_release().
 */
int lk_run_start(struct lk_run_job *job, const char *path, char *const argv[],
		 char *const envp[], size_t keep, struct lk_run *res);
void lk_run_service(struct lk_run_job *job, const struct lk_run *res);
void lk_run_wait(struct lk_run_job *job, struct lk_run *res);
void lk_run_release(struct lk_run *res);

/*
 * Die by `sig` as the child did: default action, unblocked, raised, with
 * no core file of the shim's own (RLIMIT_CORE 0). Falls back to
 * _exit(128 + sig) for a signal that does not end a process.
 */
_Noreturn void lk_run_die_like(int sig);

/* The shell's view of the result: the exit status, or 128+signal, or 126/127. */
int lk_run_shell_status(const struct lk_run *res);

/*
 * `clock`'s time in nanoseconds (the shim's one clock reader). With `cold`,
 * by a system call rather than the vDSO: for the reads before the spawn,
 * where the vDSO's first call would fault its pages in on the link's
 * critical path (two page faults; on the reference VM each costs ten
 * system calls, docs/bench.md). Later reads find them there.
 */
int64_t lk_run_now_ns(clockid_t clock);
int64_t lk_run_now_ns_cold(clockid_t clock);

#endif
