/*
 * The record directory, read through its index (recdir.h).
 *
 * Takes: a record directory. Gives: one index entry per record, newest
 * first. Staleness is decided by names, never by reading records: the
 * directory's record names (one readdir, no stat) against the index's
 * lines. A name with no line (a link still appending it, a line lost to a
 * prune's rewrite, a record copied in by hand) is read as a record and its
 * line appended; a line with no name (a record removed by hand) is dropped
 * and the index rewritten; a bad index is rebuilt from the records. What
 * this cannot see: a record rewritten in place under the same name
 * (linkscope never does that); removing records.index makes it read all.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/runcmd.h"
#include "linkscope/sha256.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "linkscope/record.h"
#include "linkscope/strvec.h"
#include "linkscope/vec.h"
#include "recdir.h"

static const char *const satellites[] = { ".report.json", ".report.md", ".repro.tar" };

/* The record's file facts for its line: mtime, size with satellites, its blobs' sizes. */
static void file_facts(int dfd, const char *name, const struct lk_record *rec, struct lk_index_entry *e)
{
	struct lk_buf path = LK_BUF_INIT;
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		e->mtime_s = st.st_mtim.tv_sec;
		e->bytes = st.st_size;
	}
	for (size_t k = 0; k < sizeof(satellites) / sizeof(*satellites); k++) {
		lk_buf_reset(&path);
		lk_buf_addf(&path, "%s%s", e->name, satellites[k]);
		if (fstatat(dfd, path.buf, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
			e->bytes += st.st_size;
	}
	for (size_t k = 0; k < rec->kept.nr; k++) {
		const char *blob = rec->kept.items[k].blob;
		struct lk_index_blob *b;

		/* A blob named otherwise (a record from elsewhere): prune reads the record's text. */
		if (strncmp(blob, "blobs/", 6) || !lk_sha256_is_hex(blob + 6) || blob[70] ||
		    fstatat(dfd, blob, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			e->blobs_listed = 0;
			continue;
		}
		LK_GROW(e->blobs.items, e->blobs.nr + 1, e->blobs.alloc);
		b = &e->blobs.items[e->blobs.nr++];
		memcpy(b->sha256, blob + 6, 65);
		b->size = st.st_size;
	}
	if (!e->blobs_listed)
		e->blobs.nr = 0;
	lk_buf_release(&path);
}

/* The record file `name` read into its line; 0, or after saying why 1 (no regular file: skipped) or -1 (bad). */
static int read_record(const char *dir, int dfd, const char *name, struct lk_index_entry *e)
{
	struct lk_buf path = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct lk_record rec;
	const char *kind;
	int rc = -1;

	lk_buf_addf(&path, "%s/%s", dir, name);
	if ((kind = lk_file_not_regular(path.buf))) {
		/* A record dir unpacked from a CI artifact may keep FIFOs: no record, no wait. */
		fprintf(stderr, "linkscope: skipped '%s': not a regular file (%s)\n", path.buf, kind);
		rc = 1;
	} else if (lk_record_load(path.buf, &rec, &err) < 0) {
		fprintf(stderr, "linkscope: %s\n", err.msg);
	} else {
		lk_record_index_entry(&rec, e);
		e->name = lk_xstrndup(name, strlen(name) - 5);
		if (strcmp(rec.id, e->name))
			e->id = lk_xstrdup(rec.id);
		file_facts(dfd, name, &rec, e);
		lk_record_release(&rec);
		rc = 0;
	}
	lk_buf_release(&path);
	return rc;
}

static int oldest_first(const void *a, const void *b)
{
	const struct lk_index_entry *x = a, *y = b;

	if (x->mtime_s != y->mtime_s)
		return x->mtime_s < y->mtime_s ? -1 : 1;
	return strcmp(x->name, y->name);
}

static const char *id_of(const struct lk_index_entry *e)
{
	return e->id ? e->id : e->name;
}

static int newest_first(const void *a, const void *b)
{
	const struct lk_index_entry *x = a, *y = b;

	int c;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? 1 : -1;
	/* A record copied under another name keeps its id: then its name decides, not the order read. */
	c = strcmp(id_of(y), id_of(x));
	return c ? c : strcmp(y->name, x->name);
}

/*
 * The index as `rd` now knows it, oldest first (the shim's prune looks at
 * the first line for the oldest record): only in a directory of ours, and
 * not while a prune rewrites it (it writes what it found).
 */
static void rewrite(int dfd, struct lk_recdir *rd)
{
	struct lk_buf text = LK_BUF_INIT;
	struct stat st;

	if (fstat(dfd, &st) < 0 || st.st_uid != geteuid() || flock(dfd, LOCK_EX | LOCK_NB) < 0)
		return;
	if (rd->entries.nr)
		qsort(rd->entries.items, rd->entries.nr, sizeof(*rd->entries.items), oldest_first);
	for (size_t i = 0; i < rd->entries.nr; i++)
		lk_index_format(&rd->entries.items[i], &text);
	lk_index_replace(dfd, text.buf, text.len);
	flock(dfd, LOCK_UN);
	lk_buf_release(&text);
}

/* The record names of the directory, sorted. */
static int list_names(const char *dir, struct lk_strvec *names)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (lk_index_is_record_name(de->d_name))
			lk_strvec_push(names, de->d_name);
	closedir(d);
	return 0;
}

int lk_recdir_read(const char *dir, struct lk_recdir *rd, int *bad)
{
	struct lk_strvec names = LK_STRVEC_INIT;
	struct { struct lk_index_entry **items; size_t nr, alloc; } moved = { NULL, 0, 0 };
	struct lk_err err = LK_ERR_INIT;
	struct lk_index idx;
	size_t known = 0;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), whole = 0, rc;

	memset(rd, 0, sizeof(*rd));
	if (dfd < 0 || list_names(dir, &names) < 0) {
		lk_err_errno(&err, "cannot open record directory '%s'", dir);
		fprintf(stderr, "linkscope: %s\n", err.msg);
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	rd->dir = lk_xstrdup(dir);
	rc = lk_index_read(dfd, dir, &idx, NULL, &err);
	if (rc < 0)
		fprintf(stderr, "linkscope: warning: %s; the records are read instead\n", err.msg);
	if (rc != 0) {
		lk_index_release(&idx);
		whole = names.nr > 0;	/* a fresh index, unless the dir has no record */
	}
	lk_index_sort_by_name(&idx);
	for (size_t i = 0; i < names.nr; i++) {
		size_t len = strlen(names.items[i]) - 5;
		struct lk_index_entry *e = NULL, fresh;
		char id[256];

		if (len < sizeof(id)) {
			memcpy(id, names.items[i], len);
			id[len] = '\0';
			e = (struct lk_index_entry *)lk_index_find(&idx, id);
		}
		if (e)
			known++;
		if (e && e->summary) {
			/* Taken; its name stays shared until the lookups are done (names are unique). */
			fresh = *e;
			memset(e, 0, sizeof(*e));
			e->name = fresh.name;
			LK_GROW(moved.items, moved.nr + 1, moved.alloc);
			moved.items[moved.nr++] = e;
		} else if ((rc = read_record(dir, dfd, names.items[i], &fresh)) != 0) {
			*bad += rc < 0;
			continue;
		} else if (!whole) {
			lk_index_append(dfd, LK_INDEX_NAME, &fresh);	/* not in a directory of others, nor read-only */
		}
		LK_GROW(rd->entries.items, rd->entries.nr + 1, rd->entries.alloc);
		rd->entries.items[rd->entries.nr++] = fresh;
	}
	for (size_t i = 0; i < moved.nr; i++)
		moved.items[i]->name = NULL;	/* owned by rd now */
	free(moved.items);
	/* Lines of records gone: the index anew, so that prunes and links read what is. */
	if (whole || known < idx.entries.nr)
		rewrite(dfd, rd);
	lk_index_release(&idx);
	lk_strvec_release(&names);
	close(dfd);
	if (rd->entries.nr)
		qsort(rd->entries.items, rd->entries.nr, sizeof(*rd->entries.items), newest_first);
	return 0;
}

void lk_recdir_release(struct lk_recdir *rd)
{
	for (size_t i = 0; i < rd->entries.nr; i++)
		lk_index_entry_release(&rd->entries.items[i]);
	free(rd->entries.items);
	free(rd->dir);
	memset(rd, 0, sizeof(*rd));
}

char *lk_recdir_path(const struct lk_recdir *rd, const struct lk_index_entry *e)
{
	struct lk_buf path = LK_BUF_INIT;

	lk_buf_addf(&path, "%s/%s.json", rd->dir, e->name);
	return lk_buf_detach(&path);
}

int lk_recdir_failed(const struct lk_index_entry *e)
{
	return e->signal || !e->has_exit || e->exit_status != 0;
}

/* RECORD on stdin: copied to a private temporary file (O_EXCL, 0600) in TMPDIR, at most LK_RECORD_MAX_BYTES. */
static char *stdin_record(struct lk_err *err)
{
	struct lk_buf text = LK_BUF_INIT, path = LK_BUF_INIT;
	char chunk[65536];
	FILE *fp = NULL;
	size_t n;
	int fd, bad = 0;

	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0 && text.len <= LK_RECORD_MAX_BYTES)
		lk_buf_add(&text, chunk, n);
	if (ferror(stdin) || text.len > LK_RECORD_MAX_BYTES || !text.len) {
		lk_err_set(err, LK_E_FORMAT, "cannot read a record from stdin: %s",
			   ferror(stdin) ? "read error" : text.len ? "larger than a record can be" : "it is empty");
		lk_buf_release(&text);
		return NULL;
	}
	lk_buf_addf(&path, "%s/linkscope-stdin.XXXXXX", lk_temp_dir());
	if ((fd = mkstemp(path.buf)) < 0 || !(fp = fdopen(fd, "w"))) {
		lk_err_errno(err, "cannot keep the record read from stdin in '%s'", path.buf);
		if (fd >= 0) {
			close(fd);
			unlink(path.buf);
		}
		bad = 1;
	} else {
		bad = fwrite(text.buf, 1, text.len, fp) != text.len;
		bad |= fclose(fp) != 0;
		if (bad) {
			lk_err_errno(err, "cannot keep the record read from stdin in '%s'", path.buf);
			unlink(path.buf);
		}
	}
	lk_buf_release(&text);
	if (bad) {
		lk_buf_release(&path);
		return NULL;
	}
	return lk_buf_detach(&path);
}

