/*
 * The line under lld's rules (see replay.c), read from lld/ELF: Driver.cpp
 * (the options it refuses, linker_options.c), InputFiles.cpp and
 * SymbolTable.cpp (an archive's symbols are lazy from where it stands: a
 * reference from anywhere on the line takes the member of the FIRST
 * archive that defines the symbol, even one read before the reference;
 * every shared object keeps its symbols, --as-needed only drops
 * DT_NEEDED; DT_NEEDED libraries are never loaded) and Writer.cpp's
 * check of shared objects (--no-allow-shlib-undefined, the default of an
 * executable: the undefined symbols of a shared object all of whose
 * DT_NEEDED are on the line, one with none too, fail the link; from LLVM
 * 16 on, a hidden definition such a shared object references fails it as
 * well: "non-exported symbol"). The lld-rules replay (RP_LLD) is mold's
 * too (mold.c): both resolve archives alike.
 *
 * Checked against ld.lld 14.0.6 and rustc 1.95's rust-lld (LLD 22.1.2).
 * lld's `-z text` default is the relocation room's (reloc.c judges each
 * relocation with the z-text policy of the replay's mode).
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "rp.h"
#include "script.h"
#include "trust.h"

const char *lk_linker_name(enum lk_linker l)
{
	switch (l) {
	case LK_LINKER_BFD: return "bfd";
	case LK_LINKER_LLD: return "lld";
	case LK_LINKER_MOLD: return "mold";
	case LK_LINKER_COUNT: break;
	}
	LK_BUG("unknown linker");
}

enum lk_linker lk_linker_of_flavor(const char *flavor)
{
	if (flavor && !strcmp(flavor, "lld"))
		return LK_LINKER_LLD;
	if (flavor && !strcmp(flavor, "mold"))
		return LK_LINKER_MOLD;
	return LK_LINKER_BFD;
}

int lk_linker_by_name(const char *name)
{
	if (!strcmp(name, "bfd") || !strcmp(name, "gnu-ld") || !strcmp(name, "ld"))
		return LK_LINKER_BFD;
	if (!strcmp(name, "lld") || !strcmp(name, "rust-lld"))
		return LK_LINKER_LLD;
	if (!strcmp(name, "mold"))
		return LK_LINKER_MOLD;
	return -1;
}

/* Where `path` leads (realpath), a relative one taken from the link's directory, not the analyzer's; or NULL. */
static char *real_of(const struct lk_record *rec, const char *path)
{
	struct lk_buf b = LK_BUF_INIT;
	char *real;

	if (path[0] != '/' && rec->cwd)
		lk_buf_addf(&b, "%s/", rec->cwd);
	lk_buf_addstr(&b, path);
	real = realpath(b.buf, NULL);
	lk_buf_release(&b);
	return real;
}

/*
 * rustc's rust-lld (through its gcc-ld/ld.lld, or a -B dir's ld.lld that
 * leads there) is a newer lld than the system's ld.lld 14.
 */
int rp_rust_lld(const struct lk_record *rec)
{
	char *real;
	int rust;

	if (rec->caller_is_rustc && rec->linker_flavor && !strcmp(rec->linker_flavor, "lld"))
		return 1;
	if (!rec->linker_program)
		return 0;
	real = real_of(rec, rec->linker_program);
	rust = strstr(rec->linker_program, "/rustlib/") || (real && strstr(real, "/rustlib/"));
	free(real);
	return rust;
}

/* "llvm-18/" or "lld-18" in a path: 18, else 0. */
static int major_in_path(const char *path)
{
	static const char *const marks[] = { "llvm-", "lld-", NULL };

	for (const char *const *m = marks; path && *m; m++)
		for (const char *p = strstr(path, *m); p; p = strstr(p + 1, *m)) {
			const char *d = p + strlen(*m);
			int n = 0;

			while (*d >= '0' && *d <= '9' && n < 1000)
				n = n * 10 + (*d++ - '0');
			if (n >= 3 && (*d == '/' || *d == '\0' || *d == '.'))
				return n;
		}
	return 0;
}

