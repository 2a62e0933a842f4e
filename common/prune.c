/*
 * The record directory, bounded: records removed oldest first (past the
 * age bound, then while the directory is over the size bound), then the
 * blobs no remaining record names.
 *
 * Shared by the analyzer (`linkscope prune`) and the shim (LINKSCOPE_MAX_SIZE,
 * LINKSCOPE_MAX_AGE), so it uses no jansson: a record's blobs are found by
 * scanning its text for "blobs/<64 hex>", which can only over-count (a blob
 * kept too long), never under-count (a blob removed while named).
 *
 * Safety: every file is reached relative to the directory's descriptor
 * (openat, fstatat and unlinkat with AT_SYMLINK_NOFOLLOW semantics), only
 * regular files with the names linkscope writes are removed, and a symbolic
 * link (blobs/ itself included) is never followed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/prune.h"
#include "linkscope/vec.h"

/* A blob this young may belong to a record being written now. */
#define BLOB_GRACE 300
/* A temporary file this old belongs to a link that died. */
#define STALE_TMP 3600
/* Records larger than this are not scanned for blobs (and keep every blob). */
#define SCAN_LIMIT ((size_t)64 << 20)

static const char *const satellites[] = { ".report.json", ".report.md", ".repro.tar" };

struct prec {
	char *id;		/* the file name without ".json" */
	int64_t mtime;
	int64_t size;		/* the record and its satellites */
	struct { size_t *items; size_t nr, alloc; } blobs;
	int removed;
};

struct pblob {
	char name[65];
	int64_t mtime, size;
	size_t refs;
};

struct state {
	int dfd, bfd;		/* the directory, blobs/ (or -1) */
	struct { struct prec *items; size_t nr, alloc; } recs;
	struct { struct pblob *items; size_t nr, alloc; } blobs;
	int keep_all_blobs;	/* a record could not be scanned */
};

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* <YYYYMMDD>T...json, and not one of a record's satellites. */
static int is_record_name(const char *name)
{
	for (int i = 0; i < 8; i++)
		if (name[i] < '0' || name[i] > '9')
			return 0;
	return name[8] == 'T' && ends_with(name, ".json") && !ends_with(name, ".report.json");
}

static int is_hex64(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return s[64] == '\0';
}

/* A regular file's size and mtime, never through a symbolic link; -1 otherwise. */
static int regular(int dfd, const char *name, int64_t *size, int64_t *mtime)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
		return -1;
	*size = st.st_size;
	*mtime = st.st_mtim.tv_sec;
	return 0;
}

static void remove_file(int dfd, const char *name, const struct lk_prune_limits *lim, size_t *count)
{
	int64_t size, mtime;

	/* Checked again just before: only a regular file is ever removed. */
	if (regular(dfd, name, &size, &mtime) < 0)
		return;
	if (lim->dry_run || unlinkat(dfd, name, 0) == 0)
		(*count)++;
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
		int64_t size, mtime;
		struct prec *r;

		if (de->d_name[0] == '.' && ends_with(de->d_name, ".json.tmp")) {
			if (regular(s->dfd, de->d_name, &size, &mtime) == 0 && now - mtime > STALE_TMP)
				remove_file(s->dfd, de->d_name, lim, &res->other_removed);
			continue;
		}
		if (!is_record_name(de->d_name) || regular(s->dfd, de->d_name, &size, &mtime) < 0)
			continue;
		LK_GROW(s->recs.items, s->recs.nr + 1, s->recs.alloc);
		r = &s->recs.items[s->recs.nr++];
		memset(r, 0, sizeof(*r));
		r->id = lk_xstrndup(de->d_name, strlen(de->d_name) - 5);
		r->mtime = mtime;
		r->size = size;
		for (size_t k = 0; k < sizeof(satellites) / sizeof(*satellites); k++) {
			int64_t ssize, smtime;

			lk_buf_reset(&name);
			lk_buf_addf(&name, "%s%s", r->id, satellites[k]);
			if (regular(s->dfd, name.buf, &ssize, &smtime) == 0)
				r->size += ssize;
		}
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
		int64_t size, mtime;
		struct pblob *b;

		if (!strncmp(de->d_name, ".tmp-", 5)) {
			if (regular(s->bfd, de->d_name, &size, &mtime) == 0 && now - mtime > STALE_TMP)
				remove_file(s->bfd, de->d_name, lim, &res->other_removed);
			continue;
		}
		if (strlen(de->d_name) != 64 || !is_hex64(de->d_name) ||
		    regular(s->bfd, de->d_name, &size, &mtime) < 0)
			continue;
		LK_GROW(s->blobs.items, s->blobs.nr + 1, s->blobs.alloc);
		b = &s->blobs.items[s->blobs.nr++];
		memcpy(b->name, de->d_name, 65);
		b->size = size;
		b->mtime = mtime;
		b->refs = 0;
	}
	closedir(d);
	if (s->blobs.nr)
		qsort(s->blobs.items, s->blobs.nr, sizeof(*s->blobs.items), by_name);
}

