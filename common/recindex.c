/*
 * The record directory's index: its lines written and read (recindex.h;
 * the format in docs/record-format.md, "The index").
 *
 * A line is tab-separated fields; bytes a field cannot hold as they are
 * (controls, space, '%', DEL) are %XX, a field that is NULL is "-", one
 * not known "?", an id that is the record's name "=" (a value that is one
 * of these itself is %2D, %3F, %3D).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/sha256.h"
#include "linkscope/recindex.h"
#include "linkscope/vec.h"

/* Fields of a record line, its tag "r1" included. */
#define RECORD_FIELDS 12

void lk_index_entry_release(struct lk_index_entry *e)
{
	free(e->name);
	free(e->id);
	free(e->start);
	free(e->caller);
	free(e->driver);
	free(e->output);
	free(e->blobs.items);
	memset(e, 0, sizeof(*e));
}

void lk_index_release(struct lk_index *idx)
{
	for (size_t i = 0; i < idx->entries.nr; i++)
		lk_index_entry_release(&idx->entries.items[i]);
	free(idx->entries.items);
	memset(idx, 0, sizeof(*idx));
}

static void add_field(struct lk_buf *out, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	lk_buf_addch(out, '\t');
	if (!s) {
		lk_buf_addch(out, '-');
		return;
	}
	if (!strcmp(s, "-") || !strcmp(s, "?") || !strcmp(s, "=")) {
		lk_buf_addf(out, "%%%02X", (unsigned char)*s);
		return;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p <= ' ' || *p == '%' || *p == 0x7f) {
			lk_buf_addch(out, '%');
			lk_buf_addch(out, hex[*p >> 4]);
			lk_buf_addch(out, hex[*p & 15]);
		} else {
			lk_buf_addch(out, (char)*p);
		}
	}
}

static void add_outcome(struct lk_buf *out, const struct lk_index_entry *e)
{
	if (e->signal)
		lk_buf_addf(out, "\tsignal:%d", e->signal);
	else if (!e->has_exit)
		lk_buf_addstr(out, "\tnot-run");
	else if (!e->exit_status)
		lk_buf_addstr(out, "\tok");
	else
		lk_buf_addf(out, "\texit:%d", e->exit_status);
}

/* summary: list's fields as known (else "?"); blobs: listed (else "*<bytes>"). */
static void format_as(const struct lk_index_entry *e, int summary, int blobs, struct lk_buf *out)
{
	lk_buf_addstr(out, "r1");
	add_field(out, e->name);
	if (summary && e->id)
		add_field(out, e->id);
	else
		lk_buf_addstr(out, summary ? "\t=" : "\t?");
	lk_buf_addf(out, "\t%lld\t%lld", (long long)e->mtime_s, (long long)e->bytes);
	if (summary) {
		lk_buf_addf(out, "\t%lld", (long long)e->start_ns);
		add_field(out, e->start);
		add_outcome(out, e);
		add_field(out, e->caller);
		add_field(out, e->driver);
		add_field(out, e->output);
	} else {
		lk_buf_addstr(out, "\t?\t?\t?\t?\t?\t?");
	}
	if (!blobs) {
		int64_t sum = e->blob_bytes;

		for (size_t i = 0; e->blobs_listed && i < e->blobs.nr; i++)
			sum += e->blobs.items[i].size;
		lk_buf_addf(out, "\t*%lld", (long long)sum);
	} else if (!e->blobs.nr) {
		lk_buf_addstr(out, "\t-");
	} else {
		for (size_t i = 0; i < e->blobs.nr; i++)
			lk_buf_addf(out, "%c%s:%lld", i ? ',' : '\t', e->blobs.items[i].sha256,
				    (long long)e->blobs.items[i].size);
	}
	lk_buf_addch(out, '\n');
}

void lk_index_format(const struct lk_index_entry *e, struct lk_buf *out)
{
	size_t start = out->len;

	format_as(e, e->summary, e->blobs_listed, out);
	if (out->len - start <= LK_INDEX_LINE_MAX)
		return;
	out->len = start;
	format_as(e, e->summary, 0, out);
	if (out->len - start <= LK_INDEX_LINE_MAX)
		return;
	out->len = start;
	format_as(e, 0, 0, out);
	out->buf[out->len] = '\0';
}

