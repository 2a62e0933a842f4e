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
#include "linkscope/vec.h"
#include "rp.h"

/* out->linkers[LK_LINKER_MOLD], from the lld-rules replay `lazy` of `line`. */
void rp_mold_verdict(const struct lk_line *line, const struct lk_replay *lazy, struct lk_replay *out)
{
	struct lk_linker_verdict *v = &out->linkers[LK_LINKER_MOLD];

	v->success = 1;
	v->version = "1.10";
	if (!rp_refused(line, LK_LINKER_MOLD, 0, "mold", v))
		rp_lazy_rules_why(line, lazy, "mold", v);
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

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		const char *v = it->ld_value;

		if (it->kind != LK_ITEM_OPTION)
			continue;
		switch (it->ld_option) {
		case LK_LD_NO_UNDEFINED: zdefs = 1; break;
		case LK_LD_UNDEFS: zdefs = 0; break;
		case LK_LD_WARN_UNRESOLVED: warn = 1; ignore = 0; break;
		case LK_LD_ERROR_UNRESOLVED: warn = 0; ignore = 0; break;
		case LK_LD_UNRESOLVED_SYMBOLS:
			ignore = v && (!strcmp(v, "ignore-all") || !strcmp(v, "ignore-in-object-files"));
			warn = 0;
			break;
		default: break;
		}
	}
	return !ignore && !warn && (!(line->facts & LK_LINE_SHARED) || zdefs);
}

/*
 * mold 1.10 leaves a "sym@VER" reference undefined unless an unversioned
 * reference of a regular object binds the same shared object (observed on
 * the difftest's versioned lines, both orders): those bindings are undone.
 */
void rp_mold_versioned_refs(struct rp *r)
{
	unsigned char *used = lk_xcalloc(r->out->inputs.nr + 1, 1);
	struct lk_sym *s;
	size_t cursor = 0;

	while ((s = lk_symtab_next(r->tab, &cursor)))
		if (!strchr(s->name, '@') && s->defined && s->dynamic && s->nrefs && s->def_input >= 0)
			used[s->def_input] = 1;
	cursor = 0;
	while ((s = lk_symtab_next(r->tab, &cursor)))
		if (strchr(s->name, '@') && s->defined && s->dynamic && s->def_input >= 0 && !used[s->def_input])
			s->defined = s->dynamic = 0;
	free(used);
}
