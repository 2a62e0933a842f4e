/*
 * One dir's index for the provider search (see provider.c): the
 * exported names of every library in it (lk_elf_exports), and its cache
 * file, each file's entry keyed by size and mtime; a cache that does not
 * parse is rebuilt, never trusted in part. Models no part of ld: it
 * stands for ld reading every library of the dir at once.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "hash.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "elf.h"
#include "provider.h"
#include "provider_parts.h"
#include "linkscope/sha256.h"
#include "linkscope/vec.h"

#define CACHE_MAGIC "linkscope-provider-index 1"

#define CACHE_MAX_BYTES (512u << 20)

/* ---- one dir's index, and its cache ---- */

struct entry {
	char *name;
	long long size, mtime_ns;
	int kind;		/* 's' shared, 'a' archive, 'x' neither (kept so it is not read again), 'l' another name of a file of the dir */
	int machine;
	char *names;
	size_t names_len, nnames;
	int borrowed;		/* names point into the cache file's buffer */
	dev_t dev;		/* not cached: for aliases, from this run's stat */
	ino_t ino;
};

struct dirindex {
	struct { struct entry *items; size_t nr, alloc; } e;
	char *buf;		/* the cache file read, which borrowed names point into */
};

static void dirindex_release(struct dirindex *d)
{
	for (size_t i = 0; i < d->e.nr; i++) {
		free(d->e.items[i].name);
		if (!d->e.items[i].borrowed)
			free(d->e.items[i].names);
	}
	free(d->e.items);
	free(d->buf);
	memset(d, 0, sizeof(*d));
}

static char *cache_file(const char *cache_dir, const char *dir)
{
	struct lk_sha256 h;
	char hex[65];
	struct lk_buf b = LK_BUF_INIT;

	lk_sha256_init(&h);
	lk_sha256_update(&h, dir, strlen(dir));
	lk_sha256_final_hex(&h, hex);
	lk_buf_addf(&b, "%s/dir-%.32s.idx", cache_dir, hex);
	return lk_buf_detach(&b);
}

static int parse_ll(const char *s, char **end, long long *out)
{
	errno = 0;
	*out = strtoll(s, end, 10);
	return errno || *end == s || *out < 0 ? -1 : 0;
}

/*
 * The cache file of `dir`: "CACHE_MAGIC\n", "dir PATH\n", then per file
 * "f NAME SIZE MTIME_NS KIND MACHINE COUNT\n" and COUNT lines of names.
 * Returns 0, or -1 (nothing kept) when it is missing or does not parse.
 */
static int cache_parse(struct lk_buf *bp, const char *dir, struct dirindex *out)
{
	struct lk_buf b = *bp;
	char *p, *end, *line;
	size_t header = strlen(CACHE_MAGIC);
	static char empty[1];	/* the names of an entry with none (never written to) */

	memset(bp, 0, sizeof(*bp));
	p = b.buf;
	if (b.len < header + 1 || memcmp(p, CACHE_MAGIC "\n", header + 1))
		goto bad;
	p += header + 1;
	if (strncmp(p, "dir ", 4) || !(end = strchr(p, '\n')) || (size_t)(end - p - 4) != strlen(dir) ||
	    memcmp(p + 4, dir, strlen(dir)))
		goto bad;	/* another dir with the same hash prefix */
	p = end + 1;
	while (*p) {
		struct entry e;
		long long kind_machine, count;
		char *nl = strchr(p, '\n'), *q, *name_end;

		memset(&e, 0, sizeof(e));
		if (!nl || strncmp(p, "f ", 2))
			goto bad;
		*nl = '\0';
		line = p + 2;
		if (!(name_end = strchr(line, ' ')) || name_end == line)
			goto bad;
		q = name_end + 1;
		if (parse_ll(q, &q, &e.size) || *q++ != ' ' || parse_ll(q, &q, &e.mtime_ns) || *q++ != ' ' ||
		    (*q != 's' && *q != 'a' && *q != 'x' && *q != 'l') || q[1] != ' ')
			goto bad;
		e.kind = *q;
		q += 2;
		if (parse_ll(q, &q, &kind_machine) || *q++ != ' ' || parse_ll(q, &q, &count) || *q ||
		    kind_machine > 65535)
			goto bad;
		e.machine = (int)kind_machine;
		p = nl + 1;
		{
			char *start = p;

			for (long long k = 0; k < count; k++) {
				char *n2 = strchr(p, '\n');

				if (!n2 || n2 == p)
					goto bad;
				*n2 = '\0';
				p = n2 + 1;
			}
			/* Names stay in the buffer (each line's newline is now a NUL): no copy. */
			e.nnames = (size_t)count;
			e.names_len = (size_t)(p - start);
			e.names = count ? start : empty;
			e.borrowed = 1;
		}
		e.name = lk_xstrndup(line, (size_t)(name_end - line));
		LK_GROW(out->e.items, out->e.nr + 1, out->e.alloc);
		out->e.items[out->e.nr++] = e;
	}
	if ((size_t)(p - b.buf) != b.len)
		goto bad;	/* a NUL byte before the end: the rest would go unread */
	out->buf = lk_buf_detach(&b);
	return 0;
bad:
	lk_buf_release(&b);
	dirindex_release(out);
	return -1;
}