void lk_index_format_checkpoint(int64_t total, int64_t now_s, struct lk_buf *out)
{
	lk_buf_addf(out, "c1\t%lld\t%lld\n", (long long)total, (long long)now_s);
}

/* ---- reading ---- */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A field's bytes, decoded; NULL for "-". Sets *bad for a malformed escape or a NUL. */
static char *decode(const char *s, size_t len, int *bad)
{
	char *out, *o;

	if (len == 1 && *s == '-')
		return NULL;
	out = o = lk_xmalloc(len + 1);
	for (size_t i = 0; i < len; i++) {
		int hi, lo;

		if (s[i] != '%') {
			*o++ = s[i];
			continue;
		}
		if (i + 2 >= len) {
			*bad = 1;
			break;
		}
		hi = hexval(s[i + 1]);
		lo = hexval(s[i + 2]);
		if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
			*bad = 1;
			break;
		}
		*o++ = (char)(hi << 4 | lo);
		i += 2;
	}
	*o = '\0';
	return out;
}

static int number(const char *s, size_t len, int64_t *v)
{
	int64_t n = 0;
	size_t i = 0;
	int neg = len && *s == '-';

	if (neg)
		i++;
	if (i == len || len - i > 19)
		return -1;
	for (; i < len; i++) {
		/* Only a 19th digit can overflow. */
		if (s[i] < '0' || s[i] > '9' || (i + 1 == len && len - neg == 19 && n > (INT64_MAX - (s[i] - '0')) / 10))
			return -1;
		n = n * 10 + (s[i] - '0');
	}
	*v = neg ? -n : n;
	return 0;
}

static int small_int(const char *s, size_t len, int *v)
{
	int64_t n;

	if (number(s, len, &n) < 0 || n < -1000000 || n > 1000000)
		return -1;
	*v = (int)n;
	return 0;
}

static int field_is(const char *s, size_t len, const char *lit)
{
	return len == strlen(lit) && !memcmp(s, lit, len);
}

static int parse_outcome(const char *s, size_t len, struct lk_index_entry *e)
{
	if (field_is(s, len, "ok")) {
		e->has_exit = 1;
		return 0;
	}
	if (field_is(s, len, "not-run"))
		return 0;
	if (len > 5 && !memcmp(s, "exit:", 5)) {
		e->has_exit = 1;
		return small_int(s + 5, len - 5, &e->exit_status) < 0 || !e->exit_status ? -1 : 0;
	}
	if (len > 7 && !memcmp(s, "signal:", 7))
		return small_int(s + 7, len - 7, &e->signal) < 0 || e->signal <= 0 ? -1 : 0;
	return -1;
}

static int parse_blobs(const char *s, size_t len, struct lk_index_entry *e)
{
	if (field_is(s, len, "-")) {
		e->blobs_listed = 1;
		return 0;
	}
	if (*s == '*')
		return number(s + 1, len - 1, &e->blob_bytes) < 0 || e->blob_bytes < 0 ? -1 : 0;
	e->blobs_listed = 1;
	while (len) {
		const char *comma = memchr(s, ',', len);
		size_t n = comma ? (size_t)(comma - s) : len;
		struct lk_index_blob *b;

		if (n < 66 || s[64] != ':' || !lk_sha256_is_hex(s))
			return -1;
		LK_GROW(e->blobs.items, e->blobs.nr + 1, e->blobs.alloc);
		b = &e->blobs.items[e->blobs.nr++];
		memcpy(b->sha256, s, 64);
		b->sha256[64] = '\0';
		if (number(s + 65, n - 65, &b->size) < 0 || b->size < 0)
			return -1;
		if (!comma)
			break;
		s += n + 1;
		len -= n + 1;
		if (!len)
			return -1;
	}
	return 0;
}

/* A record's file name, as the shim and the analyzer read it: no '/', no leading '.'. */
static int good_name(const char *name)
{
	return name && *name && *name != '.' && !strchr(name, '/') && strlen(name) <= 250;
}

