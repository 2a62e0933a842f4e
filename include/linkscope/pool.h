/*
 * A pool of forked worker processes for independent items of work
 * (report --failed's analyses, failcache.c): items 0..nr-1 are handed
 * out in order, one at a time, to up to `workers` processes forked from
 * the caller, so each worker sees the caller's memory as it was at the
 * start (the records, the options) and keeps what one item does to its
 * process (a read set, a cache) apart from the caller's. A worker sends
 * its item's answer, bytes, back over a socket; the caller gets each
 * answer in its own process, in the order they come, and puts it where
 * item i goes, so that what it prints does not depend on the order.
 *
 * A worker that dies before it answers (a crash, the OOM killer, a
 * signal) costs only its item: `done` is told why, with no answer, and
 * a new worker takes the items left. When no worker can be forked, the
 * items are done in the caller's process, as they are with `workers` 1.
 */
#ifndef LINKSCOPE_POOL_H
#define LINKSCOPE_POOL_H

#include <stddef.h>

#include "linkscope/buf.h"

struct lk_pool_task {
	size_t nr;		/* the items: 0..nr-1 */
	unsigned workers;	/* at most this many processes; 0 or 1: every item in this process, no fork */
	/*
	 * Item i's answer into `out` (empty, owned by the pool), in a
	 * worker, or in this process without one.
	 */
	void (*work)(void *ctx, size_t i, struct lk_buf *out);
	/*
	 * In this process: item i's answer (borrowed for the call), or NULL
	 * with `why` ("killed by signal 9") when its worker died first.
	 */
	void (*done)(void *ctx, size_t i, const struct lk_buf *answer, const char *why);
	void *ctx;
};

/* Do every item of `task`: returns when `done` has been called once for each. */
void lk_pool_run(const struct lk_pool_task *task);

#endif
