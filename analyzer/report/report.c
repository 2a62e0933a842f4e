/*
 * Diagnostics -> reports. The same facts three ways: text for a terminal
 * (`explain`), JSON with the fields CONTRACT.md fixes (`report --format
 * json`), Markdown for a pull-request comment or a GitHub step summary.
 * Every diagnostic comes from the replay; the linker's recorded exit status
 * is only compared with it (never with --replay-only), and its stderr is
 * never parsed.
 */
#include <string.h>

#include <jansson.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/json.h"
#include "certainty.h"
#include "color.h"
#include "demangle.h"
#include "explain.h"
#include "fix.h"
#include "where/where.h"
#include "md.h"
#include "report.h"
#include "srcline.h"

/* `s`: as it is on a terminal, escaped in Markdown (md.h). */
static void put_text(FILE *out, const char *s, int md)
{
	if (md)
		lk_md_text(out, s, 0);
	else
		fputs(s, out);
}

/* `s`: as it is on a terminal, a code span in Markdown. */
static void put_code(FILE *out, const char *s, int md)
{
	if (md)
		lk_md_code(out, s, 0);
	else
		fputs(s, out);
}

static long position_of(const struct lk_line *line, const struct lk_rinput *in)
{
	return in->item >= 0 ? line->items.items[in->item].position : -1;
}

/* The replay of the linker the line really uses. */
static int predicted(const struct lk_line *line, const struct lk_replay *rp)
{
	return rp->linkers[lk_linker_of_flavor(line->flavor)].success;
}

/* The linkers in the order a report says them: the line's own first, then the others. */
static void linker_order(const struct lk_line *line, enum lk_linker order[LK_LINKER_COUNT])
{
	enum lk_linker own = lk_linker_of_flavor(line->flavor);
	int n = 0;

	order[n++] = own;
	for (int l = 0; l < LK_LINKER_COUNT; l++)
		if ((enum lk_linker)l != own)
			order[n++] = (enum lk_linker)l;
}

/* "GNU ld", "lld", "rust-lld", "mold". */
static const char *human_name(const struct lk_replay *rp, enum lk_linker l)
{
	const char *v = rp->linkers[l].version;

	if (l == LK_LINKER_BFD)
		return "GNU ld";
	return v && !strncmp(v, "rust-lld", 8) ? "rust-lld" : lk_linker_name(l);
}

/*
 * The model lacks something the analysis did not run (a driver's -###, a
 * recompile): no verdict then, an honest "unknown" with the reasons
 * (line->unknown) rather than a guess; docs/security.md. Or a predicted
 * failure rests on inputs that are gone or changed (rp->unknown,
 * analyzer/replay/certainty.c).
 */
static int unknown(const struct lk_line *line, const struct lk_replay *rp)
{
	return line->unknown.nr > 0 || rp->unknown;
}

/* 1 agrees, 0 disagrees, -1 unknown (replay-only, or the linker never ran). */
static int agreement(const struct lk_record *rec, const struct lk_line *line,
		     const struct lk_replay *rp, const struct lk_report_options *opt)
{
	if (opt->replay_only || !rec->has_exit || unknown(line, rp))
		return -1;
	return (rec->exit_status == 0) == (predicted(line, rp) != 0);
}

/* A disagreement that the inputs rebuilt since the link explain, said under the verdict. */
static void inputs_changed_text(FILE *out, const struct lk_record *rec, const struct lk_line *line,
				const struct lk_replay *rp)
{
	int misread;
	char *why = lk_certainty_disagreement(rec, line, rp, &misread);

	if (why && !misread)
		fprintf(out, "  - %s\n", why);
	free(why);
}

/* "links with lld and mold, fails with GNU ld" (the line's own linker first), or NULL when all agree. */
static char *cross_verdict(const struct lk_line *line, const struct lk_replay *rp)
{
	enum lk_linker order[LK_LINKER_COUNT];
	struct lk_buf b = LK_BUF_INIT;
	int failing = 0;

	int known = 0;

	for (int l = 0; l < LK_LINKER_COUNT; l++) {
		known += !rp->linkers[l].unknown;
		failing += !rp->linkers[l].success && !rp->linkers[l].unknown;
	}
	if (!failing || failing == known)
		return NULL;
	linker_order(line, order);
	for (int pass = 1; pass >= 0; pass--) {
		int n = 0;

		for (int k = 0; k < LK_LINKER_COUNT; k++) {
			if (rp->linkers[order[k]].success != pass || rp->linkers[order[k]].unknown)
				continue;
			lk_buf_addf(&b, "%s%s", n++ ? " and " : pass ? "links with " : ", fails with ", human_name(rp, order[k]));
		}
	}
	return lk_buf_detach(&b);
}