/*
 * The major version of the line's lld, read, never run (docs/security.md):
 * rustc's rust-lld is LLVM 22 (rustc 1.95's, the one checked;
 * NEEDSWORK(#19): the record does not say which rustc); else the LLVM
 * version in the path of the program the driver runs (the record's -B or
 * -fuse-ld= program, or its -print-prog-name=ld.lld answer, a bare name
 * looked up on this machine's PATH) as this machine resolves it:
 * /usr/bin/ld.lld -> /usr/lib/llvm-14/bin/lld; else
 * 14, the lld Debian 12 ships.
 */
int rp_lld_major(const struct lk_record *rec)
{
	const char *given = rec->linker_program ? rec->linker_program : rec->print_prog_name;
	char *real;
	int major;

	if (rp_rust_lld(rec))
		return 22;
	if (given && !strchr(given, '/')) {
		/* gcc's answer is a bare name when it found none of its own: this machine's PATH has it. */
		char *found = lk_trust_which(given);

		real = found ? realpath(found, NULL) : NULL;
		free(found);
	} else {
		real = given ? real_of(rec, given) : NULL;
	}
	major = major_in_path(real);
	if (!major)
		major = major_in_path(given);
	free(real);
	return major ? major : 14;
}

static char *version_words(const struct lk_record *rec, int major)
{
	struct lk_buf b = LK_BUF_INIT;

	if (rp_rust_lld(rec))
		lk_buf_addf(&b, "rust-lld (LLVM %d)", major);
	else if (major == 14)
		lk_buf_addstr(&b, "14");
	else
		lk_buf_addf(&b, "LLVM %d (modelled as rust-lld's LLVM 22 where lld 14 and 22 differ)", major);
	return lk_buf_detach(&b);
}

/* A line input as a report names it: "libu.so (at 3)". */
void rp_input_words(const struct lk_line *line, const struct lk_rinput *in, struct lk_buf *b)
{
	long pos = in->item >= 0 ? line->items.items[in->item].position : -1;

	if (in->member)
		lk_buf_addf(b, "member %s of ", in->member);
	lk_buf_addstr(b, lk_path_base(in->path));
	if (pos >= 0)
		lk_buf_addf(b, " (at %ld)", pos);
}

static const char *soname_of(const struct lk_line *line, const struct lk_rinput *in)
{
	const struct lk_elf_info *info = &line->items.items[in->item].info;

	return info->soname ? info->soname : lk_path_base(in->path);
}

/*
 * Is input `i` a shared object of the line that lld keeps: read before
 * `lazy_inputs`, and the first under its soname (lld keeps every one it
 * reads, so a later one of the same soname is never read again)? All of
 * the lld-rules replay's shared objects are; GNU ld's replay standing in
 * for it also has those it dropped and read again, and those it loaded
 * after the line (lazy_answer.c).
 */
static int kept_by_lld(const struct lk_line *line, const struct lk_replay *lld, size_t lazy_inputs, size_t i)
{
	const struct lk_rinput *in = &lld->inputs.items[i];

	if (!in->dso || in->item < 0 || i >= lazy_inputs)
		return 0;
	for (size_t j = 0; j < i; j++)
		if (lld->inputs.items[j].dso && lld->inputs.items[j].item >= 0 &&
		    !strcmp(soname_of(line, &lld->inputs.items[j]), soname_of(line, in)))
			return 0;
	return 1;
}

static int soname_on_line(const struct lk_replay *lld, const struct lk_line *line, const char *soname)
{
	for (size_t i = 0; i < lld->inputs.nr; i++) {
		const struct lk_rinput *in = &lld->inputs.items[i];

		if (in->dso && in->item >= 0 && !strcmp(soname_of(line, in), soname))
			return 1;
	}
	return 0;
}

