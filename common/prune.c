/*
 * The record directory, bounded: records removed oldest first (past the
 * age bound, then while the directory is over the size bound), then the
 * blobs no remaining record names.
 *
 * Shared by the analyzer (`linkscope prune`) and the shim (LINKSCOPE_MAX_SIZE,
 * LINKSCOPE_MAX_AGE), so it uses no jansson: a record's blobs are those its
 * line in the index lists (recindex.h), else found by scanning its text for
 * "blobs/<64 hex>", which can only over-count (a blob kept too long), never
 * under-count (a blob removed while named). A prune counts the directory
 * itself (the index only tells a link whether to prune: prune_due) and
 * rewrites the index with what remains.
 *
 * Safety: every file is reached relative to the directory's descriptor
 * (openat, fstatat and unlinkat with AT_SYMLINK_NOFOLLOW semantics), only
 * regular files with the names linkscope writes are removed, and a symbolic
 * link (blobs/ itself included) is never followed.
 *
 * Links keep blobs while a prune runs, without a lock: a blob is removed in
 * three steps (renamed to a tombstone, the records written since the
 * listing read, then the tombstone removed or put back), and a link checks
 * its blobs once its record is written (shim/keep.c). The argument is in
 * docs/record-format.md, "Pruning while links run".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/sha256.h"
#include "linkscope/buf.h"
#include "linkscope/prune.h"
#include "linkscope/recindex.h"
#include "linkscope/strvec.h"
#include "linkscope/vec.h"

/* A blob this young may belong to a record being written now. */
#define BLOB_GRACE 300
/* A held copy or a tombstone this old belongs to a link or a prune that died. */
#define STALE_TMP 3600
/* A file being written (a record's, a copy's, a view's, the index's) this old: its writer died. */
#define STALE_WRITE 600
/* The shim's look at the index for the last checkpoint: this much of its tail at most. */
#define TAIL_CHUNK ((size_t)8 << 10)
#define TAIL_MAX ((size_t)1 << 20)
/* Records larger than this are not scanned for blobs (and keep every blob). */
#define SCAN_LIMIT ((size_t)64 << 20)

static const char *const satellites[] = { ".report.json", ".report.md", ".repro.tar" };

struct prec {
	char *id;		/* the file name without ".json" */
	int64_t mtime;
	int64_t size;		/* the record and its satellites */
	struct { size_t *items; size_t nr, alloc; } blobs;
	int removed;
	int scanned;		/* blobs found (from its index line or its text) */
	const struct lk_index_entry *entry;	/* its line in the index, or NULL */
};

struct pblob {
	char name[65];
	int64_t mtime, size;
	dev_t dev;		/* the file listed: a tombstone must be this one */
	ino_t ino;
	size_t refs;
	int parked;		/* renamed to its tombstone, to be removed or put back */
};

struct state {
	int dfd, bfd;		/* the directory, blobs/ (or -1) */
	struct { struct prec *items; size_t nr, alloc; } recs;
	struct { struct pblob *items; size_t nr, alloc; } blobs;
	int keep_all_blobs;	/* a record could not be scanned */
	struct lk_index index;	/* the index as it was, sorted by name */
	struct lk_strvec others;	/* names list and report take for records, prune does not (kept in the index) */
};


/* <YYYYMMDD>T...json, and not one of a record's satellites. */
static int is_record_name(const char *name)
{
	for (int i = 0; i < 8; i++)
		if (name[i] < '0' || name[i] > '9')
			return 0;
	return name[8] == 'T' && lk_str_ends_with(name, ".json") && !lk_str_ends_with(name, ".report.json");
}

/* A regular file's status, never through a symbolic link; -1 otherwise. */
static int regular(int dfd, const char *name, struct stat *st)
{
	return fstatat(dfd, name, st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st->st_mode) ? -1 : 0;
}

static void remove_file(int dfd, const char *name, const struct lk_prune_limits *lim, size_t *count)
{
	struct stat st;

	/* Checked again just before: only a regular file is ever removed. */
	if (regular(dfd, name, &st) < 0)
		return;
	if (lim->dry_run || unlinkat(dfd, name, 0) == 0)
		(*count)++;
}

/* The record `name` (an <id>.json) with its satellites' sizes; `scratch` is a buffer to use. */
static struct prec *add_record(struct state *s, const char *name, const struct stat *st,
			       struct lk_buf *scratch)
{
	struct prec *r;

