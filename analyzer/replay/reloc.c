/*
 * The relocation room of the replay (see reloc.h). GNU ld checks every
 * relocation of an SHF_ALLOC section of the inputs that join the link
 * (bfd's _bfd_elf_link_check_relocs: check_relocs of each target, then
 * relocate_section): what a PIE or a shared object cannot take
 * (arch/judge.c), and, once the layout is known, what does not reach
 * ("relocation truncated to fit": reloc_reach.c). It also checks, as it adds each
 * symbol (elflink.c _bfd_elf_merge_symbol), that a TLS symbol never
 * meets a non-TLS one of the same name.
 *
 * Cost: the relocations are read only where a judgement is possible: in
 * a PIE or shared output (arch/judge.c), and for the layout only when the
 * image is large enough for a reference to miss (then the line is
 * replayed once more with every relocation kept: reloc_layout.c). A
 * static non-PIE link of a small image reads section headers only, but
 * on AArch64, whose relocations are read for the types a linker does not
 * know (arch/aarch64_tls.c, mold_relocs.c; docs/decisions.md).
 * Relocations of debug and other non-alloc sections are never judged.
 */
#include <elf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "arch/arch.h"
#include "arch/copy.h"
#include "reloc.h"
#include "rp.h"

#include "reloc_parts.h"

static void filter_of(const struct rp *r, struct rp_reloc_filter *f);
static int filter_keeps(const struct rp_reloc_filter *f, const struct lk_reloc_howto *h, int writable, int global);
static int keep_for_output(const struct rp *r, const struct lk_reloc_howto *h, int writable, int global);

/* ---- the line's policy ---- */

/* Whose rules this replay judges by, where the linkers differ by type (arch/aarch64_tls.c). */
static enum lk_reloc_linker linker_of(const struct rp *r)
{
	return !(r->mode & RP_LLD) ? LK_RL_GNU_LD : (r->mode & RP_MOLD) ? LK_RL_MOLD : LK_RL_LLD;
}

static int z_keyword_is(const struct lk_line_item *it, const char *kw)
{
	return it->kind == LK_ITEM_OPTION && !strncmp(it->word, "-z", 2) && it->ld_value && !strcmp(it->ld_value, kw);
}

/*
 * -z text / -z notext, the last wins; GNU ld's default is notext (a
 * warning), lld's text (Driver.cpp: -z text unless -z notext), mold's
 * notext (DT_TEXTREL, as GNU ld; checked with mold 1.10). `mode`: the
 * replay's (enum replay_mode).
 */
static int z_text_policy(const struct rp *r, unsigned mode)
{
	int z_text = (mode & RP_LLD) && !(mode & RP_MOLD);

	for (size_t i = 0; i < r->line->items.nr; i++) {
		const struct lk_line_item *it = &r->line->items.items[i];

		if (z_keyword_is(it, "text"))
			z_text = 1;
		else if (z_keyword_is(it, "notext") || z_keyword_is(it, "textoff"))
			z_text = 0;
	}
	return z_text;
}

static int has_word(const struct rp *r, const char *prefix, size_t from)
{
	for (size_t i = from; i < r->line->items.nr; i++)
		if (r->line->items.items[i].kind == LK_ITEM_OPTION &&
		    !strncmp(r->line->items.items[i].word, prefix, strlen(prefix)))
			return 1;
	return 0;
}

static int has_exact_word(const struct rp *r, const char *word)
{
	for (size_t i = 0; i < r->line->items.nr; i++)
		if (r->line->items.items[i].kind == LK_ITEM_OPTION && !strcmp(r->line->items.items[i].word, word))
			return 1;
	return 0;
}

/* The output: -shared, -pie (unless an edit appended -no-pie), else an executable. */
enum lk_reloc_output rr_output_of(const struct rp *r)
{
	if (r->line->facts & LK_LINE_SHARED)
		return LK_OUT_SHARED;
	if (!(r->line->facts & LK_LINE_PIE))
		return LK_OUT_EXEC;
	for (size_t i = 0; r->edit->append && i < r->edit->append->nr; i++)
		if (!strcmp(r->edit->append->items[i], "-no-pie"))
			return LK_OUT_EXEC;
	return has_word(r, "-no-pie", r->first_extra) ? LK_OUT_EXEC : LK_OUT_PIE;
}

int rp_line_places_sections(const struct lk_line *line)
{
	struct lk_strvec starts = LK_STRVEC_INIT;
	int fixed = rr_read_starts(line, &starts);

	lk_strvec_release(&starts);
	return fixed;
}

/*
 * An AArch64 TLS type some linker does not know (lld: the traditional
 * dialect's TLSGD_*, every TLSLD_*), or local-exec: kept in every output,
 * each linker's rules judge it (arch/aarch64_tls.c).
 */