static int parse_record(const char *f[], const size_t n[], struct lk_index_entry *e)
{
	int bad = 0;

	e->name = decode(f[1], n[1], &bad);
	if (bad || !good_name(e->name))
		return -1;
	e->summary = !field_is(f[6], n[6], "?");
	if (e->summary && !field_is(f[2], n[2], "=")) {
		e->id = decode(f[2], n[2], &bad);
		if (bad || !e->id)
			return -1;
	}
	if (number(f[3], n[3], &e->mtime_s) < 0 || number(f[4], n[4], &e->bytes) < 0 || e->bytes < 0)
		return -1;
	if (e->summary) {
		if (number(f[5], n[5], &e->start_ns) < 0 || parse_outcome(f[7], n[7], e) < 0)
			return -1;
		e->start = decode(f[6], n[6], &bad);
		e->caller = decode(f[8], n[8], &bad);
		e->driver = decode(f[9], n[9], &bad);
		e->output = decode(f[10], n[10], &bad);
		if (bad || !e->driver)
			return -1;
	}
	return parse_blobs(f[11], n[11], e);
}

/* One line (no '\n'): a record's, or a checkpoint. */
static int parse_line(const char *line, size_t len, struct lk_index *out)
{
	const char *f[RECORD_FIELDS + 1];
	size_t n[RECORD_FIELDS + 1], nf = 0;
	const char *p = line, *end = line + len;
	struct lk_index_entry e;

	while (nf <= RECORD_FIELDS) {
		const char *tab = memchr(p, '\t', (size_t)(end - p));

		f[nf] = p;
		n[nf] = (size_t)((tab ? tab : end) - p);
		nf++;
		if (!n[nf - 1] || !tab)
			break;
		p = tab + 1;
	}
	if (nf == 3 && field_is(f[0], n[0], "c1")) {
		if (number(f[1], n[1], &out->cp_total) < 0 || number(f[2], n[2], &out->cp_time) < 0)
			return -1;
		out->has_checkpoint = 1;
		out->cp_next = out->entries.nr;
		return 0;
	}
	if (nf != RECORD_FIELDS || !n[nf - 1] || !field_is(f[0], n[0], "r1") || memchr(line, '\0', len))
		return -1;
	memset(&e, 0, sizeof(e));
	if (parse_record(f, n, &e) < 0) {
		lk_index_entry_release(&e);
		return -1;
	}
	LK_GROW(out->entries.items, out->entries.nr + 1, out->entries.alloc);
	out->entries.items[out->entries.nr++] = e;
	return 0;
}

int lk_index_parse(const char *text, size_t len, const char *path, struct lk_index *out,
		   struct lk_err *err)
{
	size_t pos = 0, lineno = 0;

	memset(out, 0, sizeof(*out));
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;

		lineno++;
		if (n >= LK_INDEX_LINE_MAX)
			return lk_err_set(err, LK_E_FORMAT, "'%s' line %zu: longer than %d bytes", path, lineno,
					  LK_INDEX_LINE_MAX);
		if (!nl)
			break;	/* being written, or cut: its record is read instead */
		if (parse_line(text + pos, n, out) < 0)
			return lk_err_set(err, LK_E_FORMAT, "'%s' line %zu: not an index line", path, lineno);
		pos += n + 1;
		out->end = pos;
	}
	return 0;
}

int lk_index_read(int dfd, const char *dir, struct lk_index *out, int *fd_out, struct lk_err *err)
{
	struct lk_buf text = LK_BUF_INIT, path = LK_BUF_INIT;
	struct stat st;
	int fd, rc = -1;

	memset(out, 0, sizeof(*out));
	if (fd_out)
		*fd_out = -1;
	lk_buf_addf(&path, "%s/%s", dir, LK_INDEX_NAME);
	fd = openat(dfd, LK_INDEX_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		lk_buf_release(&path);
		return 1;
	}
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		lk_err_set(err, LK_E_IO, "'%s' is not a regular file we can read", path.buf);
		goto out;
	}
	if ((uint64_t)st.st_size > LK_INDEX_MAX_BYTES) {
		lk_err_set(err, LK_E_FORMAT, "'%s' is larger than %zu MiB", path.buf, LK_INDEX_MAX_BYTES >> 20);
		goto out;
	}
	lk_buf_grow(&text, (size_t)st.st_size + 1);
	for (;;) {
		ssize_t got = read(fd, text.buf + text.len, (size_t)st.st_size + 1 - text.len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			lk_err_errno(err, "cannot read '%s'", path.buf);
			goto out;
		}
		if (got == 0 || text.len + (size_t)got > (size_t)st.st_size)
			break;	/* what was appended while reading waits for the next reader */
		text.len += (size_t)got;
	}
	rc = lk_index_parse(text.buf, text.len, path.buf, out, err);
