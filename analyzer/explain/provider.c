/*
 * Diagnostics -> providers: for the symbols no input on the line defines,
 * the libraries that would define them, where a user's fix would come from.
 *
 * Takes the line model (read-only) and gives struct lk_provider_index: the
 * dirs searched, each with its rank, and the exported names of every
 * library in them (shared objects' .dynsym as a new reference binds it,
 * archives' armaps; lk_elf_exports() reads them). Searched, best first:
 * the dirs of the line's own inputs and the build tree around them
 * (cargo's target/PROFILE/build/∗/out, the tree under a CMakeCache.txt or
 * config.status, bounded), the line's -L dirs, then ld's SEARCH_DIRs for
 * the target (sysroot applied by the line model), /etc/ld.so.conf and the
 * toolchain's runtime dirs (/usr/lib/gcc{,-cross}/TRIPLE/VERSION). Files
 * of another machine than the link's are never providers.
 *
 * The index is cached per dir in $XDG_CACHE_HOME/linkscope/ (0700 dir, 0600
 * files, written to a temp file and renamed), each file's entry keyed by
 * its size and mtime, so a second analysis reads no ELF at all. The cache
 * is input like any other: a file that does not parse is ignored and
 * rebuilt, never trusted in part.
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
#include "linkscope/sha256.h"
#include "linkscope/vec.h"
#include "resolve.h"

#define CACHE_MAGIC "linkscope-provider-index 1"
#define BUILD_TREE_MAX_DIRS 400	/* dirs walked under one build root */
#define BUILD_TREE_MAX_DEPTH 5
#define CACHE_MAX_BYTES (512u << 20)

/* ---- the dirs to search ---- */

static void add_dir(struct lk_provider_index *ix, const char *dir, enum lk_provider_rank rank,
		    const char *why)
{
	char real[PATH_MAX];
	struct stat st;

	if (!dir || !*dir || !realpath(dir, real) || stat(real, &st) < 0 || !S_ISDIR(st.st_mode))
		return;
	for (size_t i = 0; i < ix->dirs.nr; i++)
		if (!strcmp(ix->dirs.items[i].path, real))
			return;	/* seen with a better (or equal) rank */
	LK_GROW(ix->dirs.items, ix->dirs.nr + 1, ix->dirs.alloc);
	ix->dirs.items[ix->dirs.nr].path = lk_xstrdup(real);
	ix->dirs.items[ix->dirs.nr].rank = rank;
	ix->dirs.items[ix->dirs.nr].why = why;
	ix->dirs.nr++;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return lk_xstrdup(".");
	return slash == path ? lk_xstrdup("/") : lk_xstrndup(path, (size_t)(slash - path));
}

static int is_library_name(const char *name)
{
	size_t n = strlen(name);

	if (strchr(name, '\n') || strchr(name, ' '))
		return 0;	/* the cache is line-based */
	if (n > 5 && !strcmp(name + n - 5, ".rlib"))
		return 0;	/* Rust's, not a native library */
	return (n > 2 && !strcmp(name + n - 2, ".a")) || (n > 3 && !strcmp(name + n - 3, ".so")) ||
	       strstr(name, ".so.") != NULL;
}