/* "every DT_NEEDED of libu.so is on the line (libc.so.6)", or NULL when one is not. */
static char *all_needed_known(const struct lk_replay *lld, const struct lk_line *line, const struct lk_rinput *in)
{
	const struct lk_elf_info *info = &line->items.items[in->item].info;
	struct lk_buf b = LK_BUF_INIT;

	for (size_t k = 0; k < info->needed.nr; k++)
		if (!soname_on_line(lld, line, info->needed.items[k]))
			return NULL;
	if (!info->needed.nr) {
		lk_buf_addf(&b, "%s has no DT_NEEDED, so lld takes it as complete", lk_path_base(in->path));
		return lk_buf_detach(&b);
	}
	lk_buf_addf(&b, "every DT_NEEDED of %s is on the line (", lk_path_base(in->path));
	for (size_t k = 0; k < info->needed.nr; k++)
		lk_buf_addf(&b, "%s%s", k ? ", " : "", info->needed.items[k]);
	lk_buf_addstr(&b, ")");
	return lk_buf_detach(&b);
}

struct shlib_check {
	const struct lk_record *rec;
	const struct lk_line *line;
	const struct lk_replay *lld;
	size_t lazy_inputs;	/* the inputs of `lld` that count (kept_by_lld) */
	struct lk_linker_verdict *v;
	const char *who;	/* "lld" or "rust-lld" */
	int major;		/* rp_lld_major(rec), asked once: it resolves a path, and the check asks per symbol */
};

/* Does a shared object of the lld-rules replay define `name`? (lld's dsoDefined: read only for a rare candidate.) */
static int shared_object_defines(const struct shlib_check *c, const char *name)
{
	const struct lk_replay *lld = c->lld;
	int found = 0;

	for (size_t i = 0; i < lld->inputs.nr && !found; i++) {
		struct lk_elf_syms syms = { 0 };
		struct lk_err err = LK_ERR_INIT;

		if (!kept_by_lld(c->line, lld, c->lazy_inputs, i) ||
		    lk_elf_read_syms(lld->inputs.items[i].path, &syms, &err) < 0)
			continue;
		for (size_t k = 0; k < syms.nr && !found; k++)
			found = syms.items[k].defined && !syms.items[k].hidden_version && !strcmp(syms.items[k].name, name);
		lk_elf_syms_release(&syms);
	}
	return found;
}

/*
 * Does the lld-rules replay define `s`? Not by a library read after the
 * line (lld loads none), but by one --as-needed dropped (lld keeps it).
 */
static int lld_defines(const struct shlib_check *c, const struct lk_sym *s)
{
	return s && ((s->defined && (s->def_input < 0 || (size_t)s->def_input < c->lazy_inputs)) || s->dropped_def);
}

/* One symbol `y` of the shared object `in` that lld's check of shared objects refuses, said. */
static void shlib_symbol(struct shlib_check *c, const struct lk_rinput *in, const struct lk_elf_sym *y,
			 const char *because)
{
	const struct lk_sym *s = lk_symtab_lookup(c->lld->symtab, y->name);
	struct lk_buf b = LK_BUF_INIT;

	if (y->defined || y->weak || rp_linker_defined(y->name))
		return;
	if (!lld_defines(c, s)) {
		lk_buf_addf(&b, "%s fails: %s references %s, which nothing on the line defines; %s checks this because %s",
			    c->who, lk_path_base(in->path), y->name, c->who, because);
		lk_strvec_push_owned(&c->v->why, lk_buf_detach(&b));
		lk_buf_addf(&b, "for %s: link the library that defines %s, or add -Wl,--allow-shlib-undefined", c->who, y->name);
	} else if (c->major >= 16 && !s->dynamic && s->def_hidden && s->def_input >= 0 &&
		   !shared_object_defines(c, y->name)) {
		lk_buf_addf(&b, "%s fails: non-exported symbol %s in ", c->who, y->name);
		rp_input_words(c->line, &c->lld->inputs.items[s->def_input], &b);
		lk_buf_addf(&b, " is referenced by %s (hidden visibility; lld since LLVM 16 checks this because %s)",
			    lk_path_base(in->path), because);
		lk_strvec_push_owned(&c->v->why, lk_buf_detach(&b));
		lk_buf_addf(&b, "for %s: give %s default visibility, or add -Wl,--allow-shlib-undefined", c->who, y->name);
	} else {
		return;
	}
	c->v->success = 0;
	rp_linker_fix(c->v, lk_buf_detach(&b), "--allow-shlib-undefined", -1);
}