static int tls_kept(const struct lk_reloc_arch *arch, uint32_t type)
{
	return arch && arch->machine == EM_AARCH64 && lk_aarch64_tls_kept(type);
}

/*
 * AArch64's short PC-relative forms (+-1 MiB: CONDBR19, LD_PREL_LO19,
 * ADR_PREL_LO21; TSTBR14 +-32 KiB), read in every output: one that
 * crosses sections (hand-written assembly; GCC keeps them within a
 * function) can miss in a small image, so it asks for the layout.
 */
static int short_reach(const struct lk_reloc_arch *arch, const struct lk_reloc_howto *h)
{
	return arch && arch->machine == EM_AARCH64 && h->pc && h->reach && h->reach <= 20;
}

/* The reader's filter (lk_elf_gc.keep_reloc): only what a judgement at the end of the line needs. */
static int keep_reloc(const void *ctx, uint32_t type, int writable)
{
	const struct rp_reloc_filter *f = ctx;
	const struct lk_reloc_howto *h;

	if (!f->arch)
		return 1;	/* the machine is not known yet (the first input tells it), or has no table */
	if (!(h = lk_reloc_howto_of(f->arch, type)))
		return 1;	/* not in the table: add_relocs says so */
	if (rp_mold_reloc_of(f->arch, type) == RP_MOLD_UNKNOWN)
		return 1;
	if (f->full && h->reach && (h->pc || h->cls == LK_RC_ABS_NARROW))
		return 1;
	if (tls_kept(f->arch, type) || short_reach(f->arch, h))
		return 1;
	if (!f->pic_line)
		return 0;
	if (filter_keeps(f, h, writable, 0))
		return 1;
	return filter_keeps(f, h, writable, 1) ? LK_ELF_KEEP_IF_GLOBAL : 0;
}

void rp_relocs_reader(const struct rp *r, struct lk_elf_gc *sections, struct rp_reloc_filter *filter)
{
	memset(sections, 0, sizeof(*sections));
	filter_of(r, filter);
	sections->want = r->sections_want;
	sections->keep_reloc = keep_reloc;
	sections->keep_ctx = filter;
}

unsigned rp_relocs_start(struct rp *r, int full_layout)
{
	struct rp_relocs *rr = lk_xcalloc(1, sizeof(*rr));

	r->relocs = rr;
	rr->arch = lk_reloc_arch_of(r->line->machine);
	rr->pic_line = (r->line->facts & (LK_LINE_PIE | LK_LINE_SHARED)) != 0;
	rr->full = full_layout;
	rr->fixed_addresses = rr_read_starts(r->line, &rr->starts);
	if (full_layout)
		rr->layout = rr_layout_new();
	/*
	 * AArch64's relocations in every output, for the TLS types a linker does
	 * not know (tls_kept) and the others mold does not (mold_relocs.c). NEEDSWORK(#33): a line that does not say its
	 * machine (no -m) is known to be AArch64 only from its first input, too
	 * late to ask for relocations there.
	 */
	if (rr->arch && rr->arch->machine == EM_AARCH64 && !full_layout)
		return LK_ELF_GC_RELOCS;
	/* Section headers always (the image's size, TLS sections); relocations where a judgement is possible. */
	return (rr->pic_line || full_layout ? LK_ELF_GC_RELOCS : 0) | (full_layout ? LK_ELF_GC_EH_RELOCS : 0);
}

void rp_relocs_free(struct rp *r)
{
	if (!r->relocs)
		return;
	free(r->relocs->refs.items);
	lk_strvec_release(&r->relocs->starts);
	rr_stubs_free(r->relocs->stubs);
	rr_layout_free(r->relocs->layout);
	free(r->relocs);
	r->relocs = NULL;
}

/* ---- TLS: bfd's _bfd_elf_merge_symbol, "TLS definition in a.o section .tbss mismatches non-TLS reference in b.o" ---- */

static void tls_mismatch(struct rp *r, struct lk_sym *s, long input, int defined, const char *section)
{
	const char *earlier = s->defined && s->def_input == s->typed_input ? "definition" : "reference";
	const char *now = defined ? "definition" : "reference";
	struct lk_diag *d;
	struct lk_diag_reloc *x;

	if (s->diagnosed)
		return;
	s->diagnosed = 1;
	d = rp_new_diag(r, LK_DIAG_TLS_MISMATCH, s);
	x = d->reloc = lk_xcalloc(1, sizeof(*d->reloc));
	x->machine = lk_elf_machine_name(r->line->machine);
	/* ld names the TLS side first: def_input is it, ref_input the other. */
	x->first_type = "TLS";
	x->second_type = "non-TLS";
	d->def_input = s->tls ? s->typed_input : input;
	d->ref_input = s->tls ? input : s->typed_input;
	x->first_what = s->tls ? earlier : now;
	x->second_what = s->tls ? now : earlier;
	if (s->tls && s->typed_section)
		x->first_section = lk_xstrdup(s->typed_section);
	else if (!s->tls && defined && section)
		x->first_section = lk_xstrdup(section);
	/* NEEDSWORK(#17): ld names a non-TLS definition's section too when it came first; the table keeps none. */
}

