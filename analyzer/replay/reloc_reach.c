/*
 * The relocation room's reach (see reloc.h): in the layout pass, each
 * kept reference judged against the estimated layout of the line's
 * linker (reloc_layout.c), "relocation truncated to fit"; a far AArch64
 * call through the stub that linker places (stubs.c). Outside the layout
 * pass: whether the image is large enough, or its sections placed, for a
 * reference to miss (then the line is replayed once more, keeping every
 * reaching relocation).
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "arch/arch.h"
#include "gc.h"
#include "reloc.h"
#include "reloc_parts.h"
#include "rp.h"

/* ---- relocation overflow: "relocation truncated to fit" ---- */

struct between_ctx {
	struct rp *r;
	struct lk_diag_reloc *x;
};

static void add_between(void *ctx, long input, const char *section, uint64_t size)
{
	struct between_ctx *c = ctx;
	const struct lk_rinput *in = &c->r->out->inputs.items[input];
	struct lk_buf b = LK_BUF_INIT;

	if (c->x->between.nr >= 4)
		return;
	if (in->member)
		lk_buf_addf(&b, "%s(%s)", in->path, in->member);
	else
		lk_buf_addstr(&b, in->path);
	lk_strvec_push(&c->x->large_inputs, b.buf);
	lk_buf_addf(&b, " %s (", section);
	rr_human_size(&b, size);
	lk_buf_addstr(&b, ")");
	lk_strvec_push_owned(&c->x->between, lk_buf_detach(&b));
}

/*
 * Where the target of `ref` lies, by the layout; 0 when the replay does
 * not place it. NEEDSWORK(#17): the GOT and the PLT (a shared object's
 * symbols, GOT-relative references) are not placed, so a reference to
 * them from code larger than its reach goes unjudged.
 */
static int target_addr(const struct rp *r, const struct rr_ref *ref, uint64_t *addr)
{
	const struct lk_sym *s = ref->sym;
	int ok = 0;

	if (ref->howto->cls == LK_RC_GOT || ref->howto->cls == LK_RC_TLS || ref->howto->cls == LK_RC_TLS_LE)
		return 0;
	if (s) {
		if (!s->defined || s->dynamic || !s->def_section)
			return 0;	/* a shared object's, through the PLT or a copy: near the image's own sections */
		*addr = rr_layout_addr(r->relocs->layout, s->def_input, s->def_section, &ok) + s->def_value;
		return ok;
	}
	*addr = rr_layout_addr(r->relocs->layout, ref->input, ref->target_section, &ok) + ref->target_value;
	return ok;
}

/* The code section of the target of `ref`, or -1 (not code, not placed, a shared object's). */
static long code_of_target(const struct rp *r, const struct rr_ref *ref)
{
	const struct lk_sym *s = ref->sym;

	if (s)
		return s->defined && !s->dynamic && s->def_section ?
		       rr_layout_code_of(r->relocs->layout, s->def_input, s->def_section) : -1;
	return rr_layout_code_of(r->relocs->layout, ref->input, ref->target_section);
}

/* The diagnostic of `ref`'s overflow, or NULL when one of the same place and target was made already. */
static struct lk_diag_reloc *overflow(struct rp *r, const struct rr_ref *ref, int64_t value, uint64_t place,
				      uint64_t target, uint64_t limit)
{
	struct rp_relocs *rr = r->relocs;
	struct lk_diag_reloc *x;
	struct between_ctx c;

	if (rr_reported(r, LK_DIAG_RELOC_OVERFLOW, ref))
		return NULL;
	x = rr_reloc_diag(r, LK_DIAG_RELOC_OVERFLOW, ref);
	x->output = rr_output_words(rr_output_of(r));
	x->distance = value;
	x->reach = limit;
	x->recompile = rr->arch->code_model_fix;
	c.r = r;
	c.x = x;
	rr_layout_between(rr->layout, place < target ? place : target, place < target ? target : place,
			  limit / 16, add_between, &c);
	return x;
}

/* The linker whose stubs the replay judges (enum replay_mode). */
static enum rr_stub_linker stub_linker(const struct rp *r)
{
	if (!(r->mode & RP_LLD))
		return RR_STUBS_GNU;
	return r->mode & RP_MOLD ? RR_STUBS_MOLD : RR_STUBS_LLD;
}

/* ld's --stub-group-size=N (AArch64), the last one; 0 when the line has none. */
static int64_t stub_group_size(const struct rp *r)
{
	int64_t n = 0;

	for (size_t i = 0; i < r->line->items.nr; i++) {
		const char *w = r->line->items.items[i].word;

		if (r->line->items.items[i].kind != LK_ITEM_OPTION)
			continue;
		if (lk_str_starts_with(w, "--stub-group-size="))
			n = strtoll(w + 18, NULL, 0);
		else if (lk_str_starts_with(w, "-stub-group-size="))
			n = strtoll(w + 17, NULL, 0);
	}
	return n;
}