/*
 * lld names a shared object's versioned reference with its version: a
 * library on the line that defines other versions only leaves it
 * undefined ("libuse.so: undefined reference to sym@V2
 * [--no-allow-shlib-undefined]"; ld.lld 14.0.6, difftest names class).
 */
static void shlib_versioned(struct shlib_check *c, long input, const char *because)
{
	const struct lk_rinput *in = &c->lld->inputs.items[input];
	struct lk_elf_every ev = { 0 };
	struct lk_err err = LK_ERR_INIT;

	if (lk_elf_read_every(in->path, &ev, &err) < 0)
		return;
	for (size_t f = 0; f < ev.nr; f++)
		for (size_t k = 0; k < ev.items[f].syms.nr; k++) {
			const struct lk_elf_every_sym *y = &ev.items[f].syms.items[k];
			struct lk_buf b = LK_BUF_INIT;

			if (!y->dynamic || y->defined || y->weak || !y->version ||
			    !rp_version_unbound(c->lld, lk_symtab_lookup(c->lld->symtab, y->name), input, y->version))
				continue;
			c->v->success = 0;
			lk_buf_addf(&b, "%s fails: %s references %s@%s, and %s on the line defines other versions of %s only; %s checks this because %s",
				    c->who, lk_path_base(in->path), y->name, y->version,
				    lk_path_base(c->lld->inputs.items[lk_symtab_lookup(c->lld->symtab, y->name)->def_input].path),
				    y->name, c->who, because);
			lk_strvec_push_owned(&c->v->why, lk_buf_detach(&b));
			lk_buf_addf(&b, "for %s: link the library %s was built against (the one with %s@%s), or add -Wl,--allow-shlib-undefined",
				    c->who, lk_path_base(in->path), y->name, y->version);
			rp_linker_fix(c->v, lk_buf_detach(&b), "--allow-shlib-undefined", -1);
		}
	lk_elf_every_release(&ev);
}

/*
 * Writer.cpp: with --no-allow-shlib-undefined in force (an executable's
 * default; lk_policy's report_shlibs), the non-weak undefined symbols of
 * every shared object on the line whose DT_NEEDED are all on it, used or
 * not (an --as-needed one too), must be defined.
 */
static void check_shared_objects(struct shlib_check *c)
{
	struct lk_policy p;

	lk_policy_read(c->line, &p);
	if (p.report_shlibs && !p.warn_unresolved) {
		for (size_t i = 0; i < c->lld->inputs.nr; i++) {
			const struct lk_rinput *in = &c->lld->inputs.items[i];
			struct lk_elf_syms syms = { 0 };
			struct lk_err err = LK_ERR_INIT;
			char *because;

			if (!kept_by_lld(c->line, c->lld, c->lazy_inputs, i) ||
			    !(because = all_needed_known(c->lld, c->line, in)))
				continue;
			if (lk_elf_read_syms(in->path, &syms, &err) == 0)
				for (size_t k = 0; k < syms.nr; k++)
					shlib_symbol(c, in, &syms.items[k], because);
			lk_elf_syms_release(&syms);
			shlib_versioned(c, (long)i, because);
			free(because);
		}
	}
	lk_policy_release(&p);
}

/* `linker` refuses an option of the line: it fails before reading any input. */
int rp_refused(const struct lk_line *line, enum lk_linker linker, int lld_new, long skip, const char *who,
	       struct lk_linker_verdict *v)
{
	struct lk_buf b = LK_BUF_INIT, msg = LK_BUF_INIT, suggest = LK_BUF_INIT;
	const struct lk_line_item *it = rp_refused_option(line, linker, lld_new, skip, &msg, &suggest);
	int group;

