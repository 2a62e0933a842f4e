/*
 * Line options -> the link-wide rules of undefined references and section
 * garbage collection, read as ld/lexsup.c reads them:
 * - unresolved references in objects and in shared libraries each have a
 *   mode, "not yet set" until an option sets it: --no-undefined / -z defs
 *   report objects', -z undefs ignores them, --[no-]allow-shlib-undefined
 *   set the shared libraries' one, --unresolved-symbols=... sets both;
 *   -shared sets both to "ignore" only where still unset (so `-z defs
 *   -shared` still reports); whatever is left unset reports;
 * - --warn-unresolved-symbols makes them warnings (the link succeeds);
 * - --gc-sections / --no-gc-sections, the last one wins; its roots: the
 *   entry symbol (-e, default _start), -u, --require-defined and
 *   --export-dynamic-symbol names, and with -E every exported symbol;
 * - -u and --require-defined make a symbol undefined before any input is
 *   read (so archives pull members for it); --require-defined fails the
 *   link when it stays undefined.
 * The line model has parsed each option once, in all of ld's spellings
 * (enum lk_ld_option); this file gives them their link-wide meaning.
 */
#include <string.h>

#include "linkscope/banned.h"
#include "policy.h"

enum mode { UNSET, REPORT, IGNORE };

static void unresolved_symbols(const char *v, enum mode *objects, enum mode *shlibs)
{
	if (!strcmp(v, "ignore-all")) {
		*objects = IGNORE;
		*shlibs = IGNORE;
	} else if (!strcmp(v, "report-all")) {
		*objects = REPORT;
		*shlibs = REPORT;
	} else if (!strcmp(v, "ignore-in-object-files")) {
		*objects = IGNORE;
		*shlibs = REPORT;
	} else if (!strcmp(v, "ignore-in-shared-libs")) {
		*objects = REPORT;
		*shlibs = IGNORE;
	}
}

void lk_policy_read(const struct lk_line *line, struct lk_policy *p)
{
	enum mode objects = UNSET, shlibs = UNSET;
	int fatal = 0;

	memset(p, 0, sizeof(*p));
	p->entry = "_start";
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		const char *v = it->ld_value;

		if (it->kind != LK_ITEM_OPTION)
			continue;
		switch (it->ld_option) {
		case LK_LD_SHARED:
			if (objects == UNSET)
				objects = IGNORE;
			if (shlibs == UNSET)
				shlibs = IGNORE;
			break;
		case LK_LD_NO_UNDEFINED: objects = REPORT; break;
		case LK_LD_UNDEFS: objects = IGNORE; break;
		case LK_LD_ALLOW_SHLIB_UNDEFINED: shlibs = IGNORE; break;
		case LK_LD_NO_ALLOW_SHLIB_UNDEFINED: shlibs = REPORT; break;
		case LK_LD_UNRESOLVED_SYMBOLS: unresolved_symbols(v, &objects, &shlibs); break;
		case LK_LD_WARN_UNRESOLVED: p->warn_unresolved = 1; break;
		case LK_LD_ERROR_UNRESOLVED: p->warn_unresolved = 0; break;
		case LK_LD_FATAL_WARNINGS: fatal = 1; break;
		case LK_LD_NO_FATAL_WARNINGS: fatal = 0; break;
		case LK_LD_GC_SECTIONS: p->gc_sections = 1; break;
		case LK_LD_NO_GC_SECTIONS: p->gc_sections = 0; break;
		case LK_LD_EXPORT_DYNAMIC: p->export_dynamic = 1; break;
		case LK_LD_NO_EXPORT_DYNAMIC: p->export_dynamic = 0; break;
		case LK_LD_STATIC: p->static_link = 1; break;
		case LK_LD_ENTRY: p->entry = v; break;
		case LK_LD_REQUIRE_DEFINED:
			lk_strvec_push(&p->roots, v);
			lk_strvec_push(&p->undefined, v);
			lk_strvec_push(&p->required, v);
			break;
		case LK_LD_UNDEFINED:
			lk_strvec_push(&p->roots, v);
			lk_strvec_push(&p->undefined, v);
			break;
		case LK_LD_EXPORT_DYNAMIC_SYMBOL: lk_strvec_push(&p->roots, v); break;
		default: break;
		}
	}
	p->report_objects = objects != IGNORE;
	p->report_shlibs = shlibs != IGNORE;
	/*
	 * --fatal-warnings makes the warning of --warn-unresolved-symbols an
	 * error: each undefined reference it would report fails the link, GNU
	 * ld's ("warning: undefined reference", exit 1) and lld's alike
	 * (checked with GNU ld 2.40, lld 14, mold 1.10: mold.c).
	 */
	if (fatal)
		p->warn_unresolved = 0;
}

void lk_policy_release(struct lk_policy *p)
{
	lk_strvec_release(&p->roots);
	lk_strvec_release(&p->undefined);
	lk_strvec_release(&p->required);
	memset(p, 0, sizeof(*p));
}
