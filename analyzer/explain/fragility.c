/*
 * A successful replay -> what the success rests on (see fragility.h).
 *
 * Each kind of fact is found in the replay's result (which input was
 * pulled, kept or bound, and why) and then checked by a counterfactual
 * replay of the same line with that one thing taken away
 * (lk_replay_edited): a fact is reported only when the counterfactual
 * fails, and the report says how ("without the reference from X at P,
 * member Y of Z at Q fails with dso-missing S").
 *
 * GNU ld behaviour behind the kinds: --as-needed keeps a library only if
 * it satisfies a reference pending when it is read (ld manual), so a later
 * input may bind to it only thanks to an earlier one; an archive is scanned
 * where it stands, so a member may be found only by a group's rescan or a
 * second mention; --copy-dt-needed-entries lets regular references bind to
 * a library reached only through DT_NEEDED (elflink.c); lld and mold
 * depend on neither order nor DT_NEEDED.
 */
#include <stdlib.h>
#include <string.h>

#include "fragility.h"
#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "normalize.h"

/*
 * An --as-needed library kept for more symbols than this (Rust's std asks
 * libc.so.6 for hundreds) is needed by design, not by accident.
 */
#define FEW_KEEPERS 4

const char *lk_fact_kind_name(enum lk_fact_kind kind)
{
	switch (kind) {
	case LK_FACT_INCIDENTAL_DSO: return "incidental-dso";
	case LK_FACT_FAILS_WITH_GNU_LD: return "fails-with-gnu-ld";
	case LK_FACT_FAILS_WITH_LLD: return "fails-with-lld";
	case LK_FACT_FAILS_WITH_MOLD: return "fails-with-mold";
	case LK_FACT_COPY_DT_NEEDED: return "copy-dt-needed";
	case LK_FACT_GROUP_RESCAN: return "group-rescan";
	case LK_FACT_REPEATED_ARCHIVE: return "repeated-archive";
	case LK_FACT_LC_LOAD_BEARING: return "lc-load-bearing";
	case LK_FACT_LC_REDUNDANT: return "lc-redundant";
	}
	LK_BUG("unknown fact kind");
}

enum lk_severity lk_fact_severity(enum lk_fact_kind kind)
{
	switch (kind) {
	case LK_FACT_INCIDENTAL_DSO:
		return LK_SEV_ERROR;
	case LK_FACT_FAILS_WITH_GNU_LD:
	case LK_FACT_FAILS_WITH_LLD:
	case LK_FACT_FAILS_WITH_MOLD:
		return LK_SEV_PORTABILITY;
	case LK_FACT_COPY_DT_NEEDED:
		return LK_SEV_WARNING;
	default:
		/*
		 * Rescans and repeats are what groups and repeats are for; -lc
		 * roles are for reading.
		 */
		return LK_SEV_INFO;
	}
}

const char *lk_severity_name(enum lk_severity sev)
{
	switch (sev) {
	case LK_SEV_ERROR: return "error";
	case LK_SEV_WARNING: return "warning";
	case LK_SEV_PORTABILITY: return "portability";
	case LK_SEV_INFO: break;
	}
	return "info";
}

char *lk_fact_key(const struct lk_fact *f)
{
	struct lk_buf b = LK_BUF_INIT;
	char *subject = lk_norm_name(f->subject);

	lk_buf_addf(&b, "%s:%s", lk_fact_kind_name(f->kind), subject);
	free(subject);
	return lk_buf_detach(&b);
}

static void add_fact(struct lk_facts *out, enum lk_fact_kind kind, const char *subject,
		     struct lk_buf *text, struct lk_buf *replay, int verified)
{
	struct lk_fact *f;