	LK_GROW(s->recs.items, s->recs.nr + 1, s->recs.alloc);
	r = &s->recs.items[s->recs.nr++];
	memset(r, 0, sizeof(*r));
	r->id = lk_xstrndup(name, strlen(name) - 5);
	r->mtime = st->st_mtim.tv_sec;
	r->size = st->st_size;
	for (size_t k = 0; k < sizeof(satellites) / sizeof(*satellites); k++) {
		struct stat sst;

		lk_buf_reset(scratch);
		lk_buf_addf(scratch, "%s%s", r->id, satellites[k]);
		if (regular(s->dfd, scratch->buf, &sst) == 0)
			r->size += sst.st_size;
	}
	return r;
}

/* The index line of the record file `name`, if the index has one. */
static const struct lk_index_entry *find_entry(const struct state *s, const char *name)
{
	char id[256];
	size_t len = strlen(name) - 5;

	if (len >= sizeof(id))
		return NULL;
	memcpy(id, name, len);
	id[len] = '\0';
	return lk_index_find(&s->index, id);
}

static void list_records(struct state *s, int64_t now, const struct lk_prune_limits *lim,
			 struct lk_prune_result *res)
{
	DIR *d = fdopendir(dup(s->dfd));
	struct lk_buf name = LK_BUF_INIT;
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.' && (lk_str_ends_with(de->d_name, ".json.tmp") ||
					      !strncmp(de->d_name, "." LK_INDEX_NAME ".", strlen(LK_INDEX_NAME) + 2))) {
			if (regular(s->dfd, de->d_name, &st) == 0 && now - st.st_mtim.tv_sec > STALE_WRITE)
				remove_file(s->dfd, de->d_name, lim, &res->other_removed);
			continue;
		}
		if (is_record_name(de->d_name) && regular(s->dfd, de->d_name, &st) == 0)
			add_record(s, de->d_name, &st, &name)->entry = find_entry(s, de->d_name);
		else if (lk_index_is_record_name(de->d_name))
			lk_strvec_push(&s->others, de->d_name);
	}
	closedir(d);
	lk_buf_release(&name);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct pblob *)a)->name, ((const struct pblob *)b)->name);
}

static int oldest_first(const void *a, const void *b)
{
	const struct prec *x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	return strcmp(x->id, y->id);
}

/*
 * A held copy (LK_BLOB_HELD) or a tombstone (LK_BLOB_DEAD) given its name
 * more than STALE_TMP ago: its owner died between its steps (a link killed
 * after writing its record, a prune killed while deciding), and a record
 * may name the blob, so it goes back to its name. Putting a blob back is
 * always safe (the same content under the same name); a later prune judges
 * it as any blob. A held name that is a hard link of the blob still there
 * (shim/keep.c holds a blob kept before so) is only a second name: rename(2)
 * would leave it, so it goes.
 */
static void restore_stale(int bfd, const char *name, int64_t now, const struct lk_prune_limits *lim)
{
	size_t held = strlen(LK_BLOB_HELD), dead = strlen(LK_BLOB_DEAD), skip;
	char blob[65];
	struct stat st, at_blob;

	if (!strncmp(name, LK_BLOB_HELD, held))
		skip = held;
	else if (!strncmp(name, LK_BLOB_DEAD, dead))
		skip = dead;
	else
		return;
	if (strlen(name) < skip + 65 || name[skip + 64] != '-')
		return;
	memcpy(blob, name + skip, 64);
	blob[64] = '\0';
	/* ctime: the rename that parked it; its mtime is the copy's. */
	if (!lk_sha256_is_hex(blob) || blob[64] || lim->dry_run || regular(bfd, name, &st) < 0 ||
	    now - st.st_ctim.tv_sec <= STALE_TMP)
		return;
	if (regular(bfd, blob, &at_blob) == 0 && at_blob.st_dev == st.st_dev && at_blob.st_ino == st.st_ino)
		unlinkat(bfd, name, 0);
	else
		renameat(bfd, name, bfd, blob);
}

static void list_blobs(struct state *s, int64_t now, const struct lk_prune_limits *lim,
		       struct lk_prune_result *res)
{
	DIR *d;
	struct dirent *de;

