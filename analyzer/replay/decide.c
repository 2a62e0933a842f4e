/*
 * The options that decide a link beyond its symbols, per linker (issue
 * #33 point 3a): what each of GNU ld 2.40, lld 14 and mold 1.10 makes of
 * the same line, every rule checked against the real linkers
 * (tests/integ/150-deciding-options.sh).
 *
 * - --noinhibit-exec: the output is written and the link exits 0 despite
 *   some errors. GNU ld's non-fatal errors (ldmisc.c's %X: undefined
 *   references, multiple definitions, "relocation truncated to fit") are
 *   spared; its fatal ones (%F: a missing input, a relocation a PIE
 *   cannot take, "DSO missing", a TLS mismatch) are not. lld turns
 *   undefined symbols into warnings and its errorOrWarn ones (a
 *   relocation the output cannot take, one out of range), not a
 *   duplicate symbol. mold turns its errors into warnings (undefined
 *   symbols, duplicates, relocations: the ones checked; its TLS and
 *   hidden-symbol ones are left failing, not checked) and keeps its fatal
 *   ones (a library not found, an unusable input).
 * - --fatal-warnings (the last of it and --no-fatal-warnings wins): a
 *   warning is an error. The warnings modelled: GNU ld's on x86-64 for an
 *   object without .note.GNU-stack (unless -z [no]execstack or
 *   --no-warn-execstack), for a text relocation (unless -z notext was
 *   said), for a .gnu.warning section, for a LOAD segment with RWX
 *   permissions (-N); under --warn-common every linker's "multiple
 *   common", GNU ld's common overridden by a definition too; -z
 *   cet-report=warning. lld and mold give none of the others. Each
 *   linker's warning of an undefined symbol under
 *   --warn-unresolved-symbols is made an error by policy.c.
 * - -z cet-report=error: an x86-64 regular input without both
 *   GNU_PROPERTY_X86_FEATURE_1_IBT and _SHSTK fails every linker.
 * - A copy relocation (-z nocopyreloc, protected data): copyreloc.c.
 * - -N (--omagic): the data not page-aligned, the headers in no loaded
 *   segment: GNU ld cannot make a dynamic executable ("PHDR segment not
 *   covered by LOAD segment") and defines no __ehdr_start (checks.c);
 *   lld and mold link. Its -Bstatic part is the line model's (line.c).
 *
 * Takes the line and the replays' facts (struct lk_replay_warned, filled
 * while GNU ld's replay reads); gives each linker's verdict changed, its
 * why said in that linker's terms. Never reads a linker's message.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "arch/arch.h"
#include "rp.h"

/* The last item of the line whose option is one of `a`, `b` (LK_LD_OTHER: none), or NULL. */
static const struct lk_line_item *last_option(const struct lk_line *line, enum lk_ld_option a, enum lk_ld_option b)
{
	const struct lk_line_item *last = NULL;

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->kind == LK_ITEM_OPTION && (it->ld_option == a || (b != LK_LD_OTHER && it->ld_option == b)))
			last = it;
	}
	return last;
}

static int has_option(const struct lk_line *line, enum lk_ld_option o)
{
	return last_option(line, o, LK_LD_OTHER) != NULL;
}

int rp_noinhibit_exec(const struct lk_line *line)
{
	return has_option(line, LK_LD_NOINHIBIT_EXEC);
}

static int fatal_warnings(const struct lk_line *line)
{
	const struct lk_line_item *it = last_option(line, LK_LD_FATAL_WARNINGS, LK_LD_NO_FATAL_WARNINGS);

	return it && it->ld_option == LK_LD_FATAL_WARNINGS;
}

/* -z cet-report=V, the last one: "error", "warning", "none", or NULL. */
static const char *cet_report(const struct lk_line *line)
{
	const struct lk_line_item *it = last_option(line, LK_LD_CET_REPORT, LK_LD_OTHER);

	return it && it->ld_value ? it->ld_value + strlen("cet-report=") : NULL;
}