static int cache_load(const char *path, const char *dir, struct dirindex *out)
{
	struct lk_buf b = LK_BUF_INIT;

	if (lk_buf_read_file(&b, path, CACHE_MAX_BYTES) < 0)
		return -1;
	return cache_parse(&b, dir, out);
}

long lk_provider_cache_parse(const char *text, size_t len, const char *dir)
{
	struct lk_buf b = LK_BUF_INIT;
	struct dirindex d = { { NULL, 0, 0 }, NULL };
	long n;

	lk_buf_add(&b, text, len);
	n = cache_parse(&b, dir, &d) < 0 ? -1 : (long)d.e.nr;
	dirindex_release(&d);
	return n;
}

static int cache_save(const char *cache_dir, const char *path, const char *dir,
		      const struct dirindex *d, struct lk_err *err)
{
	struct lk_buf tmp = LK_BUF_INIT;
	FILE *f;
	int fd, ok;

	if (mkdir(cache_dir, 0700) < 0 && errno != EEXIST)
		return lk_err_errno(err, "cannot create the index cache '%s'", cache_dir);
	lk_buf_addf(&tmp, "%s/.tmp-XXXXXX", cache_dir);
	fd = mkstemp(tmp.buf);	/* 0600 */
	if (fd < 0) {
		lk_buf_release(&tmp);
		return lk_err_errno(err, "cannot write the index cache in '%s'", cache_dir);
	}
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp.buf);
		lk_buf_release(&tmp);
		return lk_err_errno(err, "cannot write the index cache in '%s'", cache_dir);
	}
	fprintf(f, "%s\ndir %s\n", CACHE_MAGIC, dir);
	for (size_t i = 0; i < d->e.nr; i++) {
		const struct entry *e = &d->e.items[i];

		fprintf(f, "f %s %lld %lld %c %d %zu\n", e->name, e->size, e->mtime_ns, e->kind, e->machine,
			e->nnames);
		for (const char *n = e->names, *end = e->names + e->names_len; n < end; n += strlen(n) + 1)
			fprintf(f, "%s\n", n);
	}
	ok = fflush(f) == 0 && !ferror(f);
	ok = (fclose(f) == 0) && ok;
	if (!ok || rename(tmp.buf, path) < 0) {
		lk_err_errno(err, "cannot write the index cache '%s'", path);
		unlink(tmp.buf);
		lk_buf_release(&tmp);
		return -1;
	}
	lk_buf_release(&tmp);
	return 0;
}

static void read_entry(const char *dir, struct entry *e)
{
	struct lk_buf path = LK_BUF_INIT, names = LK_BUF_INIT;
	struct lk_strvec v = LK_STRVEC_INIT;
	struct lk_elf_info info;
	struct lk_err err = LK_ERR_INIT;

	lk_buf_addf(&path, "%s/%s", dir, e->name);
	e->kind = 'x';
	if (lk_elf_exports(path.buf, &info, &v, &err) == 0 &&
	    (info.kind == LK_FILE_SHARED || info.kind == LK_FILE_ARCHIVE)) {
		e->kind = info.kind == LK_FILE_SHARED ? 's' : 'a';
		e->machine = info.machine;
		for (size_t i = 0; i < v.nr; i++) {
			if (strchr(v.items[i], '\n'))
				continue;
			lk_buf_add(&names, v.items[i], strlen(v.items[i]) + 1);
			e->nnames++;
		}
	}
	e->names_len = names.len;
	e->names = names.len ? lk_buf_detach(&names) : lk_xstrdup("");
	lk_buf_release(&names);
	lk_elf_info_release(&info);
	lk_strvec_release(&v);
	lk_buf_release(&path);
}

/* The name -l finds first ("libz.so", "libz.a"), then the shortest, then by bytes. */
static int preferred_name(const void *a, const void *b)
{
	const char *x = ((const struct entry *)a)->name, *y = ((const struct entry *)b)->name;
	size_t lx = strlen(x), ly = strlen(y);
	int dx = (lx > 3 && !strcmp(x + lx - 3, ".so")) || (lx > 2 && !strcmp(x + lx - 2, ".a"));
	int dy = (ly > 3 && !strcmp(y + ly - 3, ".so")) || (ly > 2 && !strcmp(y + ly - 2, ".a"));

	if (dx != dy)
		return dy - dx;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x, y);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