/*
 * bfd compares every symbol's type. lld takes an STT_NOTYPE symbol (a C
 * reference without __thread) as either (InputFiles.cpp: "TLS attribute
 * mismatch" only between STT_TLS and another type), so only a TLS and a
 * typed non-TLS symbol mismatch; lld 14 and rust-lld alike, both orders
 * (checked). mold 1.10 checks no TLS type (its own replay; mold.c).
 */
static void tls_meet(struct rp *r, struct lk_sym *s, long input, int tls, int defined, int notype,
		     const char *section)
{
	if (r->lld_part || s->lld_untyped || s->lld_retyped)
		rp_lld_tls_meet(r, s, input, tls, notype);	/* lld's types kept too, or taken (lld_part.c) */
	if ((r->mode & RP_MOLD) || ((r->mode & RP_LLD) && notype))
		return;
	if (!s->typed) {
		s->typed = 1;
		s->tls = tls != 0;
		s->typed_input = input;
		if (tls && defined && section)
			s->typed_section = lk_symtab_strdup(r->tab, section);
		return;
	}
	/* "sym@VER" references: their entry is not the definition's, so they never mismatch it. */
	if ((s->tls != 0) != (tls != 0) && !strchr(s->name, '@')) {
		if (r->mode & RP_LLD)
			rp_mold_part(r);	/* mold checks no TLS type */
		if (!(r->mode & RP_MOLD))
			tls_mismatch(r, s, input, defined, section);
	}
}

void rp_tls_meet_shared(struct rp *r, struct lk_sym *s, const struct lk_elf_sym *y, long input)
{
	if (y->defined)
		tls_meet(r, s, input, y->tls, 1, y->notype, NULL);	/* a shared object's section is not read */
}

/* ---- one input's relocations ---- */

static const char *section_name(const struct lk_elf_gc *g, uint32_t ndx)
{
	return ndx < g->nsections && g->sections[ndx].name ? g->sections[ndx].name : "?";
}

/* Is this relocation worth keeping for the end of the line? */
/*
 * lld's replay of a PIE: a PC-relative reference to an undefined global may meet a TLS definition (lld_tls_pc);
 * GNU ld's keeps them too while lld's may part from it (lld_part.c).
 */
static int lld_pie(const struct rp *r)
{
	return (((r->mode & RP_LLD) && !(r->mode & RP_MOLD)) || r->lld_part) && (r->line->facts & LK_LINE_PIE) &&
	       !(r->line->facts & LK_LINE_SHARED);
}

/* GNU ld's replay of a PIE of a target where it makes no copy relocation for PC-relative code (arch/copy.c). */
static int gnu_pie_no_copy(const struct rp *r)
{
	return !(r->mode & RP_LLD) && (r->line->facts & LK_LINE_PIE) && !(r->line->facts & LK_LINE_SHARED) &&
	       r->relocs->arch && !lk_reloc_gnu_pie_copies(r->relocs->arch);
}

/* What keep_reloc and keep_for_output read of the replay, all of it (memcmp compares two). */
static void filter_of(const struct rp *r, struct rp_reloc_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->want = r->sections_want;
	if (!r->relocs)
		return;
	f->arch = r->relocs->arch;
	f->full = (unsigned char)r->relocs->full;
	f->pic_line = (unsigned char)r->relocs->pic_line;
	f->shared = (r->line->facts & LK_LINE_SHARED) != 0;
	f->lld_pie = (unsigned char)lld_pie(r);
	f->gnu_pie_no_copy = (unsigned char)gnu_pie_no_copy(r);
}

static int filter_keeps(const struct rp_reloc_filter *f, const struct lk_reloc_howto *h, int writable, int global)
{
	switch ((enum lk_reloc_class)h->cls) {
	case LK_RC_ABS_NARROW:
		return 1;
	case LK_RC_ABS:
		return !writable;
	case LK_RC_PC:
		return (f->shared && !writable && global) || (f->lld_pie && global) || (f->gnu_pie_no_copy && !writable && global);
	case LK_RC_TLS_LE:
		return f->shared;
	default:
		return 0;
	}
}

static int keep_for_output(const struct rp *r, const struct lk_reloc_howto *h, int writable, int global)
{
	struct rp_reloc_filter f;

	filter_of(r, &f);
	return filter_keeps(&f, h, writable, global);
}

/*
 * An AArch64 TLS relocation kept: where the linkers part on it
 * (arch/aarch64_tls.c), GNU ld's replay does not stand in for the
 * lld-rules one, nor that one for mold's; and what GNU ld links into a
 * shared object that the others refuse is said.
 */
