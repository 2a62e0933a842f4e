/*
 * Diagnostics of the relocation room (replay/reloc.c) -> explanations and
 * fixes: relocations the output cannot take, relocations that do not
 * reach, TLS symbols meeting non-TLS ones. The sentences say what ld
 * says (the same relocation, target and section), where the input is on
 * the line, and how the object says it was compiled. Fixes: -no-pie,
 * tried by replay; rebuilding the object (-fPIE, -fPIC, a code model),
 * stated with the object's name, never verified.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "explain.h"
#include "fix.h"
#include "reloc_explain.h"

int lk_explain_reloc_kind(enum lk_diag_kind kind)
{
	return kind == LK_DIAG_RELOC_NOT_ALLOWED || kind == LK_DIAG_RELOC_OVERFLOW || kind == LK_DIAG_TLS_MISMATCH;
}

static void say(struct lk_diag *d, struct lk_buf *b)
{
	lk_strvec_push_owned(&d->explanation, lk_buf_detach(b));
}

/* "libx.a(n.o)" or "n.o": the object as a person names it for a rebuild. */
static void object_name(const struct lk_rinput *in, struct lk_buf *b)
{
	if (in->member)
		lk_buf_addf(b, "%s(%s)", in->path, in->member);
	else
		lk_buf_addstr(b, in->path);
}

static void target_text(const struct lk_diag *d, struct lk_buf *b)
{
	lk_buf_addf(b, d->reloc->target_is_section ? "`%s'" : "symbol `%s'", d->symbol);
}

static void producer_sentence(const struct lk_diag *d, struct lk_buf *b)
{
	const char *p = d->reloc->producer;

	if (!p)
		return;
	lk_buf_addf(b, "the object says it was compiled by \"%s\"", p);
	if (strstr(p, "-fno-pic") || strstr(p, "-fno-PIC") || strstr(p, "-fno-pie") || strstr(p, "-fno-PIE"))
		lk_buf_addstr(b, ": position-dependent code");
	else if (!strstr(p, " -"))
		lk_buf_addstr(b, " (without -grecord-gcc-switches it does not say with which options)");
}

static void explain_not_allowed(const struct lk_replay *out, const struct lk_line *line, struct lk_diag *d)
{
	const struct lk_diag_reloc *x = d->reloc;
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addf(&b, "ld: \"relocation %s against ", x->type);
	target_text(d, &b);
	if (!strcmp(x->machine, "AArch64") && strstr(x->rule, "PC-relative"))
		lk_buf_addstr(&b, " which may bind externally");
	lk_buf_addf(&b, " can not be used when making %s; recompile with %s\"", x->output, x->recompile);
	say(d, &b);
	lk_explain_site_text(out, line, d->ref_input, &b);
	lk_buf_addf(&b, " has a %s relocation in its section %s (offset 0x%llx) against ", x->type, x->section, x->offset);
	target_text(d, &b);
	lk_buf_addf(&b, ": %s, and the output is %s", x->rule, x->output);
	say(d, &b);
	producer_sentence(d, &b);
	if (b.len)
		say(d, &b);
}

static void explain_overflow(const struct lk_replay *out, const struct lk_line *line, struct lk_diag *d)
{
	const struct lk_diag_reloc *x = d->reloc;
	struct lk_buf b = LK_BUF_INIT;
	unsigned long long mag = x->distance < 0 ? 0ull - (unsigned long long)x->distance : (unsigned long long)x->distance;

	lk_buf_addf(&b, "ld: \"relocation truncated to fit: %s against ", x->type);
	target_text(d, &b);
	lk_buf_addstr(&b, "\"");
	say(d, &b);
	lk_explain_site_text(out, line, d->ref_input, &b);
	lk_buf_addf(&b, " references it from its section %s (offset 0x%llx) with %s, which reaches +-%llu MiB; by the layout estimate (section sizes, GNU ld's default order) the target is %llu MiB away",
		    x->section, x->offset, x->type, x->reach >> 20, mag >> 20);
	say(d, &b);
	if (x->between.nr) {
		lk_buf_addstr(&b, "in between lie ");
		for (size_t i = 0; i < x->between.nr; i++)
			lk_buf_addf(&b, "%s%s", i ? ", " : "", x->between.items[i]);
		say(d, &b);
	}
}

static void explain_tls(const struct lk_replay *out, const struct lk_line *line, struct lk_diag *d)
{
	const struct lk_diag_reloc *x = d->reloc;
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addf(&b, "ld: \"%s: %s %s in %s", d->symbol, x->first_type, x->first_what,
		    lk_path_base(out->inputs.items[d->def_input].member ? out->inputs.items[d->def_input].member :
				 out->inputs.items[d->def_input].path));
	if (x->first_section && !strcmp(x->first_what, "definition"))
		lk_buf_addf(&b, " section %s", x->first_section);
	lk_buf_addf(&b, " mismatches %s %s in %s\"", x->second_type, x->second_what,
		    lk_path_base(out->inputs.items[d->ref_input].member ? out->inputs.items[d->ref_input].member :
				 out->inputs.items[d->ref_input].path));
	say(d, &b);
	lk_explain_site_text(out, line, d->def_input, &b);
	lk_buf_addf(&b, " has %s as a %s symbol (a %s); ", d->symbol, x->first_type, x->first_what);
	lk_explain_site_text(out, line, d->ref_input, &b);
	lk_buf_addf(&b, " has it as a %s symbol (a %s): one side declares it _Thread_local / __thread and the other not",
		    x->second_type, x->second_what);
	say(d, &b);
}