/* The line is for x86-64 (its -m, else its first regular input). */
static int x86_64_line(const struct lk_line *line, const struct lk_replay *out)
{
	(void)out;
	if (line->machine)
		return line->machine == EM_X86_64;
	for (size_t i = 0; i < line->items.nr; i++)
		if (line->items.items[i].info.kind == LK_FILE_OBJECT && line->items.items[i].info.machine)
			return line->items.items[i].info.machine == EM_X86_64;
	return 0;
}

int rp_noinhibit_spares(const struct lk_line *line, enum lk_linker linker, enum lk_diag_kind kind)
{
	if (!rp_noinhibit_exec(line))
		return 0;
	switch (linker) {
	case LK_LINKER_BFD:
		return kind == LK_DIAG_UNDEFINED || kind == LK_DIAG_MULTIPLE || kind == LK_DIAG_RELOC_OVERFLOW;
	case LK_LINKER_LLD:
		return kind == LK_DIAG_UNDEFINED || kind == LK_DIAG_DSO_MISSING ||
		       kind == LK_DIAG_RELOC_NOT_ALLOWED || kind == LK_DIAG_RELOC_OVERFLOW;
	case LK_LINKER_MOLD:
		return kind == LK_DIAG_UNDEFINED || kind == LK_DIAG_DSO_MISSING || kind == LK_DIAG_MULTIPLE ||
		       kind == LK_DIAG_RELOC_NOT_ALLOWED || kind == LK_DIAG_RELOC_OVERFLOW;
	case LK_LINKER_COUNT:
		break;
	}
	return 0;
}

/* ---- what the replay meets, as it reads ---- */

static void where(const struct rp *r, long input, struct lk_buf *b)
{
	const struct lk_rinput *in = &r->out->inputs.items[input];

	lk_buf_addstr(b, lk_path_base(in->path));
	if (in->member)
		lk_buf_addf(b, "(%s)", in->member);
}

static void met(struct rp *r, char **slot, long input)
{
	struct lk_buf b = LK_BUF_INIT;

	if (*slot)
		return;
	where(r, input, &b);
	*slot = lk_buf_detach(&b);
}

void rp_decide_input(struct rp *r, long input, const struct lk_elf_gc *sections)
{
	int stack_note = 0;

	if (r->mode & (RP_LLD | RP_WORKER))
		return;	/* GNU ld's replay only: the other linkers' verdicts read its facts */
	rp_memory_input(r, input, sections);
	for (size_t i = 0; i < sections->nsections; i++) {
		const char *name = sections->sections[i].name;

		if (!name)
			continue;
		if (!strcmp(name, ".note.GNU-stack"))
			stack_note = 1;
		else if (!strcmp(name, ".gnu.warning"))
			met(r, &r->out->warned.gnu_warning, input);
		else if (!strncmp(name, ".gnu.warning.", 13) && name[13]) {
			struct lk_buf b = LK_BUF_INIT;

			where(r, input, &b);
			lk_strvec_push(&r->warn_syms, name + 13);
			lk_strvec_push_owned(&r->warn_where, lk_buf_detach(&b));
		}
	}
	if (sections->machine != EM_X86_64)
		return;
	if (!stack_note)
		met(r, &r->out->warned.no_stack_note, input);
	/* The note's bytes only when -z cet-report asks: an object of thousands of sections is searched again. */
	if (!r->cet_asked)
		r->cet_asked = cet_report(r->line) ? 1 : -1;
	if (r->cet_asked > 0 && (lk_elf_gc_x86_feature_1(sections) & 3) != 3)
		met(r, &r->out->warned.cet_missing, input);
}

void rp_decide_common(struct rp *r, const struct lk_sym *s, const struct lk_elf_sym *y, long input)
{
	if ((r->mode & (RP_LLD | RP_WORKER)) || !y->defined || !s->defined || s->dynamic)
		return;
	if (y->common && s->common)
		met(r, &r->out->warned.multiple_common, input);
	else if (y->common != s->common && !(s->weak_def && !s->common) && !y->weak)
		met(r, &r->out->warned.common_overridden, input);
}