/* Why each linker but the line's own that fails does, and what would make it link (not verified). */
static void other_linkers_text(FILE *out, const char *lead, const struct lk_line *line, const struct lk_replay *rp,
			       int md)
{
	enum lk_linker order[LK_LINKER_COUNT];

	linker_order(line, order);
	for (int k = 0; k < LK_LINKER_COUNT; k++) {
		const struct lk_linker_verdict *v = &rp->linkers[order[k]];

		if (v->unknown) {
			fprintf(out, "%s%s's verdict is unknown: ", lead, human_name(rp, order[k]));
			put_text(out, v->unknown, md);
			fputs("\n", out);
			continue;
		}
		for (size_t i = 0; i < v->why.nr; i++) {
			fputs(lead, out);
			put_text(out, v->why.items[i], md);
			fputs("\n", out);
		}
		for (size_t i = 0; i < v->hazards.nr; i++) {
			fputs(lead, out);
			put_text(out, v->hazards.items[i], md);
			fputs("\n", out);
		}
		for (size_t i = 0; i < v->fixes.nr; i++) {
			int verified = i < v->edits.nr ? v->edits.items[i].verified : -1;

			fprintf(out, "%sfix (%s%s%s) %s", lead, verified < 0 ? "not verified by replay" : verified ? "verified by " : "",
				verified < 0 ? "" : human_name(rp, order[k]),
				verified < 0 ? "" : verified ? "'s replay" : "'s replay of it still fails", "");
			put_text(out, v->fixes.items[i], md);
			fputs("\n", out);
		}
	}
}

static void site(FILE *out, const struct lk_line *line, const struct lk_rinput *in, int md)
{
	long pos = position_of(line, in);

	if (in->member) {
		fputs("member ", out);
		put_code(out, in->member, md);
		fputs(" of ", out);
	}
	put_code(out, in->path, md);
	if (pos >= 0)
		fprintf(out, " (argv position %ld)", pos);
}

/*
 * The references of an undefined-symbol diagnostic as GNU ld prints them
 * (ldmain.c undefined_symbol's "%H: undefined reference to `%T'"): the
 * DWARF file and line, else the object and the section's offset. Text:
 * indented; Markdown (`md`): a list of code spans.
 */
static void ref_lines_out(FILE *out, const struct lk_replay *rp, const struct lk_diag *d, int md)
{
	struct lk_buf b = LK_BUF_INIT;

	if (!d->ref_lines)
		return;
	for (size_t k = 0; k < d->ref_lines->nr; k++) {
		const struct lk_srcref *r = &d->ref_lines->items[k];
		const struct lk_rinput *in = &rp->inputs.items[r->input];
		char *human = lk_demangle(r->symbol);

		lk_buf_reset(&b);
		if (r->pos.file)
			lk_buf_addf(&b, "%s:%u: ", r->pos.file, r->pos.line);
		else if (in->member)
			lk_buf_addf(&b, "%s(%s):(%s+0x%llx): ", in->path, in->member, r->section,
				    (unsigned long long)r->offset);
		else
			lk_buf_addf(&b, "%s:(%s+0x%llx): ", in->path, r->section, (unsigned long long)r->offset);
		lk_buf_addf(&b, "undefined reference to `%s'", human ? human : r->symbol);
		free(human);
		if (md) {
			fputs("- ", out);
			lk_md_code(out, b.buf, 0);
			fputs("\n", out);
		} else {
			fprintf(out, "  %s\n", b.buf);
		}
	}
	if (d->ref_lines->cut)
		fprintf(out, "%s(more references follow)\n", md ? "- " : "  ");
	if (d->ref_lines->decl.file) {
		lk_buf_reset(&b);
		lk_buf_addf(&b, "%s:%u", d->ref_lines->decl.file, d->ref_lines->decl.line);
		fputs(md ? "- declared at " : "  declared at ", out);
		put_code(out, b.buf, md);
		fputs(" (in the source ", out);
		put_text(out, rp->inputs.items[d->ref_lines->decl_input].path, md);
		fputs(" was compiled from)\n", out);
	}
	lk_buf_release(&b);
}

static int same_pos(const struct lk_srcpos *a, const struct lk_srcpos *b)
{
	return a->file && b->file && a->line == b->line && !strcmp(a->file, b->file);
}

/* The near misses' source lines, each said once (copies of one object in the build tree name the same line). */
/* The comdat-discarded near miss of d (an input defines it only in a COMDAT group ld dropped), or NULL. */
static const struct lk_finding *comdat_dropped(const struct lk_diag *d)
{
	for (size_t i = 0; i < d->near_misses.nr; i++)
		if (!strcmp(d->near_misses.items[i].kind, "comdat-discarded") && d->near_misses.items[i].def_path)
			return &d->near_misses.items[i];
	return NULL;
}

