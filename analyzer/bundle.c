/*
 * Bundles (bundle.h): a record, its kept copies and the inputs its link
 * read, in one file that travels.
 *
 * Stage: record + line model -> bundle file (`linkscope bundle`), and
 * bundle file -> record with kept copies (every command that takes
 * RECORD, through main.c's load_line_of). The file is a zstd skippable
 * frame holding the magic, then one zstd frame of a pax tar whose first
 * member is manifest.json, then record.json, then blobs/<sha256>, each
 * content once, as lld's --reproduce keeps its inputs. libarchive makes
 * and reads the tar; libzstd compresses it here, so that the bytes a
 * bundle unpacks to are counted as they come (a zip bomb stops at the
 * bound, not at the disk's end). docs/bundle-format.md is the layout;
 * docs/decisions.md says why this format.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>
#include <jansson.h>
#include <zstd.h>

#include "linkscope/banned.h"
#include "linkscope/argv.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "linkscope/json.h"
#include "linkscope/jsonw.h"
#include "linkscope/prune.h"
#include "linkscope/runcmd.h"
#include "linkscope/sha256.h"
#include "linkscope/vec.h"
#include "fingerprint.h"
#include "bundle.h"

/*
 * A zstd skippable frame (magic 0x184D2A50, little endian, then its
 * length) holding our name: zstd and tar skip it (`zstd -dc B | tar t`
 * lists a bundle), and it tells a bundle from a record by its first bytes.
 */
static const unsigned char magic[32] = {
	0x50, 0x2a, 0x4d, 0x18, 24, 0, 0, 0,
	'l', 'i', 'n', 'k', 's', 'c', 'o', 'p', 'e', '-', 'b', 'u', 'n', 'd', 'l', 'e', '/', '1',
	0, 0, 0, 0, 0, 0,
};

#define SCHEMA "linkscope-bundle-manifest/1"
/* What a tar adds to the content: a header a member (1.5 KiB with pax's), the end blocks. */
#define TAR_SLACK(files) ((uint64_t)(files) * 4096 + (1 << 20))

uint64_t lk_bundle_max_bytes(void)
{
	const char *v = getenv("LINKSCOPE_BUNDLE_MAX");
	struct lk_err err = LK_ERR_INIT;
	int64_t n;

	/* Lower only: a bundle made or read under a larger bound is what the bound is there to stop. */
	if (!v || !*v || lk_prune_parse_size(v, &n, &err) < 0 || n <= 0 || (uint64_t)n > LK_BUNDLE_MAX_BYTES)
		return LK_BUNDLE_MAX_BYTES;
	return (uint64_t)n;
}

int lk_bundle_is(const char *path)
{
	unsigned char head[sizeof(magic)];

	return lk_file_read_head(path, head, sizeof(head)) == (ssize_t)sizeof(head) &&
	       !memcmp(head, magic, sizeof(magic));
}

/* A name from a bundle, fit to print on one line: control bytes as '?', at most 200 bytes. */
static void printable(const char *s, char *out, size_t size)
{
	size_t n = 0;

	for (; s && *s && n + 4 < size && n < 200; s++)
		out[n++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
	if (s && *s)
		for (int i = 0; i < 3; i++)
			out[n++] = '.';
	out[n] = '\0';
}

/* ---- writing ---- */

struct bfile {
	char *path;		/* the original, absolute */
	char *src;		/* where its bytes are read now (a kept copy's blob, or the path) */
	const char *role;	/* "kept", "input", "library", "script", "script-input", "startup", "needed" */
	char *reason;		/* a kept copy's reason, or NULL */
	char sha256[65];
	uint64_t size;
	int first;		/* the first file of its content: its blob is written */
};

struct bfiles {
	struct bfile *items;
	size_t nr, alloc;
};

/* The SHA-256 and size of `path`, read as a regular file. 0, or -1 with `err`. */
static int hash_file(const char *path, char hex[65], uint64_t *size, struct lk_err *err)
{
	struct lk_sha256 ctx;
	unsigned char buf[65536];
	struct stat st;
	ssize_t n;
	int fd = lk_file_open_regular(path, &st);

	if (fd < 0)
		return lk_err_errno(err, "cannot read '%s'", path);
	lk_sha256_init(&ctx);
	*size = 0;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			lk_err_errno(err, "cannot read '%s'", path);
			close(fd);
			return -1;
		}
		lk_sha256_update(&ctx, buf, (size_t)n);
		*size += (uint64_t)n;
	}
	close(fd);
	lk_sha256_final_hex(&ctx, hex);
	return 0;
}