/*
 * GNU ld warns for a reference to a symbol whose shared object has a
 * ".gnu.warning.SYM" section (glibc's gets: "the `gets' function is
 * dangerous"); lld and mold do not. Read only under --fatal-warnings:
 * each shared object's section headers once.
 */
static void shared_warnings(struct rp *r)
{
	for (size_t i = 0; i < r->out->inputs.nr && !r->out->warned.gnu_warning; i++) {
		const struct lk_rinput *in = &r->out->inputs.items[i];
		struct lk_strvec syms = LK_STRVEC_INIT;

		if (!in->dso || in->dropped || lk_elf_warning_sections(in->path, &syms) < 0) {
			lk_strvec_release(&syms);
			continue;
		}
		for (size_t k = 0; k < syms.nr && !r->out->warned.gnu_warning; k++) {
			const struct lk_sym *s = lk_symtab_lookup(r->tab, syms.items[k]);
			struct lk_buf b = LK_BUF_INIT;

			if (!s || !s->nrefs || !s->dynamic || s->def_input != (long)i)
				continue;
			lk_buf_addf(&b, "%s in '%s'", s->name, lk_path_base(in->path));
			r->out->warned.gnu_warning = lk_buf_detach(&b);
		}
		lk_strvec_release(&syms);
	}
}

void rp_decide_finish(struct rp *r)
{
	if (!(r->mode & (RP_LLD | RP_WORKER)) && fatal_warnings(r->line))
		shared_warnings(r);
	for (size_t i = 0; i < r->warn_syms.nr && !r->out->warned.gnu_warning; i++) {
		const struct lk_sym *s = lk_symtab_lookup(r->tab, r->warn_syms.items[i]);
		struct lk_buf b = LK_BUF_INIT;

		if (!s || !s->nrefs)
			continue;
		lk_buf_addf(&b, "%s in '%s'", r->warn_syms.items[i], r->warn_where.items[i]);
		r->out->warned.gnu_warning = lk_buf_detach(&b);
	}
	lk_strvec_release(&r->warn_syms);
	lk_strvec_release(&r->warn_where);
	rp_memory_finish(r);
}

/* GNU ld defines no __ehdr_start under -N: the headers are in no loaded segment. */
int rp_ehdr_missing(const struct rp *r, const char *name)
{
	return !(r->mode & RP_LLD) && !strcmp(name, "__ehdr_start") && has_option(r->line, LK_LD_OMAGIC);
}

void rp_decide_release(struct lk_replay_warned *w)
{
	free(w->no_stack_note);
	free(w->gnu_warning);
	free(w->cet_missing);
	free(w->multiple_common);
	free(w->common_overridden);
	free(w->copy_protected);
	free(w->copy_forbidden);
	free(w->copy_unknown);
	free(w->copy_input);
	for (int l = 0; l < 3; l++)
		free(w->vs_refused[l]);
	free(w->vnode_missing);
	free(w->undefined_version);
	free(w->undefined_cxx);
	free(w->memory_overflow);
	free(w->memory_unknown);
	memset(w, 0, sizeof(*w));
}

/* ---- each linker's verdict ---- */

static void fails(struct lk_linker_verdict *v, char *why)
{
	v->success = 0;
	lk_strvec_push_owned(&v->why, why);
}

