/*
 * Copy relocations, per linker (issue #33): an executable's reference
 * that is not through the GOT (absolute, or PC-relative) to data a shared
 * object defines is served by copying the data into the executable
 * (R_*_COPY), and to a function by a canonical PLT entry. Each rule
 * checked against GNU ld 2.40, lld 14 and mold 1.10 on x86-64 and
 * AArch64 (tests/integ/150-deciding-options.sh, 157-aarch64-pie-relocs.sh).
 *
 * - A non-PIE executable: every linker copies; every linker refuses a
 *   copy under -z nocopyreloc (lld: "unresolvable relocation ...; remove
 *   '-z nocopyreloc'", mold: "can not be used; recompile with -fPIC",
 *   GNU ld: "can not be used when making a PDE object") and one of
 *   protected data (its shared object binds it to its own copy: lld
 *   "cannot preempt symbol", mold "cannot make copy relocation for
 *   protected symbol", GNU ld "copy relocation against non-copyable
 *   protected symbol").
 * - A PIE: lld (Relocations.cpp processRelocAux: the executable path is
 *   taken whenever !config->shared) and mold (its PC-relative action
 *   table's PIE row: COPYREL for imported data, PLT for code) copy as in
 *   a non-PIE executable, with the same two refusals. GNU ld on x86-64
 *   copies too (elf_x86_64_check_relocs, since 2.26), refuses protected
 *   data alike, but under -z nocopyreloc makes a dynamic PC32 in .text
 *   instead: a text relocation, a warning (an error under -z text).
 *   GNU ld on AArch64 makes no copy in a PIE at all: its PC-relative
 *   relocations against a symbol that may bind externally are refused in
 *   any PIC output (arch/copy.c; judged in reloc.c with the others).
 *
 * Only the inputs that reference an uncopyable symbol are read again, for
 * their relocations; an archive member's are not (the outcome is then
 * unknown). Runs in GNU ld's replay; each linker's verdict reads the facts
 * it left in `struct lk_replay_warned`.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "arch/arch.h"
#include "rp.h"

/* A symbol an executable's reference would copy and that cannot be: a shared object's data, protected or under -z nocopyreloc. */
static int uncopyable(const struct lk_sym *s, int nocopy)
{
	return s && s->defined && s->dynamic && s->dyn_object && s->nrefs && (s->dyn_protected || nocopy);
}

static int has_option(const struct lk_line *line, enum lk_ld_option o)
{
	for (size_t i = 0; i < line->items.nr; i++)
		if (line->items.items[i].kind == LK_ITEM_OPTION && line->items.items[i].ld_option == o)
			return 1;
	return 0;
}

/* The last -z text / notext / textoff says "text". */
static int z_text_said(const struct lk_line *line)
{
	const char *kw = NULL;

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->kind == LK_ITEM_OPTION && it->ld_option == LK_LD_Z_TEXT && it->ld_value)
			kw = it->ld_value;
	}
	return kw && !strcmp(kw, "text");
}

/* The line's machine (its -m, else its first regular input's), or -1. */
static int line_machine(const struct lk_line *line)
{
	if (line->machine)
		return line->machine;
	for (size_t i = 0; i < line->items.nr; i++)
		if (line->items.items[i].info.kind == LK_FILE_OBJECT && line->items.items[i].info.machine)
			return line->items.items[i].info.machine;
	return -1;
}

/*
 * The first relocation of `in` (an object read again) that needs a copy
 * of an uncopyable symbol: said in `b` ("R_X86_64_PC32 against x from
 * 'a.o' (libx.so defines it)"), its symbol returned, else NULL.
 */
static const struct lk_sym *copying_reloc(const struct rp *r, const struct lk_rinput *in, int nocopy, struct lk_buf *b)
{
	struct lk_elf_syms syms = { 0 };
	struct lk_elf_gc g;
	struct lk_err err = LK_ERR_INIT;
	const struct lk_reloc_arch *arch;
	const struct lk_sym *found = NULL;

	memset(&g, 0, sizeof(g));
	g.want = LK_ELF_GC_RELOCS;
	if (lk_elf_read_syms_gc(in->path, &syms, &g, &err) < 0) {
		lk_elf_syms_release(&syms);
		return NULL;
	}
	arch = lk_reloc_arch_of(g.machine);
	for (size_t i = 0; arch && !found && i < g.relocs.nr; i++) {
		const struct lk_elf_reloc *x = &g.relocs.items[i];
		const struct lk_reloc_howto *h = lk_reloc_howto_of(arch, x->type);
		const char *target;
		const struct lk_sym *s;

		if (!h || x->section >= g.nsections || !g.sections[x->section].alloc ||
		    !(h->cls == LK_RC_PC || h->cls == LK_RC_ABS_NARROW || (h->cls == LK_RC_ABS && !g.sections[x->section].write)))
			continue;
		if (!(target = lk_elf_gc_symbol_name(&g, x->symbol)) || !uncopyable(s = lk_symtab_lookup(r->tab, target), nocopy))
			continue;
		found = s;
		lk_buf_addf(b, "%s against %s from '%s' (%s defines it)", h->name, s->name, lk_path_base(in->path),
			    lk_path_base(r->out->inputs.items[s->def_input].path));
	}
	lk_elf_gc_release(&g);
	lk_elf_syms_release(&syms);
	return found;
}