	LK_GROW(out->items, out->nr + 1, out->alloc);
	f = &out->items[out->nr++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->subject = lk_xstrdup(subject);
	f->text = lk_buf_detach(text);
	f->replay = replay && replay->len ? lk_buf_detach(replay) : NULL;
	f->verified = verified;
}

/* "member m of /x/a.a at 13", "/lib/ld.so (in -lc's AS_NEEDED at 9)", "... (added by the driver)". */
static void where(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay *rp,
		  long input, struct lk_buf *b)
{
	const struct lk_rinput *in = &rp->inputs.items[input];
	const struct lk_line_item *it = in->item >= 0 ? &line->items.items[in->item] : NULL;
	const char *path = lk_norm_original(rec, in->path);

	if (in->member)
		lk_buf_addf(b, "member %s of %s", in->member, path);
	else
		lk_buf_addstr(b, path);
	if (!it)
		lk_buf_addstr(b, " (through DT_NEEDED)");
	else if (it->parent >= 0)
		lk_buf_addf(b, " (in %s's %s at %ld)", line->items.items[it->parent].word,
			    it->as_needed_script ? "AS_NEEDED" : it->script_group ? "GROUP" : "INPUT",
			    line->items.items[it->parent].position);
	else if (it->position >= 0)
		lk_buf_addf(b, " at %ld", it->position);
	else
		lk_buf_addstr(b, " (added by the driver)");
}

/* The first diagnostic of a failed counterfactual about one of `symbols` (or any, when NULL). */
static const struct lk_diag *diag_about(const struct lk_replay *cf, const struct lk_strvec *symbols)
{
	for (size_t i = 0; i < cf->diags.nr; i++) {
		if (!symbols)
			return &cf->diags.items[i];
		for (size_t k = 0; k < symbols->nr; k++)
			if (!strcmp(cf->diags.items[i].symbol, symbols->items[k]))
				return &cf->diags.items[i];
	}
	return NULL;
}

/* "member Y of Z at Q fails with dso-missing S" */
static void say_failure(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay *cf, const struct lk_diag *d,
			struct lk_buf *b)
{
	if (d->ref_input >= 0) {
		where(rec, line, cf, d->ref_input, b);
		lk_buf_addstr(b, " fails");
	} else {
		lk_buf_addstr(b, "the link fails");
	}
	lk_buf_addf(b, " with %s %s (verified by replay)", lk_diag_kind_name(d->kind), d->symbol);
}

/* ---- --as-needed libraries kept by an earlier reference ---- */

struct dependents {
	const struct lk_replay *rp;
	long dso;			/* the rinput */
	struct lk_strvec symbols;	/* its symbols referenced by inputs read after it */
	long first_input;		/* the earliest such input */
	const char *first_symbol;
};

static void find_dependent(void *ctx, const struct lk_symbol_view *s)
{
	struct dependents *d = ctx;
	struct lk_input_list refs = { NULL, 0, 0 };

	if (s->def_input != d->dso)
		return;
	lk_replay_refs(d->rp, s->name, &refs);
	for (size_t i = 0; i < refs.nr; i++) {
		if (refs.items[i] <= d->dso)
			continue;
		lk_strvec_push(&d->symbols, s->name);
		if (d->first_input < 0 || refs.items[i] < d->first_input ||
		    (refs.items[i] == d->first_input && strcmp(s->name, d->first_symbol) < 0)) {
			d->first_input = refs.items[i];
			d->first_symbol = s->name;
		}
		break;
	}
	free(refs.items);
}

/* An input the driver added (crt files, its default libraries), or read through one of them. */
static int from_driver(const struct lk_line *line, const struct lk_replay *rp, long input)
{
	long item = rp->inputs.items[input].item;

	while (item >= 0 && line->items.items[item].parent >= 0)
		item = line->items.items[item].parent;
	return item >= 0 && line->items.items[item].position < 0;
}

/*
 * The earliest input that references one of `keepers` before rinput
 * `before`, or -1; *robust is set when one of those early references
 * comes from the driver's own inputs (Scrt1.o's __libc_start_main keeps
 * libc.so.6 in every link: nothing incidental about that).
 */
static long early_reference(const struct lk_line *line, const struct lk_replay *rp,
			    const struct lk_strvec *keepers, long before, const char **symbol, int *robust)
{
	long first = -1;

	*robust = 0;
	for (size_t k = 0; k < keepers->nr; k++) {
		struct lk_input_list refs = { NULL, 0, 0 };

		lk_replay_refs(rp, keepers->items[k], &refs);
		for (size_t i = 0; i < refs.nr && refs.items[i] < before; i++) {
			*robust |= from_driver(line, rp, refs.items[i]);
			if (first < 0 || refs.items[i] < first) {
				first = refs.items[i];
				*symbol = keepers->items[k];
			}
		}
		free(refs.items);
	}
	return first;
}

static void incidental_dsos(const struct lk_record *rec, struct lk_line *line,
			    const struct lk_replay *rp, struct lk_facts *out)
{
	for (size_t i = 0; i < rp->inputs.nr; i++) {
		const struct lk_rinput *in = &rp->inputs.items[i];
		struct dependents dep = { rp, (long)i, LK_STRVEC_INIT, -1, NULL };
		struct lk_replay_edit edit = { -1, 0, &in->kept_for, in->item, NULL, 0, 0, 0 };
		struct lk_buf text = LK_BUF_INIT, replay = LK_BUF_INIT;
		const char *keeper = NULL;
		const struct lk_diag *d;
		struct lk_replay cf;
		long early;
		int robust;

		if (!in->dso || in->dropped || !in->kept_for.nr || in->kept_for.nr > FEW_KEEPERS || in->item < 0)
			continue;
		early = early_reference(line, rp, &in->kept_for, (long)i, &keeper, &robust);
		if (early < 0 || robust)
			continue;
		lk_replay_each_symbol(rp, find_dependent, &dep);
		if (dep.first_input < 0) {
			lk_strvec_release(&dep.symbols);
			continue;
		}
		lk_replay_edited(rec, line, &edit, &cf);
		d = cf.success ? NULL : diag_about(&cf, &dep.symbols);
		if (d) {
			where(rec, line, rp, (long)i, &text);
			lk_buf_addstr(&text, " is kept (--as-needed) only because ");
			where(rec, line, rp, early, &text);
			lk_buf_addf(&text, " references %s before it; ", keeper);
			where(rec, line, rp, dep.first_input, &text);
			lk_buf_addf(&text, " depends on it for %s", dep.first_symbol);
			if (dep.symbols.nr > 1)
				lk_buf_addf(&text, " (%zu of its symbols are referenced after it)", dep.symbols.nr);
			lk_buf_addstr(&replay, "without the reference from ");
			where(rec, line, rp, early, &replay);
			lk_buf_addstr(&replay, ", ");
			say_failure(rec, line, &cf, d, &replay);
			add_fact(out, LK_FACT_INCIDENTAL_DSO, d->symbol, &text, &replay, 1);
		}
		lk_replay_release(&cf);
		lk_strvec_release(&dep.symbols);
		lk_buf_release(&text);
		lk_buf_release(&replay);
	}
}

/* ---- symbols bound through --copy-dt-needed-entries ---- */

struct copied {
	const struct lk_replay *rp;
	struct lk_strvec symbols;
	struct { long *items; size_t nr, alloc; } defs;
};

static void find_copied(void *ctx, const struct lk_symbol_view *s)
{
	struct copied *c = ctx;
	const struct lk_rinput *def = s->def_input >= 0 ? &c->rp->inputs.items[s->def_input] : NULL;

	/* Loaded after the line through DT_NEEDED, and allowed to bind: --copy-dt-needed-entries. */
	if (!def || !def->dso || def->item >= 0 || def->needed_only || s->first_ref < 0)
		return;
	lk_strvec_push(&c->symbols, s->name);
	LK_GROW(c->defs.items, c->defs.nr + 1, c->defs.alloc);
	c->defs.items[c->defs.nr++] = s->def_input;
}

static long copy_option_position(const struct lk_line *line)
{
	for (size_t i = 0; i < line->items.nr; i++)
		if (line->items.items[i].ld_option == LK_LD_COPY_DT_NEEDED)
			return line->items.items[i].position;
	return -1;
}

static void copied_symbols(const struct lk_record *rec, struct lk_line *line,
			   const struct lk_replay *rp, struct lk_facts *out)
{
	struct copied c = { rp, LK_STRVEC_INIT, { NULL, 0, 0 } };
	struct lk_replay_edit edit = { -1, LK_EDIT_NO_COPY_DT_NEEDED, NULL, -1, NULL, 0, 0, 0 };
	struct lk_replay cf;

	lk_replay_each_symbol(rp, find_copied, &c);
	if (!c.symbols.nr) {
		lk_strvec_release(&c.symbols);
		return;
	}
	lk_replay_edited(rec, line, &edit, &cf);
	for (size_t i = 0; i < c.symbols.nr; i++) {
		struct lk_strvec one = LK_STRVEC_INIT;
		struct lk_buf text = LK_BUF_INIT, replay = LK_BUF_INIT;
		const struct lk_rinput *def = &rp->inputs.items[c.defs.items[i]];
		const struct lk_diag *d;

		lk_strvec_push(&one, c.symbols.items[i]);
		d = cf.success ? NULL : diag_about(&cf, &one);
		lk_strvec_release(&one);
		if (!d)
			continue;
		lk_buf_addf(&text, "%s binds to %s, reached only through the DT_NEEDED of %s, because of --copy-dt-needed-entries at %ld",
			    c.symbols.items[i], def->path,
			    def->needed_by >= 0 ? rp->inputs.items[def->needed_by].path : "a shared object",
			    copy_option_position(line));
		lk_buf_addstr(&replay, "without --copy-dt-needed-entries, ");
		say_failure(rec, line, &cf, d, &replay);
		add_fact(out, LK_FACT_COPY_DT_NEEDED, c.symbols.items[i], &text, &replay, 1);
		lk_buf_release(&text);
		lk_buf_release(&replay);
	}
	lk_replay_release(&cf);
	lk_strvec_release(&c.symbols);
	free(c.defs.items);
}

/* ---- archive members found by a group's rescan, or a second mention ---- */

static void rescanned_members(const struct lk_record *rec, struct lk_line *line,
			      const struct lk_replay *rp, struct lk_facts *out)
{
	struct lk_replay_edit edit = { -1, LK_EDIT_NO_GROUPS, NULL, -1, NULL, 0, 0, 0 };
	struct lk_replay cf;
	int ran = 0;

	for (size_t i = 0; i < rp->inputs.nr; i++) {
		const struct lk_rinput *in = &rp->inputs.items[i];
		const struct lk_line_item *it = in->item >= 0 ? &line->items.items[in->item] : NULL;
		struct lk_strvec one = LK_STRVEC_INIT;
		struct lk_buf text = LK_BUF_INIT, replay = LK_BUF_INIT;
		struct lk_input_list refs = { NULL, 0, 0 };
		const struct lk_diag *d;

		/* The user's groups only: libc.so's GROUP is glibc's business. */
		if (!in->rescanned || !in->pulled_for || !it || it->parent >= 0 || it->group < 0)
			continue;
		if (!ran++)
			lk_replay_edited(rec, line, &edit, &cf);
		lk_strvec_push(&one, in->pulled_for);
		d = cf.success ? NULL : diag_about(&cf, &one);
		lk_strvec_release(&one);
		lk_replay_refs(rp, in->pulled_for, &refs);
		if (d) {
			where(rec, line, rp, (long)i, &text);
			lk_buf_addf(&text, " is found only by the group's rescan: it defines %s", in->pulled_for);
			if (refs.nr) {
				lk_buf_addstr(&text, ", which ");
				where(rec, line, rp, refs.items[0], &text);
				lk_buf_addstr(&text, " references after the archive was read");
			}
			lk_buf_addstr(&replay, "without the group (each archive read once, in order), ");
			say_failure(rec, line, &cf, d, &replay);
			add_fact(out, LK_FACT_GROUP_RESCAN, in->pulled_for, &text, &replay, 1);
		}
		free(refs.items);
		lk_buf_release(&text);
		lk_buf_release(&replay);
	}
	if (ran)
		lk_replay_release(&cf);
}

/* An earlier top-level item naming the same archive, or -1. */
static long earlier_mention(const struct lk_line *line, long item)
{
	const struct lk_line_item *it = &line->items.items[item];

	for (long k = 0; k < item; k++) {
		const struct lk_line_item *o = &line->items.items[k];

		if (o->parent < 0 && o->path && it->path && !strcmp(o->path, it->path) &&
		    (o->info.kind == LK_FILE_ARCHIVE || o->info.kind == LK_FILE_RLIB))
			return k;
	}
	return -1;
}

static void repeated_archives(const struct lk_record *rec, struct lk_line *line,
			      const struct lk_replay *rp, struct lk_facts *out)
{
	for (size_t i = 0; i < rp->inputs.nr; i++) {
		const struct lk_rinput *in = &rp->inputs.items[i];
		const struct lk_line_item *it = in->item >= 0 ? &line->items.items[in->item] : NULL;
		struct lk_replay_edit edit = { -1, 0, NULL, -1, NULL, 0, 0, 0 };
		struct lk_buf text = LK_BUF_INIT, replay = LK_BUF_INIT;
		struct lk_strvec one = LK_STRVEC_INIT;
		const struct lk_diag *d;
		struct lk_replay cf;
		long first;

		if (!in->member || in->rescanned || !in->pulled_for || !it || it->parent >= 0 || it->position < 0 ||
		    (first = earlier_mention(line, in->item)) < 0)
			continue;
		edit.skip_position = it->position;
		lk_replay_edited(rec, line, &edit, &cf);
		lk_strvec_push(&one, in->pulled_for);
		d = cf.success ? NULL : diag_about(&cf, &one);
		if (d) {
			where(rec, line, rp, (long)i, &text);
			lk_buf_addf(&text, " is found only because the archive is named again (first at %ld): it defines %s",
				    line->items.items[first].position, in->pulled_for);
			lk_buf_addf(&replay, "without %s at %ld, ", it->word, it->position);
			say_failure(rec, line, &cf, d, &replay);
			add_fact(out, LK_FACT_REPEATED_ARCHIVE, in->pulled_for, &text, &replay, 1);
		}
		lk_strvec_release(&one);
		lk_replay_release(&cf);
		lk_buf_release(&text);
		lk_buf_release(&replay);
	}
}

/* ---- several -lc: which one the link needs ---- */

static int is_lc(const struct lk_line_item *it)
{
	return it->parent < 0 && lk_line_item_is_libc(it);
}

static void libc_roles(const struct lk_record *rec, struct lk_line *line, struct lk_facts *out)
{
	size_t total = 0, nth = 0;

	for (size_t i = 0; i < line->items.nr; i++)
		total += is_lc(&line->items.items[i]);
	if (total < 2)
		return;
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		struct lk_replay_edit edit = { -1, 0, NULL, -1, NULL, 0, 0, 0 };
		struct lk_buf text = LK_BUF_INIT, replay = LK_BUF_INIT, subject = LK_BUF_INIT;
		const struct lk_diag *d;
		struct lk_replay cf;

		if (!is_lc(it))
			continue;
		nth++;
		if (it->position < 0)
			continue;	/* the driver's own: not an edit of the user's line */
		edit.skip_position = it->position;
		lk_replay_edited(rec, line, &edit, &cf);
		d = cf.success ? NULL : diag_about(&cf, NULL);
		lk_buf_addf(&subject, "-lc#%zu", nth);
		if (d) {
			lk_buf_addf(&text, "%s at %ld (%zu of %zu on the line) is load bearing", it->word, it->position, nth, total);
			lk_buf_addf(&replay, "without it, ");
			say_failure(rec, line, &cf, d, &replay);
			add_fact(out, LK_FACT_LC_LOAD_BEARING, subject.buf, &text, &replay, 1);
		} else {
			lk_buf_addf(&text, "%s at %ld (%zu of %zu on the line) is redundant today: without it the link still succeeds (replayed)",
				    it->word, it->position, nth, total);
			add_fact(out, LK_FACT_LC_REDUNDANT, subject.buf, &text, NULL, 1);
		}
		lk_replay_release(&cf);
		lk_buf_release(&text);
		lk_buf_release(&replay);
		lk_buf_release(&subject);
	}
}

