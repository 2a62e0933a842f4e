/*
 * One dir's index for the provider search (see provider.c): the
 * exported names of every library in it (lk_elf_exports), and its cache
 * file, each file's entry keyed by size and mtime, with a hash table of
 * the dir's names that lookups probe where the file is mapped (format 2,
 * docs/decisions.md); a cache that does not parse is rebuilt, never
 * trusted in part. Models no part of ld: it stands for ld reading every
 * library of the dir at once.
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
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/file.h"
#include "elf.h"
#include "provider.h"
#include "provider_parts.h"
#include "linkscope/hash.h"
#include "linkscope/sha256.h"
#include "linkscope/vec.h"

#define CACHE_MAGIC "linkscope-provider-index 2"

#define CACHE_MAX_BYTES (512u << 20)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BYTE_ORDER_NAME "le"
#else
#define BYTE_ORDER_NAME "be"
#endif

/* ---- one dir's index, and its cache ---- */

struct entry {
	char *name;
	long long size, mtime_ns;
	int kind;		/* 's' shared, 'a' archive, 'x' neither (kept so it is not read again), 'l' another name of a file of the dir */
	int machine;
	char *names;		/* never malloc'd: in a cache file mapped, in the names packed now, or `empty` */
	size_t names_at;	/* in the dir's names (a cache file's, or the pack) */
	size_t names_len, nnames;
	int in_fresh;		/* names are at names_at in the names read now (read_entry) */
	dev_t dev;		/* not cached: for aliases, from this run's stat */
	ino_t ino;
};

struct dirindex {
	struct { struct entry *items; size_t nr, alloc; } e;
	void *map;		/* the cache file mapped, which the entries' names point into */
	size_t map_len;
	const char *names;	/* the names of every entry, back to back, and their table */
	size_t names_len;
	const unsigned char *slots;
	size_t nslots;
};

static char empty[1];	/* the names of an entry with none (never written to) */

