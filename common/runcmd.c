/*
 * Running a helper program: one way for the shim's extra driver runs and
 * the analyzer's (see runcmd.h). Modelled on git's pipe_command: both
 * pipes read in one poll loop so neither can fill and block the child, a
 * bound on what is kept so a chatty child cannot exhaust memory, and a
 * deadline after which the child is killed, so a hung helper never hangs
 * the caller (a build, or an analysis).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <stdlib.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/err.h"
#include "linkscope/file.h"
#include "linkscope/runcmd.h"
#include "linkscope/sha256.h"
#include "linkscope/vec.h"

extern char **environ;

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Milliseconds left before `deadline` (0: none), as poll() takes them. */
static int left_ms(int64_t deadline)
{
	int64_t left;

	if (!deadline)
		return -1;
	left = deadline - now_ms();
	return left < 0 ? 0 : left > INT32_MAX ? INT32_MAX : (int)left;
}

/* Read what is there: 0 more may come, 1 at EOF. */
static int drain(int fd, struct lk_buf *into, size_t max)
{
	char buf[8192];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : 1;
	if (n == 0)
		return 1;
	if (into && into->len < max)
		lk_buf_add(into, buf, (size_t)n > max - into->len ? max - into->len : (size_t)n);
	return 0;
}

static int spawn(const struct lk_runcmd *cmd, int out_w, int err_w, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, def;
	int rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (out_w >= 0)
		posix_spawn_file_actions_adddup2(&fa, out_w, 1);
	else if (cmd->out_to_err)
		posix_spawn_file_actions_adddup2(&fa, 2, 1);
	else
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	if (err_w >= 0)
		posix_spawn_file_actions_adddup2(&fa, err_w, 2);
	else if (!cmd->out_to_err)
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (cmd->cwd)
		posix_spawn_file_actions_addchdir_np(&fa, cmd->cwd);
	/* A helper starts with no blocked signals and SIGPIPE at its default. */
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawn(pid, cmd->path, &fa, &attr, (char *const *)cmd->argv,
			 cmd->envp ? cmd->envp : environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

/* `path` opened on `fd` (which must be free or is replaced): 0 or an errno. */
static int open_on(int fd, const char *path, int flags)
{
	int got = open(path, flags);

	if (got < 0)
		return errno;
	if (got != fd && (dup2(got, fd) < 0 || close(got) < 0))
		return errno;
	return 0;
}

/* stdout or stderr (`fd`) of a forked child: the pipe `w`, else as spawn() sets it; 0 or an errno. */
static int child_stream(const struct lk_runcmd *cmd, int fd, int w)
{
	if (w >= 0)
		return dup2(w, fd) < 0 ? errno : 0;
	if (!cmd->out_to_err)
		return open_on(fd, "/dev/null", O_WRONLY);
	/* Both streams are our stderr: stdout is made a copy of it, stderr stays. */
	return fd == 1 && dup2(2, 1) < 0 ? errno : 0;
}

/* In a forked child: what spawn() asks posix_spawn for, in the same order, then in_child; 0 or an errno. */
static int child_setup(const struct lk_runcmd *cmd, int out_w, int err_w)
{
	sigset_t none;
	int e;

	sigemptyset(&none);
	if (sigprocmask(SIG_SETMASK, &none, NULL) < 0 || signal(SIGPIPE, SIG_DFL) == SIG_ERR)
		return errno;
	if ((e = open_on(0, "/dev/null", O_RDONLY)) || (e = child_stream(cmd, 1, out_w)) ||
	    (e = child_stream(cmd, 2, err_w)))
		return e;
	if (cmd->cwd && chdir(cmd->cwd) < 0)
		return errno;
	/* A session of its own: no controlling terminal, and one group to kill at the timeout. */
	if (setsid() < 0)
		return errno;
	return cmd->in_child(cmd->in_child_arg);
}

/* Wait for the child until `deadline`; 1 when it has ended (status set), 0 at the deadline. */
static int reap(pid_t pid, int64_t deadline, int *status)
{
	for (;;) {
		pid_t r = waitpid(pid, status, deadline ? WNOHANG : 0);

		if (r == pid)
			return 1;
		if (r < 0 && errno != EINTR)
			return 1;
		if (r == 0) {
			if (!left_ms(deadline))
				return 0;
			poll(NULL, 0, left_ms(deadline) < 5 ? left_ms(deadline) : 5);
		}
	}
}

void lk_runcmd_reap(pid_t pid, int *status)
{
	reap(pid, 0, status);
}

/*
 * fork, child_setup, cmd->in_child, exec: 0, or the errno of the step
 * that failed, passed back through a close-on-exec pipe as posix_spawn
 * does (EOF: it exec'd).
 */
static int fork_exec(const struct lk_runcmd *cmd, int out_w, int err_w, pid_t *pid)
{
	int status[2], e = 0;
	ssize_t n;

	if (pipe2(status, O_CLOEXEC) < 0)
		return errno;
	if ((*pid = fork()) < 0) {
		e = errno;
		close(status[0]);
		close(status[1]);
		return e;
	}
	if (*pid == 0) {
		close(status[0]);
		if (!(e = child_setup(cmd, out_w, err_w))) {
			execve(cmd->path, (char *const *)cmd->argv, cmd->envp ? cmd->envp : environ);
			e = errno;
		}
		if (write(status[1], &e, sizeof(e)) < 0)
			_exit(126);
		_exit(127);
	}
	close(status[1]);
	do
		n = read(status[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(status[0]);
	if (n != (ssize_t)sizeof(e))
		return 0;
	lk_runcmd_reap(*pid, NULL);
	return e;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int lk_runcmd_start(const struct lk_runcmd *cmd, struct lk_runcmd_job *job)
{
	int out[2] = { -1, -1 }, err[2] = { -1, -1 }, rc;
	int merged = cmd->err && cmd->err == cmd->out;
	pid_t pid;

	memset(job, 0, sizeof(*job));
	job->cmd = cmd;
	job->pid = job->out = job->err = -1;
	if ((cmd->out && pipe2(out, O_CLOEXEC) < 0) ||
	    (cmd->err && !merged && pipe2(err, O_CLOEXEC) < 0)) {
		job->error = errno;
		for (int i = 0; i < 2; i++) {
			close_fd(&out[i]);
			close_fd(&err[i]);
		}
		return -1;
	}
	rc = (cmd->in_child ? fork_exec : spawn)(cmd, out[1], merged ? out[1] : err[1], &pid);
	close_fd(&out[1]);
	close_fd(&err[1]);
	if (rc) {
		job->error = rc;
		close_fd(&out[0]);
		close_fd(&err[0]);
		return -1;
	}
	job->pid = pid;
	job->own_group = cmd->in_child != NULL;
	job->out = out[0];
	job->err = err[0];
	return 0;
}

int lk_runcmd_finish(struct lk_runcmd_job *job, struct lk_runcmd_result *res)
{
	const struct lk_runcmd *cmd = job->cmd;
	struct lk_runcmd_result local;
	size_t max = cmd->max_bytes ? cmd->max_bytes : (size_t)1 << 20;
	int64_t deadline = cmd->timeout_ms > 0 ? now_ms() + cmd->timeout_ms : 0;
	int status = 0;

	if (!res)
		res = &local;
	memset(res, 0, sizeof(*res));
	res->exit_status = -1;
	if (job->pid < 0) {
		res->error = job->error;
		return -1;
	}
	res->started = 1;
	while (job->out >= 0 || job->err >= 0) {
		struct pollfd pfd[2] = { { job->out, POLLIN, 0 }, { job->err, POLLIN, 0 } };
		int n = poll(pfd, 2, left_ms(deadline));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			res->timed_out = n == 0;
			break;
		}
		if (pfd[0].revents && drain(job->out, cmd->out, max))
			close_fd(&job->out);
		if (pfd[1].revents && drain(job->err, cmd->err, max))
			close_fd(&job->err);
	}
	if (!res->timed_out && !reap(job->pid, deadline, &status))
		res->timed_out = 1;
	if (res->timed_out) {
		/*
		 * A grandchild may still hold the pipes: they are closed below,
		 * whatever it does; in a group of the child's own, it goes too.
		 */
		kill(job->own_group ? -job->pid : job->pid, SIGKILL);
		reap(job->pid, 0, &status);
	}
	close_fd(&job->out);
	close_fd(&job->err);
	job->pid = -1;
	if (res->timed_out)
		return -1;
	if (WIFSIGNALED(status)) {
		res->signal = WTERMSIG(status);
		return -1;
	}
	res->exit_status = WEXITSTATUS(status);
	return res->exit_status;
}

/* An answer kept for lk_runcmd.keep: the program (which file it was), argv, and what it said. */
struct kept_answer {
	struct lk_buf key;	/* the path and each argv word, NUL-terminated */
	struct statx id;
	int rc;
	struct lk_runcmd_result res;
	struct lk_buf out, err;
	struct kept_answer *next;
};

static struct kept_answer *kept;

/*
 * statx, not stat: the analyzer wraps stat to take its read set, which
 * notes the program already (as a program run, for the kept answer too).
 */
static int program_id(const char *path, struct statx *id)
{
	return statx(AT_FDCWD, path, 0, STATX_INO | STATX_SIZE | STATX_MTIME, id);
}

static int same_file(const struct statx *a, const struct statx *b)
{
	return a->stx_dev_major == b->stx_dev_major && a->stx_dev_minor == b->stx_dev_minor && a->stx_ino == b->stx_ino &&
	       a->stx_size == b->stx_size && a->stx_mtime.tv_sec == b->stx_mtime.tv_sec &&
	       a->stx_mtime.tv_nsec == b->stx_mtime.tv_nsec;
}

static void kept_key(const struct lk_runcmd *cmd, struct lk_buf *key)
{
	lk_buf_add(key, cmd->path, strlen(cmd->path) + 1);
	for (size_t i = 0; cmd->argv[i]; i++)
		lk_buf_add(key, cmd->argv[i], strlen(cmd->argv[i]) + 1);
}

/* `len` bytes at `from` onto `b`, if any (an empty buffer has no bytes to point at). */
static void add_bytes(struct lk_buf *b, const char *from, size_t len)
{
	if (b && len)
		lk_buf_add(b, from, len);
}

static void give_kept(const struct lk_runcmd *cmd, const struct kept_answer *k, struct lk_runcmd_result *res)
{
	add_bytes(cmd->out, k->out.buf, k->out.len);
	if (cmd->err != cmd->out)
		add_bytes(cmd->err, k->err.buf, k->err.len);
	if (res)
		*res = k->res;
}

/*
 * Kept answers on disk (lk_runcmd_keep_in): one file per answer, named by
 * the SHA-256 of the key and the program's identity, so a program changed
 * (or a symlink turned to another) is a new name and the old answer is
 * never read again. A header line, then the two streams' bytes.
 */
static char *keep_dir;

void lk_runcmd_keep_in(const char *dir)
{
	free(keep_dir);
	keep_dir = dir ? lk_xstrdup(dir) : NULL;
}

#define KEPT_MAGIC "linkscope-kept-answer 1"

static void kept_file(const struct lk_buf *key, const struct statx *id, struct lk_buf *path)
{
	struct lk_sha256 h;
	char hex[65];
	char idtext[128];

	snprintf(idtext, sizeof(idtext), "%u:%u:%llu:%llu:%lld.%u", id->stx_dev_major, id->stx_dev_minor,
		 (unsigned long long)id->stx_ino, (unsigned long long)id->stx_size, (long long)id->stx_mtime.tv_sec,
		 id->stx_mtime.tv_nsec);
	lk_sha256_init(&h);
	lk_sha256_update(&h, KEPT_MAGIC, sizeof(KEPT_MAGIC));
	lk_sha256_update(&h, key->buf, key->len);
	lk_sha256_update(&h, idtext, strlen(idtext));
	lk_sha256_final_hex(&h, hex);
	lk_buf_addf(path, "%s/%s", keep_dir, hex);
}

/* The answer kept in `path` into `k` (rc, res, out, err): 0, or -1 when there is none or it is not whole. */
static int kept_load(const char *path, struct kept_answer *k)
{
	struct lk_buf b = LK_BUF_INIT;
	unsigned long long outlen, errlen;
	size_t left;
	int n = 0, rc = -1;
	const char *nl;

	if (lk_buf_read_file(&b, path, (size_t)64 << 20) < 0)
		return -1;
	nl = memchr(b.buf, '\n', b.len);
	if (!nl || (size_t)(nl - b.buf) != strlen(KEPT_MAGIC) || memcmp(b.buf, KEPT_MAGIC, strlen(KEPT_MAGIC)) ||
	    sscanf(nl + 1, "%d %d %llu %llu\n%n", &k->rc, &k->res.exit_status, &outlen, &errlen, &n) != 4 || n <= 0)
		goto out;
	/* Each length against the bytes left, never their sum (it can wrap to the file's size). */
	left = b.len - (size_t)(nl + 1 - b.buf) - (size_t)n;
	if (outlen <= left && errlen == left - outlen) {
		const char *data = nl + 1 + n;

		k->res.started = 1;
		lk_buf_add(&k->out, data, (size_t)outlen);
		lk_buf_add(&k->err, data + outlen, (size_t)errlen);
		rc = 0;
	}
out:
	lk_buf_release(&b);
	return rc;
}

/* `k` written as `path`, atomically and private; a failure only loses the answer for the next process. */
static void kept_save(const char *path, const struct kept_answer *k)
{
	struct lk_buf b = LK_BUF_INIT, tmp = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;

	lk_buf_addf(&b, "%s\n%d %d %zu %zu\n", KEPT_MAGIC, k->rc, k->res.exit_status, k->out.len, k->err.len);
	if (k->out.len)
		lk_buf_add(&b, k->out.buf, k->out.len);
	if (k->err.len)
		lk_buf_add(&b, k->err.buf, k->err.len);
	lk_buf_addf(&tmp, "%s.%ld.tmp", path, (long)getpid());
	lk_file_write_new(tmp.buf, path, b.buf, b.len, &err);
	lk_buf_release(&tmp);
	lk_buf_release(&b);
}

/* The kept answer of `key` for the program `id`: in this process, else on disk (then kept here too); or NULL. */
static struct kept_answer *kept_find(const struct lk_buf *key, const struct statx *id)
{
	struct lk_buf path = LK_BUF_INIT;
	struct kept_answer *k;

	for (k = kept; k; k = k->next)
		if (k->key.len == key->len && !memcmp(k->key.buf, key->buf, key->len) && same_file(&k->id, id))
			return k;
	if (!keep_dir)
		return NULL;
	kept_file(key, id, &path);
	k = lk_xcalloc(1, sizeof(*k));
	if (kept_load(path.buf, k) < 0) {
		lk_buf_release(&k->out);
		lk_buf_release(&k->err);
		free(k);
		k = NULL;
	} else {
		lk_buf_add(&k->key, key->buf, key->len);
		k->id = *id;
		k->next = kept;
		kept = k;
	}
	lk_buf_release(&path);
	return k;
}

int lk_runcmd(const struct lk_runcmd *cmd, struct lk_runcmd_result *res)
{
	struct lk_runcmd_job job;
	struct lk_runcmd_result local;
	struct lk_buf key = LK_BUF_INIT;
	struct kept_answer *k;
	struct statx id;
	size_t out_at = cmd->out ? cmd->out->len : 0, err_at = cmd->err ? cmd->err->len : 0;
	int rc, keep = cmd->keep && !cmd->cwd && !cmd->envp && !cmd->in_child && !cmd->out_to_err &&
		      program_id(cmd->path, &id) == 0;

	if (keep) {
		kept_key(cmd, &key);
		if ((k = kept_find(&key, &id))) {
			lk_buf_release(&key);
			give_kept(cmd, k, res);
			return k->rc;
		}
	}
	lk_runcmd_start(cmd, &job);
	rc = lk_runcmd_finish(&job, res ? res : &local);
	if (!res)
		res = &local;
	/* A run cut short (a timeout on a loaded machine, a signal) is not the program's answer. */
	if (!keep || !res->started || res->timed_out || res->signal) {
		lk_buf_release(&key);
		return rc;
	}
	k = lk_xcalloc(1, sizeof(*k));
	k->key = key;
	k->id = id;
	k->rc = rc;
	k->res = *res;
	if (cmd->out && cmd->out->len > out_at)
		lk_buf_add(&k->out, cmd->out->buf + out_at, cmd->out->len - out_at);
	if (cmd->err && cmd->err != cmd->out && cmd->err->len > err_at)
		lk_buf_add(&k->err, cmd->err->buf + err_at, cmd->err->len - err_at);
	k->next = kept;
	kept = k;
	if (keep_dir) {
		struct lk_buf path = LK_BUF_INIT;

		kept_file(&k->key, &id, &path);
		kept_save(path.buf, k);
		lk_buf_release(&path);
	}
	return rc;
}

const char *lk_temp_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp == '/' ? tmp : "/tmp";
}

char *lk_scratch_dir(const char *prefix)
{
	struct lk_buf dir = LK_BUF_INIT;

	lk_buf_addf(&dir, "%s/%s-XXXXXX", lk_temp_dir(), prefix);
	if (!mkdtemp(dir.buf)) {
		int saved = errno;

		lk_buf_release(&dir);
		errno = saved;
		return NULL;
	}
	return lk_buf_detach(&dir);
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	remove(path);
	return 0;
}

void lk_scratch_remove(const char *dir)
{
	/* Depth first, so a dir is empty when its turn comes; FTW_PHYS: a link is removed, not followed. */
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
