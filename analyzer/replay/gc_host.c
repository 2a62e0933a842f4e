/*
 * --gc-sections seen from the replay (see replay.c): the sections of each
 * regular input handed to the collector (gc.c, which models
 * bfd/elflink.c's bfd_elf_gc_sections) with its globals mapped to the
 * replay's table, the collector's questions about symbols answered from
 * the table, and the roots (ld's entry symbol, -u, --export-dynamic, ...)
 * kept before the collection.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "gc.h"
#include "rp.h"

/* The sections of a regular input, for --gc-sections, its globals mapped to the table by symbol index. */
void rp_gc_add(struct rp *r, long input, const struct lk_elf_syms *syms, struct lk_sym **seen,
	       struct lk_elf_gc *sections)
{
	size_t n = 0;
	void **by_index;

	for (size_t i = 0; i < syms->nr; i++)
		if (syms->items[i].index >= n)
			n = syms->items[i].index + 1;
	by_index = lk_xcalloc(n + 1, sizeof(*by_index));
	for (size_t i = 0; i < syms->nr; i++)
		by_index[syms->items[i].index] = seen[i];
	lk_gc_add(r->gc, input, sections, by_index, n);
	free(by_index);
}

/* ---- section garbage collection: the replay's symbols seen by gc.c ---- */

static const char *gc_name(void *ctx, void *sym)
{
	(void)ctx;
	return ((struct lk_sym *)sym)->name;
}

static long gc_definer(void *ctx, void *sym, uint32_t *section)
{
	const struct lk_sym *s = sym;

	(void)ctx;
	*section = s->def_section;
	return s->defined && !s->dynamic ? s->def_input : -1;
}

static void gc_live(void *ctx, void *sym, long input)
{
	struct rp *r = ctx;
	struct lk_sym *s = sym;

	/* The first live reference of a symbol still undefined, for its diagnostic (few; kept aside). */
	if (!s->gc_live && !s->defined) {
		LK_GROW(r->live_undefined.items, r->live_undefined.nr + 1, r->live_undefined.alloc);
		r->live_undefined.items[r->live_undefined.nr].sym = s;
		r->live_undefined.items[r->live_undefined.nr++].input = input;
	}
	s->gc_live = 1;
}

/* The sections that define `name`, if a regular object does: a root. */
static void gc_keep_symbol(struct rp *r, const char *name)
{
	struct lk_sym *s = lk_symtab_lookup(r->tab, name);

	if (s && s->defined && !s->dynamic)
		lk_gc_keep(r->gc, s->def_input, s->def_section);
}

/*
 * Where the collection changes the outcome: symbols still undefined that
 * regular inputs reference, but only from sections that go, so ld does
 * not fail on them (bfd reports an undefined symbol only from a section
 * it keeps).
 */
static void gc_changes_note(struct rp *r)
{
	size_t cursor = 0, n = 0;
	const struct lk_sym *s, *first = NULL;

	while ((s = lk_symtab_next(r->tab, &cursor)))
		if (!s->defined && s->ref_regular_strong && !s->gc_live && !rp_linker_defined(s->name) && !n++)
			first = s;
	if (n)
		rp_note(r, LK_GC_CHANGES_NOTE "%zu undefined symbol%s referenced only from collected sections do%s not fail the link (%s%s)",
			n, n == 1 ? "" : "s", n == 1 ? "es" : "", first->name, n > 1 ? ", ..." : "");
}

/*
 * bfd's roots that come from symbols (_bfd_elf_gc_keep and
 * bfd_elf_gc_mark_dynamic_ref_symbol): the entry, -u and the like, and when
 * the output has dynamic sections, every visible definition a shared object
 * references or, with -shared or -E, exports.
 */
void rp_collect_sections(struct rp *r)
{
	int dynamic = !r->policy.static_link || (r->line->facts & (LK_LINE_PIE | LK_LINE_SHARED));
	int export_all = (r->line->facts & LK_LINE_SHARED) || r->policy.export_dynamic;
	size_t removed, total, cursor = 0;
	const struct lk_sym *s;

	gc_keep_symbol(r, r->policy.entry);
	for (size_t i = 0; i < r->policy.roots.nr; i++)
		gc_keep_symbol(r, r->policy.roots.items[i]);
	while (dynamic && (s = lk_symtab_next(r->tab, &cursor))) {
		if (s->defined && !s->dynamic && !s->def_hidden && s->def_section &&
		    (export_all || s->ref_dynamic))
			lk_gc_keep(r->gc, s->def_input, s->def_section);
	}
	for (size_t i = 0; i < r->line->items.nr && export_all; i++)
		if (r->line->items.items[i].ld_option == LK_LD_VERSION_SCRIPT)
			rp_note(r, "--gc-sections with a version script: symbols it makes local are still taken as exported roots (not modelled), so fewer sections are collected than ld collects");
	lk_gc_run(r->gc);
	lk_gc_counts(r->gc, &removed, &total);
	rp_note(r, LK_GC_COUNT_NOTE "%zu of %zu sections of the regular inputs are collected; references made only from them do not count (bfd's roots: entry %s, -u, exports, KEEP sections)",
	     removed, total, r->policy.entry);
	gc_changes_note(r);
}

int lk_replay_gc_noise(const struct lk_strvec *notes, size_t i)
{
	if (strncmp(notes->items[i], LK_GC_COUNT_NOTE, strlen(LK_GC_COUNT_NOTE)))
		return 0;
	for (size_t k = 0; k < notes->nr; k++)
		if (!strncmp(notes->items[k], LK_GC_CHANGES_NOTE, strlen(LK_GC_CHANGES_NOTE)))
			return 0;
	return 1;
}

struct lk_gc *rp_gc_new(struct rp *r)
{
	struct lk_gc_host host = { r, gc_name, gc_definer, gc_live };

	return lk_gc_new(&host);
}
