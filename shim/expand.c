/*
 * The driver's expansion of a link (gcc -###): the collect2/ld command line
 * with crt files, default -L dirs, the plugin and the sysroot that the
 * driver adds. Taken off the hot path: only after a failed link.
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

/* Run argv, returning its exit status and its stdout+stderr in `out` (at most 4 MiB). */
static int capture_output(const char *path, char *const argv[],
			  char *const envp[], struct lk_buf *out)
{
	posix_spawn_file_actions_t fa;
	int fds[2], status = 0, rc;
	pid_t pid;
	char buf[8192];
	ssize_t n;

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
	while ((n = read(fds[0], buf, sizeof(buf))) > 0)
		if (out->len < ((size_t)4 << 20))
			lk_buf_add(out, buf, (size_t)n);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *print_prog_name(const char *driver, const char *fuse_ld,
			     char *const envp[])
{
	struct lk_buf opt = LK_BUF_INIT, out = LK_BUF_INIT;
	char *argv[3];

	lk_buf_addstr(&opt, "-print-prog-name=ld");
	/* -fuse-ld=/path or --ld-path: the driver has nothing to add. */
	if (fuse_ld && !strchr(fuse_ld, '/'))
		lk_buf_addf(&opt, ".%s", fuse_ld);
	argv[0] = (char *)driver;
	argv[1] = opt.buf;
	argv[2] = NULL;
	if (capture_output(driver, argv, envp, &out) != 0) {
		lk_buf_release(&opt);
		lk_buf_release(&out);
		return NULL;
	}
	lk_buf_release(&opt);
	while (out.len && (out.buf[out.len - 1] == '\n' || out.buf[out.len - 1] == '\r'))
		out.buf[--out.len] = '\0';
	return lk_buf_detach(&out);
}

int lk_expand_run(const char *driver, char *const argv[], char *const envp[],
		  const char *fuse_ld, struct lk_rec_expansion *exp)
{
	struct lk_strvec cmd = LK_STRVEC_INIT;
	struct lk_buf out = LK_BUF_INIT;
	int status;

	lk_strvec_push(&cmd, argv[0]);
	lk_strvec_push(&cmd, "-###");
	for (size_t i = 1; argv[i]; i++)
		lk_strvec_push(&cmd, argv[i]);
	status = capture_output(driver, cmd.items, envp, &out);
	lk_strvec_release(&cmd);
	if (status < 0) {
		lk_buf_release(&out);
		return -1;
	}
	exp->done = 1;
	exp->exit_status = status;
	lk_expansion_parse(out.buf, exp);
	lk_buf_release(&out);
	exp->linker_program = print_prog_name(driver, fuse_ld, envp);
	return 0;
}
