/*
 * Inputs -> symbols -> resolution -> diagnostics: GNU ld's symbol
 * resolution replayed left to right. This file is one replay from start
 * to end (ld/ldmain.c's main: lang_process, then ldwrite's checks) and
 * what it gives; the parts are read.c (the reading order), archive.c,
 * dso.c (shared objects and DT_NEEDED), checks.c (the end of the line),
 * gc_host.c (--gc-sections), version_script.c, and lld.c and mold.c (the
 * other linkers' verdicts, from one more replay under their rules), sharing the
 * working state of rp.h. The symbol table is symtab.c; the sentences
 * explaining each diagnostic are explain/explain.c's, the fixes
 * explain/fix.c's.
 *
 * Models bfd (bfd/elflink.c, ld/ldlang.c, ld/ldelf.c):
 * - a regular object adds its definitions and undefined references;
 * - an archive is scanned once where it stands: a member is pulled when
 *   its armap names a symbol that is undefined and strongly referenced
 *   (by a regular object or a shared object), repeatedly until nothing new
 *   is pulled; --whole-archive pulls every member; a --start-group is
 *   rescanned as a whole until a pass pulls nothing;
 * - a shared object's default-version and unversioned definitions bind
 *   references; "sym@VER" (hidden) ones do not bind unversioned ones;
 *   under --as-needed it is kept only if it defines a symbol that is
 *   undefined and strongly referenced at that point by a regular object,
 *   or by a shared object already in the link when none of those names it
 *   in DT_NEEDED; else its symbols are undone;
 * - after the line, libraries named only by DT_NEEDED are loaded; a
 *   strong reference from a regular object that one of them would satisfy
 *   is ld's "undefined reference to symbol ... DSO missing from command
 *   line", unless --copy-dt-needed-entries was in force for the shared
 *   object that needed it;
 * - a common symbol pulls an archive member that defines it as global
 *   data (not a function, not another common);
 * - a "sym@VER" reference binds only a shared object's sym of version VER;
 * - under --gc-sections, sections are collected as bfd does (gc.c) and
 *   only references from sections that stay count; "DSO missing" is
 *   reported while loading, before collection, so it counts anyway;
 * - at the end, a symbol left undefined (not only weakly) fails the link
 *   when a relocation references it and unresolved references in objects
 *   are reported, and a shared object's strong reference fails it when
 *   those in shared libraries are (policy.c: output kind, -z defs,
 *   --unresolved-symbols, --[no-]allow-shlib-undefined, in ld's order).
 * Not modelled (notes say so when met): LTO, -r,
 * version scripts' local: under --gc-sections.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "certainty.h"
#include "gc.h"
#include "overlay.h"
#include "reloc.h"
#include "ahead.h"
#include "rp.h"
#include "trial.h"

const char *lk_diag_kind_name(enum lk_diag_kind kind)
{
	switch (kind) {
	case LK_DIAG_DSO_MISSING: return "dso-missing";
	case LK_DIAG_UNDEFINED: return "undefined-symbol";
	case LK_DIAG_MULTIPLE: return "multiple-definition";
	case LK_DIAG_NOT_FOUND: return "input-not-found";
	case LK_DIAG_RELOC_NOT_ALLOWED: return "relocation-not-allowed";
	case LK_DIAG_RELOC_OVERFLOW: return "relocation-overflow";
	case LK_DIAG_TLS_MISMATCH: return "tls-mismatch";
	case LK_DIAG_RELOC_UNSUPPORTED: return "relocation-unsupported";
	case LK_DIAG_INCOMPATIBLE: return "incompatible-skipped";
	case LK_DIAG_WRONG_MACHINE: return "wrong-machine";
	case LK_DIAG_BITCODE: return "bitcode-without-plugin";
	case LK_DIAG_SCRIPT_SYNTAX: return "script-syntax-error";
	case LK_DIAG_TRUNCATED: return "truncated-input";
	case LK_DIAG_UNRECOGNIZED: return "unrecognized-input";
	case LK_DIAG_NO_INDEX: return "archive-without-index";
	case LK_DIAG_HIDDEN_DSO_REF: return "hidden-symbol";
	case LK_DIAG_VERSION_TAG: return "duplicate-version-tag";
	}
	LK_BUG("unknown diagnostic kind");
}

long rp_add_input(struct rp *r, long item, const char *path, const char *member, int dso)
{
	struct lk_rinput *in;

	LK_GROW(r->out->inputs.items, r->out->inputs.nr + 1, r->out->inputs.alloc);
	in = &r->out->inputs.items[r->out->inputs.nr];
	memset(in, 0, sizeof(*in));
	in->item = item;
	in->path = lk_xstrdup(path);
	in->member = member ? lk_xstrdup(member) : NULL;
	in->dso = dso;
	in->needed_by = -1;
	in->rescanned = r->rescanning && member;
	return (long)r->out->inputs.nr++;
}

/* A note for the report, once. */
void rp_note(struct rp *r, const char *fmt, ...)
{
	struct lk_buf n = LK_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	lk_buf_vaddf(&n, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < r->out->notes.nr; i++) {
		if (!strcmp(r->out->notes.items[i], n.buf)) {
			lk_buf_release(&n);
			return;
		}
	}
	lk_strvec_push_owned(&r->out->notes, lk_buf_detach(&n));
}

