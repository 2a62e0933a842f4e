/*
 * Driver resolution for the shim.
 *
 * Takes: the driver name (LINKSCOPE_LINKER, the launcher's word after --,
 * the name the shim was called by, or "cc") and PATH. Gives: the program to
 * execute. Never the shim itself: a PATH entry that resolves to the shim is
 * skipped (the shim installed as "cc" ahead of the real one), and a path
 * naming the shim is refused, so a misconfiguration cannot fork-bomb a build.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"

static int is_executable_file(const char *path, struct stat *st)
{
	return stat(path, st) == 0 && S_ISREG(st->st_mode) &&
	       access(path, X_OK) == 0;
}

/*
 * The shim by identity: the same file (device and inode) as the running
 * binary, under any name (a symlink, a hard link, a path with ".."). No
 * realpath here: it costs a readlink(2) per path component before the
 * link can start.
 */
static int is_self(const struct stat *st, const struct stat *self)
{
	return self && st->st_dev == self->st_dev && st->st_ino == self->st_ino;
}

int lk_driver_resolve(const char *name, const struct stat *self,
		      const char *path_env, struct lk_driver *out,
		      struct lk_err *err)
{
	struct lk_buf cand = LK_BUF_INIT;
	struct stat st;
	const char *p;

	memset(out, 0, sizeof(*out));
	if (!*name)
		return lk_err_set(err, LK_E_NOTFOUND, "the driver name is empty");
	if (strchr(name, '/')) {
		if (!is_executable_file(name, &st)) {
			int missing = access(name, F_OK) < 0;

			lk_err_set(err, missing ? LK_E_NOTFOUND : LK_E_IO,
				   "cannot run '%s': %s", name,
				   missing ? "No such file or directory" : "not an executable file");
			return -1;
		}
		if (is_self(&st, self))
			return lk_err_set(err, LK_E_RECURSION,
					  "refusing to run '%s': it is linkscope-cc itself (set LINKSCOPE_LINKER to the real driver)",
					  name);
		out->resolved = lk_xstrdup(name);
		return 0;
	}
	for (p = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin"; ; p++) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);

		lk_buf_reset(&cand);
		if (len)
			lk_buf_add(&cand, p, len);
		else
			lk_buf_addch(&cand, '.');
		lk_buf_addch(&cand, '/');
		lk_buf_addstr(&cand, name);
		if (is_executable_file(cand.buf, &st)) {
			if (is_self(&st, self)) {
				out->skipped_self = 1;
			} else {
				out->resolved = lk_buf_detach(&cand);
				return 0;
			}
		}
		if (!colon)
			break;
		p = colon;
	}
	lk_buf_release(&cand);
	if (out->skipped_self)
		return lk_err_set(err, LK_E_RECURSION,
				  "refusing to run '%s': the only '%s' on PATH is linkscope-cc itself (set LINKSCOPE_LINKER to the real driver)",
				  name, name);
	errno = ENOENT;
	return lk_err_set(err, LK_E_NOTFOUND, "cannot run '%s': not found on PATH", name);
}

void lk_driver_find_real(struct lk_driver *d)
{
	if (!d->real && d->resolved)
		d->real = realpath(d->resolved, NULL);
}

void lk_driver_release(struct lk_driver *d)
{
	free(d->resolved);
	free(d->real);
	d->resolved = d->real = NULL;
}
