/*
 * Diagnostics of the relocation room (replay/reloc.c) -> explanations: relocations the output cannot take, relocations that do not
 * reach, TLS symbols meeting non-TLS ones. The sentences say what ld
 * says (the same relocation, target and section), where the input is on
 * the line, and how the object says it was compiled. Their fixes are
 * analyzer/fix/'s.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "explain.h"
#include "reloc_explain.h"

int lk_explain_reloc_kind(enum lk_diag_kind kind)
{
	return kind == LK_DIAG_RELOC_NOT_ALLOWED || kind == LK_DIAG_RELOC_OVERFLOW || kind == LK_DIAG_TLS_MISMATCH;
}

static void say(struct lk_diag *d, struct lk_buf *b)
{
	lk_strvec_push_owned(&d->explanation, lk_buf_detach(b));
}

static void target_text(const struct lk_diag *d, struct lk_buf *b)
{
	lk_buf_addf(b, d->reloc->target_is_section ? "`%s'" : "symbol `%s'", d->symbol);
}

int lk_reloc_from_assembly(const struct lk_diag_reloc *x)
{
	const char *p = x->producer;

	return !p || !strncmp(p, "GNU AS ", 7) || !strncmp(p, "GNU Assembler", 13);
}

static void producer_sentence(const struct lk_diag *d, struct lk_buf *b)
{
	const char *p = d->reloc->producer;

	if (lk_reloc_from_assembly(d->reloc)) {
		lk_buf_addstr(b, p ? "the object says it was assembled by \"" : "the object names no compiler (no .comment, no DW_AT_producer), as objects of hand-written assembly do");
		if (p)
			lk_buf_addf(b, "%s\": hand-written assembly", p);
		lk_buf_addstr(b, ", where no compiler option changes how an instruction addresses its operand");
		return;
	}
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
	int aarch64 = !strcmp(x->machine, "AArch64");
	int narrow = aarch64 && (!strcmp(x->type, "R_AARCH64_ABS32") || !strcmp(x->type, "R_AARCH64_ABS16"));

	if (narrow && !strcmp(x->output, "an executable")) {
		/* relocate_section's words: a shared object's symbol (reloc.c gnu_exec_narrow) */
		lk_buf_addf(&b, "ld: \"unresolvable %s relocation against symbol `%s'\"", x->type, d->symbol);
	} else if (narrow) {
		/* elfNN_aarch64_check_relocs' own words, for a PIE too */
		lk_buf_addf(&b, "ld: \"relocation %s against `%s' can not be used when making a shared object\"", x->type,
			    x->target_is_section ? "a local symbol" : d->symbol);
	} else if (aarch64 && strstr(x->rule, "PC-relative")) {
		/* final_link_relocate's, for a PIE too (bfd_link_pic): arch/copy.c */
		lk_buf_addf(&b, "ld: \"relocation %s against ", x->type);
		target_text(d, &b);
		lk_buf_addstr(&b, " which may bind externally can not be used when making a shared object; recompile with -fPIC\"");
	} else {
		lk_buf_addf(&b, "ld: \"relocation %s against ", x->type);
		target_text(d, &b);
		lk_buf_addf(&b, " can not be used when making %s; recompile with %s\"", x->output, x->recompile);
	}
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
	if (x->stub) {
		lk_buf_addf(&b, "%s, out of its reach", x->stub);
		say(d, &b);
	}
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