/* The stub's place in words: names its section and input. */
static char *stub_words(const struct rp *r, const struct rr_stub *st)
{
	const struct rr_code *code;
	const struct lk_rinput *in;
	struct lk_buf name = LK_BUF_INIT;
	char *w;

	rr_layout_code(r->relocs->layout, &code);
	in = &r->out->inputs.items[code[st->section].input];
	if (in->member)
		lk_buf_addf(&name, "%s(%s)", in->path, in->member);
	else
		lk_buf_addstr(&name, in->path);
	w = rr_stub_words(r->relocs->layout, stub_linker(r), st, name.buf);
	lk_buf_release(&name);
	return w;
}

/*
 * lld's and mold's rules (one replay serves both until mold's own is
 * needed): a far call mold 1.10 serves with a thunk it cannot reach, the
 * branch written unchecked. Said with mold's verdict, a few at most.
 */
static void mold_hazard(struct rp *r, const struct rr_ref *ref, long at)
{
	struct rr_stub st;
	struct lk_buf b = LK_BUF_INIT;
	char *words;

	if (r->out->mold_hazards.nr >= 3)
		return;
	rr_stub_judge(r->relocs->stubs, RR_STUBS_MOLD, at, ref->offset, &st);
	if (!st.broken)
		return;
	words = rr_stub_words(r->relocs->layout, RR_STUBS_MOLD, &st, r->out->inputs.items[ref->input].path);
	lk_buf_addf(&b, "mold links, but its output is broken: %s %s from '%s' (section %s+0x%llx) does not reach: %s, out of reach, and mold writes the branch without checking it, so the call goes to a wrong address",
		    ref->howto->name, ref->target, r->out->inputs.items[ref->input].path, ref->place,
		    (unsigned long long)ref->offset, words);
	lk_strvec_push_owned(&r->out->mold_hazards, lk_buf_detach(&b));
	free(words);
}

/*
 * A call or jump the layout estimate says does not reach its target
 * directly: it goes through the stub each linker places (stubs.c).
 * `mag`: the direct distance; `slack`: how far the estimate of it can be
 * off.
 */
static void judge_far_call(struct rp *r, const struct rr_ref *ref, int64_t value, uint64_t place, uint64_t target,
			   uint64_t mag, uint64_t slack)
{
	struct rp_relocs *rr = r->relocs;
	const struct lk_reloc_howto *h = ref->howto;
	uint64_t limit = 1ull << h->reach;
	long at = rr_layout_code_of(rr->layout, ref->input, ref->section);
	const char *from = r->out->inputs.items[ref->input].path;
	struct rr_stub st;
	char *words;

	if (at < 0) {
		rr_unmodelled(r, "%s against %s from '%s' (section %s) does not reach by the layout estimate, and where the linker puts the stub of a call from outside the code is not modelled",
			   h->name, ref->target, from, ref->place);
		return;
	}
	if (!rr->stubs)
		rr->stubs = rr_stubs_new(rr->layout, stub_group_size(r));
	rr_stub_judge(rr->stubs, stub_linker(r), at, ref->offset, &st);
	words = stub_words(r, &st);
	if (r->mode & RP_LLD)
		mold_hazard(r, ref, at);
	if (st.answer == RR_STUB_REACHES && !st.broken)
		rp_note(r, "%s from '%s' does not reach %s by the layout estimate: %s, within reach",
			h->name, from, ref->target, words);
	else if (st.answer == RR_STUB_REACHES)
		;	/* mold's: its hazard */
	else if (st.answer == RR_STUB_CLOSE || mag < limit + slack) {
		rr_unmodelled(r, "%s against %s from '%s': %s, a distance within what the layout estimate can tell (%llu KiB) of its reach",
			   h->name, ref->target, from, words, (unsigned long long)(slack >> 10));
	} else {
		struct lk_diag_reloc *x = overflow(r, ref, value, place, target, limit);

		if (x) {
			x->stub = words;
			x->recompile = "-ffunction-sections";
			words = NULL;
		}
	}
	free(words);
}

/*
 * Does a far one go through a long-branch stub? AArch64's B and BL
 * (JUMP26, CALL26) do with all three linkers; a conditional branch
 * (CONDBR19, TSTBR14) never does: "truncated to fit" / "out of range".
 */
static int takes_stub(const struct rp_relocs *rr, const struct lk_reloc_howto *h)
{
	return rr->arch->branch_veneers && (h->type == R_AARCH64_CALL26 || h->type == R_AARCH64_JUMP26);
}

