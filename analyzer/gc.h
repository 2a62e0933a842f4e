/*
 * Section garbage collection (--gc-sections) as bfd does it, for the
 * replay: which sections stay, and so which undefined references count.
 */
#ifndef ANALYZER_GC_H
#define ANALYZER_GC_H

#include <stddef.h>

#include "linkscope/elf.h"
#include "linkscope/strvec.h"

/* What the collector asks the replay about symbols (opaque handles of its table). */
struct lk_gc_host {
	void *ctx;
	void *(*intern)(void *ctx, const char *name);
	const char *(*name)(void *ctx, void *sym);
	/* The regular input whose definition won, or -1 (undefined, shared, linker-defined). */
	long (*definer)(void *ctx, void *sym);
	/* A shared object in the link references it. */
	int (*dynamic_ref)(void *ctx, void *sym);
	/* A kept section of `input` references it. */
	void (*live)(void *ctx, void *sym, long input);
};

struct lk_gc_roots {
	const char *entry;		/* the entry symbol */
	const struct lk_strvec *symbols;	/* -u, --require-defined, --export-dynamic-symbol */
	int dynamic;			/* the output has dynamic sections: exported and DSO-referenced symbols are roots */
	int export_all;			/* -shared or -E: every default-visibility definition is exported */
};

struct lk_gc;

struct lk_gc *lk_gc_new(const struct lk_gc_host *host);
/* Replay input `input` (a regular object, in load order) has these sections. */
void lk_gc_add(struct lk_gc *gc, long input, const struct lk_elf_gc *sections);
/* Mark from the roots, then report every live reference through host->live. */
void lk_gc_run(struct lk_gc *gc, const struct lk_gc_roots *roots);
/* After lk_gc_run: sections collected (those --print-gc-sections names), of how many non-empty ones. */
void lk_gc_counts(const struct lk_gc *gc, size_t *removed, size_t *total);
/* A loaded input has a section named `name` (so ld defines __start_NAME and __stop_NAME). */
int lk_gc_has_section(const struct lk_gc *gc, const char *name);
void lk_gc_free(struct lk_gc *gc);

#endif