/* A diagnostic about `s`, its references copied from the table. */
struct lk_diag *rp_new_diag(struct rp *r, enum lk_diag_kind kind, const struct lk_sym *s)
{
	struct lk_diag *d;

	LK_GROW(r->out->diags.items, r->out->diags.nr + 1, r->out->diags.alloc);
	d = &r->out->diags.items[r->out->diags.nr++];
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->symbol = lk_xstrdup(s->name);
	d->ref_input = s->first_ref >= 0 ? s->first_ref : s->first_dyn_ref;
	d->def_input = -1;
	d->item = -1;
	for (const struct lk_symref *ref = s->refs; ref; ref = ref->next) {
		LK_GROW(d->refs.items, d->refs.nr + 1, d->refs.alloc);
		d->refs.items[d->refs.nr++] = ref->input;
	}
	return d;
}


/* ---- one replay ---- */

static int allows_multiple(const struct lk_line *line)
{
	for (size_t i = 0; i < line->items.nr; i++)
		if (line->items.items[i].ld_option == LK_LD_MULDEFS)
			return 1;
	return 0;
}

/*
 * The names the line's archives index, which the table holds once their
 * scans begin: sized for them at once, the table is not grown and
 * rehashed eight times on the way (the LLVM line: 150,000 entries).
 */
static size_t armap_entries(const struct lk_line *line)
{
	size_t n = 0;

	for (size_t i = 0; i < line->items.nr; i++)
		if (line->items.items[i].info.kind == LK_FILE_ARCHIVE)
			n += line->items.items[i].info.armap_entries;
	return n;
}

static void rp_release(struct rp *r)
{
	for (size_t i = 0; i < r->queue.nr; i++)
		free(r->queue.items[i].name);
	free(r->queue.items);
	rp_ahead_stop();	/* before the archives its jobs read close */
	for (size_t i = 0; i < r->archives.nr; i++) {
		if (r->archives.items[i].ok)
			lk_elf_archive_close(&r->archives.items[i].ar);
		free(r->archives.items[i].pulled);
		free(r->archives.items[i].armap_syms);
		free(r->archives.items[i].common_checked);
	}
	lk_gc_free(r->gc);
	rp_relocs_free(r);
	free(r->live_undefined.items);
	free(r->lazy_refs.items);
	free(r->lld_types.items);
	lk_strvec_release(&r->lazy_dropped_refs);
	lk_strvec_release(&r->lazy_dropped_roots);
	rp_memory_release(r);
	lk_strvec_release(&r->warn_syms);
	lk_strvec_release(&r->warn_where);
	lk_strvec_release(&r->start_stop);
	lk_symtab_free(r->comdats);
	lk_policy_release(&r->policy);
	free(r->archives.items);
	free(r->archive_slot.items);
	lk_strvec_release(&r->kept_sonames);
	free(r->asleep.items);
	free(r->dormant.items);
}

