/*
 * Diagnostics -> explanations (see explain.h): each diagnostic kind gets
 * its timeline, in ld's terms, from what the replay kept.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "demangle.h"
#include "linkscope/vec.h"
#include "explain.h"
#include "reloc_explain.h"
#include "cause.h"
#include "notfound.h"
#include "unusable.h"
#include "multidef.h"
#include "srcline.h"
#include "symtab.h"

static void say(struct lk_diag *d, struct lk_buf *b)
{
	lk_strvec_push_owned(&d->explanation, lk_buf_detach(b));
}

void lk_explain_site_text(const struct lk_replay *r, const struct lk_line *line, long input,
			  struct lk_buf *b)
{
	const struct lk_rinput *in = &r->inputs.items[input];
	long pos = in->item >= 0 ? line->items.items[in->item].position : -1;

	if (in->member)
		lk_buf_addf(b, "member %s of %s", in->member, in->path);
	else
		lk_buf_addstr(b, in->path);
	if (pos >= 0)
		lk_buf_addf(b, " at %ld", pos);
	else if (in->item >= 0)
		lk_buf_addstr(b, " (added by the driver)");
}

/* "X at 3 references sym (it was pulled in for y)", the start of a timeline. */
static void site_references(const struct lk_replay *out, const struct lk_line *line,
			    const struct lk_diag *d, struct lk_buf *b)
{
	lk_explain_site_text(out, line, d->ref_input, b);
	lk_buf_addf(b, " references %s", d->symbol);
	if (out->inputs.items[d->ref_input].pulled_for)
		lk_buf_addf(b, " (it was pulled in for %s)", out->inputs.items[d->ref_input].pulled_for);
}

static void explain_dso_missing(const struct lk_replay *out, const struct lk_line *line, struct lk_diag *d)
{
	const struct lk_rinput *def = &out->inputs.items[d->def_input];
	struct lk_buf b = LK_BUF_INIT;

	/* Was the same DSO on the line, as-needed, and dropped? */
	for (size_t i = 0; i < out->inputs.nr; i++) {
		const struct lk_rinput *in = &out->inputs.items[i];
		const struct lk_line_item *it;

		if (!in->dso || !in->dropped || in->item < 0 ||
		    strcmp(lk_path_base(in->path), lk_path_base(def->path)))
			continue;
		it = &line->items.items[in->item];
		lk_buf_addf(&b, "%s was on the line as-needed", lk_path_base(in->path));
		if (it->parent >= 0)
			lk_buf_addf(&b, " through %s's AS_NEEDED at %ld", line->items.items[it->parent].word,
				    line->items.items[it->parent].position);
		else
			lk_buf_addf(&b, " at %ld", it->position);
		lk_buf_addstr(&b, ", and was dropped: nothing referenced it yet");
		say(d, &b);
		break;
	}
	site_references(out, line, d, &b);
	say(d, &b);
	lk_buf_addf(&b, "%s defines %s%s%s, but it is not on the line: ld reaches it only through the DT_NEEDED of ",
		    def->path, d->symbol, d->version ? "@@" : "", d->version ? d->version : "");
	for (size_t i = 0; i < d->via.nr; i++)
		lk_buf_addf(&b, "%s%s", i ? " -> " : "", d->via.items[i]);
	say(d, &b);
	/* --copy-dt-needed-entries placed after the DSO that needs it. */
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *opt = &line->items.items[i];

		if (opt->ld_option != LK_LD_COPY_DT_NEEDED)
			continue;
		lk_buf_addf(&b, "%s at %ld does not help: it applies only to shared objects read after it, and %s was read before it",
			    opt->word, opt->position, d->via.nr ? lk_path_base(d->via.items[0]) : "the needing library");
		say(d, &b);
	}
	lk_buf_addstr(&b, "so ld refuses the reference: \"undefined reference to symbol\" and \"DSO missing from command line\"");
	say(d, &b);
	lk_buf_release(&b);
}

/* The argv position of the line's last --as-needed before item `before`, or -1 (the driver's own). */
static long as_needed_word(const struct lk_line *line, long before)
{
	long at = -1;

	for (long i = 0; i < before; i++) {
		const struct lk_line_item *o = &line->items.items[i];

		if (o->kind == LK_ITEM_OPTION && o->position >= 0 && !strcmp(o->word, "--as-needed"))
			at = o->position;
	}
	return at;
}