static void dirindex_release(struct dirindex *d)
{
	for (size_t i = 0; i < d->e.nr; i++)
		free(d->e.items[i].name);
	free(d->e.items);
	if (d->map)
		munmap(d->map, d->map_len);
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

/* The table's words: slot s is words 2s (the hash's check) and 2s + 1 (offset + 1). */
static uint32_t slot_word(const unsigned char *slots, size_t w)
{
	uint32_t v;

	memcpy(&v, slots + 4 * w, 4);
	return v;
}

static void slot_set(unsigned char *slots, size_t w, uint32_t v)
{
	memcpy(slots + 4 * w, &v, 4);
}

/* The next line of `buf` from *at, NUL-terminated in `line`: -1 when there is none, or it holds a NUL. */
static int next_line(const char *buf, size_t len, size_t *at, struct lk_buf *line)
{
	const char *nl = *at < len ? memchr(buf + *at, '\n', len - *at) : NULL;

	if (!nl)
		return -1;
	lk_buf_reset(line);
	lk_buf_add(line, buf + *at, (size_t)(nl - (buf + *at)));
	*at = (size_t)(nl - buf) + 1;
	return strlen(line->buf) == line->len ? 0 : -1;
}

/* "f NAME SIZE MTIME_NS KIND MACHINE COUNT BYTES": the entry, its names not yet placed. */
static int parse_entry(char *line, struct entry *e)
{
	long long machine, count, bytes;
	char *q, *name_end;

	memset(e, 0, sizeof(*e));
	if (strncmp(line, "f ", 2) || !(name_end = strchr(line + 2, ' ')) || name_end == line + 2)
		return -1;
	q = name_end + 1;
	if (parse_ll(q, &q, &e->size) || *q++ != ' ' || parse_ll(q, &q, &e->mtime_ns) || *q++ != ' ' ||
	    (*q != 's' && *q != 'a' && *q != 'x' && *q != 'l') || q[1] != ' ')
		return -1;
	e->kind = *q;
	q += 2;
	if (parse_ll(q, &q, &machine) || *q++ != ' ' || parse_ll(q, &q, &count) || *q++ != ' ' ||
	    parse_ll(q, &q, &bytes) || *q || machine > 65535 || bytes > CACHE_MAX_BYTES ||
	    count > bytes / 2 || (count == 0) != (bytes == 0))
		return -1;	/* each name is a byte at least, and its NUL */
	e->machine = (int)machine;
	e->nnames = (size_t)count;
	e->names_len = (size_t)bytes;
	e->name = lk_xstrndup(line + 2, (size_t)(name_end - line - 2));
	return 0;
}

/*
 * The slots of the table: every name of the entries has one (`names` in
 * all), each within the names. The names a slot points at are checked
 * when probed (lk_provider_lookup), not here: that would read them all.
 */
static int slots_parse(const unsigned char *slots, size_t nslots, size_t names_len, size_t names)
{
	size_t used = 0;

	for (size_t s = 0; s < nslots; s++) {
		uint32_t ref = slot_word(slots, 2 * s + 1);

		if (ref > names_len)
			return -1;
		used += ref != 0;
	}
	return used == names ? 0 : -1;
}

/*
 * The cache file of `dir`: "CACHE_MAGIC\n", "dir PATH\n", per file "f NAME
 * SIZE MTIME_NS KIND MACHINE COUNT BYTES\n", then "names BYTES SLOTS
 * ORDER\n", the files' names (each NUL-terminated, BYTES in all, the files'
 * in turn) and the table over them (SLOTS slots of two 32-bit words, of
 * the byte order ORDER; see struct lk_provider_dir). Every part's size is
 * said before it and the file ends where they add up to, so a file cut
 * short or grown does not parse. Returns 0, or -1 (nothing kept) when it is
 * missing or does not parse; `buf` stays the caller's, names point into it.
 */
static int cache_parse(const char *buf, size_t len, const char *dir, struct dirindex *out)
{
	struct lk_buf line = LK_BUF_INIT;
	size_t at = 0, bytes = 0, names = 0;
	long long names_len, nslots;
	char *q;

	if (next_line(buf, len, &at, &line) < 0 || strcmp(line.buf, CACHE_MAGIC) ||
	    next_line(buf, len, &at, &line) < 0 || strncmp(line.buf, "dir ", 4) || strcmp(line.buf + 4, dir))
		goto bad;	/* another format, or another dir with the same hash prefix */
	for (;;) {
		struct entry e;

		if (next_line(buf, len, &at, &line) < 0)
			goto bad;
		if (!strncmp(line.buf, "names ", 6))
			break;
		if (parse_entry(line.buf, &e) < 0)
			goto bad;
		e.names_at = bytes;
		LK_GROW(out->e.items, out->e.nr + 1, out->e.alloc);
		out->e.items[out->e.nr++] = e;
		bytes += e.names_len;
		names += e.nnames;
		if (bytes > len)
			goto bad;
	}
	q = line.buf + 6;
	if (parse_ll(q, &q, &names_len) || *q++ != ' ' || parse_ll(q, &q, &nslots) || strcmp(q, " " BYTE_ORDER_NAME) ||
	    (size_t)names_len != bytes || nslots < 1 || (nslots & (nslots - 1)) || (size_t)nslots > len / 8 ||
	    names * 4 >= (size_t)nslots * 3 || len - at != bytes + (size_t)nslots * 8)
		goto bad;	/* the table has an empty slot, so every probe ends */
	out->names = buf + at;
	out->names_len = bytes;
	out->slots = (const unsigned char *)buf + at + bytes;
	out->nslots = (size_t)nslots;
	/*
	 * The names end with a NUL, so no name read runs past them. Each
	 * file's last one is not looked at: that would read a page of the
	 * names per file, most of the file (one that does not end there is a
	 * name the file does not have, like a byte changed in a name).
	 */
	if (bytes && out->names[bytes - 1])
		goto bad;
	for (size_t i = 0; i < out->e.nr; i++) {
		struct entry *e = &out->e.items[i];

		e->names = e->names_len ? (char *)out->names + e->names_at : empty;
	}
	if (slots_parse(out->slots, out->nslots, bytes, names) < 0)
		goto bad;
	lk_buf_release(&line);
	return 0;
bad:
	lk_buf_release(&line);
	dirindex_release(out);
	return -1;
}

/* The cache file mapped (read, not copied: most of its names are never looked at) and parsed. */
static int cache_load(const char *path, const char *dir, struct dirindex *out)
{
	struct stat st;
	int fd = lk_file_open_regular(path, &st);
	void *map;

	if (fd < 0)
		return -1;
	if (st.st_size <= 0 || (unsigned long long)st.st_size > CACHE_MAX_BYTES) {
		close(fd);
		return -1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	if (cache_parse(map, (size_t)st.st_size, dir, out) < 0) {
		munmap(map, (size_t)st.st_size);
		return -1;
	}
	out->map = map;
	out->map_len = (size_t)st.st_size;
	return 0;
}

long lk_provider_cache_parse(const char *text, size_t len, const char *dir)
{
	struct dirindex d;
	long n;

	memset(&d, 0, sizeof(d));
	n = cache_parse(text, len, dir, &d) < 0 ? -1 : (long)d.e.nr;
	dirindex_release(&d);
	return n;
}

/*
 * The names of `d`'s entries in one buffer, `names`: those read now as
 * they are when every entry's are (no copy), else the entries' in turn
 * (from the cache file and from `fresh`, which is released). What the cache
 * file keeps.
 */
static void pack_names(struct dirindex *d, struct lk_buf *fresh, struct lk_buf *names)
{
	int all_fresh = 1;

	for (size_t i = 0; i < d->e.nr; i++)
		all_fresh &= !d->e.items[i].names_len || d->e.items[i].in_fresh;
	if (all_fresh) {
		*names = *fresh;	/* read in the entries' order: they are the names */
		lk_buf_init(fresh);
	}
	for (size_t i = 0, at = 0; i < d->e.nr; i++) {
		struct entry *e = &d->e.items[i];

		if (!all_fresh)
			lk_buf_add(names, e->in_fresh ? fresh->buf + e->names_at : e->names, e->names_len);
		e->in_fresh = 0;
		e->names_at = at;
		at += e->names_len;
	}
	lk_buf_release(fresh);
	for (size_t i = 0; i < d->e.nr; i++)
		d->e.items[i].names = d->e.items[i].names_len ? names->buf + d->e.items[i].names_at : empty;
	d->names = names->len ? names->buf : empty;
	d->names_len = names->len;
}

/* Names hashed ahead of their slots' use, the slots fetched meanwhile: the table is larger than the caches. */
#define TABLE_BATCH 16

struct pending { uint64_t h; uint32_t ref; };

static void table_insert(unsigned char *slots, size_t cap, const struct pending *p, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		size_t s = (size_t)p[k].h & (cap - 1);

		while (slot_word(slots, 2 * s + 1))
			s = (s + 1) & (cap - 1);
		slot_set(slots, 2 * s, (uint32_t)(p[k].h >> 32));
		slot_set(slots, 2 * s + 1, p[k].ref);
	}
}

/*
 * The table over `d`'s names (packed, pack_names), malloc'd, returned: a
 * slot per name, under 3/4 full. Offsets are 32 bits: a dir whose names
 * pass 4 GiB (its cache could not be read either, CACHE_MAX_BYTES) would
 * miss names; the largest seen, /usr/lib/x86_64-linux-gnu, has 17 MB.
 */
static unsigned char *make_table(struct dirindex *d)
{
	struct pending batch[TABLE_BATCH];
	size_t count = 0, cap = 8, nb = 0;
	unsigned char *slots;

	for (size_t i = 0; i < d->e.nr; i++)
		count += d->e.items[i].nnames;
	while (count * 4 >= cap * 3)
		cap *= 2;
	slots = lk_xcalloc(cap, 8);
	for (const char *p = d->names, *end = d->names + d->names_len, *next; p < end; p = next) {
		size_t len = strlen(p);

		batch[nb].h = lk_hash_bytes(p, len);
		batch[nb].ref = (uint32_t)(p - d->names) + 1;
		__builtin_prefetch(slots + 8 * ((size_t)batch[nb].h & (cap - 1)), 1);
		if (++nb == TABLE_BATCH) {
			table_insert(slots, cap, batch, nb);
			nb = 0;
		}
		next = p + len + 1;
	}
	table_insert(slots, cap, batch, nb);
	d->slots = slots;
	d->nslots = cap;
	return slots;
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

		fprintf(f, "f %s %lld %lld %c %d %zu %zu\n", e->name, e->size, e->mtime_ns, e->kind, e->machine,
			e->nnames, e->names_len);
	}
	fprintf(f, "names %zu %zu %s\n", d->names_len, d->nslots, BYTE_ORDER_NAME);
	fwrite(d->names, 1, d->names_len, f);
	fwrite(d->slots, 8, d->nslots, f);
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

/* The entry's file read now, its names appended to `fresh`. */
static void read_entry(const char *dir, struct entry *e, struct lk_buf *fresh)
{
	struct lk_buf path = LK_BUF_INIT;
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
			lk_buf_add(fresh, v.items[i], strlen(v.items[i]) + 1);
			e->names_len += strlen(v.items[i]) + 1;
			e->nnames++;
		}
	}
	e->names_at = fresh->len - e->names_len;
	e->names = NULL;	/* fresh moves as it grows */
	e->in_fresh = 1;
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