/* The first shared object of the line that --as-needed dropped and that defines `symbol`, or NULL. */
static const char *dropped_defining(const struct lk_replay *out, const char *symbol)
{
	for (size_t i = 0; i < out->inputs.nr; i++) {
		const struct lk_rinput *in = &out->inputs.items[i];

		if (!in->dropped || in->needed_only)
			continue;
		for (size_t k = 0; k < in->dropped_defs.nr; k++)
			if (!strcmp(in->dropped_defs.items[k].name, symbol) && !in->dropped_defs.items[k].version)
				return in->path;
	}
	return NULL;
}

/* The top-level item that line item `i` is read as part of (a linker script's inputs are read where it stands). */
static long top_level(const struct lk_line *line, long i)
{
	while (line->items.items[i].parent >= 0)
		i = line->items.items[i].parent;
	return i;
}

/*
 * An undefined symbol that an archive read before its reference defines,
 * or a shared object --as-needed dropped there because nothing read before
 * it needed it (LDFLAGS = -lz before the objects): that input, for the
 * explanation and the fix (ld does not go back).
 */
static void archives_defining(struct lk_replay *out, const struct lk_line *line)
{
	for (size_t i = 0; i < out->diags.nr; i++) {
		struct lk_diag *d = &out->diags.items[i];
		const struct lk_sym *s = d->kind == LK_DIAG_UNDEFINED ? lk_symtab_lookup(out->symtab, d->symbol) : NULL;
		const char *dso;

		/*
		 * Read before the reference (by the top-level items they stand
		 * for: a script's inputs are read where the script is): an archive
		 * after it whose member did not define it is no ordering.
		 */
		if (s && s->armap_item >= 0 &&
		    (d->ref_input < 0 || out->inputs.items[d->ref_input].item < 0 ||
		     top_level(line, s->armap_item) <= top_level(line, out->inputs.items[d->ref_input].item)))
			d->defined_path = lk_xstrdup(line->items.items[s->armap_item].path);
		else if (s && s->dropped_def && (dso = dropped_defining(out, d->symbol)))
			d->defined_path = lk_xstrdup(dso);
	}
}

/*
 * One replay of `line` (its items from `first_extra` on appended by an
 * edit) into `out`; the table goes to `out`. With `answer`, GNU ld's
 * replay also says whether it answers for the lld-rules one (lazy_answer.c);
 * with `part`, the lld-rules one forks mold's where their rules part
 * (mold_part.c), and returns in that child too (part->child set); with
 * `lld_part`, GNU ld's forks the lld-rules one so (lld_part.c), which
 * returns in that child (lld_part->beside.child set) and in mold's.
 */
static int replay_once(const struct lk_record *rec, const struct lk_line *line, size_t first_extra,
		       unsigned mode, const struct lk_replay_edit *edit, struct lk_replay *out,
		       struct rp_lazy_answer *answer, struct rp_beside *part, struct rp_lld_part *lld_part)
{
	struct rp r;
	int commons;