/*
 * A shared object --as-needed dropped where it stands, because nothing read
 * before it referenced it, and that defines the symbol referenced after it
 * (LDFLAGS = -lz before the objects, with a toolchain that passes
 * --as-needed): ld does not go back to it either.
 */
static void explain_dropped_before(const struct lk_replay *out, const struct lk_line *line, struct lk_diag *d,
				   long ref_item, struct lk_buf *b)
{
	for (size_t i = 0; i < out->inputs.nr; i++) {
		const struct lk_rinput *in = &out->inputs.items[i];
		const struct lk_line_item *it;
		long on;

		if (!in->dropped || in->item < 0 || strcmp(in->path, d->defined_path))
			continue;
		it = &line->items.items[in->item];
		on = as_needed_word(line, in->item);
		lk_buf_addf(b, "ordering: %s at %ld (%s) defines it, but --as-needed", it->word, it->position,
			    lk_path_base(in->path));
		if (on >= 0)
			lk_buf_addf(b, " (at %ld)", on);
		else
			lk_buf_addstr(b, " (the driver's)");
		lk_buf_addstr(b, " was in force there and no input read before it referenced its symbols, so ld dropped it");
		if (ref_item >= 0)
			lk_buf_addf(b, "; the reference at %ld comes after it, and ld does not go back to a library",
				    line->items.items[ref_item].position);
		say(d, b);
		return;
	}
}

/* Who references it; an archive on the line that defines it in its armap, read before the reference. */
static void explain_undefined(const struct lk_replay *out, const struct lk_line *line, struct lk_diag *d)
{
	struct lk_buf b = LK_BUF_INIT;
	long ref_item = d->ref_input >= 0 ? out->inputs.items[d->ref_input].item : -1;
	const struct lk_sym *s = lk_symtab_lookup(out->symtab, d->symbol);

	if (d->ref_input >= 0) {
		site_references(out, line, d, &b);
		if (d->refs.nr > 1)
			lk_buf_addf(&b, "; %zu inputs reference it in all", d->refs.nr);
		say(d, &b);
	}
	if (s && s->armap_item >= 0) {
		const struct lk_line_item *it = &line->items.items[s->armap_item];

		lk_buf_addf(&b, "ordering: %s", it->path);
		if (it->parent >= 0)
			lk_buf_addf(&b, " (in %s's %s at %ld)", line->items.items[it->parent].word,
				    it->script_group ? "GROUP" : "INPUT", line->items.items[it->parent].position);
		else
			lk_buf_addf(&b, " at %ld", it->position);
		lk_buf_addstr(&b, " defines it, but was read before the reference");
		if (ref_item >= 0)
			lk_buf_addf(&b, " at %ld", line->items.items[ref_item].position);
		lk_buf_addstr(&b, ", and ld does not go back to an archive");
		say(d, &b);
	} else if (s && s->dropped_def && d->defined_path) {
		explain_dropped_before(out, line, d, ref_item, &b);
	}
	lk_buf_release(&b);
}

static int by_symbol(const void *a, const void *b)
{
	return strcmp((*(const struct lk_diag *const *)a)->symbol, (*(const struct lk_diag *const *)b)->symbol);
}

/* Shared objects in the link that define an undefined symbol only as an old "sym@V". */
static void explain_old_versions(struct lk_replay *out)
{
	struct lk_diag **sorted = NULL;
	size_t n = 0;
	struct lk_buf b = LK_BUF_INIT;

	for (size_t i = 0; i < out->diags.nr; i++)
		if (out->diags.items[i].kind == LK_DIAG_UNDEFINED)
			n++;
	if (!n)
		return;
	sorted = lk_xcalloc(n, sizeof(*sorted));
	n = 0;
	for (size_t i = 0; i < out->diags.nr; i++)
		if (out->diags.items[i].kind == LK_DIAG_UNDEFINED)
			sorted[n++] = &out->diags.items[i];
	qsort(sorted, n, sizeof(*sorted), by_symbol);
	for (size_t i = 0; i < out->inputs.nr; i++) {
		const struct lk_rinput *in = &out->inputs.items[i];

		for (size_t k = 0; k < in->old_defs.nr; k++) {
			const struct lk_rdef *def = &in->old_defs.items[k];
			struct lk_diag key, *kp = &key, **hit;

			key.symbol = (char *)def->name;
			hit = bsearch(&kp, sorted, n, sizeof(*sorted), by_symbol);
			if (!hit)
				continue;
			lk_buf_addf(&b, "%s has only %s@%s, an old version that no new reference binds to",
				    in->path, (*hit)->symbol, def->version ? def->version : "?");
			say(*hit, &b);
		}
	}
	free(sorted);
	lk_buf_release(&b);
}