static void near_miss_lines_out(FILE *out, const struct lk_diag *d, int md)
{
	const char *lead = md ? "- " : "  - ";

	for (size_t k = 0; k < d->near_misses.nr; k++) {
		const struct lk_finding *f = &d->near_misses.items[k];
		int def_said = 0, fix_said = 0;

		for (size_t j = 0; j < k; j++) {
			def_said |= same_pos(&d->near_misses.items[j].def_pos, &f->def_pos);
			fix_said |= same_pos(&d->near_misses.items[j].fix_pos, &f->fix_pos);
		}
		struct lk_buf b = LK_BUF_INIT;

		if (f->def_pos.file && !def_said) {
			char *human = lk_demangle(f->found);

			lk_buf_addf(&b, "%s:%u: the definition of %s (%s)", f->def_pos.file, f->def_pos.line,
				    human ? human : f->found, f->kind);
			fputs(lead, out);
			put_text(out, b.buf, md);
			fputs("\n", out);
			free(human);
		}
		if (f->fix_pos.file && !fix_said) {
			lk_buf_reset(&b);
			lk_buf_addf(&b, "%s:%u: the line to change: %s", f->fix_pos.file, f->fix_pos.line,
				    f->fix ? f->fix : f->kind);
			fputs(lead, out);
			put_text(out, b.buf, md);
			fputs("\n", out);
		}
		lk_buf_release(&b);
	}
}

#define SYMBOLS_SHOWN 5

/* The first few of `syms`, demangled, and how many more; `kinded`: items are "kind symbol". */
static void symbol_list(FILE *out, const struct lk_strvec *syms, int kinded, int md)
{
	for (size_t i = 0; i < syms->nr && i < SYMBOLS_SHOWN; i++) {
		const char *sym = syms->items[i], *space = kinded ? strchr(sym, ' ') : NULL;
		char *human;

		sym = space ? space + 1 : sym;
		human = lk_demangle(sym);
		fputs(i ? ", " : "", out);
		put_code(out, human ? human : sym, md);
		free(human);
	}
	if (syms->nr > SYMBOLS_SHOWN)
		fprintf(out, " and %zu more", syms->nr - SYMBOLS_SHOWN);
}

