/*
 * Kept inputs: content-addressed copies next to the records.
 *
 * rustc writes symbols.o (and, for long lines, linker-arguments) into a
 * temporary directory it deletes after the link; autoconf deletes
 * conftest.c; build systems delete response files. Without copies, a
 * recorded line could never be replayed. Copies live in <dir>/blobs/, named
 * by SHA-256, so a thousand links of one crate keep one copy per content.
 *
 * A prune may run meanwhile (common/prune.c) and remove a blob's name that
 * no record it has read names yet. So each copy is also held under a name
 * of this link's own until its record is written; then, if the blob's name
 * is gone, the held copy goes back under it (lk_keep_settle). The argument:
 * docs/record-format.md, "Pruning while links run".
 *
 * A content kept before (the same small object linked again) is not copied
 * again: its blob is held by a second hard link. A new file costs a create,
 * and the held name's unlink after the link frees nothing (docs/bench.md).
 * What is held is read back and hashed first: a blob that is not ours, or
 * not of the content its name says, is never named by our record; a fresh
 * copy replaces it (docs/security.md, "The record dir is the user's").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keep.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/private.h"
#include "linkscope/prune.h"
#include "linkscope/sha256.h"
#include "linkscope/vec.h"

/* Hash what `in` holds from where it is, and copy it to `out` unless `out` is -1. */
static int copy_and_hash(int in, int out, char hex[65], int64_t *size)
{
	struct lk_sha256 ctx;
	char buf[65536];
	ssize_t n;

	lk_sha256_init(&ctx);
	*size = 0;
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		lk_sha256_update(&ctx, buf, (size_t)n);
		*size += n;
		for (ssize_t off = 0; out >= 0 && off < n;) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return -1;
			off += w;
		}
	}
	lk_sha256_final_hex(&ctx, hex);
	return 0;
}

/* <dir>/blobs/<sha256>, and this link's own name for its copy of it, the n-th kept. */
static void blob_names(const char *dir, const char *sha256, size_t n, struct lk_buf *blob,
		       struct lk_buf *held)
{
	lk_buf_reset(blob);
	lk_buf_addf(blob, "%s/blobs/%s", dir, sha256);
	lk_buf_reset(held);
	lk_buf_addf(held, "%s/blobs/%s%s-%ld-%zu", dir, LK_BLOB_HELD, sha256, (long)getpid(), n);
}

static int already_kept(const struct lk_record_draft *rec, const char *path)
{
	for (size_t i = 0; i < rec->kept.nr; i++)
		if (!strcmp(rec->kept.items[i].path, path))
			return 1;
	return 0;
}

/*
 * Is what `held` names a kept copy to trust: ours, writable by no one
 * else, and of the content `hex`? blobs/ may have been another user's to
 * write once (common/private.h): then its name is only a claim.
 */
static int held_is_sound(const char *held, const char *hex)
{
	struct lk_err err = LK_ERR_INIT;
	struct stat st;
	int fd = open(held, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), sound;

	if (fd < 0)
		return 0;
	sound = fstat(fd, &st) == 0 && lk_private_blob(fd, &st, held, hex, 0, &err) == 0;
	close(fd);
	return sound;
}

/*
 * A blob of this content already there: hold it by a hard link of ours (a
 * prune may rename its name away meanwhile, not the file), and check what
 * is held, as held (the name may change meanwhile, not the file). 0 if
 * held; else a fresh copy goes over the name.
 */
static int hold_existing(const char *dir, const char *hex, size_t n)
{
	struct lk_buf blob = LK_BUF_INIT, held = LK_BUF_INIT;
	int rc;

	blob_names(dir, hex, n, &blob, &held);
	rc = link(blob.buf, held.buf);
	if (rc == 0 && !held_is_sound(held.buf, hex)) {
		unlink(held.buf);
		rc = -1;
	}
	lk_buf_release(&blob);
	lk_buf_release(&held);
	return rc;
}