static void judge_reach(struct rp *r, const struct rr_ref *ref)
{
	const struct lk_reloc_howto *h = ref->howto;
	struct rp_relocs *rr = r->relocs;
	uint64_t place, target, limit = 1ull << h->reach, margin = limit / 16, mag;
	int64_t value;
	int ok;

	place = rr_layout_addr(rr->layout, ref->input, ref->section, &ok) + ref->offset;
	if (!ok || !target_addr(r, ref, &target))
		return;
	target += (uint64_t)ref->addend;
	if (!h->pc)
		value = (int64_t)target;
	else if (rr->arch->machine == EM_AARCH64 && h->reach == 32)
		value = (int64_t)((target & ~0xfffull) - (place & ~0xfffull));	/* ADRP: pages */
	else
		value = (int64_t)(target - place);
	mag = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
	if (h->cls == LK_RC_BRANCH && h->pc) {
		/* Between two code sections the estimate is closer than the image's 1/16. */
		uint64_t slack = rr_layout_code_slack(rr->layout, rr_layout_code_of(rr->layout, ref->input, ref->section),
						      code_of_target(r, ref));

		if (slack < margin)
			margin = slack;
	}
	if (mag + margin < limit)
		return;
	if (takes_stub(rr, h) && !(ref->sym && ref->sym->def_input == ref->input && ref->sym->def_section == ref->section)) {
		judge_far_call(r, ref, value, place, target, mag, margin);
		return;
	}
	if (mag < limit + margin) {
		rr_unmodelled(r, "%s against %s from '%s': the estimated distance (%llu MiB) is within %s of its reach (%llu MiB), closer than the layout estimate can tell",
			   h->name, ref->target, r->out->inputs.items[ref->input].path,
			   (unsigned long long)(mag >> 20), margin == limit / 16 ? "1/16" : "what the estimate can tell",
			   (unsigned long long)(limit >> 20));
		return;
	}
	overflow(r, ref, value, place, target, limit);
}

/* Could a reference of this image miss its target? Then the layout is needed. */
int rr_layout_may_matter(const struct rp *r)
{
	const struct rp_relocs *rr = r->relocs;
	uint64_t limit;

	if (!rr->arch)
		return 0;
	limit = 1ull << rr->arch->cross_reach;
	if (rr->short_cross && rr->image >= (1ull << rr->short_cross) - (1ull << rr->short_cross) / 8)
		return 1;
	return rr->fixed_addresses || rr->image + rr->arch->exe_base >= limit - limit / 8;
}

/* The line replayed once more keeping every reaching relocation: its overflow diagnostics join this replay's. */
void rr_layout_pass(struct rp *r)
{
	struct lk_replay full;

	memset(&full, 0, sizeof(full));
	rp_replay_core(r->rec, r->line, r->first_extra, (r->mode & (RP_LLD | RP_LLD14 | RP_MOLD)) | RP_RELOC_FULL, r->edit,
		       &full);
	for (size_t i = 0; i < full.diags.nr; i++) {
		struct lk_diag *d = &full.diags.items[i];

		if (d->kind != LK_DIAG_RELOC_OVERFLOW)
			continue;
		LK_GROW(r->out->diags.items, r->out->diags.nr + 1, r->out->diags.alloc);
		r->out->diags.items[r->out->diags.nr++] = *d;
		memset(d, 0, sizeof(*d));
	}
	for (size_t i = 0; i < full.notes.nr; i++)
		rp_note(r, "%s", full.notes.items[i]);
	for (size_t i = 0; i < full.mold_hazards.nr; i++)
		lk_strvec_push(&r->out->mold_hazards, full.mold_hazards.items[i]);
	if (full.unmodelled && !r->out->unmodelled) {
		r->out->unmodelled = full.unmodelled;
		full.unmodelled = NULL;
	}
	lk_replay_release(&full);
}

static int gc_kept(void *gc, long input, uint32_t ndx)
{
	return lk_gc_kept(gc, input, ndx);
}

/* The layout pass's own replay: each linker's layout placed, then every kept reference judged against it. */
void rr_judge_layout(struct rp *r)
{
	struct rp_relocs *rr = r->relocs;
	const char *fixed, *other;

	if (r->gc)
		rr_layout_drop(rr->layout, gc_kept, r->gc);
	/* lld's and mold's default image base is 0x200000 on x86-64 and AArch64 (GNU ld's: the arch's). */
	rr_layout_place(rr->layout, rr_output_of(r) != LK_OUT_EXEC ? 0 : r->mode & RP_LLD ? 0x200000 : rr->arch->exe_base,
			&rr->starts, !(r->mode & RP_LLD) ? RR_LAYOUT_GNU : r->mode & RP_MOLD ? RR_LAYOUT_MOLD : RR_LAYOUT_LLD);
	if (rr_layout_overlap(rr->layout, &fixed, &other))
		rr_unmodelled(r, "the section %s placed by --section-start overlaps where %s goes by the layout estimate, and what the linker does with overlapping sections (GNU ld: \"section ... overlaps section ...\") is not modelled",
			      fixed, other);
	for (size_t i = 0; i < rr->refs.nr; i++)
		if (!rr->refs.items[i].not_allowed || rr->refs.items[i].howto->reach)
			judge_reach(r, &rr->refs.items[i]);
}