static void explain_multiple(const struct lk_replay *out, const struct lk_line *line, struct lk_diag *d)
{
	struct lk_buf b = LK_BUF_INIT;

	lk_explain_site_text(out, line, d->def_input, &b);
	lk_buf_addf(&b, " defines %s first", d->symbol);
	say(d, &b);
	lk_explain_site_text(out, line, d->ref_input, &b);
	lk_buf_addstr(&b, " defines it again");
	if (out->inputs.items[d->ref_input].pulled_for)
		lk_buf_addf(&b, " (it was pulled in for %s)", out->inputs.items[d->ref_input].pulled_for);
	lk_buf_addstr(&b, ": both are strong definitions in regular objects, so ld fails");
	say(d, &b);
	lk_buf_release(&b);
}

/* ld: "hidden symbol `x' in a.o is referenced by DSO". */
static void explain_hidden(const struct lk_replay *out, const struct lk_line *line, struct lk_diag *d)
{
	struct lk_buf b = LK_BUF_INIT;

	lk_explain_site_text(out, line, d->def_input, &b);
	lk_buf_addf(&b, " defines %s with hidden visibility", d->symbol);
	say(d, &b);
	if (d->ref_input >= 0)
		lk_explain_site_text(out, line, d->ref_input, &b);
	else
		lk_buf_addstr(&b, "a shared object in the link");
	lk_buf_addstr(&b, " references it: a hidden symbol is never exported, so GNU ld refuses the link (--allow-shlib-undefined does not change it); lld 14 and mold link it");
	say(d, &b);
	lk_buf_release(&b);
}

/* ld: "duplicate version tag `V1'". */
static void explain_version_tag(struct lk_diag *d)
{
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addf(&b, "the version script %s names the version tag %s twice (counting every --version-script of the line): GNU ld refuses it; lld and mold take it",
		    d->defined_path, d->symbol);
	say(d, &b);
}

void lk_explain_diags(struct lk_replay *out, const struct lk_line *line)
{
	size_t searched = 0;	/* -l words whose dirs were listed (notfound.h) */

	for (size_t i = 0; i < out->diags.nr; i++) {
		struct lk_diag *d = &out->diags.items[i];

		if (d->kind == LK_DIAG_DSO_MISSING)
			explain_dso_missing(out, line, d);
		else if (d->kind == LK_DIAG_UNDEFINED)
			explain_undefined(out, line, d);
		else if (d->kind == LK_DIAG_MULTIPLE)
			explain_multiple(out, line, d);
		else if (lk_explain_reloc_kind(d->kind))
			lk_explain_reloc(out, line, d);
		else if (lk_unusable_kind(d->kind))
			lk_unusable_explain(line, d);
		else if (d->kind == LK_DIAG_HIDDEN_DSO_REF)
			explain_hidden(out, line, d);
		else if (d->kind == LK_DIAG_VERSION_TAG)
			explain_version_tag(d);
		else
			lk_notfound_explain(line, d, &searched);
	}
	explain_old_versions(out);
	lk_multidef_causes(out, line);
}

/* A dropped shared object kept aside a definition of `symbol`. */
static int had_definition(const struct lk_rinput *in, const char *symbol)
{
	for (size_t k = 0; k < in->dropped_defs.nr; k++)
		if (!strcmp(in->dropped_defs.items[k].name, symbol))
			return 1;
	return 0;
}

static void push_line(struct lk_strvec *out, struct lk_buf *b)
{
	lk_strvec_push_owned(out, lk_buf_detach(b));
}

