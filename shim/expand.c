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
 * hide behind the link's own time (figures in docs/bench.md). They run
 * through the common runner (common/runcmd.c), bounded in output and time.
 */
#include <string.h>

#include "expand.h"
#include "linkscope/argv.h"
#include "linkscope/banned.h"
#include "linkscope/expansion.h"

static int known_name(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	return lk_argv_is_driver_name(base);
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
	const char *prog_argv[3];
	int rc;

	memset(job, 0, sizeof(*job));
	lk_strvec_push(&cmd, argv[0]);
	lk_strvec_push(&cmd, "-###");
	for (size_t i = 1; argv[i]; i++)
		lk_strvec_push(&cmd, argv[i]);
	/* The words are copied at the start: nothing of them is needed after it. */
	rc = lk_expansion_start(&job->hash3, driver, (const char *const *)cmd.items, NULL, envp,
				LK_EXPAND_TIMEOUT_MS);
	lk_strvec_release(&cmd);
	if (rc < 0) {
		lk_expansion_finish(&job->hash3, NULL);
		return -1;
	}
	lk_buf_addstr(&opt, "-print-prog-name=ld");
	/* -fuse-ld=/path or --ld-path: the driver has nothing to add. */
	if (fuse_ld && !strchr(fuse_ld, '/'))
		lk_buf_addf(&opt, ".%s", fuse_ld);
	prog_argv[0] = driver;
	prog_argv[1] = opt.buf;
	prog_argv[2] = NULL;
	lk_buf_init(&job->prog_out);
	job->prog_cmd.path = driver;
	job->prog_cmd.argv = prog_argv;
	job->prog_cmd.envp = envp;
	job->prog_cmd.out = &job->prog_out;
	job->prog_cmd.max_bytes = 4096;
	job->prog_cmd.timeout_ms = LK_EXPAND_TIMEOUT_MS;
	lk_runcmd_start(&job->prog_cmd, &job->prog);
	job->prog_cmd.argv = NULL;
	lk_buf_release(&opt);
	return 0;
}

int lk_expand_finish(struct lk_expand_job *job, struct lk_expansion *exp)
{
	int status = lk_expansion_finish(&job->hash3, exp);
	struct lk_buf *out = &job->prog_out;

	if (lk_runcmd_finish(&job->prog, NULL) == 0 && status >= 0) {
		while (out->len && (out->buf[out->len - 1] == '\n' || out->buf[out->len - 1] == '\r'))
			out->buf[--out->len] = '\0';
		exp->linker_program = lk_buf_detach(out);
	}
	lk_buf_release(out);
	return status >= 0 ? 0 : -1;
}

int lk_expand_run(const char *driver, char *const argv[], char *const envp[],
		  const char *fuse_ld, struct lk_expansion *exp)
{
	struct lk_expand_job job;

	if (lk_expand_start(driver, argv, envp, fuse_ld, &job) < 0)
		return -1;
	return lk_expand_finish(&job, exp);
}