	memset(&r, 0, sizeof(r));
	r.answer = answer;
	r.part = part;
	r.lld_part = lld_part;
	if (answer)
		*answer = (struct rp_lazy_answer){ 1, 0, 0 };
	r.rec = rec;
	r.line = line;
	r.out = out;
	r.tab = lk_symtab_new();
	lk_symtab_reserve(r.tab, armap_entries(line));
	r.edit = edit;
	r.first_extra = first_extra;
	r.mode = mode;
	if (edit->unref) {
		for (size_t i = 0; i < edit->unref->nr; i++)
			lk_symtab_intern(r.tab, edit->unref->items[i])->unref = 1;
		r.rules |= LK_RULE_UNREF;
	}
	lk_policy_read(line, &r.policy);
	if (mode & RP_MOLD)
		rp_mold_policy(&r);
	if (r.policy.gc_sections)
		r.gc = rp_gc_new(&r);
	r.sections_want = (r.gc ? LK_ELF_GC_EDGES : 0) | rp_relocs_start(&r, (mode & RP_RELOC_FULL) != 0);
	if (allows_multiple(line))
		r.rules |= LK_RULE_ALLOW_MULTIPLE;
	for (size_t i = 0; i < r.policy.undefined.nr; i++)
		lk_symtab_intern(r.tab, r.policy.undefined.items[i])->ref_regular_strong = 1;	/* ld's lang_place_undefineds */
	rp_memory_start(&r);
	rp_read_line(&r);
	rp_mold_part(&r);	/* the end of the line: mold's policies differ from here on */
	rp_answer_finish(&r);
	if (!(r.mode & RP_LLD))
		rp_load_needed(&r);
	if (r.gc)
		rp_collect_sections(&r);
	if (r.mode & RP_MOLD)
		rp_mold_versioned_refs(&r);
	rp_final_checks(&r);
	rp_decide_finish(&r);
	rp_decide_copies(&r);
	if (!(r.mode & RP_LLD))
		rp_version_scripts(&r);
	rp_relocs_finish(&r);
	out->success = out->diags.nr == 0;
	rp_inputs_not_found(&r);
	rp_unusable_items(&r);
	if (r.mode & RP_WORKER) {
		/* A fix trial: its outcome is all the parent needs. */
		struct lk_strvec left = LK_STRVEC_INIT;

		lk_replay_remaining(out, &left);
		lk_trial_reply(out->trials, out->success, &left);
	}
	out->symtab = r.tab;
	archives_defining(out, r.line);
	commons = r.commons_met_archives || r.versioned_refs || r.mold_differs || rp_mold_asleep_matters(&r);
	rp_release(&r);
	return commons;
}

int rp_replay_core(const struct lk_record *rec, const struct lk_line *line, size_t first_extra,
		   unsigned mode, const struct lk_replay_edit *edit, struct lk_replay *out)
{
	return replay_once(rec, line, first_extra, mode, edit, out, NULL, NULL, NULL);
}

/*
 * A relocation lld refuses may be one only its -z text default refuses
 * (mold's is notext), a type lld does not know (mold's table is its
 * own: arch/aarch64_tls.c, mold_relocs.c), or a far call its thunks
 * cannot serve (mold writes it unchecked: stubs.c); and where the line
 * places sections, mold's layout is not lld's.
 */
static int rests_on_lld_reloc_rules(const struct lk_line *line, const struct lk_replay *lazy)
{
	if (rp_line_places_sections(line))
		return 1;	/* mold places the sections after a --section-start one its own way (reloc_layout.c) */
	for (size_t i = 0; i < lazy->diags.nr; i++)
		if (lazy->diags.items[i].kind == LK_DIAG_RELOC_NOT_ALLOWED ||
		    lazy->diags.items[i].kind == LK_DIAG_RELOC_UNSUPPORTED ||
		    (lazy->diags.items[i].kind == LK_DIAG_RELOC_OVERFLOW && lazy->diags.items[i].reloc->stub))
			return 1;
	return 0;
}

/* mold's own replay: where it resolves unlike lld (commons, its undefined policy, -z notext). */
static void mold_replay(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out)
{
	struct lk_replay mold;

	memset(&mold, 0, sizeof(mold));
	rp_replay_core(rec, line, line->items.nr, RP_LLD | RP_MOLD, &rp_no_edit, &mold);
	rp_mold_verdict(line, &mold, out, -1);
	lk_replay_release(&mold);
}

/* Does mold's undefined policy differ from GNU ld's on `line` (mold's own replay then)? */
static int mold_own_policy(const struct lk_line *line)
{
	struct lk_policy gnu;
	int own;

	lk_policy_read(line, &gnu);
	own = (gnu.report_objects && !gnu.warn_unresolved) != rp_mold_reports_objects(line);
	lk_policy_release(&gnu);
	return own;
}

