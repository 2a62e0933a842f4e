/*
 * Section garbage collection (--gc-sections) as bfd does it, for the
 * replay: which sections stay, and so which undefined references count.
 */
#ifndef ANALYZER_GC_H
#define ANALYZER_GC_H

#include <stddef.h>
#include <stdint.h>

#include "elf.h"
#include "linkscope/strvec.h"

/* What the collector asks the replay about symbols (opaque handles of its table). */
struct lk_gc_host {
	void *ctx;
	const char *(*name)(void *ctx, void *sym);
	/* The regular input whose definition won and its section, or -1 (undefined, shared, linker-defined). */
	long (*definer)(void *ctx, void *sym, uint32_t *section);
	/* A kept section of `input` references it. */
	void (*live)(void *ctx, void *sym, long input);
};

struct lk_gc;

struct lk_gc *lk_gc_new(const struct lk_gc_host *host);
/*
 * Replay input `input` (a regular object, in load order) has these
 * sections; `syms[i]` is the replay's handle of its symbol table entry i
 * (a global), or NULL.
 */
void lk_gc_add(struct lk_gc *gc, long input, const struct lk_elf_gc *sections,
	       void *const *syms, size_t nsyms);
/* A root the replay knows of: the entry symbol, -u, exported symbols. */
void lk_gc_keep(struct lk_gc *gc, long input, uint32_t section);
/* Mark from the roots (those above, and KEEP, notes, SHF_GNU_RETAIN), then report every live reference. */
void lk_gc_run(struct lk_gc *gc);
/* After lk_gc_run: sections collected (those --print-gc-sections names), of how many non-empty ones. */
void lk_gc_counts(const struct lk_gc *gc, size_t *removed, size_t *total);
/* After lk_gc_run: does section `section` of `input` stay (1 too for one the collector was not given)? */
int lk_gc_kept(const struct lk_gc *gc, long input, uint32_t section);
void lk_gc_free(struct lk_gc *gc);

#endif
