/*
 * The run: the real driver as a child, its stderr teed.
 *
 * Takes: the resolved driver and its unchanged argv. Gives: the exit status
 * or signal, and a bounded copy of stderr. The child's stdout, stdin and
 * signal dispositions are left as the shim received them; the only
 * difference the child can see is that fd 2 is a pipe, which we document.
 * Signals: those a shell forwards (HUP, INT, QUIT, TERM, USR1, USR2, ALRM,
 * WINCH, CONT, ...) and CHLD are blocked in the shim and read from a
 * signalfd, so there is no handler and no global; the child gets the
 * original mask back through posix_spawn. When the child dies by a signal,
 * the shim dies by the same one (lk_run_die_like) once the record is
 * written, so make says "Segmentation fault", not "Error 139".
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "run.h"

static void capture_add(struct lk_run_capture *c, const char *p, size_t n)
{
	c->total += n;
	if (c->head.len < c->keep) {
		size_t take = c->keep - c->head.len;

		if (take > n)
			take = n;
		lk_buf_add(&c->head, p, take);
		p += take;
		n -= take;
	}
	if (!n)
		return;
	if (!c->ring)
		c->ring = lk_xmalloc(c->keep);
	if (n > c->keep) {
		p += n - c->keep;
		n = c->keep;
	}
	while (n) {
		size_t chunk = c->keep - c->ring_pos;

		if (chunk > n)
			chunk = n;
		memcpy(c->ring + c->ring_pos, p, chunk);
		c->ring_pos = (c->ring_pos + chunk) % c->keep;
		c->ring_fill = c->ring_fill + chunk > c->keep ? c->keep : c->ring_fill + chunk;
		p += chunk;
		n -= chunk;
	}
}

static void capture_finish(struct lk_run_capture *c, struct lk_run *res)
{
	uint64_t cut = c->total - c->head.len - c->ring_fill;

	res->stderr_text = c->head;
	res->stderr_bytes = c->total;
	res->stderr_truncated = cut > 0;
	if (cut)
		lk_buf_addf(&res->stderr_text,
			    "\n[linkscope: %llu bytes of stderr not kept]\n",
			    (unsigned long long)cut);
	if (c->ring_fill) {
		size_t start = c->ring_fill < c->keep ? 0 : c->ring_pos;

		lk_buf_add(&res->stderr_text, c->ring + start, c->ring_fill - start);
		if (start)
			lk_buf_add(&res->stderr_text, c->ring, start);
	}
	free(c->ring);
	free(c->chunk);
}

/* -1 when nobody reads `fd` any more (EPIPE); else 0, the bytes written or not (a closed or full stderr keeps them only in the capture). */
static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 && errno == EPIPE ? -1 : 0;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* PUMP_GONE: our own stderr's reader has gone (the driver's stderr must go with it). */
enum pump_state { PUMP_EOF, PUMP_MORE, PUMP_EMPTY, PUMP_GONE };

/*
 * Move what is available from the pipe to our stderr and the capture. The
 * chunk is not on the stack: a 16 KiB frame's stack probes would fault in
 * fresh stack pages at the pipe's end, after the link, on its critical path.
 */
static enum pump_state pump(int fd, struct lk_run_capture *c)
{
	char *buf = c->chunk;
	ssize_t n = read(fd, buf, LK_RUN_CHUNK);

	if (n < 0 && errno == EINTR)
		return PUMP_MORE;
	if (n < 0 && errno == EAGAIN)
		return PUMP_EMPTY;
	if (n <= 0)
		return PUMP_EOF;
	capture_add(c, buf, (size_t)n);
	return write_all(2, buf, (size_t)n) < 0 ? PUMP_GONE : PUMP_MORE;
}

static int spawn_child(pid_t *pid, const char *path, char *const argv[],
		       char *const envp[], int pipe_w, const sigset_t *mask,
		       int reset_sigpipe)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t def;
	int rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipe_w, 2);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, mask);
	sigemptyset(&def);
	if (reset_sigpipe)
		sigaddset(&def, SIGPIPE);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawn(pid, path, &fa, &attr, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	return rc;
}

/*
 * What a shell passes to its foreground job when it is sent to the shell
 * alone (kill PID): termination and user signals, and the job-control and
 * terminal notices the driver may act on. Not forwarded: SIGCHLD (ours),
 * SIGPIPE (ignored in the shim), SIGTSTP/SIGTTIN/SIGTTOU (the terminal
 * sends them to the whole process group: the shim stops with its child),
 * and the synchronous faults (SIGSEGV, ...), which are the shim's own.
 */
