/* The real driver: found without ever finding the shim itself. */
#ifndef SHIM_DRIVER_H
#define SHIM_DRIVER_H

#include <sys/stat.h>

#include "linkscope/err.h"

struct lk_driver {
	char *resolved;		/* owned; the path that will be executed */
	char *real;		/* owned; its realpath, once lk_driver_find_real ran (may stay NULL) */
	int skipped_self;	/* a PATH entry held the shim and was skipped */
};

/*
 * Find `name` the way execvp would, skipping every candidate that is the
 * file `self` (the shim's stat(2), or NULL when unknown), by whatever name.
 * A name with a '/' is taken as a path and refused if it is the shim.
 * Errors: LK_E_RECURSION (only the shim was found), LK_E_NOTFOUND.
 */
int lk_driver_resolve(const char *name, const struct stat *self,
		      const char *path_env, struct lk_driver *out,
		      struct lk_err *err);
/* d->real from d->resolved: for the record, so not before the link starts. */
void lk_driver_find_real(struct lk_driver *d);
void lk_driver_release(struct lk_driver *d);

#endif