void lk_explain_why(const struct lk_replay *r, const struct lk_line *line,
		    const char *symbol, struct lk_strvec *out)
{
	const struct lk_sym *s = lk_symtab_lookup(r->symtab, symbol);
	struct lk_buf b = LK_BUF_INIT;
	char *human = lk_demangle(symbol);

	for (size_t i = 0; i < r->inputs.nr; i++) {
		const struct lk_rinput *in = &r->inputs.items[i];

		if (in->pulled_for && !strcmp(in->pulled_for, symbol)) {
			lk_explain_site_text(r, line, (long)i, &b);
			lk_buf_addstr(&b, " was pulled in to define it");
			push_line(out, &b);
		}
	}
	if (human) {
		lk_buf_addf(&b, "%s is %s", symbol, human);
		push_line(out, &b);
		free(human);
	}
	if (!s) {
		lk_buf_addf(&b, "no input the replay read mentions %s", symbol);
		push_line(out, &b);
		return;
	}
	for (const struct lk_symref *ref = s->refs; ref; ref = ref->next) {
		lk_explain_site_text(r, line, ref->input, &b);
		lk_buf_addstr(&b, " references it");
		if (r->inputs.items[ref->input].pulled_for)
			lk_buf_addf(&b, " (pulled in for %s)", r->inputs.items[ref->input].pulled_for);
		push_line(out, &b);
	}
	if (s->first_dyn_ref >= 0) {
		lk_explain_site_text(r, line, s->first_dyn_ref, &b);
		lk_buf_addstr(&b, " (a shared object) references it");
		push_line(out, &b);
	}
	if (s->defined && s->def_input >= 0) {
		const struct lk_rinput *d = &r->inputs.items[s->def_input];

		lk_explain_site_text(r, line, s->def_input, &b);
		lk_buf_addf(&b, " defines it%s%s%s%s", s->version ? "@@" : "", s->version ? s->version : "",
			    s->dynamic ? " (shared object" : "",
			    s->dynamic ? (d->needed_only ? ", reached only through DT_NEEDED)" : ")") : "");
		push_line(out, &b);
	} else {
		lk_buf_addf(&b, "nothing the replay read defines %s", symbol);
		push_line(out, &b);
	}
	for (size_t i = 0; i < r->inputs.nr; i++) {
		const struct lk_rinput *in = &r->inputs.items[i];

		if (in->dso && in->dropped && had_definition(in, symbol)) {
			lk_explain_site_text(r, line, (long)i, &b);
			lk_buf_addstr(&b, " defines it too, but was dropped (--as-needed: nothing needed it when it was read)");
			push_line(out, &b);
		}
	}
}

void lk_explain_diag_release(struct lk_diag *d)
{
	lk_strvec_release(&d->explanation);
	lk_strvec_release(&d->symbols);
	free(d->provider);
	d->provider = NULL;
	free(d->provider_package);
	d->provider_package = NULL;
	lk_strvec_release(&d->alternatives);
	lk_strvec_release(&d->looked_in);
	free(d->not_found_file);
	d->not_found_file = NULL;
	d->not_found_cause = NULL;
	for (size_t k = 0; k < d->near_misses.nr; k++)
		lk_finding_release(&d->near_misses.items[k]);
	free(d->near_misses.items);
	memset(&d->near_misses, 0, sizeof(d->near_misses));
	if (d->cause) {
		lk_finding_release(d->cause);
		free(d->cause);
		d->cause = NULL;
	}
	lk_srcline_release(d);
}

void lk_finding_release(struct lk_finding *f)
{
	free(f->kind);
	free(f->found);
	free(f->in);
	free(f->detail);
	free(f->fix);
	free(f->def_path);
	free(f->def_member);
	lk_srcpos_release(&f->def_pos);
	lk_srcpos_release(&f->fix_pos);
	memset(f, 0, sizeof(*f));
}

void lk_explain_release(struct lk_replay *r)
{
	for (size_t i = 0; i < r->diags.nr; i++)
		lk_explain_diag_release(&r->diags.items[i]);
}

void lk_explain_causes(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out)
{
	/* A failure that is no prediction gets no causes: there is nothing to fix. */
	if (!out->unknown)
		lk_cause_group(rec, line, out);
}