/* A linker that fails the line while another links it: one portability fact each, the reason its model gives. */
static void cross_linker(const struct lk_replay *rp, struct lk_facts *out)
{
	static const enum lk_fact_kind kinds[LK_LINKER_COUNT] = {
		LK_FACT_FAILS_WITH_GNU_LD, LK_FACT_FAILS_WITH_LLD, LK_FACT_FAILS_WITH_MOLD,
	};
	static const char *const subjects[LK_LINKER_COUNT] = { "gnu-ld", "lld", "mold" };
	int linking = 0;

	for (int l = 0; l < LK_LINKER_COUNT; l++)
		linking += rp->linkers[l].success && !rp->linkers[l].unknown;
	for (int l = 0; l < LK_LINKER_COUNT && linking; l++) {
		const struct lk_linker_verdict *v = &rp->linkers[l];
		struct lk_buf text = LK_BUF_INIT;

		if (v->success || v->unknown)
			continue;
		if (l == LK_LINKER_BFD && rp->diags.nr)
			lk_buf_addf(&text, "GNU ld fails: %s %s (see linkscope explain)", lk_diag_kind_name(rp->diags.items[0].kind),
				    rp->diags.items[0].symbol);
		else if (l == LK_LINKER_BFD)
			lk_buf_addstr(&text, "GNU ld fails");
		else
			lk_buf_addstr(&text, v->why.nr ? v->why.items[0] : "it fails");
		add_fact(out, kinds[l], subjects[l], &text, NULL, 1);
	}
}