/* Every "blobs/<sha256>" the record's text names. */
static void scan_record(struct state *s, struct prec *r)
{
	struct lk_buf path = LK_BUF_INIT, text = LK_BUF_INIT;
	int fd;

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
		struct pblob key, *b;

		if (strlen(p + 6) < 64)
			break;
		memcpy(key.name, p + 6, 64);
		key.name[64] = '\0';
		b = s->blobs.nr ? bsearch(&key, s->blobs.items, s->blobs.nr, sizeof(key), by_name) : NULL;
		if (!b)
			continue;
		LK_GROW(r->blobs.items, r->blobs.nr + 1, r->blobs.alloc);
		r->blobs.items[r->blobs.nr++] = (size_t)(b - s->blobs.items);
		b->refs++;
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
	for (size_t i = 0; i < s->blobs.nr && s->bfd >= 0; i++)
		if (blob_goes(s, &s->blobs.items[i], now))
			remove_file(s->bfd, s->blobs.items[i].name, lim, &res->blobs_removed);
	lk_buf_release(&name);
}

int lk_prune(const char *dir, const struct lk_prune_limits *lim, int64_t now,
	     struct lk_prune_result *res, struct lk_err *err)
{
	struct state s;
	int64_t total = 0;
	int over_age = 0;

	memset(res, 0, sizeof(*res));
	memset(&s, 0, sizeof(s));
	s.bfd = -1;
	s.dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s.dfd < 0)
		return lk_err_errno(err, "cannot open record directory '%s'", dir);
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
	res->bytes_before = total;
	over_age = lim->max_age_s > 0 && s.recs.nr > 1 && now - s.recs.items[0].mtime > lim->max_age_s;
	/* The usual case, in the shim too: within bounds, nothing is read. */
	if (over_age || (lim->max_size > 0 && total > lim->max_size)) {
		for (size_t i = 0; i < s.recs.nr; i++)
			scan_record(&s, &s.recs.items[i]);
		total = total_bytes(&s, now);
		/* The newest record (the last one) always stays. */
		for (size_t i = 0; i + 1 < s.recs.nr; i++) {
			struct prec *r = &s.recs.items[i];

			if ((lim->max_age_s > 0 && now - r->mtime > lim->max_age_s) ||
			    (lim->max_size > 0 && total > lim->max_size))
				total -= drop(&s, r, now);
		}
		remove_marked(&s, now, lim, res);
	}
	res->bytes_after = total;
	for (size_t i = 0; i < s.recs.nr; i++) {
		free(s.recs.items[i].id);
		free(s.recs.items[i].blobs.items);
	}
	free(s.recs.items);
	free(s.blobs.items);
	if (s.bfd >= 0)
		close(s.bfd);
	close(s.dfd);
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