/* Breadth-first under `root`, bounded: the dirs that hold libraries. */
static void walk_build_tree(struct lk_provider_index *ix, const char *root)
{
	struct lk_strvec queue = LK_STRVEC_INIT;
	struct { int *items; size_t nr, alloc; } depth = { NULL, 0, 0 };

	lk_strvec_push(&queue, root);
	LK_GROW(depth.items, 1, depth.alloc);
	depth.items[depth.nr++] = 0;
	for (size_t i = 0; i < queue.nr && i < BUILD_TREE_MAX_DIRS; i++) {
		DIR *d = opendir(queue.items[i]);
		struct dirent *e;
		int lib = 0;

		if (!d)
			continue;
		while ((e = readdir(d))) {
			struct lk_buf sub = LK_BUF_INIT;
			struct stat st;

			if (e->d_name[0] == '.' || !strcmp(e->d_name, "CMakeFiles") || !strcmp(e->d_name, "deps") ||
			    !strcmp(e->d_name, "incremental"))
				continue;
			if (is_library_name(e->d_name)) {
				lib = 1;
				continue;
			}
			if (depth.items[i] >= BUILD_TREE_MAX_DEPTH)
				continue;
			lk_buf_addf(&sub, "%s/%s", queue.items[i], e->d_name);
			if (lstat(sub.buf, &st) == 0 && S_ISDIR(st.st_mode)) {
				lk_strvec_push_owned(&queue, lk_buf_detach(&sub));
				LK_GROW(depth.items, depth.nr + 1, depth.alloc);
				depth.items[depth.nr++] = depth.items[i] + 1;
			}
			lk_buf_release(&sub);
		}
		closedir(d);
		if (lib)
			add_dir(ix, queue.items[i], LK_RANK_BESIDE_INPUTS, "the build tree");
	}
	lk_strvec_release(&queue);
	free(depth.items);
}

/* cargo: .../target[/TRIPLE]/PROFILE/deps/x.rlib -> .../PROFILE/build/∗/out. */
static void cargo_out_dirs(struct lk_provider_index *ix, const char *dir)
{
	size_t n = strlen(dir);
	struct lk_buf pat = LK_BUF_INIT;
	glob_t g;

	if (n < 5 || strcmp(dir + n - 5, "/deps"))
		return;
	lk_buf_addf(&pat, "%.*s/build/*/out", (int)(n - 5), dir);
	if (glob(pat.buf, GLOB_ONLYDIR, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && i < BUILD_TREE_MAX_DIRS; i++)
			walk_build_tree(ix, g.gl_pathv[i]);
		globfree(&g);
	}
	lk_buf_release(&pat);
}

/* CMake or autotools: the nearest dir up from `dir` (4 levels) with CMakeCache.txt or config.status. */
static void configured_tree(struct lk_provider_index *ix, const char *dir)
{
	char *d = lk_xstrdup(dir);

	for (int up = 0; up < 4 && strcmp(d, "/"); up++) {
		struct lk_buf a = LK_BUF_INIT, b = LK_BUF_INIT;
		int found;
		char *parent;

		lk_buf_addf(&a, "%s/CMakeCache.txt", d);
		lk_buf_addf(&b, "%s/config.status", d);
		found = access(a.buf, R_OK) == 0 || access(b.buf, R_OK) == 0;
		lk_buf_release(&a);
		lk_buf_release(&b);
		if (found) {
			walk_build_tree(ix, d);
			break;
		}
		parent = dir_of(d);
		free(d);
		d = parent;
	}
	free(d);
}

static const char *triple_of(int machine)
{
	switch (machine) {
	case 62: return "x86_64-linux-gnu";		/* EM_X86_64 */
	case 183: return "aarch64-linux-gnu";		/* EM_AARCH64 */
	case 3: return "i686-linux-gnu";		/* EM_386 */
	case 40: return "arm-linux-gnueabihf";		/* EM_ARM */
	case 243: return "riscv64-linux-gnu";		/* EM_RISCV */
	}
	return NULL;
}

/* The toolchain's runtime libraries (libstdc++, libgcc, libatomic, ...) for the target. */
static void toolchain_dirs(struct lk_provider_index *ix, int machine)
{
	const char *triple = triple_of(machine);
	const char *const roots[] = { "/usr/lib/gcc", "/usr/lib/gcc-cross" };
	struct lk_buf pat = LK_BUF_INIT;
	glob_t g;

	if (!triple)
		return;
	for (size_t r = 0; r < 2; r++) {
		lk_buf_reset(&pat);
		lk_buf_addf(&pat, "%s/%s/*", roots[r], triple);
		if (glob(pat.buf, GLOB_ONLYDIR, NULL, &g) != 0)
			continue;
		/* Newest version first: glob sorts, so walk backwards. */
		for (size_t i = g.gl_pathc; i-- > 0;)
			add_dir(ix, g.gl_pathv[i], LK_RANK_SYSTEM, "the toolchain's runtime dir");
		globfree(&g);
	}
	lk_buf_release(&pat);
}

