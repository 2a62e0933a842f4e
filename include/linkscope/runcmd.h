/*
 * Running a helper program and reading what it says (after git's
 * run-command.c pipe_command): argv, working directory, environment,
 * stdin from /dev/null, bounded capture of stdout and stderr, a timeout,
 * the exit status or the signal. libc only, so the shim can use it.
 *
 * This is for short helper runs (the driver's -###, -print-prog-name,
 * ld --verbose, a recompile, a verification link), never for the link
 * itself, whose stderr is teed live (shim/run.c).
 */
#ifndef LINKSCOPE_RUNCMD_H
#define LINKSCOPE_RUNCMD_H

#include <stddef.h>

#include "linkscope/buf.h"

struct lk_runcmd {
	const char *path;		/* executed as is: no PATH search */
	const char *const *argv;	/* NULL-terminated; argv[0] as the program sees it */
	const char *cwd;		/* NULL: ours */
	char *const *envp;		/* NULL: our environment */
	struct lk_buf *out;		/* stdout captured here; NULL: /dev/null */
	struct lk_buf *err;		/* stderr captured here; == out: merged; NULL: /dev/null */
	size_t max_bytes;		/* kept of each stream (0: 1 MiB); the rest is read and dropped */
	int timeout_ms;			/* 0: none; when it expires the child gets SIGKILL */
};

struct lk_runcmd_result {
	int started;		/* the program ran; when not, `error` is the errno */
	int error;
	int exit_status;	/* when it exited, else -1 */
	int signal;		/* when a signal ended it, else 0 */
	int timed_out;		/* we killed it at the timeout */
};

/*
 * Run `cmd` to its end (or its timeout). Returns the exit status (0-255),
 * or -1 when it did not start, was killed by a signal or timed out
 * (`res`, which may be NULL, says which). EINTR is retried; SIGPIPE in
 * the child is the default.
 */
int lk_runcmd(const struct lk_runcmd *cmd, struct lk_runcmd_result *res);

#endif