	if (!it) {
		lk_buf_release(&msg);
		lk_buf_release(&suggest);
		return 0;
	}
	group = !strcmp(it->word, "--start-group") || !strcmp(it->word, "-(");
	v->success = 0;
	if (group)
		lk_buf_addf(&b, "%s fails: it refuses a --start-group inside another (at %ld) before reading any input", who, it->position);
	else
		lk_buf_addf(&b, "%s fails: \"%s\" (%s at %ld): it stops before reading any input", who, msg.buf, it->word, it->position);
	lk_strvec_push_owned(&v->why, lk_buf_detach(&b));
	lk_buf_addf(&b, "for %s: drop %s (at %ld)", who, group ? "the inner --start-group and its --end-group" : it->word, it->position);
	if (!group && suggest.len)
		lk_buf_addf(&b, ", or did you mean %s?", suggest.buf);
	rp_linker_fix(v, lk_buf_detach(&b), NULL, group ? -1 : it->position);
	lk_buf_release(&msg);
	lk_buf_release(&suggest);
	return 1;
}

/* The argv position of a replay input's top-level line item, or -1. */
static long top_position(const struct lk_line *line, const struct lk_replay *rp, long input)
{
	long item = input >= 0 ? rp->inputs.items[input].item : -1;

	while (item >= 0 && line->items.items[item].parent >= 0)
		item = line->items.items[item].parent;
	return item >= 0 ? line->items.items[item].position : -1;
}

/*
 * Was the member `ref` taken by lld's own rule: its archive read before
 * any reference to the symbol it was taken for (GNU ld, reading left to
 * right, would not have gone back for it)? A member whose archive comes
 * after the reference is taken by every linker: an undefined symbol it
 * references is a library missing, not archive order.
 */
static int taken_from_before(const struct lk_line *line, const struct lk_replay *lazy, const struct lk_rinput *ref)
{
	const struct lk_sym *s = lazy->symtab ? lk_symtab_lookup(lazy->symtab, ref->pulled_for) : NULL;
	const struct lk_line_item *archive = ref->item >= 0 ? &line->items.items[ref->item] : NULL;
	long at, first;

	while (archive && archive->parent >= 0)
		archive = &line->items.items[archive->parent];
	if (!s || !archive || s->first_ref < 0 || (size_t)s->first_ref >= lazy->inputs.nr)
		return 1;	/* not known: lld's rule, as before */
	at = archive->position;
	first = top_position(line, lazy, s->first_ref);
	return at < 0 || first < 0 || at < first;
}

/* A fix no replay can try (`text` taken), said once however many relocations of one input ask for it. */
static void fix_once(struct lk_linker_verdict *v, char *text)
{
	for (size_t i = 0; i < v->fixes.nr; i++)
		if (!strcmp(v->fixes.items[i], text)) {
			free(text);
			return;
		}
	rp_linker_fix(v, text, NULL, -1);
}

/* A diagnostic of the lld-rules replay, said for `who` (lld or mold: they resolve alike; mold checks no TLS type). */
void rp_lazy_rules_why(const struct lk_line *line, const struct lk_replay *lazy, const char *who,
		       enum lk_linker linker, struct lk_linker_verdict *v)
{
	int tls_checked = linker == LK_LINKER_LLD;