static int by_kind_then_text(const void *a, const void *b)
{
	const struct lk_fact *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->text, y->text);
}

void lk_fragility_find(const struct lk_record *rec, struct lk_line *line,
		       const struct lk_replay *rp, struct lk_facts *out)
{
	memset(out, 0, sizeof(*out));
	out->success = rp->success;
	out->lld_success = rp->lld_success;
	for (int l = 0; l < LK_LINKER_COUNT; l++)
		out->linkers[l] = rp->linkers[l].success;
	if (line->unknown.nr) {
		/* The model lacks what was not run (docs/security.md): no facts, no verdict. */
		out->unknown = lk_xstrdup(line->unknown.items[0]);
		return;
	}
	cross_linker(rp, out);
	if (rp->success) {
		incidental_dsos(rec, line, rp, out);
		copied_symbols(rec, line, rp, out);
		rescanned_members(rec, line, rp, out);
		repeated_archives(rec, line, rp, out);
		libc_roles(rec, line, out);
	}
	if (out->nr)
		qsort(out->items, out->nr, sizeof(*out->items), by_kind_then_text);
}

void lk_facts_release(struct lk_facts *f)
{
	for (size_t i = 0; i < f->nr; i++) {
		free(f->items[i].subject);
		free(f->items[i].text);
		free(f->items[i].replay);
	}
	free(f->items);
	free(f->unknown);
	memset(f, 0, sizeof(*f));
}

void lk_fragility_print(FILE *out, const struct lk_facts *f, const char *symbol)
{
	size_t shown = 0;

	for (size_t i = 0; i < f->nr; i++) {
		const struct lk_fact *x = &f->items[i];

		if (symbol && strcmp(x->subject, symbol))
			continue;
		if (!shown++)
			fprintf(out, "%s", symbol ? "" : "\nthe success rests on (each checked by a replay without it):\n");
		fprintf(out, "%s%-7s %s: %s\n", symbol ? "" : "  ", lk_severity_name(lk_fact_severity(x->kind)),
			lk_fact_kind_name(x->kind), x->text);
		if (x->replay)
			fprintf(out, "%s        %s\n", symbol ? "" : "  ", x->replay);
	}
}