/*
 * lld's and mold's verdicts (out->linkers[LLD] and [MOLD], out->lld_success)
 * from the lld-rules replay `lazy` (`commons`: what its replay_once
 * returned), and mold's own replay where it resolves unlike lld: the one
 * `mold` parted off the lld-rules one (mold_part.c) when it was, else one
 * made here. In mold's parted replay itself (mold->child), its verdict is
 * sent and the process ends.
 */
static void lazy_verdicts_of(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay *lazy,
			     int commons, struct rp_beside *mold, struct lk_replay *out)
{
	if (mold->child) {
		/* This process is mold's own replay, parted from the lld-rules one. */
		rp_mold_verdict(line, lazy, out, -1);
		rp_beside_reply(mold, out);
	}
	rp_lld_verdict(rec, line, lazy, lazy->inputs.nr, out, -1);
	if (commons || mold_own_policy(line) || rests_on_lld_reloc_rules(line, lazy)) {
		/* mold resolves alike but for commons, its undefined policy, -z notext and far calls: its own replay then. */
		if (rp_beside_finish(mold, out) < 0)
			mold_replay(rec, line, out);
	} else {
		rp_beside_cancel(mold);
		rp_mold_verdict(line, lazy, out, -1);
	}
}

/* The lld-rules replay's mode: lld 14's rules, or a newer lld's. */
static unsigned lld_mode(const struct lk_record *rec)
{
	return RP_LLD | (rp_lld_major(rec) > 14 ? 0 : RP_LLD14);
}

/*
 * lld's and mold's verdicts from one more replay under their lazy-archive
 * rules (lld.c, mold.c), all of it here. With `beside`, mold's own replay
 * forks off it where their rules part (mold_part.c) and goes on on the
 * other core: begun before it is known to be needed, and stopped when it
 * is not.
 */
static void lazy_verdicts_here(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out,
			       int beside)
{
	struct lk_replay lazy;
	struct rp_beside mold = { 0, -1, 0, 0, 0 };
	int commons;

	memset(&lazy, 0, sizeof(lazy));
	commons = replay_once(rec, line, line->items.nr, lld_mode(rec), &rp_no_edit, &lazy, NULL,
			      beside ? &mold : NULL, NULL);
	lazy_verdicts_of(rec, line, &lazy, commons, &mold, out);
	lk_replay_release(&lazy);
}

/*
 * Each linker's verdict: GNU ld's is the replay `out`; lld's and mold's
 * come from the lld-rules replay, parted off GNU ld's (`beside`, lld_part.c)
 * when it was, else made here; or, when GNU ld's replay succeeded and `answer` says the
 * lld-rules one would read the same, from GNU ld's replay itself
 * (lazy_answer.c).
 */
static void linker_verdicts(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out,
			    const struct rp_lazy_answer *answer, struct rp_beside *beside, unsigned flags)
{
	out->linkers[LK_LINKER_BFD].success = out->success;
	if (answer->same && out->success) {
		/* GNU ld's replay stands in for the lld-rules one: it read the same (lazy_answer.c). */
		rp_beside_cancel(beside);
		rp_lld_verdict(rec, line, out, answer->line_inputs, out, -1);
		if (mold_own_policy(line))
			mold_replay(rec, line, out);
		else
			rp_mold_verdict(line, out, out, -1);
	} else if (rp_beside_finish(beside, out) < 0) {
		lazy_verdicts_here(rec, line, out, !(flags & LK_REPLAY_ONE_PROCESS));
	}
	/* The options that decide beyond the symbols (--noinhibit-exec, --fatal-warnings, -z cet-report, -N). */
	rp_decide_verdicts(line, out);
	/* An option GNU ld does not know stops it before any input: its replay read them all the same. */
	if (rp_refused(line, LK_LINKER_BFD, 0, -1, "GNU ld", &out->linkers[LK_LINKER_BFD]))
		out->success = 0;
	rp_try_linker_fixes(rec, line, out);
}