/* Does entry `e` answer to `want` as list prints it: its name, NAME.json, its id, or a prefix of them? */
static int answers_to(const struct lk_index_entry *e, const char *want, int prefix)
{
	size_t n = strlen(want);
	const char *names[] = { e->name, e->id };

	if (n > 5 && !strcmp(want + n - 5, ".json") && !prefix)
		n -= 5;
	for (size_t i = 0; i < 2; i++)
		if (names[i] && !strncmp(names[i], want, n) && (prefix || !names[i][n]))
			return 1;
	return 0;
}

/* RECORD as an id of `rd`, exactly or by a unique prefix. NULL with `err` (none, or the candidates). */
static char *by_id(const struct lk_recdir *rd, const char *want, struct lk_err *err)
{
	const struct lk_index_entry *hit = NULL;
	struct lk_buf cands = LK_BUF_INIT;
	size_t nr = 0;

	for (size_t i = 0; i < rd->entries.nr && !hit; i++)
		if (answers_to(&rd->entries.items[i], want, 0))
			hit = &rd->entries.items[i];
	for (size_t i = 0; i < rd->entries.nr && !hit; i++) {
		if (!answers_to(&rd->entries.items[i], want, 1))
			continue;
		if (nr++ < 5)
			lk_buf_addf(&cands, "%s%s", nr > 1 ? ", " : "", rd->entries.items[i].name);
	}
	if (hit || nr == 1) {
		for (size_t i = 0; !hit; i++)
			if (answers_to(&rd->entries.items[i], want, 1))
				hit = &rd->entries.items[i];
		lk_buf_release(&cands);
		return lk_recdir_path(rd, hit);
	}
	if (nr) {
		lk_err_set(err, LK_E_USAGE, "record id '%s' is ambiguous in '%s': %s%s", want, rd->dir, cands.buf,
			   nr > 5 ? ", ..." : "");
		lk_buf_release(&cands);
		return NULL;
	}
	lk_buf_release(&cands);
	/* A file name it was meant to be: the loader says it cannot read it, as for any missing file. */
	if (strlen(want) > 5 && !strcmp(want + strlen(want) - 5, ".json"))
		return lk_xstrdup(want);
	lk_err_set(err, LK_E_NOTFOUND, "no record '%s': no such file, and no record id in '%s' starts with it",
		   want, rd->dir);
	return NULL;
}