out:
	if (fd >= 0 && (!fd_out || rc < 0))
		close(fd);
	else if (fd >= 0)
		*fd_out = fd;
	lk_buf_release(&text);
	lk_buf_release(&path);
	return rc;
}

int lk_index_open_append(int dfd, const char *path)
{
	struct stat st;
	int fd = openat(dfd, path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
			0600);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

int lk_index_append_fd(int fd, const struct lk_index_entry *e)
{
	struct lk_buf line = LK_BUF_INIT;
	ssize_t wrote;

	lk_index_format(e, &line);
	wrote = write(fd, line.buf, line.len);
	lk_buf_release(&line);
	return wrote == (ssize_t)line.len ? 0 : -1;
}

int lk_index_append(int dfd, const char *path, const struct lk_index_entry *e)
{
	int fd = lk_index_open_append(dfd, path), rc;

	if (fd < 0)
		return -1;
	rc = lk_index_append_fd(fd, e);
	close(fd);
	return rc;
}

int lk_index_replace(int dfd, const char *text, size_t len)
{
	char tmp[64];
	size_t done = 0;
	int fd;

	snprintf(tmp, sizeof(tmp), ".%s.%ld.tmp", LK_INDEX_NAME, (long)getpid());
	unlinkat(dfd, tmp, 0);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	if (close(fd) < 0 || done < len || renameat(dfd, tmp, dfd, LK_INDEX_NAME) < 0) {
		int saved = errno;

		unlinkat(dfd, tmp, 0);
		errno = saved;
		return -1;
	}
	return 0;
}

int lk_index_is_record_name(const char *name)
{
	size_t len = strlen(name);

	return name[0] != '.' && len > 5 && !strcmp(name + len - 5, ".json") &&
	       !(len > 12 && !strcmp(name + len - 12, ".report.json"));
}

struct by_name_slot {
	struct lk_index_entry e;
	size_t pos;
};

static int slot_order(const void *a, const void *b)
{
	const struct by_name_slot *x = a, *y = b;
	int c = strcmp(x->e.name, y->e.name);

	return c ? c : (x->pos < y->pos ? -1 : x->pos > y->pos);
}

void lk_index_sort_by_name(struct lk_index *idx)
{
	size_t nr = idx->entries.nr, kept = 0;
	struct by_name_slot *slots;

	if (!nr)
		return;
	slots = lk_xcalloc(nr, sizeof(*slots));
	for (size_t i = 0; i < nr; i++) {
		slots[i].e = idx->entries.items[i];
		slots[i].pos = i;
	}
	qsort(slots, nr, sizeof(*slots), slot_order);
	for (size_t i = 0; i < nr; i++) {
		/* The last line of a name is its newest word. */
		if (i + 1 < nr && !strcmp(slots[i].e.name, slots[i + 1].e.name)) {
			lk_index_entry_release(&slots[i].e);
			continue;
		}
		idx->entries.items[kept++] = slots[i].e;
	}
	idx->entries.nr = kept;
	idx->cp_next = 0;
	free(slots);
}

static int name_order(const void *key, const void *item)
{
	return strcmp(key, ((const struct lk_index_entry *)item)->name);
}

const struct lk_index_entry *lk_index_find(const struct lk_index *idx, const char *name)
{
	return idx->entries.nr ? bsearch(name, idx->entries.items, idx->entries.nr,
					 sizeof(*idx->entries.items), name_order) : NULL;
}