/* A cache file of another version of linkscope (its magic line, another number): replaced without a word. */
static int other_version(const char *path)
{
	static const char prefix[] = "linkscope-provider-index ";
	char head[sizeof(CACHE_MAGIC)];

	return lk_file_read_head(path, head, sizeof(head)) == (ssize_t)sizeof(head) && !memcmp(head, prefix, sizeof(prefix) - 1) &&
	       memcmp(head, CACHE_MAGIC "\n", sizeof(head)) && memchr(head, '\n', sizeof(head));
}

/* Why the cache file of a dir was not used, for the notes (NULL: it is not there, or is another version's). */
static void note_unused(struct lk_provider_index *ix, const char *cpath)
{
	const char *kind = lk_file_not_regular(cpath);
	struct lk_buf n = LK_BUF_INIT;
	struct stat st;

	if (stat(cpath, &st) < 0 || (!kind && other_version(cpath)))
		return;
	if (kind)	/* a FIFO or a device is neither read nor waited on */
		lk_buf_addf(&n, "the index cache '%s' is not a regular file (%s): rebuilt", cpath, kind);
	else
		lk_buf_addf(&n, "the index cache '%s' does not parse: rebuilt", cpath);
	lk_strvec_push_owned(&ix->notes, lk_buf_detach(&n));
}