static void tls_parts(struct rp *r, const struct rr_ref *ref)
{
	enum lk_reloc_output out = rr_output_of(r);
	enum lk_reloc_linker linker = linker_of(r);
	uint32_t type = ref->howto->type;
	const char *why;

	if (!lk_aarch64_tls_parts(type, out))
		return;
	rp_answer_differs(r);
	if (linker == LK_RL_LLD &&
	    lk_aarch64_tls_judge(type, LK_RL_LLD, out, &why) != lk_aarch64_tls_judge(type, LK_RL_MOLD, out, &why))
		r->mold_differs = 1;	/* mold's own replay judges it */
	if (linker == LK_RL_GNU_LD && ref->howto->cls == LK_RC_TLS_LE && out == LK_OUT_SHARED &&
	    lk_aarch64_tls_judge(type, LK_RL_GNU_LD, out, &why) == LK_RV_OK)
		rp_note(r, "GNU ld links the local-exec TLS accesses (R_AARCH64_TLSLE_*) of '%s' into a shared object on AArch64: it writes the offset from the thread pointer as for an executable, with no dynamic relocation, right only where the loader puts the library's TLS block where an executable's goes (lld and mold refuse it)",
			r->out->inputs.items[ref->input].path);	/* once per input: rp_note says a text once */
}

static void keep_ref(struct rp *r, long input, const struct lk_elf_gc *g, const struct lk_elf_reloc *x,
		     const struct lk_reloc_howto *h, struct lk_sym *sym, int not_allowed, const char **producer)
{
	struct rp_relocs *rr = r->relocs;
	const struct lk_elf_gc_symbol *gs = &g->symbols[x->symbol];
	const char *name = sym ? sym->name : lk_elf_gc_symbol_name(g, x->symbol);
	struct rr_ref *ref;

	if (not_allowed && !*producer) {
		/* How the object was compiled: read once per input that has something to say. */
		char *p = lk_elf_gc_producer(g);

		*producer = p ? lk_symtab_strdup(r->tab, p) : "";
		free(p);
	}
	LK_GROW(rr->refs.items, rr->refs.nr + 1, rr->refs.alloc);
	ref = &rr->refs.items[rr->refs.nr++];
	memset(ref, 0, sizeof(*ref));
	ref->input = input;
	ref->section = x->section;
	ref->offset = x->offset;
	ref->addend = x->addend;
	ref->howto = h;
	ref->sym = sym;
	ref->target = lk_symtab_strdup(r->tab, name && *name ? name : "?");
	ref->target_section = gs->shndx;
	ref->target_value = gs->value;
	ref->place = lk_symtab_strdup(r->tab, section_name(g, x->section));
	ref->producer = *producer && **producer ? *producer : NULL;
	ref->vis = gs->vis;
	ref->writable = g->sections[x->section].write;
	ref->not_allowed = not_allowed;
	if (not_allowed && rr->arch->machine == EM_AARCH64 && lk_reloc_aarch64_tls(h->type))
		tls_parts(r, ref);
}

/* The first thing the room met and does not model: a success is then unknown (lk_replay_run). */
void rr_unmodelled(struct rp *r, const char *fmt, ...)
{
	struct lk_buf m = LK_BUF_INIT;
	va_list ap;

	if (r->out->unmodelled)
		return;
	va_start(ap, fmt);
	lk_buf_vaddf(&m, fmt, ap);
	va_end(ap);
	r->out->unmodelled = lk_buf_detach(&m);
}