/* Add `path` (absolute) read from `src` to `files`, once a path; hashed now. 0, or -1 with `err`. */
static int add_file(struct bfiles *files, const char *path, const char *src, const char *role,
		    const char *reason, uint64_t *bytes, struct lk_err *err)
{
	struct bfile f = { NULL, NULL, role, NULL, "", 0, 1 };
	uint64_t max = lk_bundle_max_bytes();

	for (size_t i = 0; i < files->nr; i++)
		if (!strcmp(files->items[i].path, path))
			return 0;
	if (files->nr >= LK_BUNDLE_MAX_FILES)
		return lk_err_set(err, LK_E_USAGE, "cannot bundle '%s': a bundle lists at most %d files",
				  path, LK_BUNDLE_MAX_FILES);
	if (hash_file(src, f.sha256, &f.size, err) < 0)
		return -1;
	for (size_t i = 0; i < files->nr && f.first; i++)
		if (!strcmp(files->items[i].sha256, f.sha256))
			f.first = 0;
	if (f.first && (f.size > max || *bytes + f.size > max))
		return lk_err_set(err, LK_E_USAGE, "cannot bundle '%s' (%llu bytes): a bundle carries at most %llu bytes",
				  path, (unsigned long long)f.size, (unsigned long long)max);
	if (f.first)
		*bytes += f.size;
	f.path = lk_xstrdup(path);
	f.src = lk_xstrdup(src);
	f.reason = reason ? lk_xstrdup(reason) : NULL;
	LK_GROW(files->items, files->nr + 1, files->alloc);
	files->items[files->nr++] = f;
	return 0;
}

static void bfiles_release(struct bfiles *files)
{
	for (size_t i = 0; i < files->nr; i++) {
		free(files->items[i].path);
		free(files->items[i].src);
		free(files->items[i].reason);
	}
	free(files->items);
}

static int found(const struct lk_elf_info *info)
{
	return info->kind != LK_FILE_MISSING && info->kind != LK_FILE_UNREADABLE;
}

/* Is `path` inside `dir` (a kept copy of the record, the driver's scratch)? */
static int inside(const char *path, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	return n && !strncmp(path, dir, n) && path[n] == '/';
}

/* What an item of the line is to the link, as the manifest says it. */
static const char *role_of(const struct lk_line_item *it)
{
	if (it->info.kind == LK_FILE_TEXT)
		return "script";
	if (it->parent >= 0)
		return "script-input";
	if (it->kind == LK_ITEM_LIB)
		return "library";
	return it->position < 0 ? "startup" : "input";
}