void lk_report_text(FILE *out, const struct lk_record *rec, const struct lk_line *line,
		    const struct lk_replay *rp,
		    const struct lk_fixes *fixes, const struct lk_report_options *opt)
{
	struct lk_replay empty;	/* an unknown outcome shows no diagnostic, only the notes */
	static const struct lk_fixes no_fixes;	/* ... and no fix */
	int agree = agreement(rec, line, rp, opt);
	char *cross = cross_verdict(line, rp);
	enum lk_linker own = lk_linker_of_flavor(line->flavor);
	struct lk_color c = { opt->color };

	if (unknown(line, rp)) {
		fprintf(out, "replay of %s: the outcome is unknown\n", rec->path);
		for (size_t i = 0; i < line->unknown.nr; i++)
			fprintf(out, "  - %s\n", line->unknown.items[i]);
		if (rp->unknown)
			fprintf(out, "  - %s\n", rp->unknown);
		memset(&empty, 0, sizeof(empty));
		empty.notes = rp->notes;
		rp = &empty;
		fixes = &no_fixes;
		free(cross);
		cross = NULL;
	} else {
		fprintf(out, "replay of %s: the link %s%s%s under %s's rules", rec->path,
			lk_color(&c, rp->linkers[own].success ? LK_C_GREEN : LK_C_RED),
			rp->linkers[own].success ? "succeeds" : "fails", lk_color(&c, LK_C_RESET), human_name(rp, own));
	}
	if (unknown(line, rp))
		;
	else if (agree >= 0)
		fprintf(out, "; the real linker (%s) %s (exit %d): the replay %s\n", line->flavor,
			rec->exit_status ? "failed" : "succeeded", rec->exit_status,
			agree ? "agrees" : "DISAGREES");
	else
		fprintf(out, "\n");
	if (agree == 0)
		inputs_changed_text(out, rec, line, rp);
	if (cross) {
		fprintf(out, "cross-linker verdict: %s\n", cross);
		other_linkers_text(out, "  ", line, rp, 0);
		if (own != LK_LINKER_BFD && rp->diags.nr)
			fprintf(out, "what GNU ld's replay finds (it %s under GNU ld's rules):\n", rp->success ? "succeeds" : "fails");
	} else if (!unknown(line, rp)) {
		/* Every linker alike: the own linker's reasons that no diagnostic below says (decide.c's). */
		for (size_t i = 0; !rp->diags.nr && i < rp->linkers[own].why.nr; i++)
			fprintf(out, "  %s\n", rp->linkers[own].why.items[i]);
	}
	free(cross);
	for (size_t i = 0; i < rp->diags.nr; i++) {
		const struct lk_diag *d = &rp->diags.items[i];
		const struct lk_fix_list *fl = lk_fixes_of(fixes, i);
		const struct lk_finding *dropped;
		char *human = lk_demangle(d->symbol);

		if (d->symbols.nr > 1) {
			fprintf(out, "\n%s%s%s: %zu symbols: ", lk_color(&c, LK_C_BOLD LK_C_RED), lk_diag_kind_name(d->kind),
				lk_color(&c, LK_C_RESET), d->symbols.nr);
			symbol_list(out, &d->symbols, 0, 0);
			fprintf(out, "\n");
		} else {
			fprintf(out, "\n%s%s%s: %s%s%s%s%s%s\n", lk_color(&c, LK_C_BOLD LK_C_RED),
				lk_diag_kind_name(d->kind), lk_color(&c, LK_C_RESET), d->symbol,
				d->version ? "@@" : "", d->version ? d->version : "",
				human ? " (" : "", human ? human : "", human ? ")" : "");
		}
		free(human);
		if (d->ref_input >= 0) {
			fprintf(out, "  %s ", d->kind == LK_DIAG_MULTIPLE ? "defined again in" : "referenced by");
			site(out, line, &rp->inputs.items[d->ref_input], 0);
			fprintf(out, "\n");
		}
		ref_lines_out(out, rp, d, 0);
		if (d->def_input >= 0 && d->kind == LK_DIAG_MULTIPLE) {
			fprintf(out, "  first defined in ");
			site(out, line, &rp->inputs.items[d->def_input], 0);
			fprintf(out, "\n");
		} else if (d->def_input >= 0) {
			fprintf(out, "  defined in %s", rp->inputs.items[d->def_input].path);
			for (size_t k = 0; k < d->via.nr; k++)
				fprintf(out, "%s%s", k ? " -> " : ", reached through ", d->via.items[k]);
			fprintf(out, "\n");
		} else if (d->provider) {
			fprintf(out, "  defined in %s%s%s%s, which is not on the line\n", d->provider,
				d->provider_package ? " (" : "", d->provider_package ? d->provider_package : "",
				d->provider_package ? ")" : "");
		} else if (d->defined_path) {
			fprintf(out, "  defined in %s, on the line but read before the reference\n", d->defined_path);
		} else if ((dropped = comdat_dropped(d))) {
			fprintf(out, "  defined in %s%s%s%s, only in a COMDAT group ld discarded\n", dropped->def_path,
				dropped->def_member ? "(" : "", dropped->def_member ? dropped->def_member : "",
				dropped->def_member ? ")" : "");
		} else if (d->kind == LK_DIAG_UNDEFINED && d->looked_in.nr) {
			fprintf(out, "  defined in nothing found (%zu dirs searched)\n", d->looked_in.nr);
		}
		for (size_t k = 0; k < d->explanation.nr; k++)
			fprintf(out, "  - %s\n", d->explanation.items[k]);
		near_miss_lines_out(out, d, 0);
		for (size_t k = 0; k < fl->nr; k++) {
			const struct lk_fix *f = &fl->items[k];

			if (f->partial) {
				fprintf(out, "  partial fix (verified by replay for these symbols; %zu other diagnostic%s remain: ",
					f->remaining.nr, f->remaining.nr == 1 ? "" : "s");
				symbol_list(out, &f->remaining, 1, 0);
				fprintf(out, "): %s\n", f->description);
			} else {
				fprintf(out, "  %s %s: %s\n", f->workaround ? "workaround" : "fix", f->verified ? "(verified by replay)" :
					f->stated ? "(stated, not tried by the replay)" : "(does not fix it)",
					f->description);
			}
			if (f->where)
				fprintf(out, "      where: %s\n", f->where->sentence);
			if (f->linker_checked)
				fprintf(out, "      the real linker with this edit: %s%s%s\n",
					f->linker_ok ? "links" : "fails", f->linker_said ? ": " : "",
					f->linker_said ? f->linker_said : "");
			else if (f->linker_said)
				fprintf(out, "      not checked by the real linker: %s\n", f->linker_said);
		}
	}
	if (fixes->whole)
		fprintf(out, "\nfix for the whole link (verified by replay): %s\n", fixes->whole->description);
	if (fixes->whole && fixes->whole->where)
		fprintf(out, "      where: %s\n", fixes->whole->where->sentence);
	for (size_t i = 0; i < line->warnings.nr; i++)
		fprintf(out, "%sline: %s\n", i ? "" : "\n", line->warnings.items[i]);
	for (size_t i = 0, said = 0; i < rp->notes.nr; i++)
		if (!lk_replay_gc_noise(&rp->notes, i))
			fprintf(out, "%snote: %s\n", said++ ? "" : "\n", rp->notes.items[i]);
}

static json_t *strvec(const struct lk_strvec *v)
{
	json_t *a = json_array();

	for (size_t i = 0; i < v->nr; i++)
		json_array_append_new(a, lk_json_str(v->items[i]));
	return a;
}

static json_t *unknown_because(const struct lk_line *line, const struct lk_replay *rp)
{
	json_t *a = strvec(&line->unknown);

	if (rp->unknown)
		json_array_append_new(a, lk_json_str(rp->unknown));
	return a;
}

/* A fix's edit (edit.h): its kind and what it names; `needs` says what an edit outside the line rests on. */
static json_t *edit_json(const struct lk_edit *e)
{
	json_t *o = json_pack("{s:s, s:I, s:o}", "kind", lk_edit_kind_name(e->kind), "position", (json_int_t)e->position,
			      "words", strvec(&e->words));

	if (e->kind == LK_EDIT_KIND_GROUP)
		json_object_set_new(o, "to", json_integer((json_int_t)e->to));
	if (e->driver)
		json_object_set_new(o, "driver", json_string(e->driver));
	if (e->input)
		json_object_set_new(o, "input", lk_json_str(e->input));
	json_object_set_new(o, "needs", lk_json_str(e->needs));
	return o;
}

