/*
 * Diagnostics -> a fix checked by the real linker (--verify-with-linker).
 *
 * The replay marks a fix verified when its own simulation then succeeds;
 * this runs the recorded driver with the edit, so the real linker has the
 * last word. The output goes to a temporary directory; inputs that are gone
 * (rustc's objects, autoconf's sources) come from the copies kept with the
 * record.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/replay.h"
#include "linkscope/vec.h"

extern char **environ;

/* The kept copy of `arg` when `arg` names a file that is gone. */
static const char *kept_or_same(const struct lk_record *rec, const char *arg, struct lk_buf *tmp)
{
	if (access(arg, F_OK) == 0)
		return arg;
	for (size_t i = 0; i < rec->kept.nr; i++) {
		const char *reason = rec->kept.items[i].reason;

		/* The object made of a source is not the source. */
		if (strcmp(rec->kept.items[i].path, arg) || (reason && !strcmp(reason, "source-object")))
			continue;
		lk_buf_reset(tmp);
		lk_buf_addf(tmp, "%s/%s", rec->dir, rec->kept.items[i].blob);
		return tmp->buf;
	}
	return arg;
}

static void build_argv(const struct lk_record *rec, const struct lk_fix *fix, const char *out,
		       struct lk_strvec *argv)
{
	struct lk_argv_info info;
	struct lk_buf tmp = LK_BUF_INIT;

	lk_argv_classify(&rec->args, &info);
	for (size_t i = 0; i <= rec->args.nr; i++) {
		if ((long)i == fix->position)
			for (size_t k = 0; k < fix->args.nr; k++)
				lk_strvec_push(argv, fix->args.items[k]);
		if (i == rec->args.nr)
			break;
		if ((long)i == info.output) {
			/* "-o FILE" or "-oFILE": the output goes to our directory. */
			if (!strcmp(rec->args.items[i].text, info.output_path))
				lk_strvec_push(argv, out);
			else {
				lk_buf_reset(&tmp);
				lk_buf_addf(&tmp, "-o%s", out);
				lk_strvec_push(argv, tmp.buf);
			}
			continue;
		}
		lk_strvec_push(argv, i ? kept_or_same(rec, rec->args.items[i].text, &tmp) : rec->args.items[0].text);
	}
	if (info.output < 0) {
		lk_strvec_push(argv, "-o");
		lk_strvec_push(argv, out);
	}
	lk_argv_info_release(&info);
	lk_buf_release(&tmp);
}

void lk_replay_verify_with_linker(const struct lk_record *rec, struct lk_fix *fix)
{
	char dir[] = "/tmp/lk-verify-XXXXXX";
	struct lk_strvec argv = LK_STRVEC_INIT;
	struct lk_buf out = LK_BUF_INIT, said = LK_BUF_INIT;
	posix_spawn_file_actions_t fa;
	int fds[2], status = -1;
	char buf[4096];
	ssize_t n;
	pid_t pid;

	fix->linker_checked = 1;
	if (!rec->driver_resolved || !mkdtemp(dir) || pipe2(fds, O_CLOEXEC) < 0) {
		fix->linker_said = lk_xstrdup("cannot run the recorded driver here");
		return;
	}
	lk_buf_addf(&out, "%s/out", dir);
	build_argv(rec, fix, out.buf, &argv);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	if (rec->cwd)
		posix_spawn_file_actions_addchdir_np(&fa, rec->cwd);
	if (posix_spawn(&pid, rec->driver_resolved, &fa, NULL, argv.items, environ) == 0) {
		close(fds[1]);
		while ((n = read(fds[0], buf, sizeof(buf))) > 0)
			if (said.len < 4096)
				lk_buf_add(&said, buf, (size_t)n);
		waitpid(pid, &status, 0);
	} else {
		close(fds[1]);
		lk_buf_addf(&said, "cannot run '%s': %s", rec->driver_resolved, strerror(errno));
	}
	close(fds[0]);
	posix_spawn_file_actions_destroy(&fa);
	fix->linker_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (!fix->linker_ok) {
		char *nl = strchr(said.buf, '\n');

		fix->linker_said = nl ? lk_xstrndup(said.buf, (size_t)(nl - said.buf)) : lk_xstrdup(said.buf);
	}
	unlink(out.buf);
	rmdir(dir);
	lk_buf_release(&out);
	lk_buf_release(&said);
	lk_strvec_release(&argv);
}