	s->bfd = openat(s->dfd, "blobs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->bfd < 0)
		return;
	d = fdopendir(dup(s->bfd));
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;
		struct pblob *b;

		if (!strncmp(de->d_name, ".tmp-", 5)) {
			if (regular(s->bfd, de->d_name, &st) == 0 && now - st.st_mtim.tv_sec > STALE_WRITE)
				remove_file(s->bfd, de->d_name, lim, &res->other_removed);
			continue;
		}
		if (de->d_name[0] == '.') {
			restore_stale(s->bfd, de->d_name, now, lim);
			continue;
		}
		if (strlen(de->d_name) != 64 || !lk_sha256_is_hex(de->d_name) || regular(s->bfd, de->d_name, &st) < 0)
			continue;
		LK_GROW(s->blobs.items, s->blobs.nr + 1, s->blobs.alloc);
		b = &s->blobs.items[s->blobs.nr++];
		memset(b, 0, sizeof(*b));
		memcpy(b->name, de->d_name, 65);
		b->size = st.st_size;
		b->mtime = st.st_mtim.tv_sec;
		b->dev = st.st_dev;
		b->ino = st.st_ino;
	}
	closedir(d);
	if (s->blobs.nr)
		qsort(s->blobs.items, s->blobs.nr, sizeof(*s->blobs.items), by_name);
}

static void add_ref(struct state *s, struct prec *r, const char *sha256)
{
	struct pblob key, *b;

	memcpy(key.name, sha256, 64);
	key.name[64] = '\0';
	b = s->blobs.nr ? bsearch(&key, s->blobs.items, s->blobs.nr, sizeof(key), by_name) : NULL;
	if (!b)
		return;
	LK_GROW(r->blobs.items, r->blobs.nr + 1, r->blobs.alloc);
	r->blobs.items[r->blobs.nr++] = (size_t)(b - s->blobs.items);
	b->refs++;
}