/* Where the user makes the fix (where/where.h): present only when the build files say it. */
static json_t *where_json(const struct lk_fix_where *w)
{
	json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:s}", "system", w->system, "file", lk_json_str(w->file),
			      "line", w->line > 0 ? json_integer((json_int_t)w->line) : json_null(),
			      w->name_key, lk_json_str(w->name), "text", w->text);

	if (w->replaces)
		json_object_set_new(o, "replaces", json_string(w->replaces));
	if (w->moves_from)
		json_object_set_new(o, "moves_from", json_string(w->moves_from));
	json_object_set_new(o, "sentence", lk_json_str(w->sentence));
	return o;
}

static json_t *fix_json(const struct lk_fix *f)
{
	json_t *o = json_pack("{s:o, s:o, s:I, s:b, s:b, s:b, s:b, s:o, s:o, s:o, s:o, s:o}", "description", lk_json_str(f->description),
			      "args", strvec(&f->args), "position", (json_int_t)f->position,
			      "replaces", f->replaces, "stated", f->stated,
			      "verified", f->verified, "partial", f->partial, "remaining", strvec(&f->remaining),
			      "driver", lk_json_str(f->driver), "build_script", strvec(&f->build_script),
			      "linker_verified", f->linker_checked ? json_boolean(f->linker_ok) : json_null(),
			      "linker_said", lk_json_str(f->linker_said));

	json_object_set_new(o, "edit", edit_json(&f->edit));
	json_object_set_new(o, "argv", lk_edit_on_line(&f->edit) ? strvec(&f->argv) : json_null());
	json_object_set_new(o, "workaround", json_boolean(f->workaround));
	json_object_set_new(o, "where", f->where ? where_json(f->where) : json_null());
	return o;
}

/* relocation-not-allowed, relocation-overflow, tls-mismatch: what the relocation room names. */
static json_t *reloc_json(const struct lk_diag_reloc *x)
{
	json_t *o = json_pack("{s:o, s:o, s:s, s:o, s:o}", "machine", lk_json_str(x->machine),
			      "type", lk_json_str(x->type), "target_kind", x->target_is_section ? "section" : "symbol",
			      "section", lk_json_str(x->section), "producer", lk_json_str(x->producer));

	if (x->type)
		json_object_set_new(o, "offset", json_integer((json_int_t)x->offset));
	if (x->output)
		json_object_set_new(o, "output", json_string(x->output));
	if (x->recompile)
		json_object_set_new(o, "recompile_with", json_string(x->recompile));
	if (x->reach) {
		json_object_set_new(o, "distance", json_integer((json_int_t)x->distance));
		json_object_set_new(o, "reach", json_integer((json_int_t)x->reach));
		json_object_set_new(o, "between", strvec(&x->between));
		if (x->stub)
			json_object_set_new(o, "stub", json_string(x->stub));
	}
	if (x->first_type)
		json_object_set_new(o, "tls", json_pack("{s:s, s:s, s:s, s:s, s:o}", "first_type", x->first_type,
							"first_is", x->first_what, "second_type", x->second_type,
							"second_is", x->second_what, "first_section", lk_json_str(x->first_section)));
	return o;
}

static json_t *finding_json(const struct lk_finding *f)
{
	json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o}", "kind", f->kind, "found", lk_json_str(f->found),
			      "in", lk_json_str(f->in), "detail", lk_json_str(f->detail), "fix", lk_json_str(f->fix));

	/* A near miss's definition's source line, for the multiple-definition cause too: null without DWARF. */
	json_object_set_new(o, "file", lk_json_str(f->def_pos.file));
	json_object_set_new(o, "line", f->def_pos.file ? json_integer(f->def_pos.line) : json_null());
	json_object_set_new(o, "fix_at", f->fix_pos.file ? json_pack("{s:o, s:i}", "file", lk_json_str(f->fix_pos.file),
								    "line", (int)f->fix_pos.line) : json_null());
	return o;
}

/* undefined-symbol: `references`, each relocation against the symbols, with its DWARF line. */
static json_t *ref_lines_json(const struct lk_replay *rp, const struct lk_diag *d)
{
	json_t *a = json_array();

	for (size_t k = 0; d->ref_lines && k < d->ref_lines->nr; k++) {
		const struct lk_srcref *r = &d->ref_lines->items[k];
		const struct lk_rinput *in = &rp->inputs.items[r->input];

		json_array_append_new(a, json_pack("{s:o, s:o, s:o, s:o, s:I, s:o, s:o}", "symbol", lk_json_str(r->symbol),
						   "path", lk_json_str(in->path), "member", lk_json_str(in->member),
						   "section", lk_json_str(r->section), "offset", (json_int_t)r->offset,
						   "file", lk_json_str(r->pos.file),
						   "line", r->pos.file ? json_integer(r->pos.line) : json_null()));
	}
	return a;
}