/* Every file the line read (resolved items, DT_NEEDED libraries found), to `files`; the missing to `absent`. */
static int add_inputs(const struct lk_record *rec, const struct lk_line *line, struct bfiles *files,
		      uint64_t *bytes, struct lk_strvec *absent, struct lk_err *err)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		char *abs;
		int rc;

		if ((it->kind != LK_ITEM_FILE && it->kind != LK_ITEM_LIB) || !it->path)
			continue;
		/* A kept copy stands in for it: carried as the record's kept copy already. */
		if (inside(it->path, rec->dir) || inside(it->path, line->scratch))
			continue;
		abs = lk_fingerprint_path(rec, it->path);
		if (!found(&it->info)) {
			lk_strvec_push(absent, abs);
			free(abs);
			continue;
		}
		rc = add_file(files, abs, abs, role_of(it), NULL, bytes, err);
		free(abs);
		if (rc < 0)
			return -1;
	}
	for (size_t i = 0; i < line->needed.nr; i++) {
		const struct lk_needed *n = &line->needed.items[i];
		char *abs;
		int rc;

		if (!n->path || n->on_line_as || inside(n->path, rec->dir))
			continue;
		abs = lk_fingerprint_path(rec, n->path);
		rc = add_file(files, abs, abs, "needed", NULL, bytes, err);
		free(abs);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* The record's kept copies, to `files` (a bundled input carried on as an input). */
static int add_kept(const struct lk_record *rec, struct bfiles *files, uint64_t *bytes, struct lk_strvec *absent,
		    struct lk_err *err)
{
	for (size_t i = 0; i < rec->kept.nr; i++) {
		const struct lk_record_kept *k = &rec->kept.items[i];
		int bundled = k->reason && !strcmp(k->reason, "bundle");
		struct lk_buf src = LK_BUF_INIT;
		char *abs = lk_fingerprint_path(rec, k->path);
		int rc;

		lk_buf_addf(&src, "%s/%s", rec->dir, k->blob);
		/* A record copied away from its blobs/: nothing to carry, said as absent. */
		if (access(src.buf, F_OK) < 0 && errno == ENOENT) {
			lk_strvec_push(absent, abs);
			rc = 0;
		} else {
			rc = add_file(files, abs, src.buf, bundled ? "input" : "kept", bundled ? NULL : k->reason, bytes, err);
		}
		lk_buf_release(&src);
		free(abs);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static void manifest_of(const struct lk_record *rec, const char *record_sha, size_t record_len,
			const struct bfiles *files, const struct lk_strvec *absent, struct lk_buf *out)
{
	struct lk_jsonw w = LK_JSONW_INIT;

	lk_jsonw_object(&w);
	lk_jsonw_key(&w, "schema");
	lk_jsonw_str(&w, SCHEMA);
	lk_jsonw_key(&w, "tool");
	lk_jsonw_str(&w, "linkscope " LINKSCOPE_VERSION);
	lk_jsonw_key(&w, "record");
	lk_jsonw_object(&w);
	lk_jsonw_key(&w, "member");
	lk_jsonw_str(&w, "record.json");
	lk_jsonw_key(&w, "sha256");
	lk_jsonw_str(&w, record_sha);
	lk_jsonw_key(&w, "size");
	lk_jsonw_int(&w, (int64_t)record_len);
	lk_jsonw_key(&w, "id");
	lk_jsonw_str(&w, rec->id);
	lk_jsonw_end(&w);
	lk_jsonw_key(&w, "files");
	lk_jsonw_array(&w);
	for (size_t i = 0; i < files->nr; i++) {
		const struct bfile *f = &files->items[i];

		lk_jsonw_object(&w);
		lk_jsonw_key(&w, "path");
		lk_jsonw_str(&w, f->path);
		lk_jsonw_key(&w, "sha256");
		lk_jsonw_str(&w, f->sha256);
		lk_jsonw_key(&w, "size");
		lk_jsonw_int(&w, (int64_t)f->size);
		lk_jsonw_key(&w, "role");
		lk_jsonw_str(&w, f->role);
		if (f->reason) {
			lk_jsonw_key(&w, "reason");
			lk_jsonw_str(&w, f->reason);
		}
		lk_jsonw_end(&w);
	}
	lk_jsonw_end(&w);
	lk_jsonw_key(&w, "absent");
	lk_jsonw_array(&w);
	for (size_t i = 0; i < absent->nr; i++)
		lk_jsonw_str(&w, absent->items[i]);
	lk_jsonw_end(&w);
	lk_jsonw_end(&w);
	lk_buf_addf(out, "%s\n", w.out.buf);
	lk_buf_release(&w.out);
}

/* The compressing sink libarchive writes the tar to. */
struct zout {
	int fd;
	ZSTD_CCtx *cctx;
	uint64_t written;
	int failed;		/* errno of the write that failed, or 0 */
};

static int zflush(struct zout *z, ZSTD_inBuffer *in, ZSTD_EndDirective end)
{
	unsigned char buf[65536];
	size_t left;

	do {
		ZSTD_outBuffer out = { buf, sizeof(buf), 0 };

		left = ZSTD_compressStream2(z->cctx, &out, in, end);
		if (ZSTD_isError(left)) {
			z->failed = EIO;
			return -1;
		}
		for (size_t off = 0; off < out.pos;) {
			ssize_t n = write(z->fd, buf + off, out.pos - off);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				z->failed = errno;
				return -1;
			}
			off += (size_t)n;
			z->written += (uint64_t)n;
		}
	} while (end == ZSTD_e_end ? left != 0 : in->pos < in->size);
	return 0;
}

static la_ssize_t zwrite(struct archive *a, void *ctx, const void *data, size_t len)
{
	struct zout *z = ctx;
	ZSTD_inBuffer in = { data, len, 0 };

	if (zflush(z, &in, ZSTD_e_continue) < 0) {
		archive_set_error(a, z->failed, "cannot write");
		return -1;
	}
	return (la_ssize_t)len;
}

static int zclose(struct archive *a, void *ctx)
{
	struct zout *z = ctx;
	ZSTD_inBuffer in = { NULL, 0, 0 };

	if (zflush(z, &in, ZSTD_e_end) < 0) {
		archive_set_error(a, z->failed, "cannot write");
		return ARCHIVE_FATAL;
	}
	return ARCHIVE_OK;
}

/* A member's header: a regular file, 0600, time 0 (the same inputs make the same bundle). */
static int member_header(struct archive *a, const char *name, uint64_t size)
{
	struct archive_entry *e = archive_entry_new();
	int rc;

	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0600);
	archive_entry_set_size(e, (la_int64_t)size);
	archive_entry_set_mtime(e, 0, 0);
	rc = archive_write_header(a, e);
	archive_entry_free(e);
	return rc == ARCHIVE_OK ? 0 : -1;
}

static int member_text(struct archive *a, const char *name, const char *text, size_t len)
{
	return member_header(a, name, len) < 0 || archive_write_data(a, text, len) != (la_ssize_t)len ? -1 : 0;
}

/* The blob of `f`, read again: a file that changed since it was hashed is refused, not carried wrong. */
static int member_blob(struct archive *a, const struct bfile *f, struct lk_err *err)
{
	struct lk_sha256 ctx;
	unsigned char buf[65536];
	char name[80], hex[65];
	uint64_t total = 0;
	struct stat st;
	ssize_t n;
	int fd;

	snprintf(name, sizeof(name), "blobs/%s", f->sha256);
	if ((fd = lk_file_open_regular(f->src, &st)) < 0)
		return lk_err_errno(err, "cannot read '%s'", f->path);
	if ((uint64_t)st.st_size != f->size || member_header(a, name, f->size) < 0) {
		close(fd);
		return lk_err_set(err, LK_E_IO, "cannot bundle '%s': %s", f->path,
				  (uint64_t)st.st_size != f->size ? "it changed while it was bundled" :
				  archive_error_string(a));
	}
	lk_sha256_init(&ctx);
	while (total < f->size && (n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || archive_write_data(a, buf, (size_t)n) != n) {
			close(fd);
			return lk_err_errno(err, "cannot bundle '%s'", f->path);
		}
		lk_sha256_update(&ctx, buf, (size_t)n);
		total += (uint64_t)n;
	}
	close(fd);
	lk_sha256_final_hex(&ctx, hex);
	if (total != f->size || strcmp(hex, f->sha256))
		return lk_err_set(err, LK_E_IO, "cannot bundle '%s': it changed while it was bundled", f->path);
	return 0;
}

/* The archive of the manifest, the record and the blobs, through `z`. 0, or -1 with `err`. */
static int write_archive(struct zout *z, const char *manifest, const char *record_text, size_t record_len,
			 const struct bfiles *files, const char *out, struct lk_err *err)
{
	struct archive *a = archive_write_new();
	int rc = 0;

	if (!a || archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
	    archive_write_set_bytes_in_last_block(a, 1) != ARCHIVE_OK ||
	    archive_write_open(a, z, NULL, zwrite, zclose) != ARCHIVE_OK) {
		rc = lk_err_set(err, LK_E_IO, "cannot write bundle '%s': %s", out, a ? archive_error_string(a) : "no memory");
		goto out;
	}
	if (member_text(a, "manifest.json", manifest, strlen(manifest)) < 0 ||
	    member_text(a, "record.json", record_text, record_len) < 0) {
		rc = lk_err_set(err, LK_E_IO, "cannot write bundle '%s': %s", out, archive_error_string(a));
		goto out;
	}
	for (size_t i = 0; i < files->nr && rc == 0; i++)
		if (files->items[i].first)
			rc = member_blob(a, &files->items[i], err);
	if (rc == 0 && archive_write_close(a) != ARCHIVE_OK)
		rc = lk_err_set(err, LK_E_IO, "cannot write bundle '%s': %s", out, archive_error_string(a));
out:
	if (a)
		archive_write_free(a);
	return rc;
}

int lk_bundle_write(const struct lk_record *rec, const struct lk_line *line, const char *record_text,
		    size_t record_len, const char *out, int inputs, struct lk_bundle_summary *sum,
		    struct lk_err *err)
{
	struct bfiles files = { NULL, 0, 0 };
	struct lk_buf manifest = LK_BUF_INIT, tmp = LK_BUF_INIT;
	struct zout z = { -1, NULL, 0, 0 };
	struct lk_sha256 ctx;
	char record_sha[65];
	uint64_t bytes = record_len;
	int rc = -1;

	memset(sum, 0, sizeof(*sum));
	lk_sha256_init(&ctx);
	lk_sha256_update(&ctx, record_text, record_len);
	lk_sha256_final_hex(&ctx, record_sha);
	if (add_kept(rec, &files, &bytes, &sum->absent, err) < 0 ||
	    (inputs && add_inputs(rec, line, &files, &bytes, &sum->absent, err) < 0))
		goto out;
	manifest_of(rec, record_sha, record_len, &files, &sum->absent, &manifest);
	if (bytes + manifest.len > lk_bundle_max_bytes()) {
		lk_err_set(err, LK_E_USAGE, "cannot bundle '%s': its manifest passes the bound of %llu bytes", rec->path,
			   (unsigned long long)lk_bundle_max_bytes());
		goto out;
	}
	/* A new file beside `out` (O_EXCL, 0600), renamed over it when whole: no half bundle under its name. */
	lk_buf_addf(&tmp, "%s.XXXXXX", out);
	if ((z.fd = mkstemp(tmp.buf)) < 0) {
		lk_err_errno(err, "cannot write bundle '%s'", out);
		goto out;
	}
	z.cctx = ZSTD_createCCtx();
	ZSTD_CCtx_setParameter(z.cctx, ZSTD_c_compressionLevel, 9);
	ZSTD_CCtx_setParameter(z.cctx, ZSTD_c_checksumFlag, 1);
	if (write(z.fd, magic, sizeof(magic)) != (ssize_t)sizeof(magic)) {
		lk_err_errno(err, "cannot write bundle '%s'", out);
		goto out;
	}
	z.written = sizeof(magic);
	if (write_archive(&z, manifest.buf, record_text, record_len, &files, out, err) < 0)
		goto out;
	if (z.failed || fsync(z.fd) < 0 || close(z.fd) < 0) {
		errno = z.failed ? z.failed : errno;
		z.fd = -1;
		lk_err_errno(err, "cannot write bundle '%s'", out);
		goto out;
	}
	z.fd = -1;
	if (rename(tmp.buf, out) < 0) {
		lk_err_errno(err, "cannot write bundle '%s'", out);
		goto out;
	}
	for (size_t i = 0; i < files.nr; i++) {
		*(strcmp(files.items[i].role, "kept") ? &sum->inputs : &sum->kept) += 1;
		sum->blobs += files.items[i].first;
	}
	sum->bytes = bytes + manifest.len;
	sum->compressed = z.written;
	rc = 0;
out:
	if (z.fd >= 0)
		close(z.fd);
	if (rc < 0 && tmp.len)
		unlink(tmp.buf);
	ZSTD_freeCCtx(z.cctx);
	bfiles_release(&files);
	lk_buf_release(&manifest);
	lk_buf_release(&tmp);
	return rc;
}

void lk_bundle_summary_release(struct lk_bundle_summary *sum)
{
	lk_strvec_release(&sum->absent);
}

/* ---- reading ---- */

/* The decompressing source libarchive reads the tar from: every byte counted against the bound. */
struct zin {
	int fd;
	ZSTD_DCtx *dctx;
	unsigned char inbuf[65536], outbuf[65536];
	ZSTD_inBuffer in;
	size_t last;		/* ZSTD_decompressStream's last answer: 0 when a frame is complete */
	uint64_t total, max;	/* bytes unpacked so far; the bound (lk_bundle_max_bytes) */
	int eof;
};

static la_ssize_t zread(struct archive *a, void *ctx, const void **buf)
{
	struct zin *z = ctx;
	ZSTD_outBuffer out = { z->outbuf, sizeof(z->outbuf), 0 };

	while (out.pos == 0) {
		if (z->in.pos == z->in.size) {
			ssize_t n = z->eof ? 0 : read(z->fd, z->inbuf, sizeof(z->inbuf));

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				archive_set_error(a, errno, "cannot read it");
				return -1;
			}
			if (n == 0) {
				z->eof = 1;
				if (z->last != 0) {
					archive_set_error(a, EINVAL, "it is truncated (its compressed stream ends early)");
					return -1;
				}
				return 0;
			}
			z->in = (ZSTD_inBuffer){ z->inbuf, (size_t)n, 0 };
		}
		z->last = ZSTD_decompressStream(z->dctx, &out, &z->in);
		if (ZSTD_isError(z->last)) {
			archive_set_error(a, EINVAL, "its compressed stream is corrupt (%s)", ZSTD_getErrorName(z->last));
			return -1;
		}
	}
	z->total += out.pos;
	if (z->total > z->max + TAR_SLACK(LK_BUNDLE_MAX_FILES + 2)) {
		archive_set_error(a, EFBIG, "it unpacks to more than a bundle may hold (%llu bytes)",
				  (unsigned long long)z->max);
		return -1;
	}
	*buf = z->outbuf;
	return (la_ssize_t)out.pos;
}

