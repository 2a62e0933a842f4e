


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
 * its size and mtime, so a second analysis reads no ELF at all; the file is
 * mapped, and keeps a hash table of its names that lookups probe in place
 * (provider_index.c). The cache is input like any other: a file that does
 * not parse is ignored and rebuilt, never trusted in part.
 *
 * This file is the entry points and the ranking of what is found; the
 * search's parts are provider_dirs.c (the dirs to search),
 * provider_index.c (one dir's index and its cache) and
 * provider_package.c (the Debian package, the argument), with what they
 * share in provider_parts.h.
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
#include "resolve.h"

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
	ix->machine = pv_link_machine(line);
	pv_collect_dirs(ix, line);
	for (size_t i = 0; i < ix->dirs.nr; i++)
		pv_index_dir(ix, i, cache_dir);
}

void lk_provider_index_dirs(struct lk_provider_index *ix, const struct lk_strvec *dirs,
			    int machine, const char *cache_dir, struct lk_progress *progress)
{
	memset(ix, 0, sizeof(*ix));
	ix->cache_dir = cache_dir ? lk_xstrdup(cache_dir) : NULL;
	ix->machine = machine;
	for (size_t i = 0; i < dirs->nr; i++)
		pv_add_dir(ix, dirs->items[i], LK_RANK_SYSTEM, "given");
	if (progress)
		progress->total = ix->dirs.nr;
	for (size_t i = 0; i < ix->dirs.nr; i++) {
		pv_index_dir(ix, i, cache_dir);
		if (progress)
			lk_progress_update(progress, i + 1);
	}
}

void lk_provider_index_release(struct lk_provider_index *ix)
{
	for (size_t i = 0; i < ix->dirs.nr; i++)
		free(ix->dirs.items[i].path);
	free(ix->dirs.items);
	for (size_t i = 0; i < ix->files.nr; i++)
		free(ix->files.items[i].name);
	free(ix->files.items);
	for (size_t i = 0; i < ix->buffers.nr; i++)
		free(ix->buffers.items[i]);
	free(ix->buffers.items);
	for (size_t i = 0; i < ix->maps.nr; i++)
		munmap(ix->maps.items[i].addr, ix->maps.items[i].len);
	free(ix->maps.items);
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

int lk_provider_file_exports(const struct lk_provider_index *ix, long file, const char *name)
{
	struct pv_hits l = { NULL, 0, 0 };
	int found = 0;

	pv_dir_lookup(ix, ix->files.items[file].dir, name, lk_hash_str(name), &l);
	for (size_t k = 0; k < l.nr && !found; k++)
		found = l.items[k] == file;
	free(l.items);
	return found;
}

static int by_file(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

void lk_provider_lookup(const struct lk_provider_index *ix, const char *const *names, size_t n,
			long **hits)
{
	struct pv_hits l = { NULL, 0, 0 };

	for (size_t i = 0; i < n; i++) {
		uint64_t h = lk_hash_str(names[i]);
		size_t w = 0;

		/* Each dir's table: a few probes per name, where a scan would read every name of the index. */
		l.nr = 0;
		for (size_t d = 0; d < ix->dirs.nr; d++)
			pv_dir_lookup(ix, d, names[i], h, &l);
		if (l.nr)
			qsort(l.items, l.nr, sizeof(*l.items), by_file);
		for (size_t k = 0; k < l.nr; k++) {
			const struct lk_provider_file *file = &ix->files.items[l.items[k]];

			if ((w && l.items[w - 1] == l.items[k]) || file->alias_of >= 0 ||
			    (ix->machine && file->machine != ix->machine) || (ix->static_only && file->shared))
				continue;
			l.items[w++] = l.items[k];
		}
		/* insertion sort, best first, of the files in their order: the lists are short */
		for (size_t a = 1; a < w; a++)
			for (size_t b = a; b > 0 && better(ix, l.items[b], l.items[b - 1]); b--) {
				long t = l.items[b];

				l.items[b] = l.items[b - 1];
				l.items[b - 1] = t;
			}
		hits[i] = lk_xcalloc(w + 1, sizeof(long));
		if (w)
			memcpy(hits[i], l.items, w * sizeof(long));
		hits[i][w] = -1;
	}
	free(l.items);
}