	for (size_t i = 0; i < lazy->diags.nr; i++) {
		const struct lk_diag *d = &lazy->diags.items[i];
		const struct lk_rinput *ref = d->ref_input >= 0 ? &lazy->inputs.items[d->ref_input] : NULL;
		struct lk_buf b = LK_BUF_INIT;

		if (d->kind == LK_DIAG_TLS_MISMATCH && !tls_checked)
			continue;
		/* --noinhibit-exec: an error the linker then only warns about (decide.c). */
		if (rp_noinhibit_spares(line, linker, d->kind))
			continue;

		v->success = 0;
		if (d->kind == LK_DIAG_NOT_FOUND) {
			lk_buf_addf(&b, "%s fails: it cannot find %s", who, d->symbol);
		} else if (d->kind == LK_DIAG_MULTIPLE) {
			lk_buf_addf(&b, "%s fails: duplicate symbol %s, defined in ", who, d->symbol);
			rp_input_words(line, &lazy->inputs.items[d->def_input], &b);
			lk_buf_addstr(&b, " and in ");
			rp_input_words(line, ref, &b);
		} else if (d->kind != LK_DIAG_UNDEFINED && d->kind != LK_DIAG_DSO_MISSING) {
			/* The relocation and unusable-input kinds: the kind names what (docs/report-format.md). */
			lk_buf_addf(&b, "%s fails: %s, %s", who, lk_diag_kind_name(d->kind), d->symbol);
			if (d->reloc && d->reloc->type)
				lk_buf_addf(&b, " (%s)", d->reloc->type);
			if (ref) {
				lk_buf_addstr(&b, ", in ");
				rp_input_words(line, ref, &b);
			}
			if (d->reloc && d->reloc->stub)
				lk_buf_addf(&b, ": %s, out of its reach", d->reloc->stub);
		} else {
			lk_buf_addf(&b, "%s fails: undefined symbol %s", who, d->symbol);
			if (ref) {
				lk_buf_addstr(&b, ", referenced by ");
				rp_input_words(line, ref, &b);
			}
		}
		if (d->kind == LK_DIAG_RELOC_UNSUPPORTED && d->reloc && ref && !strstr(d->reloc->type, "_TLS")) {
			/* A type mold 1.10 does not know (mold_relocs.c): R_AARCH64_ABS32 and the like. */
			lk_buf_addf(&b, ": %s does not know this relocation type (\"unknown relocation\", in every output)", who);
			lk_strvec_push_owned(&v->why, lk_buf_detach(&b));
			lk_buf_addf(&b, "for %s: link with GNU ld (-fuse-ld=bfd) or lld (-fuse-ld=lld), which take %s; or change ",
				    who, d->reloc->type);
			rp_input_words(line, ref, &b);
			lk_buf_addstr(&b, " so that it does not use it (a 64-bit field, R_AARCH64_ABS64, for an address)");
			fix_once(v, lk_buf_detach(&b));
		} else if (d->kind == LK_DIAG_RELOC_UNSUPPORTED && d->reloc && ref) {
			/* A TLS type the linker does not know (arch/aarch64_tls.c): no option of the line helps. */
			lk_buf_addf(&b, ": %s does not know this TLS relocation type (\"unknown relocation\", in every output)", who);
			lk_strvec_push_owned(&v->why, lk_buf_detach(&b));
			lk_buf_addf(&b, "for %s: ", who);
			if (d->reloc->recompile) {
				lk_buf_addstr(&b, "rebuild ");
				rp_input_words(line, ref, &b);
				lk_buf_addf(&b, " with %s (GCC's default), whose TLS relocations GNU ld, lld and mold all take; or link with GNU ld (-fuse-ld=bfd), which knows every AArch64 TLS relocation type",
					    d->reloc->recompile);
			} else {
				lk_buf_addstr(&b, "link with GNU ld (-fuse-ld=bfd), which knows every AArch64 TLS relocation type; or make the TLS accesses of ");
				rp_input_words(line, ref, &b);
				lk_buf_addstr(&b, " TLS descriptors (R_AARCH64_TLSDESC_*, what GCC emits by default)");
			}
			fix_once(v, lk_buf_detach(&b));
		} else if (d->kind == LK_DIAG_RELOC_NOT_ALLOWED && d->reloc && d->reloc->tls_le && ref) {
			/* Local-exec TLS in a shared object: another TLS model, not -z notext nor -fPIC alone. */
			lk_buf_addf(&b, ": %s, and the output is %s", d->reloc->rule, d->reloc->output);
			lk_strvec_push_owned(&v->why, lk_buf_detach(&b));
			lk_buf_addf(&b, "for %s: rebuild ", who);
			rp_input_words(line, ref, &b);
			lk_buf_addstr(&b, " with -fPIC and without -ftls-model=local-exec (-fPIC's own model, global dynamic, works in any shared object; initial-exec in one loaded at startup)");
			fix_once(v, lk_buf_detach(&b));
		} else if (d->kind == LK_DIAG_RELOC_NOT_ALLOWED && strstr(who, "lld") && d->reloc && d->reloc->output &&
		    strcmp(d->reloc->output, "a PIE object")) {
			/*
			 * lld's -z text default refuses what GNU ld and mold make a text
			 * relocation of (DT_TEXTREL): -z notext takes it as they do
			 * (tried on lld's model: a relocation no loader can apply still fails).
			 */
			lk_strvec_push_owned(&v->why, lk_buf_detach(&b));
			lk_buf_addf(&b, "for %s: add -Wl,-z,notext, so that %s makes a text relocation of it as GNU ld and mold do (the output's code is then patched at load time); or make the code position-independent",
				    who, who);
			rp_linker_fix(v, lk_buf_detach(&b), "-Wl,-z,notext", -1);
		} else if (ref && ref->member && ref->pulled_for && taken_from_before(line, lazy, ref)) {
			struct lk_rinput archive = *ref;

			archive.member = NULL;
			lk_buf_addf(&b, " (taken for %s: %s takes a member from the first archive on the line that defines a symbol, even one read before the reference)",
				    ref->pulled_for, who);
			lk_strvec_push_owned(&v->why, lk_buf_detach(&b));
			lk_buf_addf(&b, "for %s: name the archive that should give %s before ", who, ref->pulled_for);
			rp_input_words(line, &archive, &b);
			lk_buf_addstr(&b, ", or leave that one out");
			rp_linker_fix(v, lk_buf_detach(&b), NULL, -1);
		} else {
			lk_strvec_push_owned(&v->why, lk_buf_detach(&b));
		}
	}
}