/* The warning `linker` gives on this line, said in a phrase, or NULL (malloc'd). */
static char *warning_of(const struct lk_line *line, const struct lk_replay *out, enum lk_linker linker)
{
	const struct lk_replay_warned *w = &out->warned;
	const char *cet = cet_report(line);
	struct lk_buf b = LK_BUF_INIT;
	int x86 = x86_64_line(line, out);

	if (has_option(line, LK_LD_WARN_COMMON) && w->multiple_common)
		lk_buf_addf(&b, "--warn-common: a symbol defined as a common twice (in '%s')", w->multiple_common);
	else if (cet && !strcmp(cet, "warning") && x86 && w->cet_missing)
		lk_buf_addf(&b, "-z cet-report=warning: '%s' has no IBT and SHSTK properties", w->cet_missing);
	if (b.len || linker != LK_LINKER_BFD)
		return b.len ? lk_buf_detach(&b) : NULL;
	if (has_option(line, LK_LD_WARN_COMMON) && w->common_overridden)
		lk_buf_addf(&b, "--warn-common: a common symbol and a definition of it (in '%s')", w->common_overridden);
	else if (w->gnu_warning)
		lk_buf_addf(&b, "a .gnu.warning section (%s)", w->gnu_warning);
	else if (x86 && w->no_stack_note && !has_option(line, LK_LD_Z_EXECSTACK) && !has_option(line, LK_LD_NO_WARN_EXECSTACK))
		lk_buf_addf(&b, "'%s' has no .note.GNU-stack section, which implies an executable stack", w->no_stack_note);
	else if (x86 && w->textrel && !has_option(line, LK_LD_Z_TEXT))
		lk_buf_addstr(&b, "a text relocation (\"creating DT_TEXTREL\")");
	else if (has_option(line, LK_LD_OMAGIC) && !(line->facts & LK_LINE_SHARED) && !has_option(line, LK_LD_NO_WARN_RWX))
		lk_buf_addstr(&b, "-N makes a LOAD segment with RWX permissions");
	return b.len ? lk_buf_detach(&b) : NULL;
}

static const char *who_of(enum lk_linker l)
{
	return l == LK_LINKER_BFD ? "GNU ld" : l == LK_LINKER_LLD ? "lld" : "mold";
}

/*
 * A version script's undefined global symbol under --no-undefined-version
 * fails GNU ld and lld (mold only warns): GNU ld and lld 14 only when it
 * is said, newer lld (rust-lld) by default unless --undefined-version;
 * the last of the two wins.
 */
static int checks_versions(const struct lk_line *line, enum lk_linker l, const struct lk_linker_verdict *v)
{
	int check = l == LK_LINKER_LLD && !(v->version && !strcmp(v->version, "14"));

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		const char *w = it->kind == LK_ITEM_OPTION ? it->word : "";

		w += w[0] == '-' && w[1] == '-';
		if (!strcmp(w, "-no-undefined-version"))
			check = 1;
		else if (!strcmp(w, "-undefined-version"))
			check = 0;
	}
	return check;
}

/* A shared object joins GNU ld's output: an executable is then dynamic. */
static int dynamic_output(const struct lk_line *line, const struct lk_replay *out)
{
	if (line->facts & LK_LINE_PIE)
		return 1;
	for (size_t i = 0; i < out->inputs.nr; i++)
		if (out->inputs.items[i].dso && !out->inputs.items[i].dropped)
			return 1;
	return 0;
}