static void add_relocs(struct rp *r, long input, const struct lk_elf_gc *g, struct lk_sym *const *by_index)
{
	struct rp_relocs *rr = r->relocs;
	const char *producer = NULL;

	if (!g->relocs.nr)
		return;
	if (!rr->arch && !r->line->machine)
		rr->arch = lk_reloc_arch_of(g->machine);	/* the line did not say (no -m): its first input does */
	if (!rr->arch || g->machine != rr->arch->machine) {
		rr_unmodelled(r, "the replay has no relocation table for %s ('%s'), so what the output can take of its relocations is not judged",
			   lk_elf_machine_name(g->machine), r->out->inputs.items[input].path);
		return;
	}
	for (size_t i = 0; i < g->relocs.nr; i++) {
		const struct lk_elf_reloc *x = &g->relocs.items[i];
		const struct lk_reloc_howto *h = lk_reloc_howto_of(rr->arch, x->type);
		int global, writable, mold_unknown = rp_mold_reloc_of(rr->arch, x->type) == RP_MOLD_UNKNOWN;
		size_t before = rr->refs.nr;

		if (!h) {
			rr_unmodelled(r, "relocation type %u of %s in '%s' is not in the replay's table, so whether the output can take it is not judged",
				   x->type, rr->arch->name, r->out->inputs.items[input].path);
			continue;
		}
		if (x->symbol >= g->nnames || x->section >= g->nsections)
			continue;
		global = g->symbols[x->symbol].bind != STB_LOCAL;
		writable = g->sections[x->section].write;
		if (!rr->full && short_reach(rr->arch, h) && (global || g->symbols[x->symbol].shndx != x->section) &&
		    (!rr->short_cross || h->reach < rr->short_cross))
			rr->short_cross = h->reach;
		if (tls_kept(rr->arch, x->type)) {
			keep_ref(r, input, g, x, h, global ? by_index[x->symbol] : NULL, 1, &producer);
		} else if (rr->pic_line && keep_for_output(r, h, writable, global) &&
			   (h->cls != LK_RC_PC || (r->line->facts & LK_LINE_SHARED) || g->symbols[x->symbol].shndx == SHN_UNDEF)) {
			keep_ref(r, input, g, x, h, global ? by_index[x->symbol] : NULL, 1, &producer);
			/*
			 * Under lld_pie every PC-relative one kept is lld's alone (a PIE is
			 * not shared), but one GNU ld's AArch64 PIE rule keeps too: its
			 * replay, lld's parting from it (lld_part.c), judges it.
			 */
			rr->refs.items[rr->refs.nr - 1].lld_only = h->cls == LK_RC_PC && lld_pie(r) &&
								    !(gnu_pie_no_copy(r) && !writable);
		} else if (rr->full && h->reach && (h->pc || h->cls == LK_RC_ABS_NARROW))
			keep_ref(r, input, g, x, h, global ? by_index[x->symbol] : NULL, 0, &producer);
		if (mold_unknown && rr->refs.nr == before)
			keep_ref(r, input, g, x, h, global ? by_index[x->symbol] : NULL, 0, &producer);
		if (mold_unknown)
			rr->refs.items[rr->refs.nr - 1].mold_unknown = 1;
	}
}

/*
 * mold's replay, forked off the lld-rules one (mold_part.c): the
 * references only lld keeps go, or stay as the layout's where mold keeps
 * them for that (add_relocs); and a layout reference has the producer
 * only where mold's replay read it, for an earlier reference of the same
 * input kept for the output kind (keep_ref).
 */
void rp_relocs_part_for_mold(struct rp *r)
{
	struct rp_relocs *rr = r->relocs;
	size_t kept = 0;
	long input = -1;
	int producer_read = 0;

	for (size_t i = 0; rr && i < rr->refs.nr; i++) {
		struct rr_ref ref = rr->refs.items[i];

		if (ref.input != input) {
			input = ref.input;
			producer_read = 0;
		}
		if (ref.lld_only) {
			if (!(rr->full && ref.howto->reach && (ref.howto->pc || ref.howto->cls == LK_RC_ABS_NARROW)))
				continue;
			ref.lld_only = 0;
			ref.not_allowed = 0;
		}
		if (ref.not_allowed)
			producer_read = 1;
		else if (!producer_read)
			ref.producer = NULL;
		rr->refs.items[kept++] = ref;
	}
	if (rr)
		rr->refs.nr = kept;
}

/* A section of a COMDAT group that an earlier input's group of the same signature made ld discard (read.c). */
static int comdat_discarded(const struct rp *r, long input, const struct lk_elf_gc *g, const struct lk_elf_gc_section *s)
{
	const struct lk_sym *c;

	if (s->group < 0 || (size_t)s->group >= g->nsections || !g->sections[s->group].signature || !r->comdats)
		return 0;
	c = lk_symtab_lookup(r->comdats, g->sections[s->group].signature);
	return c && c->defined && c->def_input != input;
}

void rp_relocs_add(struct rp *r, long input, const struct lk_elf_syms *syms, struct lk_sym **seen,
		   const struct lk_elf_gc *sections)
{
	struct rp_relocs *rr = r->relocs;
	struct lk_sym **by_index = NULL;

	for (size_t i = 0; i < syms->nr; i++) {
		const struct lk_elf_sym *y = &syms->items[i];
		const char *sec = y->defined && y->section < sections->nsections ? sections->sections[y->section].name : NULL;

		tls_meet(r, seen[i], input, y->tls, y->defined, y->notype, sec);
	}
	for (size_t i = 0; i < sections->nsections; i++) {
		const struct lk_elf_gc_section *s = &sections->sections[i];

		if (!s->alloc || s->tls || comdat_discarded(r, input, sections, s))
			continue;
		rr->image += s->size;
		if (s->exec)
			rr->code += s->size;
		if (rr->layout)
			rr_layout_add(rr->layout, input, (uint32_t)i, s->name, s);
	}
	if (!sections->relocs.nr || !sections->symbols)
		return;
	by_index = lk_xcalloc(sections->nnames + 1, sizeof(*by_index));
	for (size_t i = 0; i < syms->nr; i++)
		if (syms->items[i].index < sections->nnames)
			by_index[syms->items[i].index] = seen[i];
	add_relocs(r, input, sections, by_index);
	free(by_index);
}

