/*
 * The record dir is the user's: whose a record dir, its blobs/ and views/,
 * and a kept copy are, and whether a kept copy holds what its name says
 * (see private.h).
 *
 * Stage: argv -> record (the shim asks before it records into a dir and
 * before it holds a blob it finds there) and record -> line model (the
 * analyzer asks before any stage reads a kept copy). Takes stats and open
 * files; gives yes, no with the cause, or yes with a warning. One stat the
 * caller has already made, where it can: the shim's cost per link is
 * benchmarked (bench/shim-overhead.sh, docs/bench.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "linkscope/private.h"
#include "linkscope/record.h"
#include "linkscope/sha256.h"
#include "linkscope/strvec.h"

/* Writable by group or others, sticky or not: a sticky dir still lets others add names. */
#define OPEN_TO_OTHERS (S_IWGRP | S_IWOTH)

int lk_private_dir(const char *path, const char *what, const struct stat *st, int shared,
		   struct lk_err *err)
{
	const char *why;

	if (!S_ISDIR(st->st_mode))
		return lk_err_set(err, LK_E_IO, "refusing %s '%s': not a directory",
				  what, path);
	if (st->st_uid != geteuid())
		why = "owned by another user";
	else if (st->st_mode & OPEN_TO_OTHERS)
		why = "writable by others";
	else
		return 0;
	if (shared) {
		lk_err_set(err, LK_E_IO, "using %s '%s' (%s: uid %ld, mode %04o) as %s=1 asks: its other users can replace and delete what is in it",
			   what, path, why, (long)st->st_uid, (unsigned)(st->st_mode & 07777),
			   LK_PRIVATE_SHARED_VAR);
		return 1;
	}
	return lk_err_set(err, LK_E_IO, "refusing %s '%s': %s (uid %ld, mode %04o); %s=1 uses it anyway",
			  what, path, why, (long)st->st_uid, (unsigned)(st->st_mode & 07777),
			  LK_PRIVATE_SHARED_VAR);
}

int lk_private_dir_at(const char *path, const char *what, int shared, struct lk_err *err)
{
	struct stat st;

	/* Followed: a link to a dir of ours is ours (viewcache.c still writes no entry through it), one to another's is not. */
	if (stat(path, &st) < 0)
		return errno == ENOENT ? 0 : lk_err_errno(err, "cannot look at %s '%s'", what, path);
	return lk_private_dir(path, what, &st, shared, err);
}

int lk_private_blob(int fd, const struct stat *st, const char *path, const char *sha256, int shared,
		    struct lk_err *err)
{
	struct lk_sha256 ctx;
	char buf[65536], hex[65];
	ssize_t n;
	off_t off = 0;