/* Is `name` one a bundle holds: manifest.json, record.json, blobs/<64 lower-case hex>? */
static int member_name_ok(const char *name, int *is_blob)
{
	*is_blob = !strncmp(name, "blobs/", 6);
	if (*is_blob) {
		for (const char *p = name + 6; *p; p++)
			if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
				return 0;
		return strlen(name + 6) == 64;
	}
	return !strcmp(name, "manifest.json") || !strcmp(name, "record.json");
}

/* One member's data to a new file of `dfd` named as the member; a blob checked against its name. */
static int unpack_member(struct archive *a, struct archive_entry *e, int dfd, const char *bundle,
			 uint64_t *content, uint64_t max, struct lk_err *err)
{
	const char *name = archive_entry_pathname(e);
	/* NULL when it is not in this locale's charset: shown as UTF-8 then, refused by its name. */
	const char *utf8 = name ? name : archive_entry_pathname_utf8(e);
	char shown[256], hex[65];
	unsigned char buf[65536];
	struct lk_sha256 ctx;
	la_int64_t size = archive_entry_size(e);
	uint64_t got = 0;
	la_ssize_t n;
	int is_blob, fd;

	printable(utf8 ? utf8 : "", shown, sizeof(shown));
	if (!name || !member_name_ok(name, &is_blob))
		return lk_err_set(err, LK_E_FORMAT, "bundle '%s': refusing member '%s': not a name a bundle holds (manifest.json, record.json, blobs/<sha256>)",
				  bundle, shown);
	if (archive_entry_filetype(e) != AE_IFREG || archive_entry_hardlink(e) || archive_entry_symlink(e))
		return lk_err_set(err, LK_E_FORMAT, "bundle '%s': refusing member '%s': not a regular file", bundle, shown);
	/*
	 * lk_bundle_write writes none: a sparse member's holes are not in
	 * the compressed stream zread counts, and 11 KB made 2 GiB of zeros.
	 */
	if (archive_entry_sparse_count(e) > 0)
		return lk_err_set(err, LK_E_FORMAT, "bundle '%s': refusing member '%s': a sparse file (a bundle holds none)",
				  bundle, shown);
	if (!archive_entry_size_is_set(e) || size < 0 || (uint64_t)size > max - *content)
		return lk_err_set(err, LK_E_FORMAT, "bundle '%s': refusing member '%s': it declares %lld bytes, more than a bundle may hold (%llu in all)",
				  bundle, shown, (long long)size, (unsigned long long)max);
	if (!is_blob && (uint64_t)size > LK_BUNDLE_MANIFEST_MAX + LK_RECORD_MAX_BYTES)
		return lk_err_set(err, LK_E_FORMAT, "bundle '%s': refusing member '%s': %lld bytes, larger than it can be",
				  bundle, shown, (long long)size);
	/* O_EXCL: a member given twice is refused, not written over; O_NOFOLLOW: nothing planted is followed. */
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno == EEXIST ?
		       lk_err_set(err, LK_E_FORMAT, "bundle '%s': refusing member '%s': it is there twice", bundle, shown) :
		       lk_err_errno(err, "bundle '%s': cannot unpack member '%s'", bundle, shown);
	lk_sha256_init(&ctx);
	while ((n = archive_read_data(a, buf, sizeof(buf))) > 0) {
		got += (uint64_t)n;
		if (got > (uint64_t)size || write(fd, buf, (size_t)n) != n) {
			close(fd);
			return lk_err_errno(err, "bundle '%s': cannot unpack member '%s'", bundle, shown);
		}
		lk_sha256_update(&ctx, buf, (size_t)n);
	}
	if (close(fd) < 0 || n < 0 || got != (uint64_t)size)
		return lk_err_set(err, LK_E_FORMAT, "bundle '%s': cannot unpack member '%s': %s", bundle, shown,
				  n < 0 ? archive_error_string(a) : "it is truncated");
	*content += got;
	lk_sha256_final_hex(&ctx, hex);
	if (is_blob && strcmp(hex, name + 6))
		return lk_err_set(err, LK_E_FORMAT, "bundle '%s': refusing member '%s': its content's SHA-256 is %s",
				  bundle, shown, hex);
	return 0;
}

