/*
 * What the parts of the provider search (provider.c, provider_dirs.c,
 * provider_index.c, provider_package.c) share; no other file includes
 * it. The search's interface is provider.h.
 */
#ifndef ANALYZER_PROVIDER_PARTS_H
#define ANALYZER_PROVIDER_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "line.h"
#include "provider.h"

/* provider_dirs.c: a dir to search, once, with its rank and why; every dir for `line`, best first. */
void pv_add_dir(struct lk_provider_index *ix, const char *dir, enum lk_provider_rank rank,
		const char *why);
void pv_collect_dirs(struct lk_provider_index *ix, const struct lk_line *line);
/* provider_dirs.c: a file name a library has (libX.so, libX.so.N, libX.a); the link's ELF machine, or 0. */
int pv_is_library_name(const char *name);
int pv_link_machine(const struct lk_line *line);

/* provider_index.c: the index of dir `dir` of `ix`, from its cache in `cache_dir` (NULL: none) or read now. */
void pv_index_dir(struct lk_provider_index *ix, size_t dir, const char *cache_dir);
/* provider_index.c: the files of dir `dir` that export `name` (hash `h`, lk_hash_bytes), appended to `out` in no order. */
struct pv_hits { long *items; size_t nr, alloc; };
void pv_dir_lookup(const struct lk_provider_index *ix, size_t dir, const char *name, uint64_t h,
		   struct pv_hits *out);

#endif
