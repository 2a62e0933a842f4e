/*
 * The line under mold's rules (see replay.c), read from mold's
 * cmdline.cc (the options it refuses, linker_options.c) and passes.cc:
 * archives resolve as lld's do (the lld-rules replay, lld.c: a member of
 * the first archive on the line that defines a symbol, from wherever the
 * reference is), but mold does not check the undefined symbols of the
 * shared objects on the line (no --no-allow-shlib-undefined by default)
 * and, unlike GNU ld, lets a shared object reference a hidden symbol and
 * takes a version script that names a tag twice; a "sym@VER" reference of a
 * regular object binds a shared object's version only when an unversioned
 * reference binds that shared object too (mold 1.10, observed: otherwise
 * "undefined symbol"; rp_mold_versioned_refs). Checked against mold 1.10.1.
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "linkscope/vec.h"
#include "rp.h"

/*
 * mold reads every member of an archive on the line, needed or not
 * (elf-main.cc read_file: new_object_file checks each one's machine), and
 * stops at one of another machine ("incompatible file type"); GNU ld and
 * lld judge a member only when they take it. Read from the archive's
 * first ELF member (lk_elf_info.machine). NEEDSWORK(#19): an archive
 * whose first member is of the link's machine and a later one is not.
 */
static void foreign_archives(const struct lk_line *line, long skip, struct lk_linker_verdict *v)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		struct lk_buf b = LK_BUF_INIT;

		if ((it->kind != LK_ITEM_FILE && it->kind != LK_ITEM_LIB) || it->unusable || (skip >= 0 && it->position == skip) ||
		    (it->info.kind != LK_FILE_ARCHIVE && it->info.kind != LK_FILE_THIN_ARCHIVE) ||
		    !line->machine || !it->info.machine || it->info.machine == line->machine)
			continue;
		v->success = 0;
		lk_buf_addf(&b, "mold fails: %s (at %ld) holds objects for %s, and mold reads every member of an archive, needed or not (\"incompatible file type\"; GNU ld and lld read only the members they take)",
			    lk_path_base(it->path), it->position, lk_elf_machine_name(it->info.machine));
		lk_strvec_push_owned(&v->why, lk_buf_detach(&b));
		lk_buf_addf(&b, "for mold: drop %s (at %ld), or give the %s build of it", it->word, it->position,
			    lk_elf_machine_name(line->machine));
		rp_linker_fix(v, lk_buf_detach(&b), NULL, it->position);
	}
}

/* out->linkers[LK_LINKER_MOLD], from the lld-rules replay `lazy` of `line`. */
void rp_mold_verdict(const struct lk_line *line, const struct lk_replay *lazy, struct lk_replay *out, long skip)
{
	struct lk_linker_verdict *v = &out->linkers[LK_LINKER_MOLD];

	v->success = 1;
	v->version = lk_xstrdup("1.10");
	for (size_t i = 0; i < lazy->mold_hazards.nr; i++)
		lk_strvec_push(&v->hazards, lazy->mold_hazards.items[i]);
	if (!rp_refused(line, LK_LINKER_MOLD, 0, skip, "mold", v) &&
	    !rp_script_refused(line, LK_LINKER_MOLD, 0, skip, "mold", v)) {
		foreign_archives(line, skip, v);
		rp_lazy_rules_why(line, lazy, "mold", LK_LINKER_MOLD, v);
	}
}

/*
 * mold's undefined policy for regular objects: an executable reports them
 * unless --unresolved-symbols ignores those of objects or
 * --warn-unresolved-symbols; a shared object only under -z defs
 * (--no-undefined) not undone by a later -z undefs, and
 * --unresolved-symbols=report-all does not change that (mold 1.10,
 * checked); -z undefs does nothing to an executable;
 * --warn-unresolved-symbols and --unresolved-symbols are one setting, the
 * last one wins.
 */
int rp_mold_reports_objects(const struct lk_line *line)
{
	int zdefs = 0, ignore = 0, warn = 0;	/* ignore and warn: one setting in mold, the last one wins */
	int fatal = 0;	/* --fatal-warnings: its warning of an undefined symbol an error (policy.c) */

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		const char *v = it->ld_value;

		if (it->kind != LK_ITEM_OPTION)
			continue;
		switch (it->ld_option) {
		case LK_LD_NO_UNDEFINED: zdefs = 1; break;
		case LK_LD_UNDEFS: zdefs = 0; break;
		case LK_LD_FATAL_WARNINGS: fatal = 1; break;
		case LK_LD_NO_FATAL_WARNINGS: fatal = 0; break;
		case LK_LD_WARN_UNRESOLVED: warn = 1; ignore = 0; break;
		case LK_LD_ERROR_UNRESOLVED: warn = 0; ignore = 0; break;
		case LK_LD_UNRESOLVED_SYMBOLS:
			ignore = v && (!strcmp(v, "ignore-all") || !strcmp(v, "ignore-in-object-files"));
			warn = 0;
			break;
		default: break;
		}
	}
	return !ignore && (!warn || fatal) && (!(line->facts & LK_LINE_SHARED) || zdefs);
}