/*
 * lld reads a linker script of another target that GNU ld and mold skip
 * (model/libsearch.c) as any script: the inputs it names by absolute path
 * decide. One that does not exist fails lld ("cannot open"), one of
 * another machine too ("is incompatible"); 1 then, with `why`. Anything
 * else (a -l, a relative name, inputs of the link's machine): 0, unknown.
 */
static int foreign_script_fails(const struct lk_line *line, const char *path, struct lk_buf *why)
{
	struct lk_buf text = LK_BUF_INIT;
	struct lk_err err = LK_ERR_INIT;
	struct lk_script s;
	int fails = 0, unknown = 0;

	if (lk_buf_read_file(&text, path, (size_t)1 << 20) < 0) {
		lk_buf_release(&text);
		return 0;
	}
	if (lk_script_parse(text.buf ? text.buf : "", path, &s, &err) < 0) {
		lk_script_release(&s);
		lk_buf_release(&text);
		return 0;
	}
	for (size_t i = 0; i < s.inputs.nr && !fails && !unknown; i++) {
		const char *name = s.inputs.items[i].name;
		struct lk_elf_info info;

		if (name[0] != '/') {
			unknown = 1;
			continue;
		}
		lk_elf_identify(name, &info);
		if (info.kind == LK_FILE_MISSING) {
			lk_buf_addf(why, "cannot open '%s', which it names", name);
			fails = 1;
		} else if (info.machine && line->machine && info.machine != line->machine) {
			lk_buf_addf(why, "'%s', which it names, is for %s (\"is incompatible\")", name, lk_elf_machine_name(info.machine));
			fails = 1;
		} else if (info.kind != LK_FILE_OBJECT && info.kind != LK_FILE_ARCHIVE && info.kind != LK_FILE_SHARED) {
			unknown = 1;
		}
		lk_elf_info_release(&info);
	}
	lk_script_release(&s);
	lk_buf_release(&text);
	return fails;
}