static int link_machine(const struct lk_line *line)
{
	if (line->machine)
		return line->machine;
	for (size_t i = 0; i < line->items.nr; i++)
		if (line->items.items[i].info.kind == LK_FILE_OBJECT && line->items.items[i].info.machine)
			return line->items.items[i].info.machine;
	return 0;
}

static void collect_dirs(struct lk_provider_index *ix, const struct lk_line *line)
{
	struct lk_strvec conf = LK_STRVEC_INIT;
	size_t first_input_dir = ix->dirs.nr;

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		char *d;

		if (it->kind != LK_ITEM_FILE || !it->path || it->position < 0)
			continue;
		d = dir_of(it->path);
		add_dir(ix, d, LK_RANK_BESIDE_INPUTS, "beside the line's inputs");
		free(d);
	}
	for (size_t i = first_input_dir, n = ix->dirs.nr; i < n; i++) {
		char *d = lk_xstrdup(ix->dirs.items[i].path);

		cargo_out_dirs(ix, d);
		configured_tree(ix, d);
		free(d);
	}
	for (size_t i = 0; i < line->libdirs.nr; i++)
		add_dir(ix, line->libdirs.items[i], LK_RANK_L_DIR, "-L dir");
	for (size_t i = 0; i < line->default_dirs.nr; i++)
		add_dir(ix, line->default_dirs.items[i], LK_RANK_SYSTEM, "ld's search dir");
	lk_resolve_ld_so_conf(line, &conf);
	for (size_t i = 0; i < conf.nr; i++)
		add_dir(ix, conf.items[i], LK_RANK_SYSTEM, "/etc/ld.so.conf");
	lk_strvec_release(&conf);
	toolchain_dirs(ix, ix->machine);
}

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

		if (!is_library_name(de->d_name))
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
static void index_dir(struct lk_provider_index *ix, size_t dir, const char *cache_dir)
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

/* ---- entry points ---- */

char *lk_provider_cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct lk_buf b = LK_BUF_INIT;
	struct stat st;

	if (xdg && *xdg == '/') {
		mkdir(xdg, 0700);
		lk_buf_addf(&b, "%s/linkscope", xdg);
	} else if (home && *home == '/') {
		lk_buf_addf(&b, "%s/.cache", home);
		mkdir(b.buf, 0700);
		lk_buf_addstr(&b, "/linkscope");
	} else {
		return NULL;
	}
	mkdir(b.buf, 0700);
	/* Someone else's, or open to others: its answers cannot be trusted, so it is not used. */
	if (lstat(b.buf, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077)) {
		lk_buf_release(&b);
		return NULL;
	}
	return lk_buf_detach(&b);
}

void lk_provider_index_build(struct lk_provider_index *ix, const struct lk_record *rec,
			     const struct lk_line *line, const char *cache_dir)
{
	(void)rec;
	memset(ix, 0, sizeof(*ix));
	ix->cache_dir = cache_dir ? lk_xstrdup(cache_dir) : NULL;
	ix->machine = link_machine(line);
	collect_dirs(ix, line);
	for (size_t i = 0; i < ix->dirs.nr; i++)
		index_dir(ix, i, cache_dir);
}

void lk_provider_index_dirs(struct lk_provider_index *ix, const struct lk_strvec *dirs,
			    int machine, const char *cache_dir)
{
	memset(ix, 0, sizeof(*ix));
	ix->cache_dir = cache_dir ? lk_xstrdup(cache_dir) : NULL;
	ix->machine = machine;
	for (size_t i = 0; i < dirs->nr; i++)
		add_dir(ix, dirs->items[i], LK_RANK_SYSTEM, "given");
	for (size_t i = 0; i < ix->dirs.nr; i++)
		index_dir(ix, i, cache_dir);
}