/*
 * The link failed when it was recorded: the line will most likely need
 * the lld-rules replay too, so GNU ld's replay forks it where their rules
 * part (lld_part.c; stopped if GNU ld's replay answers for it). The
 * outcome the linker had decides only when the work starts, never what it
 * says.
 */
static int link_failed(const struct lk_record *rec)
{
	return rec->signal || (rec->has_exit && rec->exit_status != 0);
}

/* The neutral edit: nothing changed. */
const struct lk_replay_edit rp_no_edit = { -1, 0, NULL, -1, NULL, 0, 0, 0 };

int lk_replay_run(const struct lk_record *rec, const struct lk_line *line, unsigned flags,
		  struct lk_replay *out, struct lk_err *err)
{
	struct rp_lazy_answer answer;
	struct rp_lld_part part;
	int armed = link_failed(rec) && !(flags & LK_REPLAY_ONE_PROCESS), commons;
	/*
	 * The snapshot serves the fix trials of a failure. A link the record
	 * says succeeded seldom needs one (only where the replay disagrees,
	 * and a trial then replays the whole line), and its fork made every
	 * page the rest of the replay writes a copy-on-write fault: a tenth of
	 * the LLVM line's replay.
	 */
	int snapshot = (flags & LK_REPLAY_SNAPSHOT) && (link_failed(rec) || !rec->has_exit);

	(void)err;
	memset(out, 0, sizeof(*out));
	memset(&part, 0, sizeof(part));
	part.beside.fd = part.mold.fd = -1;
	part.mode = lld_mode(rec);
	commons = replay_once(rec, line, line->items.nr, snapshot ? RP_SNAPSHOT : 0, &rp_no_edit,
			      out, &answer, NULL, armed ? &part : NULL);
	if (part.beside.child) {
		/* This process is the lld-rules replay parted off GNU ld's (or mold's, off that): `out` is its. */
		struct lk_replay verdicts;

		memset(&verdicts, 0, sizeof(verdicts));
		lazy_verdicts_of(rec, line, out, commons, &part.mold, &verdicts);
		rp_beside_reply(&part.beside, &verdicts);
	}
	linker_verdicts(rec, line, out, &answer, &part.beside, flags);
	/* Whether a failure is a prediction at all (certainty.c): when not, the fix stage offers none. */
	out->unknown = lk_certainty_unknown(rec, line, out);
	/*
	 * GCC LTO members GNU ld and mold would read through the plugin: their
	 * verdicts are no prediction; lld reads no symbol from them, so its is.
	 */
	for (int l = 0; l < LK_LINKER_COUNT && out->untold_plugin.nr; l++)
		if (l != LK_LINKER_LLD && !out->linkers[l].unknown)
			out->linkers[l].unknown = lk_xstrdup(out->untold_plugin.items[0]);
	/* The line's own linker's verdict is no prediction: neither is the outcome. */
	if (!out->unknown && out->linkers[lk_linker_of_flavor(line->flavor)].unknown)
		out->unknown = lk_xstrdup(out->linkers[lk_linker_of_flavor(line->flavor)].unknown);
	/* A success that rests on what the replay does not model (a relocation type) is no prediction. */
	if (!out->unknown && out->success && out->unmodelled)
		out->unknown = lk_xstrdup(out->unmodelled);
	return 0;
}

void lk_replay_edited(const struct lk_record *rec, const struct lk_line *line,
		      const struct lk_replay_edit *edit, struct lk_replay *out)
{
	struct lk_overlay ov;

	memset(out, 0, sizeof(*out));
	if (!edit->append || !edit->append->nr) {
		rp_replay_core(rec, line, line->items.nr, 0, edit, out);
		return;
	}
	if (edit->flags & LK_EDIT_IN_PLACE)
		lk_overlay_open_in_place(&ov, rec, line, edit->append, edit->skip_position);
	else
		lk_overlay_open(&ov, rec, line, edit->append);
	rp_replay_core(rec, &ov.view, line->items.nr, 0, edit, out);
	lk_overlay_close(&ov);
}

