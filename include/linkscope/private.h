/*
 * The record dir is the user's (issue #29). A record dir, its blobs/ and
 * its views/ are used only when they are the user's own: owned by the
 * effective uid and writable by no one else; a kept copy (blobs/<sha256>)
 * only when it is the user's too and its content hashes to its name.
 * Otherwise another user who can write there chooses what the records name
 * as kept copies, and what a later analysis compiles. docs/security.md,
 * "The record dir is the user's".
 */
#ifndef LINKSCOPE_PRIVATE_H
#define LINKSCOPE_PRIVATE_H

#include <sys/stat.h>

#include "linkscope/err.h"

/* The variable that lets a dir of another user, or one open to others, be used (with a warning). */
#define LK_PRIVATE_SHARED_VAR "LINKSCOPE_DIR_SHARED"

/*
 * Is `st` (lstat or fstat of `path`, which `what` names in messages:
 * "record directory", "record subdirectory") a directory of the user's, writable by
 * no one else? 0 if so. Else -1 with `err` saying why, and the variable
 * that would allow it; but with `shared`, a directory owned by another
 * user or open to others is allowed: 1, and `err` holds the warning to
 * print. A non-directory is -1 whatever `shared`.
 */
int lk_private_dir(const char *path, const char *what, const struct stat *st, int shared,
		   struct lk_err *err);

/*
 * The same for `path` looked up now with stat (a symlink is what it
 * points to); a path that is not there is 0 (nothing to refuse).
 */
int lk_private_dir_at(const char *path, const char *what, int shared, struct lk_err *err);

/*
 * May the kept copy open on `fd` (its fstat `st`, its name `path`) be
 * used as the content `sha256` (64 hex digits)? It must be a regular file
 * writable by no one else, the user's own (another's only with `shared`),
 * and its content, read from its start, must hash to `sha256`. 0, or -1
 * with `err` naming `path` and the cause.
 */
int lk_private_blob(int fd, const struct stat *st, const char *path, const char *sha256, int shared,
		    struct lk_err *err);

struct lk_record;
struct lk_strvec;

/*
 * The analyzer's side: drop from rec->kept every kept copy that may not be
 * used, so no later stage reads it: one whose name is not blobs/<sha256>,
 * one in a record dir or blobs/ that is not the user's (lk_private_dir),
 * one that is not the user's or not of the content its name says
 * (lk_private_blob). A copy that is not there stays (the record was
 * copied away from its blobs/: the stages say so). A line for `notes`
 * names each file dropped and why, unless `notes` holds it already; with
 * `shared`, the warning for a dir or a copy used although not the user's.
 */
void lk_private_check_kept(struct lk_record *rec, int shared, struct lk_strvec *notes);

#endif