/* Every member of the bundle open on `fd` (past its magic) into `dir`. 0, or -1 with `err`. */
static int unpack_all(int fd, const char *dir, const char *bundle, struct lk_err *err)
{
	struct zin *z = lk_xcalloc(1, sizeof(*z));
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	uint64_t content = 0;
	size_t members = 0;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), r, rc = -1;

	z->fd = fd;
	z->max = lk_bundle_max_bytes();
	z->dctx = ZSTD_createDCtx();
	z->last = 1;
	if (dfd < 0 || mkdirat(dfd, "blobs", 0700) < 0) {
		lk_err_errno(err, "bundle '%s': cannot unpack into '%s'", bundle, dir);
		goto out;
	}
	/* Only tar (pax is tar): no other format's reader is exposed to a hostile file. */
	archive_read_support_format_tar(a);
	if (archive_read_open(a, z, NULL, zread, NULL) != ARCHIVE_OK) {
		lk_err_set(err, LK_E_FORMAT, "bundle '%s': cannot read it: %s", bundle, archive_error_string(a));
		goto out;
	}
	/*
	 * ARCHIVE_WARN: a name not in this locale's charset (pax names are
	 * UTF-8; a bundle's are ASCII): unpack_member refuses it by its name.
	 */
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		if (++members > LK_BUNDLE_MAX_FILES + 2) {
			lk_err_set(err, LK_E_FORMAT, "bundle '%s': it has more than %d members", bundle, LK_BUNDLE_MAX_FILES + 2);
			goto out;
		}
		if (unpack_member(a, e, dfd, bundle, &content, z->max, err) < 0)
			goto out;
	}
	if (r != ARCHIVE_EOF) {
		lk_err_set(err, LK_E_FORMAT, "bundle '%s': cannot read it: %s", bundle, archive_error_string(a));
		goto out;
	}
	/* Said here, of the bundle: past this the record is read from the private dir, whose name means nothing to the user. */
	for (size_t i = 0; i < 2; i++)
		if (faccessat(dfd, i ? "record.json" : "manifest.json", F_OK, 0) < 0) {
			lk_err_set(err, LK_E_FORMAT, "bundle '%s': it has no %s", bundle, i ? "record.json" : "manifest.json");
			goto out;
		}
	rc = 0;
