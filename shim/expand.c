/*
 * The driver's expansion of a link (gcc -###): the collect2/ld command line
 * with crt files, default -L dirs, the plugin and the sysroot that the
 * driver adds, and its answer to -print-prog-name=ld. With them a record
 * can be replayed without running anything at analysis time, in whatever
 * environment (LIBRARY_PATH, COMPILER_PATH, GCC_EXEC_PREFIX, a wrapper that
 * picks its compiler from a variable) the link itself had.
 *
 * Both queries are started beside the link and collected after it: they
 * are a driver start-up each (no cc1, no ld), so on two cores they mostly
 * hide behind the link's own time (figures in docs/bench.md).
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "expand.h"
#include "linkscope/expansion.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"

/* Start argv with stdout+stderr into a pipe; the child's pid, or -1. */
static pid_t start_capture(const char *path, char *const argv[], char *const envp[], int *fd)
{
	posix_spawn_file_actions_t fa;
	int fds[2], rc;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	rc = posix_spawn(&pid, path, &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		return -1;
	}
	*fd = fds[0];
	return pid;
}

/* Read what a started child prints (at most 4 MiB kept) and reap it; its exit status. */
static int finish_capture(pid_t pid, int fd, struct lk_buf *out)
{
	char buf[8192];
	ssize_t n;
	int status = 0;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0)
			break;
		if (out->len < ((size_t)4 << 20))
			lk_buf_add(out, buf, (size_t)n);
	}
	close(fd);
	while (waitpid(pid, &status, 0) < 0)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* `word` at `at` in `base`, as a whole dash-separated word ("x86_64-linux-gnu-gcc-12"). */
static int whole_word(const char *base, const char *at, const char *word)
{
	char after = at[strlen(word)];

	return (at == base || at[-1] == '-') && (after == '\0' || after == '-');
}

/* gcc, g++, cc, c++, clang, clang++, with a target prefix or a version suffix. */
static int known_name(const char *path)
{
	static const char *const names[] = { "gcc", "g++", "cc", "c++", "clang", "clang++", NULL };
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	for (const char *const *n = names; *n; n++)
		for (const char *at = strstr(base, *n); at; at = strstr(at + 1, *n))
			if (whole_word(base, at, *n))
				return 1;
	return 0;
}

int lk_expand_knows_hash3(const char *driver, const char *driver_real)
{
	return known_name(driver) || (driver_real && known_name(driver_real));
}

int lk_expand_start(const char *driver, char *const argv[], char *const envp[],
		    const char *fuse_ld, struct lk_expand_job *job)
{
	struct lk_strvec cmd = LK_STRVEC_INIT;
	struct lk_buf opt = LK_BUF_INIT;
	char *pargv[3];

	memset(job, 0, sizeof(*job));
	job->prog_pid = -1;
	lk_strvec_push(&cmd, argv[0]);
	lk_strvec_push(&cmd, "-###");
	for (size_t i = 1; argv[i]; i++)
		lk_strvec_push(&cmd, argv[i]);
	job->pid = start_capture(driver, cmd.items, envp, &job->fd);
	lk_strvec_release(&cmd);
	if (job->pid < 0)
		return -1;
	lk_buf_addstr(&opt, "-print-prog-name=ld");
	/* -fuse-ld=/path or --ld-path: the driver has nothing to add. */
	if (fuse_ld && !strchr(fuse_ld, '/'))
		lk_buf_addf(&opt, ".%s", fuse_ld);
	pargv[0] = (char *)driver;
	pargv[1] = opt.buf;
	pargv[2] = NULL;
	job->prog_pid = start_capture(driver, pargv, envp, &job->prog_fd);
	lk_buf_release(&opt);
	return 0;
}

void lk_expand_finish(struct lk_expand_job *job, struct lk_rec_expansion *exp)
{
	struct lk_buf out = LK_BUF_INIT, prog = LK_BUF_INIT;

	exp->done = 1;
	exp->exit_status = finish_capture(job->pid, job->fd, &out);
	lk_expansion_parse(out.buf, exp);
	lk_buf_release(&out);
	if (job->prog_pid < 0)
		return;
	if (finish_capture(job->prog_pid, job->prog_fd, &prog) != 0) {
		lk_buf_release(&prog);
		return;
	}
	while (prog.len && (prog.buf[prog.len - 1] == '\n' || prog.buf[prog.len - 1] == '\r'))
		prog.buf[--prog.len] = '\0';
	exp->linker_program = lk_buf_detach(&prog);
}

int lk_expand_run(const char *driver, char *const argv[], char *const envp[],
		  const char *fuse_ld, struct lk_rec_expansion *exp)
{
	struct lk_expand_job job;

	if (lk_expand_start(driver, argv, envp, fuse_ld, &job) < 0)
		return -1;
	lk_expand_finish(&job, exp);
	return 0;
}