static const int forwarded[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGWINCH, SIGCONT,
	SIGURG, SIGVTALRM, SIGPROF, SIGXCPU, SIGPWR,
};

static void forward_signal(int sfd, pid_t child, int *child_done, int *status)
{
	struct signalfd_siginfo si;

	while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			if (!*child_done && waitpid(child, status, WNOHANG) == child)
				*child_done = 1;
		} else if (!*child_done) {
			kill(child, (int)si.ssi_signo);
		}
	}
}

int lk_run_start(struct lk_run_job *job, const char *path, char *const argv[],
		 char *const envp[], size_t keep, struct lk_run *res)
{
	sigset_t watched;
	struct sigaction sp;
	int fds[2];

	memset(job, 0, sizeof(*job));
	job->cap.keep = keep;
	lk_buf_init(&job->cap.head);
	job->sfd = job->pipe_fd = -1;
	memset(res, 0, sizeof(*res));
	lk_buf_init(&res->stderr_text);
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	job->active = 1;

	sigemptyset(&watched);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(*forwarded); i++)
		sigaddset(&watched, forwarded[i]);
	sigaddset(&watched, SIGCHLD);
	sigprocmask(SIG_BLOCK, &watched, &job->old);
	job->sfd = signalfd(-1, &watched, SFD_CLOEXEC | SFD_NONBLOCK);

	/* Writing to a closed stderr must not kill the shim; the child keeps SIGPIPE as it was. */
	sigaction(SIGPIPE, NULL, &sp);
	job->reset_sigpipe = sp.sa_handler == SIG_DFL;
	if (job->reset_sigpipe)
		signal(SIGPIPE, SIG_IGN);

	res->spawn_errno = spawn_child(&job->child, path, argv, envp, fds[1], &job->old,
				       job->reset_sigpipe);
	close(fds[1]);
	if (res->spawn_errno) {
		close(fds[0]);
	} else {
		res->ran = 1;
		job->pipe_fd = fds[0];
		/* Started with no stderr, the pipe may be fd 2 itself: then there is no stderr of ours to watch. */
		job->watch_stderr = fds[0] != 2 && fds[1] != 2;
	}
	/* After the spawn: its page faults, if any, fall while the child runs. */
	job->cap.chunk = lk_xmalloc(LK_RUN_CHUNK);
	return 0;
}

/*
 * Our stderr's reader has gone (`make 2>&1 | head -c1`): the driver's
 * stderr goes too, so that its next write there kills it by SIGPIPE as it
 * would have without us (or fails with EPIPE, if it ignores SIGPIPE). What
 * it would have written after that is not in the record: it never existed.
 */
static void stderr_gone(struct lk_run_job *job)
{
	if (job->pipe_fd >= 0)
		close(job->pipe_fd);
	job->pipe_fd = -1;
	job->watch_stderr = 0;
}

/*
 * One round: copy what the child wrote, pass signals on; `timeout_ms` as
 * poll's. Our own stderr is watched for POLLERR only (a pipe or socket
 * whose reader has gone), so that the driver's stderr closes as soon as
 * ours does, not at our next write; a file or terminal never reports it
 * (a terminal's hangup is POLLHUP, and the driver would get EIO, not
 * SIGPIPE). POLLNVAL: we were started with no stderr.
 */
static int service_once(struct lk_run_job *job, int timeout_ms)
{
	struct pollfd pfd[3] = {
		{ job->sfd, POLLIN, 0 },
		{ job->pipe_fd, POLLIN, 0 },
		{ job->watch_stderr ? 2 : -1, 0, 0 },
	};
	int n = poll(pfd, 3, timeout_ms);
	enum pump_state got = PUMP_EMPTY;

	if (n < 0)
		return errno == EINTR ? 0 : -1;
	if (pfd[1].revents)
		got = pump(job->pipe_fd, &job->cap);
	if (got == PUMP_EOF) {
		close(job->pipe_fd);
		job->pipe_fd = -1;
	}
	if (got == PUMP_GONE || (pfd[2].revents & POLLERR))
		stderr_gone(job);
	else if (pfd[2].revents & POLLNVAL)
		job->watch_stderr = 0;
	if (pfd[0].revents)
		forward_signal(job->sfd, job->child, &job->child_done, &job->status);
	return n;
}