out:
	if (dfd >= 0)
		close(dfd);
	archive_read_free(a);
	ZSTD_freeDCtx(z->dctx);
	free(z);
	return rc;
}

char *lk_bundle_unpack(const char *file, const char *bundle, struct lk_err *err)
{
	unsigned char head[sizeof(magic)];
	struct stat st;
	char *dir;
	int fd = lk_file_open_regular(file, &st);

	if (fd < 0) {
		lk_err_errno(err, "cannot read bundle '%s'", bundle);
		return NULL;
	}
	if (read(fd, head, sizeof(head)) != (ssize_t)sizeof(head) || memcmp(head, magic, sizeof(magic))) {
		close(fd);
		lk_err_set(err, LK_E_FORMAT, "bundle '%s': not a linkscope bundle", bundle);
		return NULL;
	}
	/* mkdtemp: a new dir, 0700, that no other user can have planted anything in. */
	if (!(dir = lk_scratch_dir("linkscope-bundle"))) {
		lk_err_errno(err, "bundle '%s': cannot make a private directory to unpack it", bundle);
		close(fd);
		return NULL;
	}
	if (unpack_all(fd, dir, bundle, err) < 0) {
		lk_scratch_remove(dir);
		free(dir);
		dir = NULL;
	}
	close(fd);
	return dir;
}