char *lk_recdir_resolve(const char *dir, const char *which, int *is_temp, struct lk_err *err)
{
	struct lk_recdir rd;
	struct stat st;
	char *path = NULL;
	int bad = 0, want_failed = !strcmp(which, "last-failed");

	*is_temp = 0;
	if (!*which) {
		lk_err_set(err, LK_E_USAGE, "an empty RECORD: give a path, last, last-failed, an id or -");
		return NULL;
	}
	if (!strcmp(which, "-")) {
		path = stdin_record(err);
		*is_temp = path != NULL;
		return path;
	}
	/* A file of that name is that file: an id is looked up only when there is none. */
	if (strcmp(which, "last") && !want_failed && (strchr(which, '/') || stat(which, &st) == 0))
		return lk_xstrdup(which);
	if (lk_recdir_read(dir, &rd, &bad) < 0) {
		lk_err_set(err, LK_E_NOTFOUND, "no record '%s' (the record directory cannot be read)", which);
		return NULL;
	}
	if (strcmp(which, "last") && !want_failed) {
		path = by_id(&rd, which, err);
	} else {
		for (size_t i = 0; !path && i < rd.entries.nr; i++)
			if (!want_failed || lk_recdir_failed(&rd.entries.items[i]))
				path = lk_recdir_path(&rd, &rd.entries.items[i]);
		if (!path)
			lk_err_set(err, LK_E_NOTFOUND, "no %srecord in '%s'", want_failed ? "failed " : "", dir);
	}
	lk_recdir_release(&rd);
	return path;
}