void lk_explain_reloc(const struct lk_replay *out, const struct lk_line *line, struct lk_diag *d)
{
	if (d->kind == LK_DIAG_RELOC_NOT_ALLOWED)
		explain_not_allowed(out, line, d);
	else if (d->kind == LK_DIAG_RELOC_OVERFLOW)
		explain_overflow(out, line, d);
	else
		explain_tls(out, line, d);
}

/* ---- fixes ---- */

/* A rebuild (or a declaration changed) of the referencing object, which no replay can try: said, with its name and the flag. */
static void stated_fix(const struct lk_replay *out, struct lk_diag *d, enum lk_edit_kind kind, const char *description)
{
	const struct lk_rinput *in = d->ref_input >= 0 ? &out->inputs.items[d->ref_input] : NULL;
	struct lk_fix *f = lk_fix_stated(d, kind, in ? in->path : NULL,
					 "the object's sources, and the build's compile command for it", description);

	if (d->reloc->recompile)
		lk_strvec_push(&f->edit.words, d->reloc->recompile);
}

static void fix_not_allowed(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out,
			    struct lk_diag *d)
{
	struct lk_buf b = LK_BUF_INIT;

	if (!strcmp(d->reloc->output, "a PIE object")) {
		/* The cause is the object's code; a position-dependent output works around it. */
		lk_fix_try_append(rec, line, out, d, "-no-pie",
				  "link a position-dependent executable: add -no-pie to the link line")->workaround = 1;
	}
	lk_buf_addstr(&b, "rebuild ");
	object_name(&out->inputs.items[d->ref_input], &b);
	lk_buf_addf(&b, " with %s (position-independent code)", d->reloc->recompile);
	stated_fix(out, d, LK_EDIT_KIND_REBUILD, b.buf);
	lk_buf_release(&b);
}

static void fix_overflow(struct lk_replay *out, struct lk_diag *d)
{
	const struct lk_diag_reloc *x = d->reloc;
	struct lk_buf b = LK_BUF_INIT;

	lk_buf_addstr(&b, "rebuild ");
	if (x->large_inputs.nr && !strcmp(x->recompile, "-mcmodel=medium")) {
		for (size_t i = 0; i < x->large_inputs.nr; i++)
			lk_buf_addf(&b, "%s%s", i ? ", " : "", x->large_inputs.items[i]);
		lk_buf_addstr(&b, " (which hold the large sections) and ");
	}
	object_name(&out->inputs.items[d->ref_input], &b);
	lk_buf_addf(&b, " with %s, so that its references reach past +-%llu MiB", x->recompile, x->reach >> 20);
	if (!strcmp(x->recompile, "-mcmodel=medium"))
		lk_buf_addstr(&b, " (data larger than -mlarge-data-threshold goes to .lbss/.ldata, after .bss)");
	stated_fix(out, d, LK_EDIT_KIND_REBUILD, b.buf);
	lk_buf_release(&b);
}

static void fix_tls(struct lk_replay *out, struct lk_diag *d)
{
	const struct lk_diag_reloc *x = d->reloc;
	struct lk_buf b = LK_BUF_INIT;
	/* The side that disagrees with the definition is rebuilt; with two references, either. */
	long other = !strcmp(x->first_what, "definition") ? d->ref_input :
		     !strcmp(x->second_what, "definition") ? d->def_input : -1;

	lk_buf_addf(&b, "declare %s the same way everywhere (with or without _Thread_local / __thread, as its definition has it) and rebuild ",
		    d->symbol);
	if (other >= 0) {
		object_name(&out->inputs.items[other], &b);
	} else {
		object_name(&out->inputs.items[d->def_input], &b);
		lk_buf_addstr(&b, " or ");
		object_name(&out->inputs.items[d->ref_input], &b);
	}
	stated_fix(out, d, LK_EDIT_KIND_DECLARATION, b.buf);
	lk_buf_release(&b);
}

void lk_fix_reloc(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out)
{
	for (size_t i = 0; i < out->diags.nr; i++) {
		struct lk_diag *d = &out->diags.items[i];

		if (d->kind == LK_DIAG_RELOC_NOT_ALLOWED)
			fix_not_allowed(rec, line, out, d);
		else if (d->kind == LK_DIAG_RELOC_OVERFLOW)
			fix_overflow(out, d);
		else if (d->kind == LK_DIAG_TLS_MISMATCH)
			fix_tls(out, d);
	}
}