/* The manifest of the unpacked `dir`, checked against its record. NULL with `err`. */
static json_t *read_manifest(const char *dir, const char *bundle, struct lk_err *err)
{
	struct lk_buf path = LK_BUF_INIT, text = LK_BUF_INIT;
	json_error_t jerr;
	json_t *m = NULL, *rsha;
	char hex[65];
	uint64_t size;

	lk_buf_addf(&path, "%s/manifest.json", dir);
	if (lk_buf_read_file(&text, path.buf, LK_BUNDLE_MANIFEST_MAX) < 0) {
		lk_err_set(err, LK_E_FORMAT, "bundle '%s': it has no manifest.json", bundle);
		goto out;
	}
	if (!(m = json_loadb(text.buf, text.len, JSON_REJECT_DUPLICATES, &jerr)) || !json_is_object(m) ||
	    !json_is_string(json_object_get(m, "schema")) ||
	    strcmp(json_string_value(json_object_get(m, "schema")), SCHEMA)) {
		lk_err_set(err, LK_E_FORMAT, "bundle '%s': its manifest.json is not a %s manifest", bundle, SCHEMA);
		goto bad;
	}
	lk_buf_reset(&path);
	lk_buf_addf(&path, "%s/record.json", dir);
	rsha = json_object_get(json_object_get(m, "record"), "sha256");
	if (hash_file(path.buf, hex, &size, err) < 0) {
		lk_err_set(err, LK_E_FORMAT, "bundle '%s': it has no record.json", bundle);
		goto bad;
	}
	if (!json_is_string(rsha) || strcmp(json_string_value(rsha), hex)) {
		lk_err_set(err, LK_E_FORMAT, "bundle '%s': its record.json is not the one its manifest names (SHA-256 %s)",
			   bundle, hex);
		goto bad;
	}
	goto out;
bad:
	json_decref(m);
	m = NULL;
out:
	lk_buf_release(&path);
	lk_buf_release(&text);
	return m;
}