static json_t *diag_json(const struct lk_line *line, const struct lk_replay *rp,
			 const struct lk_diag *d, const struct lk_fix_list *fl)
{
	json_t *fixes = json_array(), *ref = json_null(), *def = json_null();

	if (d->ref_input >= 0) {
		const struct lk_rinput *in = &rp->inputs.items[d->ref_input];
		long pos = position_of(line, in);

		ref = json_pack("{s:o, s:o, s:o}", "path", lk_json_str(in->path), "member", lk_json_str(in->member),
				"position", pos >= 0 ? json_integer(pos) : json_null());
	}
	if (d->def_input >= 0)
		def = json_pack("{s:o, s:o, s:b}", "path", lk_json_str(rp->inputs.items[d->def_input].path),
				"via", strvec(&d->via), "on_line", 1);
	else if (d->defined_path || d->provider)
		def = json_pack("{s:o, s:[], s:b}", "path", lk_json_str(d->defined_path ? d->defined_path : d->provider),
				"via", "on_line", d->defined_path != NULL);
	for (size_t k = 0; k < fl->nr; k++)
		json_array_append_new(fixes, fix_json(&fl->items[k]));
	char *human = lk_demangle(d->symbol);
	json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "kind", lk_diag_kind_name(d->kind),
			      "symbol", lk_json_str(d->symbol), "demangled", lk_json_str(human), "version", lk_json_str(d->version),
			      "referenced_by", ref, "defined_in", def, "fixes", fixes,
			      "explanation", strvec(&d->explanation));

	free(human);
	if (d->reloc)
		json_object_set_new(o, "relocation", reloc_json(d->reloc));
	if (d->kind == LK_DIAG_UNDEFINED) {
		json_t *syms = json_array();

		if (d->symbols.nr)
			for (size_t k = 0; k < d->symbols.nr; k++)
				json_array_append_new(syms, lk_json_str(d->symbols.items[k]));
		else
			json_array_append_new(syms, lk_json_str(d->symbol));
		json_object_set_new(o, "symbols", syms);
		json_object_set_new(o, "count", json_integer((json_int_t)json_array_size(syms)));
		json_object_set_new(o, "provider", d->provider ?
				    json_pack("{s:o, s:o, s:o}", "path", lk_json_str(d->provider), "package", lk_json_str(d->provider_package),
					      "alternatives", strvec(&d->alternatives)) : json_null());
		json_object_set_new(o, "looked_in", strvec(&d->looked_in));
		json_t *near = json_array();

		for (size_t k = 0; k < d->near_misses.nr; k++)
			json_array_append_new(near, finding_json(&d->near_misses.items[k]));
		json_object_set_new(o, "near_misses", near);
		json_object_set_new(o, "references", ref_lines_json(rp, d));
		json_object_set_new(o, "more_references", json_boolean(d->ref_lines && d->ref_lines->cut));
		json_object_set_new(o, "declared_at", d->ref_lines && d->ref_lines->decl.file ?
				    json_pack("{s:o, s:i, s:o}", "file", lk_json_str(d->ref_lines->decl.file),
					      "line", (int)d->ref_lines->decl.line, "path",
					      lk_json_str(rp->inputs.items[d->ref_lines->decl_input].path)) : json_null());
	}
	if (d->item >= 0 && (size_t)d->item < line->items.nr) {
		/* The input ld stops at: cannot find, or cannot use. */
		const struct lk_line_item *it = &line->items.items[d->item];

		json_object_set_new(o, "input", json_pack("{s:o, s:o, s:o, s:o}", "word", lk_json_str(it->word),
							  "path", lk_json_str(it->path), "member", lk_json_str(d->member),
							  "position", it->position >= 0 ? json_integer(it->position) : json_null()));
		json_object_set_new(o, "problem", lk_json_str(d->problem));
	}
	if (d->kind == LK_DIAG_NOT_FOUND || d->kind == LK_DIAG_INCOMPATIBLE) {
		json_object_set_new(o, "not_found_cause", lk_json_str(d->not_found_cause));
		json_object_set_new(o, "not_found_file", lk_json_str(d->not_found_file));
		json_object_set_new(o, "skipped", d->item >= 0 && (size_t)d->item < line->items.nr ?
				    strvec(&line->items.items[d->item].skipped) : json_array());
	}
	if (d->kind == LK_DIAG_MULTIPLE)
		json_object_set_new(o, "cause", d->cause ? finding_json(d->cause) : json_null());
	return o;
}

/* Each fix of `v` verified by its linker's replay of the edited line (true), still failing (false), not tried (null). */
static json_t *fixes_verified(const struct lk_linker_verdict *v, int unsaid)
{
	json_t *a = json_array();

	for (size_t i = 0; !unsaid && i < v->fixes.nr; i++) {
		int verified = i < v->edits.nr ? v->edits.items[i].verified : -1;

		json_array_append_new(a, verified < 0 ? json_null() : json_boolean(verified));
	}
	return a;
}