void lk_run_service(struct lk_run_job *job, const struct lk_run *res)
{
	/* Never blocks: each readable pipe chunk or signal is handled, then we go back to work. */
	while (res->ran && job->active && !job->child_done && job->sfd >= 0 &&
	       service_once(job, 0) > 0)
		;
}

/*
 * The end of the pipe comes a few microseconds before the child's exit can
 * be reaped (an exiting process closes its files first). Asked for in that
 * gap, for at most REAP_SPIN_NS, the exit costs less than a second sleep
 * and wakeup: on the reference VM, whose idle vCPUs are slow to wake, that
 * was 25 us to half a millisecond (docs/bench.md, bench/segments.c). A
 * child that closes its stderr and goes on running costs that spin once.
 */
#define REAP_SPIN_NS 50000

int64_t lk_run_now_ns(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int64_t lk_run_now_ns_cold(clockid_t clock)
{
	struct timespec t;

	if (syscall(SYS_clock_gettime, clock, &t) < 0)
		return lk_run_now_ns(clock);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void reap_soon(struct lk_run_job *job)
{
	int64_t until = lk_run_now_ns(CLOCK_MONOTONIC) + REAP_SPIN_NS;

	do {
		if (waitpid(job->child, &job->status, WNOHANG) == job->child)
			job->child_done = 1;
	} while (!job->child_done && lk_run_now_ns(CLOCK_MONOTONIC) < until);
}

void lk_run_wait(struct lk_run_job *job, struct lk_run *res)
{
	if (!job->active)
		return;
	/*
	 * Until the child has ended: copy its stderr and pass signals on. With
	 * no signalfd (it can fail), fall back to reading to EOF and waiting.
	 */
	while (res->ran && !job->child_done && job->sfd >= 0) {
		int had_pipe = job->pipe_fd >= 0;

		if (service_once(job, -1) < 0)
			break;
		if (had_pipe && job->pipe_fd < 0 && !job->child_done)
			reap_soon(job);
	}
	if (res->ran) {
		/* What the child wrote before it ended; a grandchild may hold the pipe open. */
		if (job->child_done && job->pipe_fd >= 0)
			fcntl(job->pipe_fd, F_SETFL, O_NONBLOCK);
		enum pump_state got = PUMP_MORE;

		while (job->pipe_fd >= 0 && (got = pump(job->pipe_fd, &job->cap)) == PUMP_MORE)
			;
		if (got == PUMP_GONE)
			stderr_gone(job);
		if (job->pipe_fd >= 0)
			close(job->pipe_fd);
		while (!job->child_done) {
			if (waitpid(job->child, &job->status, 0) == job->child)
				job->child_done = 1;
			else if (errno != EINTR)
				break;
		}
		if (WIFEXITED(job->status))
			res->exit_status = WEXITSTATUS(job->status);
		else if (WIFSIGNALED(job->status))
			res->signal = WTERMSIG(job->status);
	}
	if (job->sfd >= 0)
		close(job->sfd);
	/*
	 * SIGPIPE stays ignored in the shim until it ends: its own messages
	 * after the link (a warning, LINKSCOPE_REPORT's explanation) to a
	 * stderr nobody reads must not turn the driver's status into ours.
	 * lk_run_die_like restores it to die as the driver did.
	 */
	sigprocmask(SIG_SETMASK, &job->old, NULL);
	capture_finish(&job->cap, res);
	job->active = 0;
}

void lk_run_release(struct lk_run *res)
{
	lk_buf_release(&res->stderr_text);
}

_Noreturn void lk_run_die_like(int sig)
{
	struct sigaction dfl;
	struct rlimit none = { 0, 0 };
	sigset_t set;

	fflush(NULL);
	/* The driver's core, if any, is the one that matters: the shim leaves none of its own. */
	setrlimit(RLIMIT_CORE, &none);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	/* A signal whose default is to ignore (none ends a process by itself): as a shell reports it. */
	_exit(128 + sig);
}

int lk_run_shell_status(const struct lk_run *res)
{
	if (!res->ran)
		return res->spawn_errno == ENOENT ? 127 : 126;
	if (res->signal)
		return 128 + res->signal;
	return res->exit_status;
}
