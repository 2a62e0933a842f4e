/* The driver's own view of the link: its -### expansion and its linker. */
#ifndef SHIM_EXPAND_H
#define SHIM_EXPAND_H

#include "linkscope/record.h"
#include "linkscope/strvec.h"

/* Bound of each extra driver run after a link (-###, -print-prog-name), in milliseconds. */
#define LK_EXPAND_TIMEOUT_MS 10000

/*
 * Run `driver` with "-###" before the link's arguments (argv[1..]) and parse
 * what it prints into exp->commands; the last collect2/ld command is
 * exp->linker_command. Also asks `driver -print-prog-name=ld[.FLAVOR]`.
 * Costs a few driver start-ups, so the shim calls it only after a failed
 * link (or when asked with LINKSCOPE_EXPAND=always), never after a link
 * ended by a signal. Each run is killed after LK_EXPAND_TIMEOUT_MS.
 * Returns 0, or -1 if the driver could not be run or timed out.
 */
int lk_expand_run(const char *driver, char *const argv[], char *const envp[],
		  const char *fuse_ld, struct lk_rec_expansion *exp);

#endif