	if (!S_ISREG(st->st_mode))
		return lk_err_set(err, LK_E_FORMAT, "kept copy '%s' is not a regular file", path);
	if (st->st_uid != geteuid() && !shared)
		return lk_err_set(err, LK_E_IO, "kept copy '%s' is owned by another user (uid %ld)",
				  path, (long)st->st_uid);
	if (st->st_mode & OPEN_TO_OTHERS)
		return lk_err_set(err, LK_E_IO, "kept copy '%s' is writable by others (mode %04o)",
				  path, (unsigned)(st->st_mode & 07777));
	lk_sha256_init(&ctx);
	/* pread: the caller's offset stays where it was. */
	while ((n = pread(fd, buf, sizeof(buf), off)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return lk_err_errno(err, "cannot read kept copy '%s'", path);
		lk_sha256_update(&ctx, buf, (size_t)n);
		off += n;
	}
	lk_sha256_final_hex(&ctx, hex);
	/* The shim names blobs in lower case: any other spelling is not its name. */
	if (strncmp(hex, sha256, 64))
		return lk_err_set(err, LK_E_FORMAT, "kept copy '%s' does not hold what its name says (its content's SHA-256 is %s)",
				  path, hex);
	return 0;
}

/* Push `msg` to `notes` once. */
static void note_once(struct lk_strvec *notes, const char *msg)
{
	for (size_t i = 0; i < notes->nr; i++)
		if (!strcmp(notes->items[i], msg))
			return;
	lk_strvec_push(notes, msg);
}

/* Are the record's dir and its blobs/ the user's? */
static int blobs_dir_usable(const char *dir, int shared, struct lk_strvec *notes)
{
	struct lk_buf blobs = LK_BUF_INIT, msg = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT, sub = LK_ERR_INIT;
	struct stat st;
	int rc, sub_rc;

	lk_buf_addf(&blobs, "%s/blobs", dir);
	if (stat(dir, &st) < 0)
		rc = lk_err_errno(&err, "cannot look at record directory '%s'", dir);
	else
		rc = lk_private_dir(dir, "record directory", &st, shared, &err);
	/* Then blobs/: its refusal, or its warning when the dir gave none. */
	if (rc >= 0 && (sub_rc = lk_private_dir_at(blobs.buf, "record subdirectory", shared, &sub)) &&
	    (sub_rc < 0 || rc == 0)) {
		rc = sub_rc;
		err = sub;
	}
	if (rc < 0)
		lk_buf_addf(&msg, "not using the copies kept in '%s': %s", blobs.buf, err.msg);
	else if (rc > 0)
		lk_buf_addstr(&msg, err.msg);
	if (msg.len)
		note_once(notes, msg.buf);
	lk_buf_release(&blobs);
	lk_buf_release(&msg);
	return rc >= 0;
}

/* May rec->kept's `k` be used? A copy that is not there is no danger: the stages find it gone. */
static int kept_usable(const struct lk_record *rec, const struct lk_record_kept *k, int shared,
		       struct lk_strvec *notes)
{
	struct lk_buf path = LK_BUF_INIT, msg = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct stat st;
	int fd, ok = 0;

	lk_buf_addf(&path, "%s/%s", rec->dir, k->blob);
	if (strncmp(k->blob, "blobs/", 6) || !lk_sha256_is_hex(k->blob + 6) || k->blob[70]) {
		lk_buf_addf(&msg, "not using the copy of '%s' kept as '%s': a kept copy is named blobs/<sha256>",
			    k->path, k->blob);
	} else if ((fd = lk_file_open_regular(path.buf, &st)) < 0) {
		ok = errno == ENOENT;
		if (!ok)
			lk_buf_addf(&msg, "not using the kept copy '%s': %s", path.buf, lk_file_strerror(errno));
	} else {
		ok = lk_private_blob(fd, &st, path.buf, k->blob + 6, shared, &err) == 0;
		close(fd);
		if (!ok)
			lk_buf_addf(&msg, "not using the copy of '%s': %s", k->path, err.msg);
		else if (st.st_uid != geteuid())
			lk_buf_addf(&msg, "using the kept copy '%s' of another user (uid %ld) as %s=1 asks",
				    path.buf, (long)st.st_uid, LK_PRIVATE_SHARED_VAR);
	}
	if (msg.len)
		note_once(notes, msg.buf);
	lk_buf_release(&path);
	lk_buf_release(&msg);
	return ok;
}

void lk_private_check_kept(struct lk_record *rec, int shared, struct lk_strvec *notes)
{
	int dir_usable;
	size_t n = 0;

	if (!rec->kept.nr)
		return;
	dir_usable = blobs_dir_usable(rec->dir, shared, notes);
	for (size_t i = 0; i < rec->kept.nr; i++) {
		struct lk_record_kept *k = &rec->kept.items[i];

		if (dir_usable && kept_usable(rec, k, shared, notes)) {
			rec->kept.items[n++] = *k;
			continue;
		}
		free(k->path);
		free(k->blob);
		free(k->reason);
	}
	rec->kept.nr = n;
}