int lk_replay_outcome(const struct lk_record *rec, const struct lk_line *line,
		      const char *append, long skip_position)
{
	struct lk_strvec words = LK_STRVEC_INIT;
	struct lk_replay_edit edit = rp_no_edit;
	struct lk_replay trial;
	int ok;

	if (append)
		lk_strvec_push(&words, append);
	edit.skip_position = skip_position;
	edit.append = &words;
	lk_replay_edited(rec, line, &edit, &trial);
	ok = trial.success;
	lk_replay_release(&trial);
	lk_strvec_release(&words);
	return ok;
}

void lk_replay_remaining(const struct lk_replay *r, struct lk_strvec *out)
{
	for (size_t i = 0; i < r->diags.nr; i++) {
		struct lk_buf b = LK_BUF_INIT;

		lk_buf_addf(&b, "%s %s", lk_diag_kind_name(r->diags.items[i].kind), r->diags.items[i].symbol);
		lk_strvec_push_owned(out, lk_buf_detach(&b));
	}
}

void lk_replay_each_symbol(const struct lk_replay *r,
			   void (*fn)(void *ctx, const struct lk_symbol_view *s), void *ctx)
{
	const struct lk_sym *s;
	size_t cursor = 0;

	while ((s = lk_symtab_next(r->symtab, &cursor))) {
		struct lk_symbol_view v;

		v.name = s->name;
		v.defined = s->defined;
		v.dynamic = s->dynamic;
		v.def_input = s->defined ? s->def_input : -1;
		v.first_ref = s->first_ref;
		fn(ctx, &v);
	}
}

void lk_replay_refs(const struct lk_replay *r, const char *name, struct lk_input_list *out)
{
	const struct lk_sym *s = lk_symtab_lookup(r->symtab, name);

	for (const struct lk_symref *ref = s ? s->refs : NULL; ref; ref = ref->next) {
		LK_GROW(out->items, out->nr + 1, out->alloc);
		out->items[out->nr++] = ref->input;
	}
}

void lk_diag_release(struct lk_diag *d)
{
	free(d->symbol);
	free(d->version);
	free(d->defined_path);
	free(d->member);
	free(d->problem);
	free(d->refs.items);
	lk_strvec_release(&d->via);
	if (d->reloc) {
		free(d->reloc->section);
		free(d->reloc->producer);
		free(d->reloc->first_section);
		free(d->reloc->stub);
		lk_strvec_release(&d->reloc->between);
		lk_strvec_release(&d->reloc->large_inputs);
		free(d->reloc);
	}
	memset(d, 0, sizeof(*d));
}

void lk_replay_release(struct lk_replay *r)
{
	free(r->unknown);
	free(r->unmodelled);
	for (size_t i = 0; i < r->inputs.nr; i++) {
		free(r->inputs.items[i].member);
		free(r->inputs.items[i].path);
		free(r->inputs.items[i].pulled_for);
		lk_strvec_release(&r->inputs.items[i].kept_for);
		free(r->inputs.items[i].old_defs.items);
		free(r->inputs.items[i].dropped_defs.items);
	}
	free(r->inputs.items);
	for (size_t i = 0; i < r->diags.nr; i++)
		lk_diag_release(&r->diags.items[i]);
	free(r->diags.items);
	if (r->trials) {
		lk_trial_stop(r->trials);
		free(r->trials);
	}
	lk_strvec_release(&r->notes);
	lk_strvec_release(&r->untold);
	lk_strvec_release(&r->untold_plugin);
	lk_strvec_release(&r->mold_hazards);
	rp_decide_release(&r->warned);
	for (int l = 0; l < LK_LINKER_COUNT; l++) {
		lk_strvec_release(&r->linkers[l].why);
		lk_strvec_release(&r->linkers[l].hazards);
		lk_strvec_release(&r->linkers[l].fixes);
		free(r->linkers[l].unknown);
		free(r->linkers[l].version);
		rp_linker_fixes_release(&r->linkers[l]);
	}
	lk_symtab_free(r->symtab);
	memset(r, 0, sizeof(*r));
}