/*
 * The cache file just written for `now`, mapped into `cached` (released
 * first), `now`'s names pointed into it: the names made now need not stay
 * in memory. -1 (nothing changed in `now`) when it does not load, or is
 * no longer the one written (another run's, written since).
 */
static int remap(const char *cpath, const char *dir, struct dirindex *now, struct dirindex *cached)
{
	dirindex_release(cached);
	if (cache_load(cpath, dir, cached) < 0)
		return -1;
	for (size_t i = 0; i < now->e.nr || i < cached->e.nr; i++) {
		const struct entry *a = i < now->e.nr ? &now->e.items[i] : NULL;
		const struct entry *b = i < cached->e.nr ? &cached->e.items[i] : NULL;

		if (!a || !b || a->names_at != b->names_at || a->names_len != b->names_len || a->nnames != b->nnames ||
		    strcmp(a->name, b->name)) {
			dirindex_release(cached);
			return -1;
		}
	}
	for (size_t i = 0; i < now->e.nr; i++) {
		struct entry *e = &now->e.items[i];

		e->names = e->names_len ? (char *)cached->names + e->names_at : empty;
	}
	return 0;
}

/*
 * The dir's libraries now (`now`), each from its entry in `cached` when its
 * size and mtime are the same, else read (its names into `fresh`). Returns
 * whether the cache is to be written again: an entry read, one gone, or
 * the cached names not in the files' order (the lookups find a file's
 * names by where they are).
 */
static int match_entries(struct lk_provider_index *ix, const char *path, struct dirindex *cached,
			 struct dirindex *now, struct lk_buf *fresh)
{
	long *alias_of = lk_xcalloc(now->e.nr + 1, sizeof(long));
	size_t last_at = 0;
	int changed = now->e.nr != cached->e.nr;

	if (cached->e.nr)
		qsort(cached->e.items, cached->e.nr, sizeof(*cached->e.items), by_name);
	for (size_t i = 0; i < now->e.nr; i++) {
		struct entry *e = &now->e.items[i];
		struct entry *old;

		/* Another name of a file seen already (libz.so.1 of libz.so): indexed once. */
		alias_of[i] = -1;
		for (size_t k = 0; k < i && alias_of[i] < 0; k++)
			if (alias_of[k] < 0 && now->e.items[k].dev == e->dev && now->e.items[k].ino == e->ino)
				alias_of[i] = (long)k;
		if (alias_of[i] >= 0) {
			e->kind = 'l';
			e->names = empty;
			continue;
		}
		old = !cached->e.nr ? NULL : bsearch(e, cached->e.items, cached->e.nr, sizeof(*cached->e.items), by_name);
		if (old && old->kind != 'l' && old->size == e->size && old->mtime_ns == e->mtime_ns) {
			e->kind = old->kind;
			e->machine = old->machine;
			e->names = old->names;	/* still in the cache file's names */
			e->names_at = old->names_at;
			e->names_len = old->names_len;
			e->nnames = old->nnames;
			changed |= e->names_at < last_at;
			last_at = e->names_at + e->names_len;
			ix->cached++;
		} else {
			read_entry(path, e, fresh);
			ix->read++;
			changed = 1;
		}
	}
	free(alias_of);
	return changed;
}

