/* The driver's own view of the link: its -### expansion and its linker. */
#ifndef SHIM_EXPAND_H
#define SHIM_EXPAND_H

#include <sys/types.h>

#include "linkscope/record.h"
#include "linkscope/strvec.h"

/* The two driver queries of one link, started and not yet collected. */
struct lk_expand_job {
	pid_t pid, prog_pid;	/* -###, -print-prog-name (-1: not started) */
	int fd, prog_fd;	/* their stdout+stderr */
};

/*
 * Whether the driver is one whose -### only prints (gcc, clang, under any
 * target prefix or version suffix): only such a driver is run beside every
 * link. Another (a script, a wrapper) could do its work twice, so it is
 * asked only after a failed link, as before.
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
 */
void lk_expand_finish(struct lk_expand_job *job, struct lk_rec_expansion *exp);

/* Start and finish at once. Returns 0, or -1 if the driver could not be run. */
int lk_expand_run(const char *driver, char *const argv[], char *const envp[],
		  const char *fuse_ld, struct lk_rec_expansion *exp);

#endif