/*
 * predicted.mold, predicted.linkers (one verdict per linker, the line's
 * own first) and predicted.linker_verdicts (each one's version modelled,
 * why it fails, what would make it link).
 */
static void linkers_json(json_t *predicted, const struct lk_line *line, const struct lk_replay *rp, int unknown_outcome)
{
	static const struct lk_strvec none = LK_STRVEC_INIT;
	json_t *linkers = json_object(), *verdicts = json_object();
	enum lk_linker order[LK_LINKER_COUNT];

	linker_order(line, order);
	for (int k = 0; k < LK_LINKER_COUNT; k++) {
		const struct lk_linker_verdict *v = &rp->linkers[order[k]];
		int unsaid = unknown_outcome || v->unknown;
		const char *word = unsaid ? "unknown" : v->success ? "success" : "failure";

		json_object_set_new(linkers, lk_linker_name(order[k]), json_string(word));
		json_object_set_new(verdicts, lk_linker_name(order[k]),
				    json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o}", "outcome", word, "version", lk_json_str(v->version),
					      "why", strvec(unsaid ? &none : &v->why),
					      "hazards", strvec(unsaid ? &none : &v->hazards),
					      "fixes", strvec(unsaid ? &none : &v->fixes),
					      "fixes_verified", fixes_verified(v, unsaid),
					      "unknown_because", lk_json_str(unknown_outcome ? NULL : v->unknown)));
	}
	json_object_set_new(predicted, "mold", json_string(unknown_outcome || rp->linkers[LK_LINKER_MOLD].unknown ? "unknown" :
							   rp->linkers[LK_LINKER_MOLD].success ? "success" : "failure"));
	json_object_set_new(predicted, "linkers", linkers);
	json_object_set_new(predicted, "linker_verdicts", verdicts);
}

int lk_report_json(FILE *out, const struct lk_record *rec, const struct lk_line *line,
		   const struct lk_replay *rp,
		    const struct lk_fixes *fixes, const struct lk_report_options *opt)
{
	json_t *diags = json_array(), *root;
	int agree = agreement(rec, line, rp, opt), rc;
	char *cross = cross_verdict(line, rp);

	for (size_t i = 0; !unknown(line, rp) && i < rp->diags.nr; i++)
		json_array_append_new(diags, diag_json(line, rp, &rp->diags.items[i], lk_fixes_of(fixes, i)));
	root = json_pack("{s:s, s:o, s:{s:s, s:s, s:s, s:o, s:o}, s:{s:o, s:o, s:o}, s:o, s:o, s:o}",
			 "schema", "linkscope-report/2", "record", lk_json_str(rec->path),
			 "predicted", "outcome", unknown(line, rp) ? "unknown" : rp->success ? "success" : "failure",
			 "gnu_ld", unknown(line, rp) ? "unknown" : rp->success ? "success" : "failure",
			 "lld", unknown(line, rp) || rp->linkers[LK_LINKER_LLD].unknown ? "unknown" : rp->lld_success ? "success" : "failure",
			 "cross_linker_verdict", unknown(line, rp) ? json_null() : lk_json_str(cross),
			 "unknown_because", unknown_because(line, rp),
			 "linker", "flavor", lk_json_str(line->flavor),
			 "exit_status", opt->replay_only || !rec->has_exit ? json_null() : json_integer(rec->exit_status),
			 "agrees_with_replay", agree < 0 ? json_null() : json_boolean(agree),
			 "diagnostics", diags, "line_warnings", strvec(&line->warnings),
			 "notes", strvec(&rp->notes));
	linkers_json(json_object_get(root, "predicted"), line, rp, unknown(line, rp));
	free(cross);
	json_object_set_new(root, "whole_fix", fixes->whole ? fix_json(fixes->whole) : json_null());
	rc = json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return rc;
}

/* One item of a Markdown list: `s` escaped (md.h). */
static void md_item(FILE *out, const char *s)
{
	fputs("- ", out);
	lk_md_text(out, s, 0);
	fputs("\n", out);
}

/* A fix's table row; everything in it from the record or a symbol escaped. */
static void md_fix_row(FILE *out, const struct lk_fix *f)
{
	fputs("| ", out);
	if (f->workaround)
		fputs("workaround: ", out);
	lk_md_text(out, f->description, LK_MD_CELL);
	if (f->where) {
		fputs("; where: ", out);
		lk_md_text(out, f->where->sentence, LK_MD_CELL);
	}
	fprintf(out, " | %s | %s |\n",
		f->verified ? "yes" : f->partial ? "its symbols: yes; other diagnostics remain" :
		f->stated ? "stated, not tried" : "no",
		!f->linker_checked ? "not run" : f->linker_ok ? "links" : "fails");
}