/* Copy `in` (at its start) to a new blob, held under this link's name; fills `hex` and `size`. */
static int copy_new(struct lk_record_draft *rec, const char *dir, const char *path, int in,
		    char hex[65], int64_t *size, struct lk_err *err)
{
	struct lk_buf tmp = LK_BUF_INIT, blob = LK_BUF_INIT, held = LK_BUF_INIT;
	int out, rc = -1, copied, saved;

	lk_buf_addf(&tmp, "%s/blobs", dir);
	if (mkdir(tmp.buf, 0700) < 0 && errno != EEXIST) {
		lk_err_errno(err, "cannot create '%s'", tmp.buf);
		goto out;
	}
	lk_buf_addf(&tmp, "/.tmp-%ld-%zu", (long)getpid(), rec->kept.nr);
	/* O_EXCL: never through a name someone else made; 0600 whatever the umask. */
	out = open(tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0) {
		lk_err_errno(err, "cannot create '%s'", tmp.buf);
		goto out;
	}
	fchmod(out, 0600);
	/* Close and unlink on every failure: a full disk gets its space back for the record. */
	copied = lseek(in, 0, SEEK_SET) == 0 ? copy_and_hash(in, out, hex, size) : -1;
	saved = errno;
	if (close(out) < 0 && copied == 0) {
		copied = -1;
		saved = errno;
	}
	if (copied < 0) {
		unlink(tmp.buf);
		errno = saved;
		lk_err_errno(err, "cannot copy '%s' to '%s'", path, tmp.buf);
		goto out;
	}
	blob_names(dir, hex, rec->kept.nr, &blob, &held);
	/* A held name left by a link of our pid that died is stale: ours to replace. */
	if (link(tmp.buf, held.buf) < 0 &&
	    (errno != EEXIST || unlink(held.buf) < 0 || link(tmp.buf, held.buf) < 0)) {
		lk_err_errno(err, "cannot link '%s'", held.buf);
		unlink(tmp.buf);
		goto out;
	}
	/*
	 * Over the name, atomically: what is there is another link's copy of
	 * the same content, or a file hold_existing found unsound.
	 */
	if (rename(tmp.buf, blob.buf) < 0) {
		lk_err_errno(err, "cannot rename '%s' to '%s'", tmp.buf, blob.buf);
		unlink(tmp.buf);
		unlink(held.buf);
		goto out;
	}
	rc = 0;
out:
	lk_buf_release(&tmp);
	lk_buf_release(&blob);
	lk_buf_release(&held);
	return rc;
}

int lk_keep_file(struct lk_record_draft *rec, const char *dir, const char *path,
		 const char *reason, const struct lk_keep_limits *limits,
		 int64_t *used, struct lk_err *err)
{
	struct lk_record_copy *k;
	struct stat st;
	char hex[65];
	int64_t size;
	int in, rc = -1;

	if (already_kept(rec, path))
		return 0;
	/* A FIFO or a device would block open() or read(): look before opening, never wait. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return lk_err_set(err, LK_E_FORMAT, "cannot keep a copy of '%s': not a regular file", path);
	in = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (in < 0)
		return lk_err_errno(err, "cannot keep a copy of '%s'", path);
	if (fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(in);
		return lk_err_set(err, LK_E_FORMAT, "cannot keep a copy of '%s': not a regular file", path);
	}
	if (st.st_size > limits->max_file || *used + st.st_size > limits->max_total) {
		close(in);
		return lk_err_set(err, LK_E_USAGE,
				  "no copy kept of '%s': %lld bytes is over the limit (LINKSCOPE_KEEP_MAX)",
				  path, (long long)st.st_size);
	}
	/* Hashed first: a content kept before is held as it is, else copied (and hashed again as copied). */
	if (copy_and_hash(in, -1, hex, &size) < 0) {
		lk_err_errno(err, "cannot keep a copy of '%s'", path);
		goto out_close;
	}
	if (hold_existing(dir, hex, rec->kept.nr) < 0 && copy_new(rec, dir, path, in, hex, &size, err) < 0)
		goto out_close;
	LK_GROW(rec->kept.items, rec->kept.nr + 1, rec->kept.alloc);
	k = &rec->kept.items[rec->kept.nr++];
	k->path = lk_xstrdup(path);
	memcpy(k->sha256, hex, sizeof(hex));
	k->size = size;
	k->reason = reason;
	*used += size;
	rc = 0;
out_close:
	close(in);
	return rc;
}