/* ---- the judgements ---- */

static enum lk_reloc_target target_of(const struct rp *r, const struct rr_ref *ref)
{
	const struct lk_sym *s = ref->sym;

	if (!s)
		return LK_TGT_LOCAL;
	if (ref->vis == STV_HIDDEN || ref->vis == STV_INTERNAL)
		return LK_TGT_LOCAL;
	if (s->defined && !s->dynamic) {
		if (s->def_hidden || has_exact_word(r, "-Bsymbolic"))
			return LK_TGT_LOCAL;
		if (ref->vis == STV_PROTECTED)
			return LK_TGT_PROTECTED;
		/* Whether these make the symbol bind locally depends on its type or the script: not modelled. */
		if (has_word(r, "-Bsymbolic-functions", 0) || has_word(r, "--dynamic-list", 0) ||
		    has_word(r, "--version-script", 0))
			return LK_TGT_UNSURE;
	}
	return LK_TGT_PREEMPTIBLE;
}

const char *rr_output_words(enum lk_reloc_output o)
{
	return o == LK_OUT_SHARED ? "a shared object" : o == LK_OUT_PIE ? "a PIE object" : "an executable";
}

struct lk_diag_reloc *rr_reloc_diag(struct rp *r, enum lk_diag_kind kind, const struct rr_ref *ref)
{
	struct lk_diag *d;
	struct lk_diag_reloc *x;
	struct lk_sym local;

	/* A local target (a section, a static symbol) has no entry in the table: a stand-in, with no references. */
	memset(&local, 0, sizeof(local));
	local.name = ref->target;
	local.first_ref = local.first_dyn_ref = -1;
	d = rp_new_diag(r, kind, ref->sym ? ref->sym : &local);
	d->ref_input = ref->input;
	x = d->reloc = lk_xcalloc(1, sizeof(*d->reloc));
	x->machine = r->relocs->arch->name;
	x->type = ref->howto->name;
	x->target_is_section = !ref->sym && ref->target && ref->target[0] == '.';
	x->section = lk_xstrdup(ref->place);
	x->offset = ref->offset;
	x->producer = ref->producer ? lk_xstrdup(ref->producer) : NULL;
	return x;
}

/* ld names the first bad relocation of each object and target; so does the replay. */
int rr_reported(const struct rp *r, enum lk_diag_kind kind, const struct rr_ref *ref)
{
	for (size_t i = 0; i < r->out->diags.nr; i++) {
		const struct lk_diag *d = &r->out->diags.items[i];

		if (d->kind == kind && d->ref_input == ref->input && d->reloc &&
		    !strcmp(d->reloc->type, ref->howto->name) && !strcmp(d->symbol, ref->target))
			return 1;
	}
	return 0;
}

/*
 * lld 14 in a PIE (-static-pie too): an absolute relocation the output
 * cannot take, against a symbol a regular object defines with a type
 * (STT_OBJECT or STT_FUNC), takes processRelocAux's executable path (a
 * copy relocation or canonical PLT entry for a symbol already here) and
 * is written with its link-time value, no error, no dynamic relocation;
 * against a section, a local or an STT_NOTYPE symbol it fails. Checked:
 * R_X86_64_32 and R_X86_64_64 in .text under ld.lld 14.0.6; rust-lld
 * (LLD 22) refuses both.
 */
static int lld14_writes_it(struct rp *r, const struct rr_ref *ref, enum lk_reloc_output out)
{
	const struct lk_sym *s = ref->sym;

	if (!(r->mode & RP_LLD14) || out != LK_OUT_PIE || !s || !s->defined || s->dynamic || !s->def_typed ||
	    (ref->howto->cls != LK_RC_ABS && ref->howto->cls != LK_RC_ABS_NARROW))
		return 0;
	r->mold_differs = 1;	/* mold refuses it: its own replay */
	return 1;
}

/*
 * lld in a PIE (any version: processRelocAux's executable path is taken
 * unless -shared): an absolute relocation the output cannot take against
 * a shared object's symbol makes a copy relocation (data) or a canonical
 * PLT entry (code) as in a non-PIE executable, and links; -z nocopyreloc
 * and protected data are copyreloc.c's. Checked: R_X86_64_32 against a
 * shared object's function, R_AARCH64_MOVW_UABS_G* and ABS32 against its
 * data, under ld.lld 14.0.6. mold refuses R_X86_64_32 and ABS32 (its own
 * replay).
 */
static int lld_copies_it(struct rp *r, const struct rr_ref *ref, enum lk_reloc_output out)
{
	const struct lk_sym *s = ref->sym;

	if (!lld_pie(r) || out != LK_OUT_PIE || !s || !s->defined || !s->dynamic ||
	    (ref->howto->cls != LK_RC_ABS && ref->howto->cls != LK_RC_ABS_NARROW))
		return 0;
	r->mold_differs = 1;
	return 1;
}

