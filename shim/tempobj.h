/* The objects a link call compiles, caught before the driver deletes them. */
#ifndef SHIM_TEMPOBJ_H
#define SHIM_TEMPOBJ_H

#include <pthread.h>
#include <stddef.h>

#include "linkscope/strvec.h"

#define LK_TEMPOBJ_MAX 64

struct lk_tempobj {
	char *dir;		/* the driver's private TMPDIR */
	char *old_tmpdir;	/* TMPDIR as it was, or NULL */
	size_t want;		/* objects to catch: one per source, in order */
	int ifd, stop;		/* inotify on dir; eventfd that ends the watch */
	pthread_t thread;
	int running;
	int tmpdir_set;		/* TMPDIR is ours until lk_tempobj_spawned */
	struct lk_strvec caught;	/* hard links of the objects, in order */
	struct lk_strvec names;		/* the driver's names for them */
};

/*
 * Give the driver a private TMPDIR (setenv) and watch it: each of the
 * first `want` objects closed there is hard-linked before the driver can
 * delete it. Returns 0, or -1 with nothing changed.
 */
int lk_tempobj_start(struct lk_tempobj *t, size_t want);

/*
 * The driver has its environment (posix_spawn copied it): put TMPDIR back
 * now, so that what the shim does while the link runs (the view's key, a
 * -### run) sees the caller's. The watch goes on.
 */
void lk_tempobj_spawned(struct lk_tempobj *t);

/* End the watch and put TMPDIR back if still ours; t->caught holds what was caught. */
void lk_tempobj_stop(struct lk_tempobj *t);

/*
 * Stop if needed, remove the hard links, move what the driver left in its
 * private TMPDIR to the directory that holds it (the caller's TMPDIR, or
 * /tmp), remove the private one, free.
 */
void lk_tempobj_finish(struct lk_tempobj *t);

#endif