void lk_provider_index_release(struct lk_provider_index *ix)
{
	for (size_t i = 0; i < ix->dirs.nr; i++)
		free(ix->dirs.items[i].path);
	free(ix->dirs.items);
	for (size_t i = 0; i < ix->files.nr; i++) {
		free(ix->files.items[i].name);
		if (!ix->files.items[i].names_borrowed)
			free(ix->files.items[i].names);
	}
	free(ix->files.items);
	for (size_t i = 0; i < ix->buffers.nr; i++)
		free(ix->buffers.items[i]);
	free(ix->buffers.items);
	free(ix->cache_dir);
	lk_strvec_release(&ix->notes);
	memset(ix, 0, sizeof(*ix));
}

char *lk_provider_path(const struct lk_provider_index *ix, long file)
{
	struct lk_buf b = LK_BUF_INIT;
	const struct lk_provider_file *f = &ix->files.items[file];

	lk_buf_addf(&b, "%s/%s", ix->dirs.items[f->dir].path, f->name);
	return lk_buf_detach(&b);
}

/* A small open-addressing set of the wanted names (lk_hash_str). */
/* Is `f` a better provider than `g`? Rank, then dir order, then shared before archive. */
static int better(const struct lk_provider_index *ix, long f, long g)
{
	const struct lk_provider_file *a = &ix->files.items[f], *b = &ix->files.items[g];
	enum lk_provider_rank ra = ix->dirs.items[a->dir].rank, rb = ix->dirs.items[b->dir].rank;

	if (ra != rb)
		return ra < rb;
	if (a->dir != b->dir)
		return a->dir < b->dir;
	return a->shared > b->shared;
}

void lk_provider_lookup(const struct lk_provider_index *ix, const char *const *names, size_t n,
			long **hits)
{
	size_t cap = 16, *slots;
	struct hitlist { long *items; size_t nr, alloc; } *lists;
	unsigned char (*maybe)[32];	/* [length & 255][first byte]: some wanted name is like that */

	while (cap < n * 2 + 2)
		cap *= 2;
	slots = lk_xcalloc(cap, sizeof(size_t));	/* index + 1, 0 empty */
	maybe = lk_xcalloc(256, sizeof(*maybe));
	for (size_t i = 0; i < n; i++)
		maybe[strlen(names[i]) & 255][(unsigned char)names[i][0] >> 3] |= (unsigned char)(1u << (names[i][0] & 7));
	lists = lk_xcalloc(n ? n : 1, sizeof(*lists));
	for (size_t i = 0; i < n; i++) {
		size_t s = (size_t)lk_hash_str(names[i]) & (cap - 1);

		while (slots[s] && strcmp(names[slots[s] - 1], names[i]))
			s = (s + 1) & (cap - 1);
		if (!slots[s])
			slots[s] = i + 1;
	}
	for (size_t f = 0; f < ix->files.nr; f++) {
		const struct lk_provider_file *file = &ix->files.items[f];

		if (file->alias_of >= 0 || (ix->machine && file->machine != ix->machine) ||
		    (ix->static_only && file->shared))
			continue;
		for (const char *p = file->names, *end = file->names + file->names_len; p < end; ) {
			size_t len = strlen(p), s;

			/* Most names are not wanted: a table of (length, first byte) spares hashing them. */
			if (!(maybe[len & 255][(unsigned char)p[0] >> 3] & (1u << (p[0] & 7)))) {
				p += len + 1;
				continue;
			}
			s = (size_t)lk_hash_str(p) & (cap - 1);

			while (slots[s] && strcmp(names[slots[s] - 1], p))
				s = (s + 1) & (cap - 1);
			if (slots[s]) {
				struct hitlist *l = &lists[slots[s] - 1];

				if (!l->nr || l->items[l->nr - 1] != (long)f) {
					LK_GROW(l->items, l->nr + 1, l->alloc);
					l->items[l->nr++] = (long)f;
				}
			}
			p += len + 1;
		}
	}
	for (size_t i = 0; i < n; i++) {
		size_t s = (size_t)lk_hash_str(names[i]) & (cap - 1);
		struct hitlist *l;

		while (slots[s] && strcmp(names[slots[s] - 1], names[i]))
			s = (s + 1) & (cap - 1);
		l = &lists[slots[s] - 1];
		/* insertion sort, best first: the lists are short */
		for (size_t a = 1; a < l->nr; a++)
			for (size_t b = a; b > 0 && better(ix, l->items[b], l->items[b - 1]); b--) {
				long t = l->items[b];

				l->items[b] = l->items[b - 1];
				l->items[b - 1] = t;
			}
		hits[i] = lk_xcalloc(l->nr + 1, sizeof(long));
		if (l->nr)
			memcpy(hits[i], l->items, l->nr * sizeof(long));
		hits[i][l->nr] = -1;
	}
	for (size_t i = 0; i < n; i++)
		free(lists[i].items);
	free(lists);
	free(slots);
	free(maybe);
}