/*
 * The names and table of `now` made now, written to the cache `cpath` (NULL:
 * none) and mapped from there into `cached` (returns 1), else kept by the
 * index in its buffers (returns 0).
 */
static int pack_and_save(struct lk_provider_index *ix, const char *cache_dir, const char *cpath, const char *path,
			 struct dirindex *now, struct dirindex *cached, struct lk_buf *fresh)
{
	struct lk_buf names = LK_BUF_INIT;
	unsigned char *slots;
	struct lk_err err = LK_ERR_INIT;

	pack_names(now, fresh, &names);
	slots = make_table(now);
	if (cpath && cache_save(cache_dir, cpath, path, now, &err) < 0) {
		lk_strvec_push(&ix->notes, err.msg);
	} else if (cpath) {
		free(slots);	/* the file's, mapped, takes its place: not both in memory */
		if (remap(cpath, path, now, cached) == 0) {
			lk_buf_release(&names);
			return 1;
		}
		slots = make_table(now);
	}
	LK_GROW(ix->buffers.items, ix->buffers.nr + 2, ix->buffers.alloc);
	ix->buffers.items[ix->buffers.nr++] = slots;
	if (names.len)
		ix->buffers.items[ix->buffers.nr++] = lk_buf_detach(&names);
	lk_buf_release(&names);
	return 0;
}

/* Index one dir into ix->files, through its cache. */
void pv_index_dir(struct lk_provider_index *ix, size_t dir, const char *cache_dir)
{
	struct lk_provider_dir *pd = &ix->dirs.items[dir];
	const char *path = pd->path;
	struct dirindex cached, now;
	const struct dirindex *from = &cached;	/* where the names and their table are */
	char *cpath = cache_dir ? cache_file(cache_dir, path) : NULL;
	struct lk_buf fresh = LK_BUF_INIT;
	int changed = !cpath;	/* no cache: the names are packed now */

	memset(&cached, 0, sizeof(cached));
	memset(&now, 0, sizeof(now));
	if (cpath && cache_load(cpath, path, &cached) < 0) {
		note_unused(ix, cpath);
		changed = 1;
	}
	scan_dir(path, &now);
	changed |= match_entries(ix, path, &cached, &now, &fresh);
	if (changed && !pack_and_save(ix, cache_dir, cpath, path, &now, &cached, &fresh))
		from = &now;
	if (from == &cached) {
		LK_GROW(ix->maps.items, ix->maps.nr + 1, ix->maps.alloc);
		ix->maps.items[ix->maps.nr].addr = cached.map;
		ix->maps.items[ix->maps.nr++].len = cached.map_len;
		cached.map = NULL;
	}
	pd->names = from->names;
	pd->names_len = from->names_len;
	pd->slots = from->slots;
	pd->nslots = from->nslots;
	pd->first_file = ix->files.nr;
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
		f->names_at = e->names_at;
		f->names_len = e->names_len;
		f->nnames = e->nnames;
		e->name = NULL;
	}
	pd->nfiles = ix->files.nr - pd->first_file;
	lk_buf_release(&fresh);
	dirindex_release(&now);
	dirindex_release(&cached);
	free(cpath);
}

/*
 * The files of dir `dir` that export `name` (its lk_hash_bytes `h`), appended
 * to `out` in no order: the table's slots from the name's, until an empty
 * one. A slot counts when its name is whole (at the start of one) and is
 * `name`, within a file of the dir.
 */
void pv_dir_lookup(const struct lk_provider_index *ix, size_t dir, const char *name, uint64_t h,
		   struct pv_hits *out)
{
	const struct lk_provider_dir *d = &ix->dirs.items[dir];
	const struct lk_provider_file *files = ix->files.items + d->first_file;
	uint32_t check = (uint32_t)(h >> 32), ref;

	if (!d->nslots)
		return;
	for (size_t s = (size_t)h & (d->nslots - 1); (ref = slot_word(d->slots, 2 * s + 1)); s = (s + 1) & (d->nslots - 1)) {
		size_t at = ref - 1, lo = 0, hi = d->nfiles;

		if (slot_word(d->slots, 2 * s) != check || (at && d->names[at - 1]) || strcmp(d->names + at, name))
			continue;
		/* The last file whose names start at or before `at`. */
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;

			if (files[mid].names_at <= at)
				lo = mid;
			else
				hi = mid;
		}
		if (lo < d->nfiles && files[lo].names_at <= at && at < files[lo].names_at + files[lo].names_len) {
			LK_GROW(out->items, out->nr + 1, out->alloc);
			out->items[out->nr++] = (long)(d->first_file + lo);
		}
	}
}