/*
 * mold 1.10 leaves a "sym@VER" reference undefined unless an unversioned
 * reference of a regular object binds the same shared object (observed on
 * the difftest's versioned lines, both orders): those bindings are undone.
 */
void rp_mold_versioned_refs(struct rp *r)
{
	unsigned char *used = lk_xcalloc(r->out->inputs.nr + 1, 1);
	struct { struct lk_sym **items; size_t nr, alloc; } versioned = { NULL, 0, 0 };
	struct lk_sym *s;
	size_t cursor = 0;

	/* One walk, the names read only of shared definitions (the table is the line's: 150,000 names). */
	while ((s = lk_symtab_next(r->tab, &cursor))) {
		if (!s->defined || !s->dynamic || s->def_input < 0)
			continue;
		if (strchr(s->name, '@')) {
			LK_GROW(versioned.items, versioned.nr + 1, versioned.alloc);
			versioned.items[versioned.nr++] = s;
		} else if (s->nrefs) {
			used[s->def_input] = 1;
		}
	}
	for (size_t i = 0; i < versioned.nr; i++)
		if (!used[versioned.items[i]->def_input])
			versioned.items[i]->defined = versioned.items[i]->dynamic = 0;
	free(versioned.items);
	free(used);
}

/*
 * mold's --as-needed (elf-main.cc, input-files.cc, passes.cc
 * mark_live_objects): such a shared object is loaded only when a regular
 * object's strong reference resolves to it; only then do its undefined
 * symbols take archive members (SharedFile::mark_live_objects) and make
 * the symbols they name exported (compute_import_export: --gc-sections
 * roots). GNU ld's --as-needed is read in order (dso.c); mold's is not:
 * a reference read after the object wakes it. lld loads every shared
 * object's symbols, --as-needed or not. Each replay under RP_LLD keeps the
 * list, so the lld one can tell when mold's own replay is needed.
 */
int rp_mold_sleeps(struct rp *r, const struct lk_elf_syms *syms, int as_needed)
{
	/* GNU ld's replay keeps the list too when it answers for the lld one (lazy_answer.c). */
	if (!((r->mode & RP_LLD) || r->answer) || !as_needed)
		return 0;
	for (size_t i = 0; i < syms->nr; i++) {
		const struct lk_elf_sym *y = &syms->items[i];
		const struct lk_sym *s = y->defined && !y->hidden_version ? lk_symtab_lookup(r->tab, y->name) : NULL;

		if (s && !s->defined && s->ref_regular_strong)
			return 0;
	}
	return 1;
}

static int is_asleep(const struct rp *r, long input)
{
	for (size_t i = 0; i < r->asleep.nr; i++)
		if (r->asleep.items[i] == input)
			return 1;
	return 0;
}

static void make_reference(struct rp *r, long input, struct lk_sym *s, int strong)
{
	s->ref_dynamic = 1;
	if (!strong || s->defined)
		return;
	s->ref_dynamic_strong = 1;
	if (s->armap_item >= 0)
		r->lazy_pending = 1;
	if (s->first_dyn_ref < 0)
		s->first_dyn_ref = input;
}

int rp_mold_dormant(struct rp *r, long input, struct lk_sym *s, int strong)
{
	if (!r->asleep.nr || !is_asleep(r, input))
		return 0;
	rp_mold_part(r);
	LK_GROW(r->dormant.items, r->dormant.nr + 1, r->dormant.alloc);
	r->dormant.items[r->dormant.nr].input = input;
	r->dormant.items[r->dormant.nr].sym = s;
	r->dormant.items[r->dormant.nr++].strong = strong;
	return (r->mode & RP_MOLD) != 0;
}

void rp_mold_wake(struct rp *r, long input)
{
	size_t k = 0;

	for (size_t i = 0; i < r->asleep.nr; i++)
		if (r->asleep.items[i] != input)
			r->asleep.items[k++] = r->asleep.items[i];
	if (k == r->asleep.nr)
		return;
	r->asleep.nr = k;
	for (size_t i = 0; i < r->dormant.nr; i++) {
		struct rp_dormant_ref *d = &r->dormant.items[i];

		if (d->input != input)
			continue;
		if (r->mode & RP_MOLD)
			make_reference(r, input, d->sym, d->strong);
		d->input = -1;
	}
}

/*
 * Left asleep to the end, an object's reference differs between lld and
 * mold where an archive names the symbol (lld takes the member) or under
 * --gc-sections (lld exports the symbol: a root).
 */
int rp_mold_asleep_matters(const struct rp *r)
{
	for (size_t i = 0; i < r->dormant.nr; i++) {
		const struct rp_dormant_ref *d = &r->dormant.items[i];

		if (d->input >= 0 && d->strong && (d->sym->armap_item >= 0 || r->gc))
			return 1;
	}
	return 0;
}
