/* The driver's own view of the link: its -### expansion and its linker. */
#ifndef SHIM_EXPAND_H
#define SHIM_EXPAND_H

#include "linkscope/buf.h"
#include "linkscope/expansion.h"
#include "linkscope/record.h"
#include "linkscope/runcmd.h"

/*
 * Bound of each extra driver run (-###, -print-prog-name), in milliseconds,
 * counted from when the shim waits for it (after the link): a driver that
 * hangs on -### once held a build for ten minutes.
 */
#define LK_EXPAND_TIMEOUT_MS 10000

/* The two driver queries of one link: started beside it, collected after it. */
struct lk_expand_job {
	struct lk_expansion_query hash3;	/* -### */
	struct lk_buf prog_out;			/* -print-prog-name=ld[.FLAVOR] */
	struct lk_runcmd prog_cmd;
	struct lk_runcmd_job prog;
};

/*
 * Whether the driver is one whose -### only prints (gcc, clang, under any
 * target prefix or version suffix; lk_argv_is_driver_name): only such a
 * driver is run beside every link. Another (a script, a wrapper) could do
 * its work twice, so it is asked only after a failed link, as before.
 */
int lk_expand_knows_hash3(const char *driver, const char *driver_real);

/*
 * Start `driver` with "-###" before the link's arguments (argv[1..]) and
 * `driver -print-prog-name=ld[.FLAVOR]`, both in the background. Returns 0,
 * or -1 if the driver could not be started (nothing to finish then).
 */
int lk_expand_start(const char *driver, char *const argv[], char *const envp[],
		    const char *fuse_ld, struct lk_expand_job *job);

/*
 * Collect a started job: what -### printed, parsed into exp->commands (the
 * last collect2/ld command is exp->linker_command), and the linker program.
 * Returns 0, or -1 if -### did not finish (timeout): exp untouched then.
 */
int lk_expand_finish(struct lk_expand_job *job, struct lk_expansion *exp);

/* Start and finish at once. Returns 0, or -1 if the driver could not be run. */
int lk_expand_run(const char *driver, char *const argv[], char *const envp[],
		  const char *fuse_ld, struct lk_expansion *exp);

#endif