/* Each input that references an uncopyable symbol is read again once, for its relocations. */
void rp_decide_copies(struct rp *r)
{
	struct lk_replay_warned *w = &r->out->warned;
	int nocopy = has_option(r->line, LK_LD_NOCOPYRELOC);
	unsigned char *need;
	size_t cursor = 0, nr = r->out->inputs.nr;
	struct lk_sym *s;

	if ((r->mode & (RP_LLD | RP_WORKER)) || (r->line->facts & LK_LINE_SHARED) || !nr)
		return;
	need = lk_xcalloc(nr, 1);
	while ((s = lk_symtab_next(r->tab, &cursor)))
		for (const struct lk_symref *ref = uncopyable(s, nocopy) ? s->refs : NULL; ref; ref = ref->next)
			if (ref->input >= 0 && (size_t)ref->input < nr)
				need[ref->input] = 1;
	for (size_t i = 0; i < nr && !w->copy_protected && !w->copy_forbidden; i++) {
		const struct lk_rinput *in = &r->out->inputs.items[i];
		struct lk_buf b = LK_BUF_INIT;
		const struct lk_sym *found;

		if (!need[i])
			continue;
		if (in->member) {
			if (!w->copy_unknown) {
				lk_buf_addf(&b, "whether '%s(%s)' needs a copy relocation of a shared object's data that cannot be copied is not read: its relocations are an archive member's",
					    lk_path_base(in->path), in->member);
				w->copy_unknown = lk_buf_detach(&b);
			}
			continue;
		}
		if ((found = copying_reloc(r, in, nocopy, &b))) {
			*(found->dyn_protected ? &w->copy_protected : &w->copy_forbidden) = lk_buf_detach(&b);
			w->copy_input = lk_xstrdup(in->path);
		}
		lk_buf_release(&b);
	}
	free(need);
	if ((w->copy_protected || w->copy_forbidden || w->copy_unknown) && (r->line->facts & LK_LINE_PIE)) {
		w->copy_in_pie = line_machine(r->line);
		/* GNU ld on x86-64 under -z nocopyreloc: a dynamic PC32 in .text instead, with a warning. */
		if (w->copy_forbidden && !w->copy_protected && w->copy_in_pie == EM_X86_64)
			w->textrel = 1;
	}
}

/*
 * What GNU ld makes of a copy the PIE needs: 1 it fails for it, 0 it does
 * not (x86-64's text relocation under -z nocopyreloc; AArch64, where the
 * relocation itself is refused: reloc.c), -1 not known.
 */
static int gnu_pie_copy_fails(const struct lk_line *line, const struct lk_replay_warned *w)
{
	if (w->copy_in_pie == EM_AARCH64)
		return 0;
	if (w->copy_in_pie != EM_X86_64)
		return -1;
	return w->copy_protected ? 1 : z_text_said(line);
}

void rp_copyreloc_verdict(const struct lk_line *line, struct lk_replay *out, enum lk_linker l, const char *who)
{
	const struct lk_replay_warned *w = &out->warned;
	struct lk_linker_verdict *v = &out->linkers[l];
	struct lk_buf b = LK_BUF_INIT;

	if (!w->copy_protected && !w->copy_forbidden) {
		if (w->copy_unknown && v->success && !v->unknown)
			v->unknown = lk_xstrdup(w->copy_unknown);
		return;
	}
	if (l == LK_LINKER_BFD && w->copy_in_pie) {
		int fails = gnu_pie_copy_fails(line, w);

		if (fails < 0 && v->success && !v->unknown) {
			lk_buf_addf(&b, "GNU ld: whether it copies a shared object's data into a PIE of this machine is not modelled (%s)",
				    w->copy_protected ? w->copy_protected : w->copy_forbidden);
			v->unknown = lk_buf_detach(&b);
		}
		if (fails <= 0)
			return;
		if (!w->copy_protected) {
			lk_buf_addf(&b, "GNU ld fails: -z nocopyreloc, and -z text forbids the text relocation it makes instead of a copy in a PIE: %s",
				    w->copy_forbidden);
			lk_strvec_push_owned(&v->why, lk_buf_detach(&b));
			v->success = 0;
			return;
		}
	}
	lk_buf_addf(&b, "%s fails: %s: %s", who,
		    w->copy_protected ? "an executable cannot copy a shared object's protected data (a copy relocation)" :
		    "-z nocopyreloc, and a reference of the executable needs a copy relocation",
		    w->copy_protected ? w->copy_protected : w->copy_forbidden);
	if (w->copy_in_pie)
		lk_buf_addf(&b, " (%s copies data into a PIE as into any executable)", who);
	lk_strvec_push_owned(&v->why, lk_buf_detach(&b));
	v->success = 0;
	if (l != LK_LINKER_BFD && w->copy_input) {
		/* GNU ld's fixes are its diagnostics'; this one is stated, no replay can rebuild an object. */
		lk_buf_addf(&b, "rebuild '%s' with -fPIC (or -fPIE): its reference then goes through the GOT, with no copy relocation",
			    w->copy_input);
		rp_linker_fix(v, lk_buf_detach(&b), NULL, -1);
	}
}
