/* The real driver: found without ever finding the shim itself. */
#ifndef SHIM_DRIVER_H
#define SHIM_DRIVER_H

#include "linkscope/err.h"

struct lk_driver {
	char *resolved;		/* owned; the path that will be executed */
	char *real;		/* owned; its realpath */
	int skipped_self;	/* a PATH entry held the shim and was skipped */
};

/*
 * Find `name` the way execvp would, skipping every candidate whose realpath
 * is `self_real` (the shim). A name with a '/' is taken as a path and
 * refused if it is the shim. Errors: LK_E_RECURSION (only the shim was
 * found), LK_E_NOTFOUND.
 */
int lk_driver_resolve(const char *name, const char *self_real,
		      const char *path_env, struct lk_driver *out,
		      struct lk_err *err);
void lk_driver_release(struct lk_driver *d);

#endif
