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
 */
#include <string.h>

#include "linkscope/banned.h"
#include "policy.h"

enum mode { UNSET, REPORT, IGNORE };

/* The value of option `name` in `it`: "NAME=V", "NAME V", "-NAMEV" when `joined`; "--x" also as "-x". */
static const char *value_of(const struct lk_line_item *it, const char *name, int joined)
{
	const char *w = it->word;

	for (int pass = 0; pass < 2; pass++) {
		const char *nm = pass ? name + 1 : name;
		size_t n = strlen(nm);

		if (pass && strncmp(name, "--", 2))
			break;
		if (!strcmp(w, nm))
			return it->value;
		if (!strncmp(w, nm, n) && w[n] == '=')
			return w + n + 1;
		if (joined && !pass && !strncmp(w, nm, n) && w[n])
			return w + n;
	}
	return NULL;
}

static int is(const char *w, const char *name)
{
	/* ld takes long options with one dash or two. */
	return !strcmp(w, name) || (name[0] == '-' && name[1] == '-' && !strcmp(w, name + 1));
}

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
	const char *v;

	memset(p, 0, sizeof(*p));
	p->entry = "_start";
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		const char *w = it->word;

		if (it->kind != LK_ITEM_OPTION)
			continue;
		if (!strcmp(w, "-shared") || !strcmp(w, "-Bshareable")) {
			if (objects == UNSET)
				objects = IGNORE;
			if (shlibs == UNSET)
				shlibs = IGNORE;
		} else if (is(w, "--no-undefined")) {
			objects = REPORT;
		} else if ((v = value_of(it, "-z", 1))) {
			if (!strcmp(v, "defs"))
				objects = REPORT;
			else if (!strcmp(v, "undefs"))
				objects = IGNORE;
		} else if (is(w, "--allow-shlib-undefined")) {
			shlibs = IGNORE;
		} else if (is(w, "--no-allow-shlib-undefined")) {
			shlibs = REPORT;
		} else if ((v = value_of(it, "--unresolved-symbols", 0))) {
			unresolved_symbols(v, &objects, &shlibs);
		} else if (is(w, "--warn-unresolved-symbols")) {
			p->warn_unresolved = 1;
		} else if (is(w, "--error-unresolved-symbols")) {
			p->warn_unresolved = 0;
		} else if (is(w, "--gc-sections")) {
			p->gc_sections = 1;
		} else if (is(w, "--no-gc-sections")) {
			p->gc_sections = 0;
		} else if (!strcmp(w, "-E") || is(w, "--export-dynamic")) {
			p->export_dynamic = 1;
		} else if (is(w, "--no-export-dynamic")) {
			p->export_dynamic = 0;
		} else if (!strcmp(w, "-static")) {
			p->static_link = 1;
		} else if ((v = value_of(it, "--entry", 0)) || (v = value_of(it, "-e", 0))) {
			p->entry = v;
		} else if ((v = value_of(it, "--require-defined", 0))) {
			lk_strvec_push(&p->roots, v);
			lk_strvec_push(&p->undefined, v);
			lk_strvec_push(&p->required, v);
		} else if ((v = value_of(it, "--undefined", 0)) || (v = value_of(it, "-u", 0))) {
			lk_strvec_push(&p->roots, v);
			lk_strvec_push(&p->undefined, v);
		} else if ((v = value_of(it, "--export-dynamic-symbol", 0))) {
			lk_strvec_push(&p->roots, v);
		}
	}
	p->report_objects = objects != IGNORE;
	p->report_shlibs = shlibs != IGNORE;
}

void lk_policy_release(struct lk_policy *p)
{
	lk_strvec_release(&p->roots);
	lk_strvec_release(&p->undefined);
	lk_strvec_release(&p->required);
	memset(p, 0, sizeof(*p));
}