void lk_keep_settle(const struct lk_record_draft *rec, const char *dir)
{
	struct lk_buf blob = LK_BUF_INIT, held = LK_BUF_INIT;
	struct stat st;

	for (size_t i = 0; i < rec->kept.nr; i++) {
		blob_names(dir, rec->kept.items[i].sha256, i, &blob, &held);
		/* The record is visible now: a prune that removes the name from here on has read it. */
		if (lstat(blob.buf, &st) == 0 && S_ISREG(st.st_mode))
			unlink(held.buf);
		else
			rename(held.buf, blob.buf);
	}
	lk_buf_release(&blob);
	lk_buf_release(&held);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static void keep_or_warn(struct lk_record_draft *rec, const char *dir,
			 const char *path, const char *reason,
			 const struct lk_keep_limits *limits, int64_t *used,
			 struct lk_strvec *warnings)
{
	struct lk_err err = LK_ERR_INIT;

	if (lk_keep_file(rec, dir, path, reason, limits, used, &err) < 0)
		lk_strvec_push(warnings, err.msg);
}

/*
 * Probe links (autoconf's conftest.o, zlib's ztest*.o, CMake's try_compile
 * objects in a scratch dir it deletes after the probe) name one or two
 * small objects that are gone before anyone can replay them. So the
 * objects of a line that names at most LK_KEEP_SMALL_OBJECTS objects, each
 * at most LK_KEEP_SMALL_SIZE bytes, are kept: at most 256 KiB copied per
 * link, nothing on a link of a real program's many objects. (Figures:
 * docs/bench.md; the choice: docs/decisions.md.)
 */
#define LK_KEEP_SMALL_OBJECTS 4
#define LK_KEEP_SMALL_SIZE ((off_t)64 << 10)

static int few_small_objects(const struct lk_argv_info *info)
{
	size_t n = 0;
	struct stat st;

	for (size_t i = 0; i < info->inputs.nr; i++) {
		const struct lk_argv_input *in = &info->inputs.items[i];

		if (in->kind != LK_IN_OBJECT || lk_rustc_temp_path(in->path) || ends_with(in->path, ".rcgu.o"))
			continue;
		if (++n > LK_KEEP_SMALL_OBJECTS || stat(in->path, &st) < 0 || st.st_size > LK_KEEP_SMALL_SIZE)
			return 0;
	}
	return n > 0;
}

void lk_keep_source_objects(struct lk_record_draft *rec, const char *dir,
			    const struct lk_strvec *objects, const struct lk_keep_limits *limits)
{
	const struct lk_argv_info *info = rec->info;
	size_t n = 0;
	int64_t used = 0;

	for (size_t i = 0; i < info->inputs.nr && n < objects->nr; i++) {
		const struct lk_argv_input *in = &info->inputs.items[i];
		struct lk_err err = LK_ERR_INIT;

		if (!lk_argv_compiles(in))
			continue;
		if (lk_keep_file(rec, dir, objects->items[n++], "source-object", limits, &used, &err) < 0) {
			lk_strvec_push(&rec->warnings, err.msg);
			continue;
		}
		/* Recorded under the source's name: the object the driver made of it. */
		free(rec->kept.items[rec->kept.nr - 1].path);
		rec->kept.items[rec->kept.nr - 1].path = lk_xstrdup(in->path);
	}
}

void lk_keep_inputs(struct lk_record_draft *rec, const char *dir,
		    const struct lk_keep_limits *limits, struct lk_strvec *warnings)
{
	const struct lk_argv_info *info = rec->info;
	int keep_objects = few_small_objects(info);
	int64_t used = 0;

	for (size_t i = 0; i < rec->rspfiles->nr; i++)
		if (rec->rspfiles->items[i].status == LK_RSP_READ)
			keep_or_warn(rec, dir, rec->rspfiles->items[i].path,
				     "response-file", limits, &used, warnings);
	for (size_t i = 0; i < info->inputs.nr; i++) {
		const struct lk_argv_input *in = &info->inputs.items[i];

		if (in->kind == LK_IN_SOURCE)
			keep_or_warn(rec, dir, in->path, "source", limits, &used, warnings);
		else if (in->kind != LK_IN_STDIN && lk_rustc_temp_path(in->path))
			keep_or_warn(rec, dir, in->path, "rustc-temp", limits, &used, warnings);
		else if (in->kind == LK_IN_OBJECT && ends_with(in->path, ".rcgu.o"))
			/* rustc deletes its codegen units after a link (link.rs, maybe_remove_temps_from_module). */
			keep_or_warn(rec, dir, in->path, "rustc-object", limits, &used, warnings);
		else if (in->kind == LK_IN_OBJECT && keep_objects)
			keep_or_warn(rec, dir, in->path, "small-object", limits, &used, warnings);
	}
}