/*
 * lld takes a TLS symbol's value as absolute (its offset in the TLS
 * block; Relocations.cpp isAbsoluteValue), so in a PIE a PC-relative
 * reference to one (a C reference without __thread, compiled -fno-pic:
 * R_X86_64_PC32) is "relocation R_X86_64_PC32 cannot refer to absolute
 * symbol"; a GOT reference (-fPIC) links, and so does -no-pie. lld 14 and
 * rust-lld alike; mold links it (checked: difftest reloc class).
 */
static int lld_tls_pc(const struct rp *r, const struct rr_ref *ref, enum lk_reloc_output out)
{
	return lld_pie(r) && out == LK_OUT_PIE && ref->howto->cls == LK_RC_PC && ref->sym && ref->sym->defined &&
	       !ref->sym->dynamic && ref->sym->tls;
}

/*
 * GNU ld's judgement of a PC-relative reference from read-only code of a
 * PIE where it makes no copy (AArch64: arch/copy.c): refused against a
 * symbol that does not bind locally, a shared object's; 1 when it was
 * judged here (a diagnostic made or not), 0 when the general rules judge it.
 */
static int gnu_pie_pc(struct rp *r, const struct rr_ref *ref, enum lk_reloc_output out)
{
	const struct lk_sym *s = ref->sym;
	struct lk_diag_reloc *x;

	if (out != LK_OUT_PIE || ref->howto->cls != LK_RC_PC || ref->writable || !gnu_pie_no_copy(r))
		return 0;
	if (!s || ref->vis == STV_HIDDEN || ref->vis == STV_INTERNAL || (s->defined && !s->dynamic))
		return 1;	/* binds locally in an executable */
	if (!s->defined && !s->ref_regular_strong)
		rr_unmodelled(r, "%s against %s, undefined and weak, in '%s': whether GNU ld takes it in an AArch64 PIE is not modelled",
			   ref->howto->name, ref->target, r->out->inputs.items[ref->input].path);
	if (!s->defined)
		return 1;	/* undefined: the undefined reference is the error said */
	if (!rr_reported(r, LK_DIAG_RELOC_NOT_ALLOWED, ref)) {
		x = rr_reloc_diag(r, LK_DIAG_RELOC_NOT_ALLOWED, ref);
		x->output = rr_output_words(out);
		x->rule = "GNU ld makes no copy relocation in an AArch64 PIE: a PC-relative reference cannot reach a symbol that may bind to another object at run time (a shared object defines it; lld and mold copy it)";
		x->recompile = "-fPIE";
	}
	return 1;
}

/*
 * A type mold 1.10 refuses in every output ("unknown relocation",
 * mold_relocs.c): said in mold's replay (returns 1: judged); the others
 * note that mold's verdict is its own.
 */
static int mold_unknown_met(struct rp *r, const struct rr_ref *ref, enum lk_reloc_output out)
{
	struct lk_diag_reloc *x;

	if (!(r->mode & RP_MOLD)) {
		if (r->mode & RP_LLD)
			r->mold_differs = 1;
		else
			rp_answer_differs(r);
		return 0;
	}
	if (!rr_reported(r, LK_DIAG_RELOC_UNSUPPORTED, ref)) {
		x = rr_reloc_diag(r, LK_DIAG_RELOC_UNSUPPORTED, ref);
		x->output = rr_output_words(out);
		x->rule = "mold 1.10 knows no such relocation of an allocated section of AArch64 (\"unknown relocation\"), whatever the output; GNU ld and lld take it";
	}
	return 1;
}

/*
 * GNU ld's R_AARCH64_ABS32/ABS16 in an executable against a symbol only a
 * shared object defines: no copy relocation, no canonical PLT entry, and
 * no dynamic relocation holds 32 bits ("unresolvable R_AARCH64_ABS32
 * relocation against symbol `x'"), from .data or .rodata, data or code
 * alike (checked, GNU ld 2.40; lld copies). The references are kept, in
 * every AArch64 output, for mold's table (mold_relocs.c). 1 when refused here.
 */
static int gnu_exec_narrow(struct rp *r, const struct rr_ref *ref, enum lk_reloc_output out)
{
	const struct lk_sym *s = ref->sym;
	struct lk_diag_reloc *x;

	if ((r->mode & RP_LLD) || out != LK_OUT_EXEC || r->relocs->arch->machine != EM_AARCH64 || !s || !s->defined ||
	    !s->dynamic || (strcmp(ref->howto->name, "R_AARCH64_ABS32") && strcmp(ref->howto->name, "R_AARCH64_ABS16")))
		return 0;
	if (!rr_reported(r, LK_DIAG_RELOC_NOT_ALLOWED, ref)) {
		x = rr_reloc_diag(r, LK_DIAG_RELOC_NOT_ALLOWED, ref);
		x->output = rr_output_words(out);
		x->rule = "GNU ld makes no copy relocation for a narrow absolute field of AArch64, and no dynamic relocation can hold one: a shared object's symbol cannot be reached so (lld copies it)";
		x->recompile = "-fPIC";
	}
	return 1;
}

