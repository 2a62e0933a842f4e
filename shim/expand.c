/*
 * The driver's expansion of a link (gcc -###): the collect2/ld command line
 * with crt files, default -L dirs, the plugin and the sysroot that the
 * driver adds. Taken off the hot path: only after a failed link.
 */
#include <stdlib.h>
#include <string.h>

#include "expand.h"
#include "linkscope/expansion.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/runcmd.h"
#include "linkscope/vec.h"

/*
 * Run argv, returning its exit status and its stdout+stderr in `out` (at
 * most 4 MiB), or -1. These runs come after the link, on the build's time:
 * LK_EXPAND_TIMEOUT_MS bounds each (a driver that hangs on -### once held
 * a build for ten minutes).
 */
static int capture_output(const char *path, char *const argv[],
			  char *const envp[], struct lk_buf *out)
{
	struct lk_runcmd cmd = { 0 };
	struct lk_runcmd_result res;
	int rc;

	cmd.path = path;
	cmd.argv = (const char *const *)argv;
	cmd.envp = envp;
	cmd.out = cmd.err = out;
	cmd.max_bytes = (size_t)4 << 20;
	cmd.timeout_ms = LK_EXPAND_TIMEOUT_MS;
	rc = lk_runcmd(&cmd, &res);
	if (rc < 0 && res.started && !res.timed_out)
		return 128 + res.signal;
	return rc;
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