/* Markdown that GitHub renders as written: every string from the record or a symbol in a code span or escaped. */
void lk_report_md(FILE *out, const struct lk_record *rec, const struct lk_line *line,
		  const struct lk_replay *rp,
		    const struct lk_fixes *fixes, const struct lk_report_options *opt)
{
	struct lk_replay empty;	/* an unknown outcome shows no diagnostic, only the notes */
	static const struct lk_fixes no_fixes;	/* ... and no fix */
	int agree = agreement(rec, line, rp, opt);
	char *cross = cross_verdict(line, rp);
	enum lk_linker own = lk_linker_of_flavor(line->flavor);

	fputs("## linkscope: the link of ", out);
	lk_md_code(out, rec->output ? rec->output : "a.out", 0);
	if (unknown(line, rp))
		fprintf(out, " has an unknown outcome\n\n");
	else
		fprintf(out, " %s under %s's rules\n\n", rp->linkers[own].success ? "succeeds" : "fails", human_name(rp, own));
	if (unknown(line, rp)) {
		for (size_t i = 0; i < line->unknown.nr; i++)
			md_item(out, line->unknown.items[i]);
		if (rp->unknown)
			md_item(out, rp->unknown);
		fprintf(out, "\n");
		memset(&empty, 0, sizeof(empty));
		empty.notes = rp->notes;
		rp = &empty;
		fixes = &no_fixes;
		free(cross);
		cross = NULL;
	}
	if (agree >= 0) {
		fputs("The real linker (", out);
		lk_md_text(out, line->flavor, 0);
		fprintf(out, ") %s (exit %d); the replay %s.\n\n", rec->exit_status ? "failed" : "succeeded",
			rec->exit_status, agree ? "agrees" : "**disagrees**");
	}
	if (cross) {
		fprintf(out, "**Cross-linker verdict:** %s.\n\n", cross);
		other_linkers_text(out, "- ", line, rp, 1);
		fprintf(out, "\n");
	}
	free(cross);
	for (size_t i = 0; i < rp->diags.nr; i++) {
		const struct lk_diag *d = &rp->diags.items[i];
		const struct lk_fix_list *fl = lk_fixes_of(fixes, i);
		char *human = lk_demangle(d->symbol);

		fprintf(out, "### `%s`: ", lk_diag_kind_name(d->kind));
		if (d->symbols.nr > 1) {
			fprintf(out, "%zu symbols: ", d->symbols.nr);
			symbol_list(out, &d->symbols, 0, 1);
		} else {
			struct lk_buf sym = LK_BUF_INIT;

			lk_buf_addf(&sym, "%s%s%s", d->symbol, d->version ? "@@" : "", d->version ? d->version : "");
			lk_md_code(out, sym.buf, 0);
			lk_buf_release(&sym);
			if (human) {
				fputs(" (", out);
				lk_md_code(out, human, 0);
				fputs(")", out);
			}
		}
		fprintf(out, "\n\n");
		free(human);
		if (d->ref_input >= 0) {
			fprintf(out, "- **referenced by** ");
			site(out, line, &rp->inputs.items[d->ref_input], 1);
			fprintf(out, "\n");
		}
		ref_lines_out(out, rp, d, 1);
		if (d->def_input >= 0) {
			fprintf(out, "- **defined in** ");
			lk_md_code(out, rp->inputs.items[d->def_input].path, 0);
			for (size_t k = 0; k < d->via.nr; k++) {
				fputs(k ? " -> " : ", through ", out);
				lk_md_code(out, d->via.items[k], 0);
			}
			fprintf(out, "\n");
		} else if (d->provider) {
			fprintf(out, "- **defined in** ");
			lk_md_code(out, d->provider, 0);
			if (d->provider_package) {
				fputs(" (", out);
				lk_md_text(out, d->provider_package, 0);
				fputs(")", out);
			}
			fprintf(out, ", not on the line\n");
		} else if (d->defined_path) {
			fprintf(out, "- **defined in** ");
			lk_md_code(out, d->defined_path, 0);
			fprintf(out, ", on the line but read before the reference\n");
		}
		for (size_t k = 0; k < d->explanation.nr; k++)
			md_item(out, d->explanation.items[k]);
		near_miss_lines_out(out, d, 1);
		if (fl->nr)
			fprintf(out, "\n| fix | verified by replay | real linker |\n|---|---|---|\n");
		for (size_t k = 0; k < fl->nr; k++)
			md_fix_row(out, &fl->items[k]);
		fprintf(out, "\n");
	}
	if (fixes->whole) {
		fputs("**Fix for the whole link** (verified by replay): ", out);
		lk_md_text(out, fixes->whole->description, 0);
		if (fixes->whole->where) {
			fputs("; where: ", out);
			lk_md_text(out, fixes->whole->where->sentence, 0);
		}
		fputs("\n\n", out);
	}
	if (line->warnings.nr) {
		fprintf(out, "<details><summary>line warnings (%zu)</summary>\n\n", line->warnings.nr);
		for (size_t i = 0; i < line->warnings.nr; i++)
			md_item(out, line->warnings.items[i]);
		fprintf(out, "\n</details>\n");
	}
}

void lk_report_md_cell(FILE *out, const char *s)
{
	lk_md_text(out, s, LK_MD_CELL);
}