/* Every "blobs/<sha256>" the record names: as its index line lists them, else from its text. */
static void scan_record(struct state *s, struct prec *r)
{
	struct lk_buf path = LK_BUF_INIT, text = LK_BUF_INIT;
	int fd;

	r->scanned = 1;
	if (r->entry && r->entry->blobs_listed) {
		for (size_t i = 0; i < r->entry->blobs.nr; i++)
			add_ref(s, r, r->entry->blobs.items[i].sha256);
		return;
	}
	lk_buf_addf(&path, "%s.json", r->id);
	fd = openat(s->dfd, path.buf, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	lk_buf_release(&path);
	if (fd < 0) {
		s->keep_all_blobs = 1;
		return;
	}
	for (;;) {
		ssize_t n;

		lk_buf_grow(&text, 65536);
		n = read(fd, text.buf + text.len, 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || text.len > SCAN_LIMIT) {
			s->keep_all_blobs = 1;
			break;
		}
		if (n == 0)
			break;
		text.len += (size_t)n;
		text.buf[text.len] = '\0';
	}
	close(fd);
	for (const char *p = text.buf; (p = strstr(p, "blobs/")); p += 6) {
		if (strlen(p + 6) < 64)
			break;
		add_ref(s, r, p + 6);
	}
	lk_buf_release(&text);
}

static int blob_goes(const struct state *s, const struct pblob *b, int64_t now)
{
	return !s->keep_all_blobs && !b->refs && now - b->mtime > BLOB_GRACE;
}

/* Mark `r` removed; returns the bytes that go with it (its blobs now unused included). */
static int64_t drop(struct state *s, struct prec *r, int64_t now)
{
	int64_t freed = r->size;

	r->removed = 1;
	for (size_t k = 0; k < r->blobs.nr; k++) {
		struct pblob *b = &s->blobs.items[r->blobs.items[k]];

		b->refs--;
		if (blob_goes(s, b, now))
			freed += b->size;
	}
	return freed;
}

static int64_t total_bytes(const struct state *s, int64_t now)
{
	int64_t total = 0;

	for (size_t i = 0; i < s->recs.nr; i++)
		if (!s->recs.items[i].removed)
			total += s->recs.items[i].size;
	for (size_t i = 0; i < s->blobs.nr; i++)
		if (!blob_goes(s, &s->blobs.items[i], now))
			total += s->blobs.items[i].size;
	return total;
}

static void tombstone_name(struct lk_buf *name, const struct pblob *b)
{
	lk_buf_reset(name);
	lk_buf_addf(name, "%s%s-%ld", LK_BLOB_DEAD, b->name, (long)getpid());
}

/*
 * Step 1: `b` renamed to its tombstone. What the rename moved must be the
 * regular file listed; anything else (a copy a link has put under the name
 * since, a symbolic link) goes back at once. 1 when `b` is parked.
 */
static int park(struct state *s, struct pblob *b, struct lk_buf *tomb)
{
	struct stat st;

	tombstone_name(tomb, b);
	if (renameat(s->bfd, b->name, s->bfd, tomb->buf) < 0)
		return 0;	/* gone already: another prune's */
	if (regular(s->bfd, tomb->buf, &st) == 0 && st.st_dev == b->dev && st.st_ino == b->ino)
		return b->parked = 1;
	renameat(s->bfd, tomb->buf, s->bfd, b->name);
	return 0;
}

static int by_id(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Step 2: the records written since the listing, read as the others were. */
static void scan_new_records(struct state *s)
{
	size_t listed = s->recs.nr;
	char **known = lk_xmalloc((listed ? listed : 1) * sizeof(*known));
	struct lk_buf scratch = LK_BUF_INIT;
	DIR *d = fdopendir(dup(s->dfd));
	struct dirent *de;

	for (size_t i = 0; i < listed; i++)
		known[i] = s->recs.items[i].id;
	qsort(known, listed, sizeof(*known), by_id);
	if (d)
		rewinddir(d);	/* the descriptor's offset is shared with the listing's, at its end */
	else
		s->keep_all_blobs = 1;
	while (d && (de = readdir(d))) {
		struct stat st;
		char *id;
		int seen;

		if (!is_record_name(de->d_name) || regular(s->dfd, de->d_name, &st) < 0)
			continue;
		id = lk_xstrndup(de->d_name, strlen(de->d_name) - 5);
		seen = listed && bsearch(&id, known, listed, sizeof(*known), by_id);
		free(id);
		if (!seen)
			scan_record(s, add_record(s, de->d_name, &st, &scratch));
	}
	if (d)
		closedir(d);
	lk_buf_release(&scratch);
	free(known);
}

/*
 * The blobs no record names, removed without a lock while links may keep
 * the same content: parked first (step 1), the records written meanwhile
 * read (step 2), and only then each tombstone removed, or put back when
 * one of them names it (step 3). A link whose record appears after step 2
 * finds its blob's name empty when it checks, and puts back its own copy.
 */
static void remove_blobs(struct state *s, int64_t now, const struct lk_prune_limits *lim,
			 struct lk_prune_result *res)
{
	struct lk_buf tomb = LK_BUF_INIT;
	size_t parked = 0;

	for (size_t i = 0; i < s->blobs.nr; i++) {
		struct pblob *b = &s->blobs.items[i];

		if (!blob_goes(s, b, now))
			continue;
		if (lim->dry_run)
			res->blobs_removed++;
		else if (park(s, b, &tomb))
			parked++;
		else
			res->bytes_after += b->size;
	}
	if (parked)
		scan_new_records(s);
	for (size_t i = 0; i < s->blobs.nr && parked; i++) {
		struct pblob *b = &s->blobs.items[i];

		if (!b->parked)
			continue;
		tombstone_name(&tomb, b);
		if (blob_goes(s, b, now) && unlinkat(s->bfd, tomb.buf, 0) == 0) {
			res->blobs_removed++;
			continue;
		}
		renameat(s->bfd, tomb.buf, s->bfd, b->name);
		res->bytes_after += b->size;
	}
	lk_buf_release(&tomb);
}

static void remove_marked(struct state *s, int64_t now, const struct lk_prune_limits *lim,
			  struct lk_prune_result *res)
{
	struct lk_buf name = LK_BUF_INIT;

	for (size_t i = 0; i < s->recs.nr; i++) {
		const struct prec *r = &s->recs.items[i];

		if (!r->removed)
			continue;
		for (size_t k = 0; k < sizeof(satellites) / sizeof(*satellites); k++) {
			lk_buf_reset(&name);
			lk_buf_addf(&name, "%s%s", r->id, satellites[k]);
			remove_file(s->dfd, name.buf, lim, &res->other_removed);
		}
		lk_buf_reset(&name);
		lk_buf_addf(&name, "%s.json", r->id);
		remove_file(s->dfd, name.buf, lim, &res->records_removed);
	}
	lk_buf_release(&name);
	if (s->bfd >= 0)
		remove_blobs(s, now, lim, res);
}

/* Where the last checkpoint line of `buf` starts (`whole`: buf starts a line), else `len`. */
static size_t last_checkpoint(const char *buf, size_t len, int whole)
{
	size_t end = len;

	for (;;) {
		const char *nl = end ? memrchr(buf, '\n', end) : NULL;
		size_t start = nl ? (size_t)(nl - buf) + 1 : 0;

		if ((nl || whole) && len - start >= 3 && !memcmp(buf + start, "c1\t", 3))
			return start;
		if (!nl)
			return len;
		end = (size_t)(nl - buf);
	}
}

/*
 * The shim's question (lim->amortized): is a prune due? Read from the
 * index's tail back to its last checkpoint (at most TAIL_MAX), the bytes
 * counted then plus those of every record line since, against the size
 * bound; the oldest record (the index's first line: a prune writes it
 * oldest first) against the age bound, by its file's mtime. Anything not
 * as expected (no index, no checkpoint, a bad line, a count a day old, the
 * first record gone) says yes: the prune counts again.
 */
static int prune_due(int dfd, const struct lk_prune_limits *lim, int64_t now)
{
	struct lk_index tail, head;
	struct lk_err ignored = LK_ERR_INIT;
	struct lk_buf buf = LK_BUF_INIT;
	struct stat st;
	size_t back = 0, skip = 0;
	int64_t bytes;
	int fd = openat(dfd, LK_INDEX_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	int due = 1;

	memset(&tail, 0, sizeof(tail));
	memset(&head, 0, sizeof(head));
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !st.st_size)
		goto out;
	do {
		ssize_t got;

		back = back ? back * 4 : TAIL_CHUNK;
		if (back > (size_t)st.st_size)
			back = (size_t)st.st_size;
		lk_buf_reset(&buf);
		lk_buf_grow(&buf, back);
		got = pread(fd, buf.buf, back, st.st_size - (off_t)back);
		if (got != (ssize_t)back)
			goto out;
		/* From the last checkpoint line on: only what came after it is read. */
		skip = last_checkpoint(buf.buf, back, back == (size_t)st.st_size);
		if (skip == back)
			continue;
		lk_index_release(&tail);
		if (lk_index_parse(buf.buf + skip, back - skip, LK_INDEX_NAME, &tail, &ignored) < 0)
			goto out;
	} while (!tail.has_checkpoint && back < (size_t)st.st_size && back < TAIL_MAX);
	if (!tail.has_checkpoint || now - tail.cp_time > LK_PRUNE_RECOUNT_S || tail.cp_time > now)
		goto out;
	bytes = tail.cp_total;
	for (size_t i = tail.cp_next; i < tail.entries.nr; i++) {
		const struct lk_index_entry *e = &tail.entries.items[i];

		bytes += e->bytes + e->blob_bytes;
		for (size_t k = 0; e->blobs_listed && k < e->blobs.nr; k++)
			bytes += e->blobs.items[k].size;
	}
	if (lim->max_size > 0 && bytes > lim->max_size)
		goto out;
	if (lim->max_age_s > 0) {
		struct lk_buf name = LK_BUF_INIT;
		const char *nl;
		ssize_t got;

		lk_buf_reset(&buf);
		lk_buf_grow(&buf, LK_INDEX_LINE_MAX);
		got = pread(fd, buf.buf, LK_INDEX_LINE_MAX, 0);
		/* Its first line only. */
		nl = got > 0 ? memchr(buf.buf, '\n', (size_t)got) : NULL;
		if (!nl || lk_index_parse(buf.buf, (size_t)(nl - buf.buf) + 1, LK_INDEX_NAME, &head, &ignored) < 0)
			goto out;
		if (head.entries.nr) {
			lk_buf_addf(&name, "%s.json", head.entries.items[0].name);
			if (fstatat(dfd, name.buf, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
			    now - st.st_mtim.tv_sec > lim->max_age_s) {
				lk_buf_release(&name);
				goto out;
			}
		}
		lk_buf_release(&name);
	}
	due = 0;
out:
	if (fd >= 0)
		close(fd);
	lk_index_release(&tail);
	lk_index_release(&head);
	lk_buf_release(&buf);
	return due;
}

/* views/: the driver's views (shim/viewcache.c) past the age bound, and entries being written by a link that died. */
static void prune_views(struct state *s, int64_t now, const struct lk_prune_limits *lim,
			struct lk_prune_result *res)
{
	int vfd = openat(s->dfd, "views", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct dirent *de;
	DIR *d;

	if (vfd < 0)
		return;
	d = fdopendir(vfd);
	if (!d) {
		close(vfd);
		return;
	}
	while ((de = readdir(d))) {
		struct stat st;
		int64_t age;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    regular(dirfd(d), de->d_name, &st) < 0)
			continue;
		age = now - st.st_mtim.tv_sec;
		if (de->d_name[0] == '.' ? age > STALE_WRITE : lim->max_age_s > 0 && age > lim->max_age_s)
			remove_file(dirfd(d), de->d_name, lim, &res->other_removed);
	}
	closedir(d);
}

/* A record's index line for the new index: its old line with what the listing saw, or one without list's fields. */
static void entry_line(const struct state *s, const struct prec *r, struct lk_buf *out)
{
	struct lk_index_entry e;

	if (r->entry)
		e = *r->entry;
	else
		memset(&e, 0, sizeof(e));
	e.name = r->id;
	e.mtime_s = r->mtime;
	e.bytes = r->size;
	if (!r->entry) {
		/* Its blobs as the prune found them, when it looked. */
		e.blobs_listed = r->scanned;
		e.blobs.nr = 0;
		e.blobs.items = NULL;
		e.blob_bytes = 0;
		if (r->scanned) {
			e.blobs.items = lk_xcalloc(r->blobs.nr + 1, sizeof(*e.blobs.items));
			for (size_t k = 0; k < r->blobs.nr; k++) {
				const struct pblob *b = &s->blobs.items[r->blobs.items[k]];

				memcpy(e.blobs.items[k].sha256, b->name, 65);
				e.blobs.items[k].size = b->size;
			}
			e.blobs.nr = r->blobs.nr;
		}
	}
	lk_index_format(&e, out);
	if (!r->entry)
		free(e.blobs.items);
}

/*
 * The index anew, oldest record first, then a checkpoint (the bytes that
 * remain, by this prune's count), then what links appended since it was
 * read (from `fd`, at old->end), then renamed over the old one. A line
 * appended between that last read and the rename is lost from the index,
 * not from the directory: readers find its record by name (and list it).
 */
static void rewrite_index(struct state *s, int fd, int64_t bytes_after, int64_t now)
{
	struct lk_buf text = LK_BUF_INIT;

	for (size_t i = 0; i < s->recs.nr; i++)
		if (!s->recs.items[i].removed)
			entry_line(s, &s->recs.items[i], &text);
	for (size_t i = 0; i < s->others.nr; i++) {
		const char *name = s->others.items[i];
		char id[256];
		const struct lk_index_entry *e;

		if (strlen(name) - 5 >= sizeof(id))
			continue;
		memcpy(id, name, strlen(name) - 5);
		id[strlen(name) - 5] = '\0';
		if ((e = lk_index_find(&s->index, id)))
			lk_index_format(e, &text);
	}
	lk_index_format_checkpoint(bytes_after, now, &text);
	if (fd >= 0) {
		struct stat st;
		size_t from = s->index.end;

		if (fstat(fd, &st) == 0 && (size_t)st.st_size > from) {
			size_t n = (size_t)st.st_size - from, start = text.len;
			ssize_t got;

			lk_buf_grow(&text, n);
			got = pread(fd, text.buf + start, n, (off_t)from);
			if (got > 0) {
				/* Whole lines only. */
				size_t len = (size_t)got;

				while (len && text.buf[start + len - 1] != '\n')
					len--;
				text.len = start + len;
				text.buf[text.len] = '\0';
			}
		}
	}
	lk_index_replace(s->dfd, text.buf, text.len);
	lk_buf_release(&text);
}

/* Records past the age cut, then the oldest while over the size target; the newest always stays. */
static int64_t choose(struct state *s, const struct lk_prune_limits *lim, int64_t now, int64_t total)
{
	int64_t size_target = lim->max_size, age_cut = lim->max_age_s;

	if (lim->amortized) {
		size_target = lim->max_size - lim->max_size / 10;
		age_cut = lim->max_age_s - lim->max_age_s / 32;
	}
	for (size_t i = 0; i < s->recs.nr; i++)
		scan_record(s, &s->recs.items[i]);
	total = total_bytes(s, now);
	for (size_t i = 0; i + 1 < s->recs.nr; i++) {
		struct prec *r = &s->recs.items[i];

		if ((age_cut > 0 && now - r->mtime > age_cut) || (lim->max_size > 0 && total > size_target))
			total -= drop(s, r, now);
	}
	return total;
}

static void release_state(struct state *s)
{
	for (size_t i = 0; i < s->recs.nr; i++) {
		free(s->recs.items[i].id);
		free(s->recs.items[i].blobs.items);
	}
	free(s->recs.items);
	free(s->blobs.items);
	lk_index_release(&s->index);
	lk_strvec_release(&s->others);
	if (s->bfd >= 0)
		close(s->bfd);
	close(s->dfd);
}

int lk_prune(const char *dir, const struct lk_prune_limits *lim, int64_t now,
	     struct lk_prune_result *res, struct lk_err *err)
{
	struct lk_err ignored = LK_ERR_INIT;
	struct state s;
	int64_t total = 0;
	int over_age, ifd = -1;

	memset(res, 0, sizeof(*res));
	memset(&s, 0, sizeof(s));
	s.bfd = -1;
	s.dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s.dfd < 0)
		return lk_err_errno(err, "cannot open record directory '%s'", dir);
	/* Prunes take turns (the shim's skips when one runs); links never wait on this lock. */
	if ((lim->amortized && !prune_due(s.dfd, lim, now)) ||
	    (!lim->dry_run && flock(s.dfd, LOCK_EX | (lim->amortized ? LOCK_NB : 0)) < 0)) {
		close(s.dfd);
		return 0;
	}
	/* A bad index is no index: the records are read for their blobs instead. */
	if (lk_index_read(s.dfd, dir, &s.index, &ifd, &ignored) < 0)
		lk_index_release(&s.index);
	lk_index_sort_by_name(&s.index);
	list_records(&s, now, lim, res);
	list_blobs(&s, now, lim, res);
	if (s.recs.nr)
		qsort(s.recs.items, s.recs.nr, sizeof(*s.recs.items), oldest_first);
	for (size_t i = 0; i < s.recs.nr; i++)
		total += s.recs.items[i].size;
	for (size_t i = 0; i < s.blobs.nr; i++)
		total += s.blobs.items[i].size;
	res->records = s.recs.nr;
	res->blobs = s.blobs.nr;
	res->bytes_before = res->bytes_after = total;
	over_age = lim->max_age_s > 0 && s.recs.nr > 1 && now - s.recs.items[0].mtime > lim->max_age_s;
	/* Within bounds, no record is read. */
	if (over_age || (lim->max_size > 0 && total > lim->max_size)) {
		res->bytes_after = choose(&s, lim, now, total);	/* and each blob that stays after all (remove_blobs) */
		remove_marked(&s, now, lim, res);
	}
	prune_views(&s, now, lim, res);
	if (!lim->dry_run)
		rewrite_index(&s, ifd, res->bytes_after, now);
	if (ifd >= 0)
		close(ifd);
	release_state(&s);
	return 0;
}

/* A number with an optional unit letter from `units` (and, for sizes, "B" or "iB" after it). */
static int parse_scaled(const char *s, const char *units, const int64_t *scale, int bytes,
			int64_t *out)
{
	const char *u;
	char *end;
	long long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno)
		return -1;
	if (!*end) {
		*out = v;
		return 0;
	}
	u = strchr(units, *end);
	if (!u || (end[1] && !(bytes && (!strcmp(end + 1, "B") || !strcmp(end + 1, "iB")))))
		return -1;
	if (v > INT64_MAX / scale[u - units])
		return -1;
	*out = v * scale[u - units];
	return 0;
}

int lk_prune_parse_size(const char *s, int64_t *bytes, struct lk_err *err)
{
	static const int64_t scale[] = { 1024, 1024, (int64_t)1 << 20, (int64_t)1 << 30, (int64_t)1 << 40 };

	if (parse_scaled(s, "kKMGT", scale, 1, bytes) < 0)
		return lk_err_set(err, LK_E_USAGE, "'%s' is not a size (such as 500M, 2G, 100k or bytes)", s ? s : "");
	return 0;
}

int lk_prune_parse_age(const char *s, int64_t *seconds, struct lk_err *err)
{
	static const int64_t scale[] = { 1, 60, 3600, 86400, 7 * 86400 };

	if (parse_scaled(s, "smhdw", scale, 0, seconds) < 0)
		return lk_err_set(err, LK_E_USAGE, "'%s' is not an age (such as 7d, 12h, 30m, 90s, 2w or seconds)", s ? s : "");
	return 0;
}