static void judge_output(struct rp *r)
{
	struct rp_relocs *rr = r->relocs;
	enum lk_reloc_output out = rr_output_of(r);
	int z_text = z_text_policy(r, r->mode), textrel = 0;

	for (size_t i = 0; i < rr->refs.nr; i++) {
		const struct rr_ref *ref = &rr->refs.items[i];
		struct lk_reloc_site site = { rr->arch, ref->howto, out, z_text, ref->writable, target_of(r, ref), linker_of(r) };
		const char *why;
		struct lk_diag_reloc *x;

		if (ref->mold_unknown && mold_unknown_met(r, ref, out))
			continue;
		if (gnu_exec_narrow(r, ref, out))
			continue;
		if ((r->mode & RP_MOLD) && rp_mold_reloc_of(rr->arch, ref->howto->type) == RP_MOLD_UNCHECKED)
			continue;	/* mold writes it with no check */
		if (!ref->not_allowed || lld14_writes_it(r, ref, out) || lld_copies_it(r, ref, out) || gnu_pie_pc(r, ref, out))
			continue;
		if (lld_tls_pc(r, ref, out)) {
			if (!rr_reported(r, LK_DIAG_RELOC_NOT_ALLOWED, ref)) {
				x = rr_reloc_diag(r, LK_DIAG_RELOC_NOT_ALLOWED, ref);
				x->output = rr_output_words(out);
				x->rule = "lld takes a TLS symbol's value as absolute: a PC-relative reference cannot refer to it (declare it __thread where it is used)";
				x->recompile = "-fPIE";
			}
			continue;
		}
		if (ref->howto->cls == LK_RC_ABS_NARROW && !strncmp(ref->howto->name, "R_AARCH64_ABS", 13) && ref->sym &&
		    !ref->sym->defined) {
			rr_unmodelled(r, "%s against %s in '%s', which no input defines: GNU ld lets it pass its check in a PIE or shared object (elfNN_aarch64_check_relocs), what follows is not modelled",
				   ref->howto->name, ref->target, r->out->inputs.items[ref->input].path);
			continue;
		}
		switch (lk_reloc_judge(&site, &why)) {
		case LK_RV_OK:
			continue;
		case LK_RV_UNSUPPORTED:
			if (!rr_reported(r, LK_DIAG_RELOC_UNSUPPORTED, ref)) {
				x = rr_reloc_diag(r, LK_DIAG_RELOC_UNSUPPORTED, ref);
				x->output = rr_output_words(out);
				x->rule = why;
				x->recompile = lk_aarch64_tls_recompile(ref->howto->type);
			}
			continue;
		case LK_RV_TEXTREL:
			textrel = 1;
			continue;
		case LK_RV_UNKNOWN:
			rr_unmodelled(r, "%s against %s in '%s': %s", ref->howto->name, ref->target,
				   r->out->inputs.items[ref->input].path, why);
			continue;
		case LK_RV_NOT_ALLOWED:
		case LK_RV_TEXTREL_ERROR:
			break;
		}
		if (rr_reported(r, LK_DIAG_RELOC_NOT_ALLOWED, ref))
			continue;
		x = rr_reloc_diag(r, LK_DIAG_RELOC_NOT_ALLOWED, ref);
		x->output = rr_output_words(out);
		x->rule = why;
		x->recompile = out == LK_OUT_SHARED ? "-fPIC" : "-fPIE";
		x->tls_le = ref->howto->cls == LK_RC_TLS_LE;
	}
	if (textrel && z_text_policy(r, RP_LLD))
		rp_answer_differs(r);	/* lld refuses what GNU ld only warns about */
	if (textrel && !(r->mode & RP_LLD))
		r->out->warned.textrel = 1;	/* GNU ld warns (decide.c) */
	if (textrel)
		rp_note(r, "text relocations: a read-only section of the output gets dynamic relocations (ld warns \"creating DT_TEXTREL\"; an error under -z text)");
}

void rp_relocs_finish(struct rp *r)
{
	struct rp_relocs *rr = r->relocs;

	if (rr->arch && rr->refs.nr)
		judge_output(r);
	if (rr->full)
		rr_judge_layout(r);
	else if (!(r->mode & RP_WORKER) && rr_layout_may_matter(r)) {
		rp_answer_differs(r);	/* lld's layout pass would be its own */
		rr_layout_pass(r);
	}
}