/* ---- the Debian package, and the argument ---- */

static char *package_scan(const char *path);

/* The best (lowest) index of `candidates` that `list` names as one of its lines, or -1. */
static long list_names(const char *list, const char *const *candidates, size_t nc)
{
	struct lk_buf b = LK_BUF_INIT, needle = LK_BUF_INIT;
	long best = -1;

	if (lk_buf_read_file(&b, list, 64u << 20) < 0)
		return -1;
	for (size_t c = 0; c < nc && best < 0; c++) {
		size_t n = strlen(candidates[c]);

		lk_buf_reset(&needle);
		lk_buf_addf(&needle, "\n%s\n", candidates[c]);
		if ((b.len > n && !strncmp(b.buf, candidates[c], n) && b.buf[n] == '\n') || strstr(b.buf, needle.buf))
			best = (long)c;
	}
	lk_buf_release(&needle);
	lk_buf_release(&b);
	return best;
}

/* The dpkg database's state: the mtime of its info dir, which changes whenever a package does. */
static long long dpkg_stamp(void)
{
	struct stat st;

	if (stat("/var/lib/dpkg/info", &st) < 0)
		return -1;
	return (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
}

/*
 * The answers already found, in CACHE/packages: "linkscope-packages 1 STAMP"
 * then "PATH\tPACKAGE" lines ("-" for none). Another stamp, or a line that
 * does not parse, and the file is not used.
 */
static char *package_cached(const char *cache_dir, const char *path, long long stamp, int *found)
{
	struct lk_buf b = LK_BUF_INIT, head = LK_BUF_INIT;
	char *pkg = NULL;

	*found = 0;
	if (!cache_dir)
		return NULL;
	lk_buf_addf(&head, "%s/packages", cache_dir);
	if (lk_buf_read_file(&b, head.buf, 16u << 20) < 0) {
		lk_buf_release(&head);
		return NULL;
	}
	lk_buf_reset(&head);
	lk_buf_addf(&head, "linkscope-packages 1 %lld\n", stamp);
	if (b.len >= head.len && !memcmp(b.buf, head.buf, head.len)) {
		for (char *p = b.buf + head.len, *nl; *p && (nl = strchr(p, '\n')); p = nl + 1) {
			char *tab = memchr(p, '\t', (size_t)(nl - p));

			if (!tab)
				break;
			if ((size_t)(tab - p) == strlen(path) && !memcmp(p, path, (size_t)(tab - p))) {
				*found = 1;
				if (nl - tab - 1 > 0 && !(nl - tab - 1 == 1 && tab[1] == '-'))
					pkg = lk_xstrndup(tab + 1, (size_t)(nl - tab - 1));
				break;
			}
		}
	}
	lk_buf_release(&b);
	lk_buf_release(&head);
	return pkg;
}

static void package_remember(const char *cache_dir, const char *path, const char *pkg, long long stamp)
{
	struct lk_buf b = LK_BUF_INIT, file = LK_BUF_INIT, head = LK_BUF_INIT, tmp = LK_BUF_INIT;
	int fd;

	if (!cache_dir || strchr(path, '\n') || strchr(path, '\t') || (mkdir(cache_dir, 0700) < 0 && errno != EEXIST))
		return;
	lk_buf_addf(&file, "%s/packages", cache_dir);
	lk_buf_addf(&head, "linkscope-packages 1 %lld\n", stamp);
	if (lk_buf_read_file(&b, file.buf, 16u << 20) < 0 || b.len < head.len || memcmp(b.buf, head.buf, head.len) ||
	    (b.len && b.buf[b.len - 1] != '\n')) {
		lk_buf_reset(&b);
		lk_buf_addstr(&b, head.buf);
	}
	lk_buf_addf(&b, "%s\t%s\n", path, pkg ? pkg : "-");
	lk_buf_addf(&tmp, "%s/.tmp-XXXXXX", cache_dir);
	fd = mkstemp(tmp.buf);
	if (fd >= 0) {
		int ok = write(fd, b.buf, b.len) == (ssize_t)b.len;

		ok = close(fd) == 0 && ok;
		if (!ok || rename(tmp.buf, file.buf) < 0)
			unlink(tmp.buf);
	}
	lk_buf_release(&b);
	lk_buf_release(&file);
	lk_buf_release(&head);
	lk_buf_release(&tmp);
}

char *lk_provider_package(const char *path, const char *cache_dir)
{
	long long stamp = dpkg_stamp();
	int known;
	char *pkg;

	if (!path)
		return NULL;
	pkg = package_cached(cache_dir, path, stamp, &known);
	if (known)
		return pkg;
	pkg = package_scan(path);
	package_remember(cache_dir, path, pkg, stamp);
	return pkg;
}

static char *package_scan(const char *path)
{
	char real[PATH_MAX];
	const char *candidates[3];
	size_t nc = 0;
	long best = -1;
	char *pkg = NULL;
	glob_t g;

	/* The name itself first (libm.so of libc6-dev), then the file it leads to (libm.so.6 of libc6). */
	candidates[nc++] = path;
	/* usrmerge: dpkg may list /usr/lib/x as /lib/x. */
	if (!strncmp(path, "/usr/lib/", 9))
		candidates[nc++] = path + 4;
	if (realpath(path, real) && strcmp(real, path))
		candidates[nc++] = real;
	if (glob("/var/lib/dpkg/info/*.list", 0, NULL, &g) != 0)
		return NULL;
	for (size_t i = 0; i < g.gl_pathc && best != 0; i++) {
		long c = list_names(g.gl_pathv[i], candidates, nc);

		if (c >= 0 && (best < 0 || c < best)) {
			const char *base = strrchr(g.gl_pathv[i], '/') + 1;
			size_t len = strlen(base) - 5;	/* ".list" */
			const char *colon = memchr(base, ':', len);

			best = c;
			free(pkg);
			pkg = lk_xstrndup(base, colon ? (size_t)(colon - base) : len);
		}
	}
	globfree(&g);
	return pkg;
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Would ld's search find `path` for `word` on this line? */
static int search_finds(const struct lk_line *line, const char *word, const char *path, unsigned state)
{
	struct lk_line_item it;
	int found;

	memset(&it, 0, sizeof(it));
	it.kind = LK_ITEM_LIB;
	it.word = (char *)word;
	it.state = state;
	lk_resolve_search_lib(line, &it);
	found = same_file(it.path, path);
	free(it.path);
	lk_elf_info_release(&it.info);
	lk_strvec_release(&it.tried);
	return found;
}

char *lk_provider_arg(const struct lk_line *line, const char *path, unsigned state)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(base);
	struct lk_buf w = LK_BUF_INIT;

	if (!strncmp(base, "lib", 3) && ((n > 6 && !strcmp(base + n - 3, ".so")) || (n > 5 && !strcmp(base + n - 2, ".a")))) {
		lk_buf_addf(&w, "-l%.*s", (int)(n - 3 - (base[n - 1] == 'a' ? 2 : 3)), base + 3);
		if (search_finds(line, w.buf, path, state))
			return lk_buf_detach(&w);
		lk_buf_reset(&w);
	}
	lk_buf_addf(&w, "-l:%s", base);
	if (search_finds(line, w.buf, path, state))
		return lk_buf_detach(&w);
	lk_buf_release(&w);
	return lk_xstrdup(path);
}
