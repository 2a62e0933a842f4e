/*
 * What GNU ld's replay already answers of the lld-rules replay (see
 * replay.c's linker_verdicts): lld and mold read the same inputs in the
 * same order as GNU ld unless the line makes their rules differ, and then
 * the second replay would only read every input (and its relocations) again
 * to reach the same table. GNU ld's replay watches, as it reads, every
 * point where the lld-rules replay (RP_LLD, read.c, archive.c, dso.c)
 * would take another path:
 *
 * - a strong reference to a symbol that an archive read earlier names,
 *   still undefined where lld would fetch (after the item, rp_fetch_lazy):
 *   lld takes that member then, GNU ld does not go back;
 * - a member pulled for a symbol another archive named first (lld takes
 *   the first archive's), or for a symbol a dropped --as-needed library
 *   defines (lld keeps that library, so the symbol is defined there);
 * - a common symbol meeting an archive that names it, a "sym@VER"
 *   reference of a regular object (lld's and mold's rules differ there);
 * - a shared object --as-needed dropped whose TLS definitions, or strong
 *   references to what an archive names, would change the table lld
 *   keeps it in;
 * - under --gc-sections, a regular definition that only a shared object
 *   GNU ld dropped, or one it loaded after the line, references: a root
 *   of one collection and not of the other;
 * - at the end: --copy-dt-needed-entries, the layout pass, text
 *   relocations under lld's -z text.
 *
 * When none happened and GNU ld's replay succeeds, the lld-rules replay
 * would succeed with the same table, but for the libraries GNU ld loads
 * after the line for DT_NEEDED (lld does not: only the inputs read before
 * that count, `line_inputs`) and the dropped libraries' definitions (lld
 * keeps them: lk_sym.dropped_def). lld.c takes GNU ld's replay in its place
 * then. Anything else: the lld-rules replay runs as before.
 */
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "rp.h"

void rp_answer_differs(struct rp *r)
{
	if (r->answer)
		r->answer->same = 0;
}

void rp_answer_ref(struct rp *r, struct lk_sym *s)
{
	if (!r->answer || !r->answer->same || s->defined || s->armap_item < 0)
		return;
	LK_GROW(r->lazy_refs.items, r->lazy_refs.nr + 1, r->lazy_refs.alloc);
	r->lazy_refs.items[r->lazy_refs.nr++] = s;
}

void rp_answer_checkpoint(struct rp *r)
{
	if (!r->answer)
		return;
	for (size_t i = 0; i < r->lazy_refs.nr; i++) {
		const struct lk_sym *s = r->lazy_refs.items[i];

		if (!s->defined && (s->ref_regular_strong || s->ref_dynamic_strong)) {
			/* lld fetches it here, from the archive read earlier: its replay parts (lld_part.c) */
			rp_lld_part(r);
			if (r->mode & RP_LLD)
				return;
			rp_answer_differs(r);
		}
	}
	r->lazy_refs.nr = 0;
	if (r->lld_part)
		r->lazy_pending = 0;	/* lld fetched nothing here: nothing it would take was left */
}

void rp_answer_pull(struct rp *r, const struct lk_sym *s, long item)
{
	if (s->armap_item != item || s->dropped_def || s->defined)
		rp_answer_differs(r);
}

/*
 * lld keeps the shared object GNU ld dropped: its TLS definitions would
 * type symbols, and its strong references to symbols still undefined (that
 * no regular object references yet) would take archive members. Whether
 * an archive names them is known at the end (rp_answer_finish).
 */
void rp_answer_dropped(struct rp *r, const struct lk_elf_syms *syms)
{
	if (!r->answer)
		return;
	r->answer->dropped = 1;
	for (size_t i = 0; i < syms->nr && r->answer->same; i++) {
		const struct lk_elf_sym *y = &syms->items[i];
		const struct lk_sym *s;

		if (y->defined) {
			if (!y->hidden_version && y->tls)
				rp_answer_differs(r);
			continue;
		}
		if (r->gc)
			lk_strvec_push(&r->lazy_dropped_roots, y->name);
		if (y->weak || ((s = lk_symtab_lookup(r->tab, y->name)) && (s->defined || s->ref_regular_strong)))
			continue;
		if (s && s->armap_item >= 0)
			rp_answer_differs(r);	/* lld fetches it after this item, from the archive read earlier */
		else
			lk_strvec_push(&r->lazy_dropped_refs, y->name);
	}
}

/*
 * A dropped library's reference to `s`, read before any archive named it:
 * lld takes no member for it if no archive names it, or if an input read
 * before the first archive that does defines it.
 */
static int defined_before_archive(const struct rp *r, const struct lk_sym *s)
{
	const struct open_archive *a;

	if (s->armap_item < 0)
		return 1;
	a = &r->archives.items[r->archive_slot.items[s->armap_item] - 1];
	return s->defined && s->def_input >= 0 && (size_t)s->def_input < a->inputs_before;
}

/* --gc-sections: a shared object's reference makes `s` a root for one linker's collection only. */
void rp_answer_gc_root(struct rp *r, const struct lk_sym *s)
{
	if (r->gc && s->defined && !s->dynamic && !s->ref_dynamic)
		rp_answer_differs(r);
}

void rp_answer_finish(struct rp *r)
{
	struct lk_sym *s;
	size_t cursor = 0;

	if (!r->answer)
		return;
	r->answer->line_inputs = r->out->inputs.nr;
	/* mold: an --as-needed object no regular reference woke, whose references lld makes (mold.c). */
	if (r->versioned_refs || rp_mold_asleep_matters(r))
		rp_answer_differs(r);
	for (size_t i = 0; i < r->lazy_dropped_roots.nr; i++)
		if ((s = lk_symtab_lookup(r->tab, r->lazy_dropped_roots.items[i])))
			rp_answer_gc_root(r, s);
	for (size_t i = 0; i < r->lazy_dropped_refs.nr; i++)
		if ((s = lk_symtab_lookup(r->tab, r->lazy_dropped_refs.items[i])) && !defined_before_archive(r, s))
			rp_answer_differs(r);	/* lld would take the member for the dropped library's reference */
	for (size_t i = 0; i < r->line->items.nr; i++)
		if (r->line->items.items[i].state & LK_ST_COPY_DT_NEEDED)
			rp_answer_differs(r);
	/* A dropped library's definition of a symbol another input types TLS: lld's table would mismatch them. */
	while (r->answer->same && r->answer->dropped && (s = lk_symtab_next(r->tab, &cursor)))
		if (s->dropped_def && s->typed && s->tls)
			rp_answer_differs(r);
}