/*
 * lld's -l search takes the first libNAME.so or libNAME.a it finds
 * (Driver.cpp searchLibrary) and only then reads its machine: where GNU
 * ld skipped an incompatible file, lld stops at it ("is incompatible
 * with elf_x86_64"). mold skips it, as GNU ld does.
 */
static void incompatible_taken(const struct lk_line *line, long skip, const char *who, struct lk_linker_verdict *v)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		struct lk_buf b = LK_BUF_INIT;
		struct lk_elf_info info;
		int text;

		if (it->kind != LK_ITEM_LIB || !it->skipped.nr || (skip >= 0 && it->position == skip))
			continue;
		lk_elf_identify(it->skipped.items[0], &info);
		text = info.kind == LK_FILE_TEXT;
		lk_elf_info_release(&info);
		if (text) {
			/* A linker script of another OUTPUT_FORMAT (libsearch.c): lld reads it as any script. */
			struct lk_buf what = LK_BUF_INIT;

			if (foreign_script_fails(line, it->skipped.items[0], &what)) {
				v->success = 0;
				lk_buf_addf(&b, "%s fails: for %s (at %ld) it reads '%s', a linker script of another target that GNU ld skips, and %s",
					    who, it->word, it->position, it->skipped.items[0], what.buf);
				lk_strvec_push_owned(&v->why, lk_buf_detach(&b));
			} else if (!v->unknown) {
				lk_buf_addf(&b, "%s reads '%s' for %s (at %ld), a linker script of another target that GNU ld skips: what it names is not modelled",
					    who, it->skipped.items[0], it->word, it->position);
				v->unknown = lk_buf_detach(&b);
			}
			lk_buf_release(&what);
			continue;
		}
		v->success = 0;
		lk_buf_addf(&b, "%s fails: for %s (at %ld) it takes %s, the first file its search finds, which is for another machine (lld skips no incompatible file)",
			    who, it->word, it->position, it->skipped.items[0]);
		lk_strvec_push_owned(&v->why, lk_buf_detach(&b));
	}
}

/*
 * lld reads LLVM bitcode itself (LTO, where GNU ld needs the plugin): its
 * verdict then rests on that file's symbols, which the replay does not
 * read. NEEDSWORK(#19): read the bitcode's symbol table (its SYMTAB block).
 */
static char *bitcode_unread(const struct lk_line *line, const char *who)
{
	struct lk_buf b = LK_BUF_INIT;

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->info.kind != LK_FILE_BITCODE && it->unusable != LK_UNUSABLE_BITCODE)
			continue;
		lk_buf_addf(&b, "%s links LLVM bitcode itself (%s at %ld), and the replay does not read the symbols of bitcode",
			    who, lk_path_base(it->path), it->position);
		return lk_buf_detach(&b);
	}
	return NULL;
}

/* out->linkers[LK_LINKER_LLD], from the lld-rules replay `lazy` of `line`. */
void rp_lld_verdict(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay *lazy,
		    size_t lazy_inputs, struct lk_replay *out, long skip)
{
	struct lk_linker_verdict *v = &out->linkers[LK_LINKER_LLD];
	struct shlib_check c = { rec, line, lazy, lazy_inputs, v, rp_rust_lld(rec) ? "rust-lld" : "lld",
				 rp_lld_major(rec) };
	int newer = c.major > 14;

	v->success = 1;
	v->version = version_words(rec, c.major);
	if (!rp_refused(line, LK_LINKER_LLD, newer, skip, c.who, v) &&
	    !rp_script_refused(line, LK_LINKER_LLD, newer, skip, c.who, v)) {
		incompatible_taken(line, skip, c.who, v);
		rp_lazy_rules_why(line, lazy, c.who, LK_LINKER_LLD, v);
		check_shared_objects(&c);
		if (!v->unknown)
			v->unknown = bitcode_unread(line, c.who);
	}
	out->lld_success = v->success;
}
