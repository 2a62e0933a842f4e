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

static void query_init(struct lk_expand_query *q)
{
	memset(q, 0, sizeof(*q));
	lk_buf_init(&q->out);
	q->job.pid = -1;
}

static void query_release(struct lk_expand_query *q)
{
	lk_strvec_release(&q->argv);
	lk_buf_release(&q->out);
}

/* Start q->argv (filled by the caller) with stdout+stderr kept (at most 4 MiB). */
static int query_start(struct lk_expand_query *q, const char *driver, char *const envp[])
{
	q->cmd.path = driver;
	q->cmd.argv = (const char *const *)q->argv.items;
	q->cmd.envp = envp;
	q->cmd.out = q->cmd.err = &q->out;
	q->cmd.max_bytes = (size_t)4 << 20;
	q->cmd.timeout_ms = LK_EXPAND_TIMEOUT_MS;
	return lk_runcmd_start(&q->cmd, &q->job);
}

/* The query's exit status, 128+N for a signal, or -1 when it did not run or timed out. */
static int query_finish(struct lk_expand_query *q)
{
	struct lk_runcmd_result res;
	int rc = lk_runcmd_finish(&q->job, &res);

	if (rc < 0 && res.started && !res.timed_out)
		return 128 + res.signal;
	return rc;
}

int lk_expand_start(const char *driver, char *const argv[], char *const envp[],
		    const char *fuse_ld, struct lk_expand_job *job)
{
	struct lk_buf opt = LK_BUF_INIT;

	query_init(&job->hash3);
	query_init(&job->prog);
	lk_strvec_push(&job->hash3.argv, argv[0]);
	lk_strvec_push(&job->hash3.argv, "-###");
	for (size_t i = 1; argv[i]; i++)
		lk_strvec_push(&job->hash3.argv, argv[i]);
	if (query_start(&job->hash3, driver, envp) < 0) {
		query_release(&job->hash3);
		return -1;
	}
	lk_buf_addstr(&opt, "-print-prog-name=ld");
	/* -fuse-ld=/path or --ld-path: the driver has nothing to add. */
	if (fuse_ld && !strchr(fuse_ld, '/'))
		lk_buf_addf(&opt, ".%s", fuse_ld);
	lk_strvec_push(&job->prog.argv, driver);
	lk_strvec_push_owned(&job->prog.argv, lk_buf_detach(&opt));
	query_start(&job->prog, driver, envp);
	return 0;
}

int lk_expand_finish(struct lk_expand_job *job, struct lk_rec_expansion *exp)
{
	int status = query_finish(&job->hash3), prog = query_finish(&job->prog);
	struct lk_buf *out = &job->prog.out;

	if (status >= 0) {
		exp->done = 1;
		exp->exit_status = status;
		lk_expansion_parse(job->hash3.out.buf, exp);
		if (prog == 0) {
			while (out->len && (out->buf[out->len - 1] == '\n' || out->buf[out->len - 1] == '\r'))
				out->buf[--out->len] = '\0';
			exp->linker_program = lk_buf_detach(out);
		}
	}
	query_release(&job->hash3);
	query_release(&job->prog);
	return status >= 0 ? 0 : -1;
}

int lk_expand_run(const char *driver, char *const argv[], char *const envp[],
		  const char *fuse_ld, struct lk_rec_expansion *exp)
{
	struct lk_expand_job job;

	if (lk_expand_start(driver, argv, envp, fuse_ld, &job) < 0)
		return -1;
	return lk_expand_finish(&job, exp);
}