/* The dir's libraries now: name, size, mtime and identity, best names first. */
static void scan_dir(const char *path, struct dirindex *now)
{
	DIR *dp = opendir(path);
	struct dirent *de;

	if (!dp)
		return;
	while ((de = readdir(dp))) {
		struct lk_buf full = LK_BUF_INIT;
		struct entry e;
		struct stat st;
		int ok;

		if (!pv_is_library_name(de->d_name))
			continue;
		lk_buf_addf(&full, "%s/%s", path, de->d_name);
		ok = stat(full.buf, &st) == 0 && S_ISREG(st.st_mode);
		lk_buf_release(&full);
		if (!ok)
			continue;
		memset(&e, 0, sizeof(e));
		e.name = lk_xstrdup(de->d_name);
		e.size = (long long)st.st_size;
		e.mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
		e.dev = st.st_dev;
		e.ino = st.st_ino;
		LK_GROW(now->e.items, now->e.nr + 1, now->e.alloc);
		now->e.items[now->e.nr++] = e;
	}
	closedir(dp);
	if (now->e.nr)
		qsort(now->e.items, now->e.nr, sizeof(*now->e.items), preferred_name);
}

/* Index one dir into ix->files, through its cache. */
void pv_index_dir(struct lk_provider_index *ix, size_t dir, const char *cache_dir)
{
	const char *path = ix->dirs.items[dir].path;
	struct dirindex cached = { { NULL, 0, 0 }, NULL }, now = { { NULL, 0, 0 }, NULL };
	char *cpath = cache_dir ? cache_file(cache_dir, path) : NULL;
	long *alias_of;
	int changed = 0;

	if (cpath && cache_load(cpath, path, &cached) < 0) {
		const char *kind = lk_file_not_regular(cpath);
		struct stat st;

		if (stat(cpath, &st) == 0) {
			struct lk_buf n = LK_BUF_INIT;

			if (kind)	/* a FIFO or a device is neither read nor waited on */
				lk_buf_addf(&n, "the index cache '%s' is not a regular file (%s): rebuilt", cpath, kind);
			else
				lk_buf_addf(&n, "the index cache '%s' does not parse: rebuilt", cpath);
			lk_strvec_push_owned(&ix->notes, lk_buf_detach(&n));
		}
		changed = 1;
	}
	if (cached.e.nr)
		qsort(cached.e.items, cached.e.nr, sizeof(*cached.e.items), by_name);
	scan_dir(path, &now);
	alias_of = lk_xcalloc(now.e.nr + 1, sizeof(long));
	for (size_t i = 0; i < now.e.nr; i++) {
		struct entry *e = &now.e.items[i];
		struct entry *old;

		/* Another name of a file seen already (libz.so.1 of libz.so): indexed once. */
		alias_of[i] = -1;
		for (size_t k = 0; k < i && alias_of[i] < 0; k++)
			if (alias_of[k] < 0 && now.e.items[k].dev == e->dev && now.e.items[k].ino == e->ino)
				alias_of[i] = (long)k;
		if (alias_of[i] >= 0) {
			e->kind = 'l';
			e->names = lk_xstrdup("");
			continue;
		}
		old = !cached.e.nr ? NULL : bsearch(e, cached.e.items, cached.e.nr, sizeof(*cached.e.items), by_name);
		if (old && old->kind != 'l' && old->size == e->size && old->mtime_ns == e->mtime_ns) {
			e->kind = old->kind;
			e->machine = old->machine;
			e->names = old->names;	/* moved, still in the cache's buffer */
			e->borrowed = old->borrowed;
			e->names_len = old->names_len;
			e->nnames = old->nnames;
			old->names = NULL;
			old->borrowed = 0;
			ix->cached++;
		} else {
			read_entry(path, e);
			ix->read++;
			changed = 1;
		}
	}
	changed |= now.e.nr != cached.e.nr;
	if (changed && cpath) {
		struct lk_err err = LK_ERR_INIT;

		if (cache_save(cache_dir, cpath, path, &now, &err) < 0)
			lk_strvec_push(&ix->notes, err.msg);
	}
	for (size_t i = 0; i < now.e.nr; i++) {
		struct entry *e = &now.e.items[i];
		struct lk_provider_file *f;

		if (e->kind == 'x' || e->kind == 'l')
			continue;
		LK_GROW(ix->files.items, ix->files.nr + 1, ix->files.alloc);
		f = &ix->files.items[ix->files.nr++];
		memset(f, 0, sizeof(*f));
		f->name = e->name;
		f->dir = dir;
		f->shared = e->kind == 's';
		f->machine = e->machine;
		f->size = e->size;
		f->mtime_ns = e->mtime_ns;
		f->alias_of = -1;
		f->names = e->names;
		f->names_borrowed = e->borrowed;
		f->names_len = e->names_len;
		f->nnames = e->nnames;
		e->name = e->names = NULL;
		e->borrowed = 0;
	}
	free(alias_of);
	if (cached.buf) {
		LK_GROW(ix->buffers.items, ix->buffers.nr + 1, ix->buffers.alloc);
		ix->buffers.items[ix->buffers.nr++] = cached.buf;
		cached.buf = NULL;
	}
	dirindex_release(&now);
	dirindex_release(&cached);
	free(cpath);
}