/* One file the manifest lists (`f`, the manifest's: nothing of it is used after it is freed) as a kept copy of `rec`. */
static int adopt_file(struct lk_record *rec, json_t *f, const char *dir, const char *bundle, struct lk_err *err)
{
	const char *sha = json_string_value(json_object_get(f, "sha256"));
	const char *role = json_string_value(json_object_get(f, "role"));
	char *path = lk_json_bytes(json_object_get(f, "path"));
	struct lk_record_kept k = { NULL, NULL, NULL };
	struct lk_buf blob = LK_BUF_INIT;
	char shown[256];
	int carried;

	printable(path, shown, sizeof(shown));
	if (!path || path[0] != '/' || !sha || strlen(sha) != 64 || !lk_sha256_is_hex(sha)) {
		free(path);
		return lk_err_set(err, LK_E_FORMAT, "bundle '%s': its manifest lists a file without an absolute path and a SHA-256 ('%s')",
				  bundle, shown);
	}
	lk_buf_addf(&blob, "%s/blobs/%s", dir, sha);
	carried = access(blob.buf, F_OK) == 0;
	lk_buf_release(&blob);
	if (!carried) {
		free(path);
		return lk_err_set(err, LK_E_FORMAT, "bundle '%s': its manifest lists '%s' as blobs/%s, which it does not carry",
				  bundle, shown, sha);
	}
	/* The record lists its own kept copies. */
	if (role && !strcmp(role, "kept")) {
		free(path);
		return 0;
	}
	k.path = path;
	k.blob = lk_xmalloc(6 + 65);
	snprintf(k.blob, 6 + 65, "blobs/%s", sha);
	k.reason = lk_xstrdup("bundle");
	LK_GROW(rec->kept.items, rec->kept.nr + 1, rec->kept.alloc);
	rec->kept.items[rec->kept.nr++] = k;
	return 0;
}

int lk_bundle_adopt(struct lk_record *rec, const char *dir, const char *bundle, struct lk_err *err)
{
	json_t *m = read_manifest(dir, bundle, err), *f;
	size_t i;
	int rc = 0;

	if (!m)
		return -1;
	/* The manifest is freed only after the last message that quotes it (it named a freed string). */
	json_array_foreach(json_object_get(m, "files"), i, f)
		if ((rc = adopt_file(rec, f, dir, bundle, err)) < 0)
			break;
	json_decref(m);
	return rc;
}

/* ---- what is not here ---- */

static void say_absent(struct lk_line *line, const char *what, const char *path)
{
	struct lk_buf why = LK_BUF_INIT;

	lk_buf_addf(&why, "'%s'%s%s%s, which the link read, is absent on this machine and not in the bundle (bundle it with --inputs where the link ran)",
		    what, path ? " (" : "", path ? path : "", path ? ")" : "");
	for (size_t i = 0; i < line->unknown.nr; i++)
		if (!strcmp(line->unknown.items[i], why.buf)) {
			lk_buf_release(&why);
			return;
		}
	lk_strvec_push_owned(&line->unknown, lk_buf_detach(&why));
}

/*
 * Did the link find -l `word`? The shim looked for its candidates in the
 * line's own -L dirs only (docs/record-format.md), so a system library is
 * found when the linker ran and did not say it could not find it (GNU ld
 * and lld name "-lNAME", mold "library not found: NAME").
 */
static int linker_found(const struct lk_record *rec, const char *word)
{
	struct lk_buf mold = LK_BUF_INIT;
	const char *err = rec->stderr_text ? rec->stderr_text : "";
	int said;

	if (!rec->has_exit || rec->signal)
		return 0;
	if (rec->exit_status == 0)
		return 1;
	lk_buf_addf(&mold, "library not found: %s", word + 2);
	said = strstr(err, word) || strstr(err, mold.buf);
	lk_buf_release(&mold);
	return !said;
}

void lk_bundle_say_absent(const struct lk_record *rec, struct lk_line *line)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		const struct lk_record_seen *seen = lk_fingerprint_of(rec, it);
		int read_then;

		if ((it->kind != LK_ITEM_FILE && it->kind != LK_ITEM_LIB) || found(&it->info))
			continue;
		/*
		 * The link read it when the shim saw it there (its argv's files,
		 * a -l's candidates), or when it came from what the driver
		 * added (the -### expansion) or a script the link read.
		 */
		if (it->kind == LK_ITEM_LIB)
			read_then = (seen && seen->existed) || linker_found(rec, it->word);
		else
			read_then = seen ? seen->existed : (it->position < 0 || it->parent >= 0);
		if (!read_then || (it->kind == LK_ITEM_FILE && lk_argv_is_driver_temp(it->word)))
			continue;
		if (it->kind == LK_ITEM_LIB)
			say_absent(line, it->word, seen && seen->path ? seen->path : NULL);
		else
			say_absent(line, it->path ? it->path : it->word, NULL);
	}
}
