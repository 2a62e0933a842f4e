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
#include <sys/types.h>

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
	int out_to_err;			/* with out and err NULL: both streams are our stderr (for the user) */
	/*
	 * NULL: the child is posix_spawn'd. Else it is forked into a session
	 * of its own (no controlling terminal; a timeout kills its whole
	 * process group) and, once its fds and cwd are set, runs
	 * in_child(in_child_arg) before exec: the analyzer's sandbox
	 * (analyzer/model/sandbox.h). A nonzero return, an errno, fails the start
	 * with that error. It runs in the child: it may only make system calls.
	 */
	int (*in_child)(void *arg);
	void *in_child_arg;
	/*
	 * What the program says depends on nothing but itself and argv (a
	 * linker's --verbose): lk_runcmd runs it once per process and gives
	 * the kept answer again while the program is the same file, so the
	 * analyses of one report --failed worker do not each spawn it, nor
	 * (lk_runcmd_keep_in) the next process. Only with cwd, envp and
	 * in_child NULL and out_to_err 0.
	 */
	int keep;
};

struct lk_runcmd_result {
	int started;		/* the program ran; when not, `error` is the errno */
	int error;
	int exit_status;	/* when it exited, else -1 */
	int signal;		/* when a signal ended it, else 0 */
	int timed_out;		/* we killed it at the timeout */
};

/* A started command (lk_runcmd_start), collected by lk_runcmd_finish. */
struct lk_runcmd_job {
	const struct lk_runcmd *cmd;	/* kept until finished */
	int pid;			/* -1: nothing started */
	int own_group;			/* the child leads a process group of its own (in_child) */
	int out, err;			/* read ends, -1 when closed */
	int error;			/* the errno when it did not start */
};

/*
 * Start `cmd` in the background (git's start_command): returns 0, or -1
 * when it did not start (job->error says why; finishing it is harmless).
 * Nothing is read until lk_runcmd_finish, so a child that prints more than
 * a pipe holds waits for it.
 */
int lk_runcmd_start(const struct lk_runcmd *cmd, struct lk_runcmd_job *job);

/*
 * Read a started command's output and wait for its end: cmd->timeout_ms
 * counts from this call, so work done between start and finish (a link
 * beside which the command ran) does not use it up. Returns as lk_runcmd.
 */
int lk_runcmd_finish(struct lk_runcmd_job *job, struct lk_runcmd_result *res);

/*
 * Run `cmd` to its end (or its timeout). Returns the exit status (0-255),
 * or -1 when it did not start, was killed by a signal or timed out
 * (`res`, which may be NULL, says which). EINTR is retried; SIGPIPE in
 * the child is the default.
 */
int lk_runcmd(const struct lk_runcmd *cmd, struct lk_runcmd_result *res);

/*
 * Wait for the child `pid` to end, EINTR retried: the one wait for every
 * child we make (a command's, a pool worker's, a trial's); its status into
 * `status` unless NULL.
 */
void lk_runcmd_reap(pid_t pid, int *status);

/*
 * Keep lk_runcmd.keep's answers in `dir` too (a private dir the caller
 * checked: the analyzer's cache), for the next process: a file per
 * program (its path, argv, and which file it is: device, inode, size,
 * mtime) and answer, 0600. NULL: in this process only.
 */
void lk_runcmd_keep_in(const char *dir);

/*
 * The directory temporary files go in, the one place that names it:
 * $TMPDIR when it is an absolute path, else /tmp (a relative TMPDIR would
 * follow the cwd; an empty one is unset).
 */
const char *lk_temp_dir(void);

/*
 * A new private (0700) directory for a helper's files: lk_temp_dir()'s
 * PREFIX-XXXXXX, malloc'd; NULL with errno on failure.
 */
char *lk_scratch_dir(const char *prefix);

/* Remove `dir` and everything in it, following no symbolic link. */
void lk_scratch_remove(const char *dir);

#endif