void rp_decide_verdicts(const struct lk_line *line, struct lk_replay *out)
{
	const char *cet = cet_report(line);
	int fatal = fatal_warnings(line), spared = 1;

	/* GNU ld under --noinhibit-exec: exit 0 when every error it met is of the non-fatal kind. */
	if (!out->success && rp_noinhibit_exec(line) && out->diags.nr) {
		for (size_t i = 0; i < out->diags.nr; i++)
			if (!rp_noinhibit_spares(line, LK_LINKER_BFD, out->diags.items[i].kind))
				spared = 0;
		if (spared) {
			out->success = out->linkers[LK_LINKER_BFD].success = 1;
			lk_strvec_push(&out->notes, "--noinhibit-exec: GNU ld reports the errors above and still writes the output, with exit status 0");
		}
	}
	if (has_option(line, LK_LD_OMAGIC) && !(line->facts & LK_LINE_SHARED) && dynamic_output(line, out))
		fails(&out->linkers[LK_LINKER_BFD],
		      lk_xstrdup("GNU ld fails: -N (--omagic) puts the program headers in no loaded segment, so a dynamic executable cannot have them (\"PHDR segment not covered by LOAD segment\"); lld and mold link it"));
	for (int l = 0; l < LK_LINKER_COUNT; l++) {
		struct lk_linker_verdict *v = &out->linkers[l];
		struct lk_buf b = LK_BUF_INIT;
		char *w;

		/* Another linker reads a sysroot prefix of the line otherwise (model/resolve.c). */
		if (line->fails_otherwise[l] && l != (int)lk_linker_of_flavor(line->flavor))
			fails(v, lk_xstrdup(line->fails_otherwise[l]));
		else if (line->read_otherwise[l] && l != (int)lk_linker_of_flavor(line->flavor) && !v->unknown)
			v->unknown = lk_xstrdup(line->read_otherwise[l]);

		if (out->warned.vs_refused[l]) {
			lk_buf_addf(&b, "%s fails: it refuses the version script: %s", who_of(l), out->warned.vs_refused[l]);
			fails(v, lk_buf_detach(&b));
		} else if (out->warned.vnode_missing) {
			lk_buf_addf(&b, "%s fails: the version of %s is no node of the line's version scripts (\"version node not found\")",
				    who_of(l), out->warned.vnode_missing);
			fails(v, lk_buf_detach(&b));
		} else if (l != LK_LINKER_MOLD && out->warned.undefined_version && checks_versions(line, l, v)) {
			lk_buf_addf(&b, "%s fails: the version script assigns %s, which no input defines (--no-undefined-version%s)",
				    who_of(l), out->warned.undefined_version,
				    l == LK_LINKER_BFD || (v->version && !strcmp(v->version, "14")) ? "" : ", newer lld's default");
			fails(v, lk_buf_detach(&b));
		} else if (l != LK_LINKER_MOLD && out->warned.undefined_cxx && checks_versions(line, l, v) && v->success &&
			   !v->unknown) {
			lk_buf_addf(&b, "%s: whether a symbol demangles to the version script's C++ name '%s' is not read (--no-undefined-version)",
				    who_of(l), out->warned.undefined_cxx);
			v->unknown = lk_buf_detach(&b);
		}
		if (l != LK_LINKER_MOLD && out->warned.memory_overflow) {
			lk_buf_addf(&b, "%s fails: the %s", who_of(l), out->warned.memory_overflow);
			fails(v, lk_buf_detach(&b));
		} else if (l != LK_LINKER_MOLD && out->warned.memory_unknown && v->success && !v->unknown) {
			lk_buf_addf(&b, "%s: %s", who_of(l), out->warned.memory_unknown);
			v->unknown = lk_buf_detach(&b);
		}
		rp_copyreloc_verdict(line, out, (enum lk_linker)l, who_of(l));
		if (cet && !strcmp(cet, "error") && x86_64_line(line, out) && out->warned.cet_missing) {
			lk_buf_addf(&b, "%s fails: -z cet-report=error, and '%s' has no IBT and SHSTK properties (GNU_PROPERTY_X86_FEATURE_1_AND)",
				    who_of(l), out->warned.cet_missing);
			fails(v, lk_buf_detach(&b));
		}
		if (!fatal || !(w = warning_of(line, out, (enum lk_linker)l)))
			continue;
		/* GNU ld under --noinhibit-exec writes the output all the same. */
		if (l == LK_LINKER_BFD && rp_noinhibit_exec(line)) {
			free(w);
			continue;
		}
		lk_buf_addf(&b, "%s fails: --fatal-warnings makes its warning an error: %s", who_of(l), w);
		fails(v, lk_buf_detach(&b));
		free(w);
	}
	out->success = out->linkers[LK_LINKER_BFD].success;
	out->lld_success = out->linkers[LK_LINKER_LLD].success;
}
