/*
 * Inputs -> symbols -> resolution -> diagnostics: GNU ld's symbol
 * resolution replayed left to right. The symbol table is symtab.c, the
 * sentences explaining each diagnostic explain.c, the fixes fix.c; this
 * file reads the line in ld's order and decides what joins the link.
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
 * Not modelled (notes say so when met): LTO, thin archive members, -r,
 * version scripts' local: under --gc-sections.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "elf.h"
#include "replay.h"
#include "linkscope/vec.h"
#include "certainty.h"
#include "gc.h"
#include "policy.h"
#include "overlay.h"
#include "symtab.h"
#include "trial.h"

const char *lk_diag_kind_name(enum lk_diag_kind kind)
{
	switch (kind) {
	case LK_DIAG_DSO_MISSING: return "dso-missing";
	case LK_DIAG_UNDEFINED: return "undefined-symbol";
	case LK_DIAG_MULTIPLE: return "multiple-definition";
	case LK_DIAG_NOT_FOUND: return "input-not-found";
	}
	LK_BUG("unknown diagnostic kind");
}

/* ---- replay state ---- */

struct needed_entry {
	char *name;
	long by;		/* rinput */
	int copy;		/* --copy-dt-needed-entries was in force */
};

struct open_archive {
	long item;
	struct lk_elf_archive ar;
	char *pulled;		/* per member, for this replay */
	struct lk_sym **armap_syms;	/* the table entry of each armap name, for this replay */
	unsigned char *common_checked;	/* per armap entry: its member does not define the common as data */
	int ok;
};

/* How a replay runs. */
enum replay_mode {
	RP_LLD = 1 << 0,	/* lld's rules: archives anywhere, no --as-needed undo, no DT_NEEDED loading */
	RP_SNAPSHOT = 1 << 1,	/* fork the fix-trial server after the last user item (trial.h) */
	RP_WORKER = 1 << 2,	/* this process is a fix trial, forked from the snapshot */
};

struct rp {
	const struct lk_record *rec;
	const struct lk_line *line;	/* the line, or an overlay of it (an edit's words, a trial's) */
	struct lk_replay *out;
	struct lk_symtab *tab;
	struct { struct needed_entry *items; size_t nr, alloc; } queue;
	struct { struct open_archive *items; size_t nr, alloc; } archives;
	struct { long *items; size_t nr, alloc; } archive_slot;	/* line item -> archives index + 1, 0: none */
	struct lk_strvec kept_sonames;
	size_t first_extra;	/* items from here on are an edit's appended words, read after the last user item */
	unsigned mode;		/* enum replay_mode */
	unsigned rules;		/* enum lk_symtab_rules */
	int versioned_refs;	/* a regular object references a "sym@VER" */
	struct lk_policy policy;
	struct lk_gc *gc;	/* --gc-sections: the sections of the regular inputs, or NULL */
	int rescanning;		/* in a group's rescan: members pulled now are marked so */
	const struct lk_replay_edit *edit;	/* a counterfactual (never NULL: a neutral one for none) */
	struct { struct { struct lk_sym *sym; long input; } *items; size_t nr, alloc; } live_undefined;
	struct lk_strvec start_stop;	/* the regular inputs' sections named like C identifiers */
};

static const struct lk_line_item *item_at(const struct rp *r, long item)
{
	return &r->line->items.items[item];
}

static long add_input(struct rp *r, long item, const char *path, const char *member, int dso)
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

static void note(struct rp *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A note for the report, once. */
static void note(struct rp *r, const char *fmt, ...)
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
static struct lk_diag *new_diag(struct rp *r, enum lk_diag_kind kind, const struct lk_sym *s)
{
	struct lk_diag *d;

	LK_GROW(r->out->diags.items, r->out->diags.nr + 1, r->out->diags.alloc);
	d = &r->out->diags.items[r->out->diags.nr++];
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->symbol = lk_xstrdup(s->name);
	d->ref_input = s->first_ref >= 0 ? s->first_ref : s->first_dyn_ref;
	d->def_input = -1;
	for (const struct lk_symref *ref = s->refs; ref; ref = ref->next) {
		LK_GROW(d->refs.items, d->refs.nr + 1, d->refs.alloc);
		d->refs.items[d->refs.nr++] = ref->input;
	}
	return d;
}

/* ld: "multiple definition of `x'; first defined here", once per symbol. */
static void multiple_definition(struct rp *r, struct lk_sym *s, long second)
{
	struct lk_diag *d;

	if (s->diagnosed)
		return;
	s->diagnosed = 1;
	d = new_diag(r, LK_DIAG_MULTIPLE, s);
	d->def_input = s->def_input;
	d->ref_input = second;
}

/*
 * ld: "undefined reference to symbol" and "DSO missing from command line":
 * a regular object's reference would bind to `version` of `s` in shared
 * object `dso`, which only another's DT_NEEDED brought.
 */
static void dso_missing(struct rp *r, struct lk_sym *s, long dso, const char *version)
{
	struct lk_diag *d;

	if (s->diagnosed)
		return;
	s->diagnosed = 1;
	d = new_diag(r, LK_DIAG_DSO_MISSING, s);
	d->def_input = dso;
	d->version = version ? lk_xstrdup(version) : NULL;
	for (long by = r->out->inputs.items[dso].needed_by; by >= 0; by = r->out->inputs.items[by].needed_by) {
		/* outermost first */
		lk_strvec_push(&d->via, r->out->inputs.items[by].path);
	}
	for (size_t i = 0, j = d->via.nr ? d->via.nr - 1 : 0; i < j; i++, j--) {
		char *t = d->via.items[i];

		d->via.items[i] = d->via.items[j];
		d->via.items[j] = t;
	}
}

/* A regular object (or archive member) joins the link; seen[i] (if not NULL) gets the entry of symbol i. */
static void add_regular(struct rp *r, long input, const struct lk_elf_syms *syms, struct lk_sym **seen)
{
	for (size_t i = 0; i < syms->start_stop.nr; i++)
		lk_strvec_push(&r->start_stop, syms->start_stop.items[i]);
	for (size_t i = 0; i < syms->nr; i++) {
		const struct lk_elf_sym *y = &syms->items[i];
		struct lk_sym *s = lk_symtab_intern(r->tab, y->name);

		if (seen)
			seen[i] = s;
		switch (lk_symtab_add_regular(r->tab, s, y, input, r->rules)) {
		case LK_SYM_MULTIPLE:
			multiple_definition(r, s, input);
			break;
		case LK_SYM_REFERENCED:
			if (strchr(y->name, '@'))
				r->versioned_refs = 1;
			break;
		default:
			break;
		}
	}
}

/* The sections of a regular input, for --gc-sections, its globals mapped to the table by symbol index. */
static void gc_add(struct rp *r, long input, const struct lk_elf_syms *syms, struct lk_sym **seen,
		   struct lk_elf_gc *sections)
{
	size_t n = 0;
	void **by_index;

	for (size_t i = 0; i < syms->nr; i++)
		if (syms->items[i].index >= n)
			n = syms->items[i].index + 1;
	by_index = lk_xcalloc(n + 1, sizeof(*by_index));
	for (size_t i = 0; i < syms->nr; i++)
		by_index[syms->items[i].index] = seen[i];
	lk_gc_add(r->gc, input, sections, by_index, n);
	free(by_index);
	lk_elf_gc_release(sections);
}

/* The symbols (and under --gc-sections the sections) of a regular input read from disk join the link. */
static void join_regular(struct rp *r, long input, struct lk_elf_syms *syms, struct lk_elf_gc *sections)
{
	struct lk_sym **seen = r->gc ? lk_xcalloc(syms->nr + 1, sizeof(*seen)) : NULL;

	add_regular(r, input, syms, seen);
	if (r->gc)
		gc_add(r, input, syms, seen, sections);
	free(seen);
	lk_elf_syms_release(syms);
}

static void read_object(struct rp *r, long item)
{
	const struct lk_line_item *it = item_at(r, item);
	struct lk_elf_syms syms = { 0 };
	struct lk_err err = LK_ERR_INIT;
	struct lk_elf_gc sections;

	/* Relocations are read only under --gc-sections, and only for inputs that join the link. */
	if (lk_elf_read_syms_gc(it->path, &syms, r->gc ? &sections : NULL, &err) < 0) {
		note(r, "%s", err.msg);
		return;
	}
	join_regular(r, add_input(r, item, it->path, NULL, 0), &syms, &sections);
}

static struct open_archive *archive_of(struct rp *r, long item)
{
	struct open_archive *a;
	struct lk_err err = LK_ERR_INIT;

	/* By item, not by a search of the open archives: that was quadratic on long lines. */
	if ((size_t)item < r->archive_slot.nr && r->archive_slot.items[item])
		return &r->archives.items[r->archive_slot.items[item] - 1];
	if ((size_t)item >= r->archive_slot.nr) {
		LK_GROW(r->archive_slot.items, (size_t)item + 1, r->archive_slot.alloc);
		memset(r->archive_slot.items + r->archive_slot.nr, 0,
		       ((size_t)item + 1 - r->archive_slot.nr) * sizeof(long));
		r->archive_slot.nr = (size_t)item + 1;
	}
	LK_GROW(r->archives.items, r->archives.nr + 1, r->archives.alloc);
	r->archive_slot.items[item] = (long)r->archives.nr + 1;
	a = &r->archives.items[r->archives.nr++];
	memset(a, 0, sizeof(*a));
	a->item = item;
	a->ok = lk_elf_archive_open(item_at(r, item)->path, &a->ar, &err) == 0;
	if (!a->ok) {
		note(r, "%s", err.msg);
		return a;
	}
	a->pulled = lk_xcalloc(a->ar.members.nr + 1, 1);
	/* Hash each armap name once; the scans then only test flags. */
	a->armap_syms = lk_xcalloc(a->ar.armap.nr + 1, sizeof(*a->armap_syms));
	for (size_t k = 0; k < a->ar.armap.nr; k++) {
		a->armap_syms[k] = lk_symtab_intern(r->tab, a->ar.armap.items[k].name);
		if (a->armap_syms[k]->armap_item < 0)
			a->armap_syms[k]->armap_item = item;
	}
	return a;
}

static long member_index(const struct open_archive *a, size_t offset)
{
	size_t lo = 0, hi = a->ar.members.nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (a->ar.members.items[mid] == offset)
			return (long)mid;
		if (a->ar.members.items[mid] < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int pull(struct rp *r, struct open_archive *a, long m, const char *why)
{
	struct lk_elf_syms syms = { 0 };
	struct lk_err err = LK_ERR_INIT;
	char *name = NULL;
	struct lk_elf_gc sections;
	long input;

	a->pulled[m] = 1;
	if (lk_elf_archive_member_gc(&a->ar, a->ar.members.items[m], &name, &syms,
				     r->gc ? &sections : NULL, &err) < 0) {
		note(r, "%s", err.msg);
		free(name);
		return 0;
	}
	input = add_input(r, a->item, a->ar.path, name, 0);
	if (why)
		r->out->inputs.items[input].pulled_for = lk_xstrdup(why);
	join_regular(r, input, &syms, &sections);
	free(name);
	return 1;
}

/*
 * A common symbol pulls the member only if the member defines it as
 * global data, not as another common and not as a function
 * (elflink.c elf_link_is_defined_archive_symbol).
 */
static int member_defines_data(struct open_archive *a, size_t k, long m)
{
	struct lk_elf_syms syms = { 0 };
	struct lk_err err = LK_ERR_INIT;
	char *name = NULL;
	int data = 0;

	if (!a->common_checked)
		a->common_checked = lk_xcalloc(a->ar.armap.nr + 1, 1);
	if (a->common_checked[k])
		return 0;
	if (lk_elf_archive_member(&a->ar, a->ar.members.items[m], &name, &syms, &err) == 0)
		for (size_t i = 0; i < syms.nr && !data; i++)
			data = syms.items[i].data_def && !strcmp(syms.items[i].name, a->ar.armap.items[k].name);
	lk_elf_syms_release(&syms);
	free(name);
	a->common_checked[k] = !data;
	return data;
}

/* One scan of an archive as ld does it; returns how many members it pulled. */
static int scan_archive(struct rp *r, long item)
{
	const struct lk_line_item *it = item_at(r, item);
	struct open_archive *a = archive_of(r, item);
	int pulled = 0, again = 1;

	if (!a->ok)
		return 0;
	if (it->state & LK_ST_WHOLE_ARCHIVE) {
		for (size_t m = 0; m < a->ar.members.nr; m++)
			if (!a->pulled[m])
				pulled += pull(r, a, (long)m, NULL);
		return pulled;
	}
	if (!a->ar.has_index && a->ar.members.nr)
		note(r, "'%s' has no symbol index: ld refuses it (\"archive has no index\")", a->ar.path);
	while (again) {
		again = 0;
		for (size_t k = 0; k < a->ar.armap.nr; k++) {
			const struct lk_elf_armap_entry *e = &a->ar.armap.items[k];
			struct lk_sym *s = a->armap_syms[k];
			long m;

			if (s->defined ? !s->common || s->dynamic || (r->mode & RP_LLD) :
					 !(s->ref_regular_strong || s->ref_dynamic_strong))
				continue;
			m = member_index(a, e->offset);
			if (m < 0 || a->pulled[m])
				continue;
			if (s->defined && !member_defines_data(a, k, m))
				continue;
			pulled += pull(r, a, m, e->name);
			again = 1;
		}
	}
	return pulled;
}

static int soname_kept(const struct rp *r, const char *soname)
{
	for (size_t i = 0; i < r->kept_sonames.nr; i++)
		if (!strcmp(r->kept_sonames.items[i], soname))
			return 1;
	return 0;
}

/* Is `soname` in the DT_NEEDED of a shared object already in the link? */
static int on_needed_list(const struct rp *r, const char *soname)
{
	for (size_t i = 0; i < r->queue.nr; i++)
		if (!strcmp(r->queue.items[i].name, soname))
			return 1;
	return 0;
}

/*
 * The table entry of a "sym@VER" reference that the versioned definition
 * `y` of a shared object binds (sym@@VER and sym@VER both do), or NULL.
 */
static struct lk_sym *versioned_ref(struct rp *r, const struct lk_elf_sym *y)
{
	struct lk_buf b = LK_BUF_INIT;
	struct lk_sym *s;

	if (!r->versioned_refs || !y->defined || !y->version)
		return NULL;
	lk_buf_addf(&b, "%s@%s", y->name, y->version);
	s = lk_symtab_lookup(r->tab, b.buf);
	lk_buf_release(&b);
	return s && !s->defined ? s : NULL;
}

/* How a shared object is read (read_dso). */
enum dso_flags {
	DSO_AS_NEEDED = 1 << 0,		/* --as-needed was in force: kept only if needed */
	DSO_NEEDED_ONLY = 1 << 1,	/* loaded only through another's DT_NEEDED */
	DSO_COPY_DT_NEEDED = 1 << 2,	/* --copy-dt-needed-entries in force: its DT_NEEDED may bind regular references */
	/*
	 * A rescan of a group giving a dropped --as-needed library another
	 * chance (ldlang.c open_input_bfds); a second drop is not recorded again.
	 */
	DSO_RELOAD = 1 << 3,
};

/* A shared object to read. */
struct dso_read {
	long item;			/* line item, or -1 for a DT_NEEDED-only library */
	const char *path;
	const struct lk_elf_info *info;
	long needed_by;			/* rinput whose DT_NEEDED brought it, or -1 */
	unsigned flags;			/* enum dso_flags */
};

/*
 * Under --as-needed: does `y` make the shared object `soname` needed here?
 * The ld manual: when it satisfies a regular object's reference or, unless
 * a needed library's DT_NEEDED already names it, another needed library's
 * non-weak reference.
 */
static int needed_for(const struct rp *r, const struct lk_sym *s, const char *soname)
{
	return s && !s->defined &&
	       (s->ref_regular_strong || (s->ref_dynamic_strong && !on_needed_list(r, soname)));
}

static struct lk_sym *default_def_entry(const struct rp *r, const struct lk_elf_sym *y)
{
	return y->defined && !y->hidden_version ? lk_symtab_lookup(r->tab, y->name) : NULL;
}

static void add_rdef(struct rp *r, struct lk_rdefs *defs, const struct lk_elf_sym *y)
{
	LK_GROW(defs->items, defs->nr + 1, defs->alloc);
	defs->items[defs->nr].name = lk_symtab_strdup(r->tab, y->name);
	defs->items[defs->nr++].version = y->version ? lk_symtab_strdup(r->tab, y->version) : NULL;
}

/* A shared object under --as-needed that nothing needs: its symbols are undone, what it had is kept aside. */
static void drop_dso(struct rp *r, long input, const struct lk_elf_syms *syms)
{
	struct lk_rinput *in = &r->out->inputs.items[input];

	in->dropped = 1;
	for (size_t i = 0; i < syms->nr; i++) {
		if (!syms->items[i].defined)
			continue;
		add_rdef(r, &in->dropped_defs, &syms->items[i]);
		/* lld keeps it: remember what it would have defined (undefined_everywhere). */
		if (!syms->items[i].hidden_version)
			lk_symtab_intern(r->tab, syms->items[i].name)->dropped_def = 1;
	}
}

/* A shared object's symbols join the link: its definitions bind what is still undefined. */
static void bind_dso(struct rp *r, long input, const struct lk_elf_syms *syms, int needed_only)
{
	struct lk_rinput *in = &r->out->inputs.items[input];

	for (size_t i = 0; i < syms->nr; i++) {
		const struct lk_elf_sym *y = &syms->items[i];
		struct lk_sym *s;

		if ((s = versioned_ref(r, y))) {
			/* "sym@VER" in a regular object binds to this version only. */
			s->defined = 1;
			s->dynamic = 1;
			s->needed_only = needed_only;
			s->def_input = input;
			s->version = lk_symtab_strdup(r->tab, y->version);
		}
		if (y->defined && y->hidden_version) {
			/* An old version: no new reference binds it, which an explanation may say. */
			add_rdef(r, &in->old_defs, y);
			continue;
		}
		s = lk_symtab_intern(r->tab, y->name);
		if (!y->defined)
			s->ref_dynamic = 1;
		if (y->defined) {
			if (s->defined)
				continue;
			if (needed_only && s->ref_regular_strong)
				dso_missing(r, s, input, y->version);
			s->defined = 1;
			s->dynamic = 1;
			s->needed_only = needed_only;
			s->weak_def = y->weak;
			s->def_input = input;
			s->version = y->version ? lk_symtab_strdup(r->tab, y->version) : NULL;
		} else if (!y->weak && !s->defined) {
			s->ref_dynamic_strong = 1;
			if (s->first_dyn_ref < 0)
				s->first_dyn_ref = input;
		}
	}
}

/* A shared object joins the link (or, under --as-needed, maybe not). Returns 1 when it joined now. */
static int read_dso(struct rp *r, const struct dso_read *d)
{
	struct lk_elf_syms syms = { 0 };
	struct lk_err err = LK_ERR_INIT;
	const char *soname = d->info->soname ? d->info->soname : lk_path_base(d->path);
	struct lk_strvec kept_for = LK_STRVEC_INIT;
	int as_needed = (d->flags & DSO_AS_NEEDED) != 0;
	/* lld keeps every shared object's symbols; --as-needed only drops DT_NEEDED. */
	int needed = !as_needed || (r->mode & RP_LLD);
	long input;

	if (soname_kept(r, soname))
		return 0;
	if (lk_elf_read_syms(d->path, &syms, &err) < 0) {
		note(r, "%s", err.msg);
		return 0;
	}
	for (size_t i = 0; i < syms.nr && !needed; i++) {
		const struct lk_elf_sym *y = &syms.items[i];
		struct lk_sym *s = default_def_entry(r, y);

		needed = needed_for(r, s, soname);
		if (!needed && (s = versioned_ref(r, y)))
			needed = s->ref_regular_strong;
	}
	if (needed && as_needed && !(r->mode & RP_LLD)) {
		/* Every symbol that makes it needed here, for fragility.c. */
		for (size_t i = 0; i < syms.nr; i++)
			if (needed_for(r, default_def_entry(r, &syms.items[i]), soname))
				lk_strvec_push(&kept_for, syms.items[i].name);
	}
	if (!needed && (d->flags & DSO_RELOAD)) {
		lk_elf_syms_release(&syms);
		return 0;
	}
	input = add_input(r, d->item, d->path, NULL, 1);
	r->out->inputs.items[input].kept_for = kept_for;
	r->out->inputs.items[input].needed_only = (d->flags & DSO_NEEDED_ONLY) != 0;
	r->out->inputs.items[input].needed_by = d->needed_by;
	if (!needed) {
		drop_dso(r, input, &syms);
		lk_elf_syms_release(&syms);
		return 0;
	}
	lk_strvec_push(&r->kept_sonames, soname);
	bind_dso(r, input, &syms, (d->flags & DSO_NEEDED_ONLY) != 0);
	for (size_t i = 0; i < d->info->needed.nr; i++) {
		struct needed_entry *q;

		LK_GROW(r->queue.items, r->queue.nr + 1, r->queue.alloc);
		q = &r->queue.items[r->queue.nr++];
		q->name = lk_xstrdup(d->info->needed.items[i]);
		q->by = input;
		q->copy = (d->flags & DSO_COPY_DT_NEEDED) != 0;
	}
	lk_elf_syms_release(&syms);
	return 1;
}

/* A shared object item of the line, read at its place (or again in a group's rescan). */
static int read_dso_item(struct rp *r, long item, unsigned flags)
{
	const struct lk_line_item *it = item_at(r, item);
	struct dso_read d = { item, it->path, &it->info, -1, flags };

	if (it->state & LK_ST_AS_NEEDED)
		d.flags |= DSO_AS_NEEDED;
	if ((it->state & LK_ST_COPY_DT_NEEDED) && !(r->edit->flags & LK_EDIT_NO_COPY_DT_NEEDED))
		d.flags |= DSO_COPY_DT_NEEDED;
	return read_dso(r, &d);
}

static void read_children(struct rp *r, long item);

static void read_item(struct rp *r, long item)
{
	const struct lk_line_item *it = item_at(r, item);

	if (item == r->edit->unref_until_item)
		r->rules &= ~(unsigned)LK_RULE_UNREF;

	if (it->kind != LK_ITEM_FILE && it->kind != LK_ITEM_LIB)
		return;
	switch (it->info.kind) {
	case LK_FILE_OBJECT:
		read_object(r, item);
		break;
	case LK_FILE_ARCHIVE:
	case LK_FILE_RLIB:
		scan_archive(r, item);
		break;
	case LK_FILE_SHARED:
		read_dso_item(r, item, 0);
		break;
	case LK_FILE_TEXT:
		read_children(r, item);
		break;
	case LK_FILE_MISSING:
		/* The line model reports these; ld stops at them. */
		break;
	default:
		note(r, "'%s' (%s) is not replayed", it->path ? it->path : it->word,
		     lk_file_kind_name(it->info.kind));
	}
}

/*
 * One rescan of an item of a group: an archive, an --as-needed shared
 * object dropped so far (ldlang.c: "Likewise reload --as-needed shared
 * libs"), or a linker script, whose inputs (as -lc's and -lm's GROUP and
 * AS_NEEDED ones) ld walks again as statements of the outer group.
 * Returns how many inputs joined the link.
 */
static int rescan_item(struct rp *r, long item)
{
	const struct lk_line_item *it = item_at(r, item);
	int pulled = 0;

	if (it->info.kind == LK_FILE_ARCHIVE || it->info.kind == LK_FILE_RLIB)
		return scan_archive(r, item);
	if (it->info.kind == LK_FILE_SHARED && (it->state & LK_ST_AS_NEEDED))
		return read_dso_item(r, item, DSO_RELOAD);
	if (it->info.kind != LK_FILE_TEXT)
		return 0;
	for (size_t k = 0; k < r->line->items.nr; k++)
		if (r->line->items.items[k].parent == item)
			pulled += rescan_item(r, (long)k);
	return pulled;
}

/* Rescan a group until a whole pass adds nothing. */
static void rescan_group(struct rp *r, const long *members, size_t n)
{
	int pulled = 1, outer = r->rescanning;

	r->rescanning = 1;
	while (pulled) {
		pulled = 0;
		for (size_t i = 0; i < n; i++)
			pulled += rescan_item(r, members[i]);
	}
	r->rescanning = outer;
}

static void read_children(struct rp *r, long item)
{
	struct { long *items; size_t nr, alloc; } group = { NULL, 0, 0 };
	const struct lk_line *line = r->line;

	for (size_t k = 0; k < line->items.nr; k++) {
		if (line->items.items[k].parent != item)
			continue;
		read_item(r, (long)k);
		if (line->items.items[k].script_group) {
			LK_GROW(group.items, group.nr + 1, group.alloc);
			group.items[group.nr++] = (long)k;
		}
	}
	rescan_group(r, group.items, group.nr);
	free(group.items);
}

static int is_extra(const struct rp *r, size_t i)
{
	return i >= r->first_extra;
}

/* The top-level items an edit appended, in order. */
static void read_extras(struct rp *r)
{
	for (size_t i = r->first_extra; i < r->line->items.nr; i++)
		if (r->line->items.items[i].parent < 0)
			read_item(r, (long)i);
}

/*
 * The fix-trial snapshot (trial.c): returns at once in the analyzer; in a
 * trial worker, after reading the trial's arguments (resolved in an
 * overlay of the line, which the worker keeps until it exits), so the
 * worker replays the rest of the line as the original would have.
 */
static void take_checkpoint(struct rp *r)
{
	struct lk_trial_server *srv = lk_xcalloc(1, sizeof(*srv));
	struct lk_strvec words = LK_STRVEC_INIT;
	struct lk_overlay *ov;
	size_t first;

	r->mode &= ~(unsigned)RP_SNAPSHOT;
	lk_trial_start(srv, &words);
	r->out->trials = srv;
	if (!srv->worker)
		return;
	r->mode |= RP_WORKER;
	ov = lk_xcalloc(1, sizeof(*ov));
	lk_overlay_open(ov, r->rec, r->line, &words);
	first = r->line->items.nr;
	r->line = &ov->view;
	for (size_t i = first; i < r->line->items.nr; i++)
		if (r->line->items.items[i].parent < 0)
			read_item(r, (long)i);
	lk_strvec_release(&words);
}

/* The top-level items in reading order, with groups rescanned at their end. */
static void read_line(struct rp *r)
{
	const struct lk_line *line = r->line;
	struct { long *items; size_t nr, alloc; } group = { NULL, 0, 0 };
	long last_user = -1;
	int in_group = 0;
	size_t nr = line->items.nr;	/* a fix trial worker's overlay adds items: they are read at the snapshot */

	for (size_t i = 0; i < nr; i++)
		if (line->items.items[i].parent < 0 && line->items.items[i].position >= 0 && !is_extra(r, i))
			last_user = (long)i;
	for (size_t i = 0; i < nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->parent >= 0 || is_extra(r, i) ||
		    (r->edit->skip_position >= 0 && it->position == r->edit->skip_position))
			continue;
		if ((it->kind == LK_ITEM_GROUP_START || it->kind == LK_ITEM_GROUP_END) &&
		    (r->edit->flags & LK_EDIT_NO_GROUPS)) {
			continue;
		} else if (it->kind == LK_ITEM_GROUP_START) {
			in_group = 1;
			group.nr = 0;
		} else if (it->kind == LK_ITEM_GROUP_END && in_group) {
			rescan_group(r, group.items, group.nr);
			in_group = 0;
		} else {
			read_item(r, (long)i);
			if (in_group) {
				LK_GROW(group.items, group.nr + 1, group.alloc);
				group.items[group.nr++] = (long)i;
			}
		}
		if ((long)i == last_user) {
			read_extras(r);
			if (r->mode & RP_SNAPSHOT)
				take_checkpoint(r);
		}
	}
	if (in_group)
		rescan_group(r, group.items, group.nr);
	free(group.items);
	if (r->mode & RP_LLD) {
		/* lld: an archive anywhere on the line satisfies a reference from anywhere. */
		struct { long *items; size_t nr, alloc; } all = { NULL, 0, 0 };

		for (size_t i = 0; i < r->archives.nr; i++) {
			LK_GROW(all.items, all.nr + 1, all.alloc);
			all.items[all.nr++] = r->archives.items[i].item;
		}
		rescan_group(r, all.items, all.nr);
		free(all.items);
	}
}

static const char *needed_path(const struct lk_line *line, const char *name)
{
	for (size_t i = 0; i < line->needed.nr; i++)
		if (!strcmp(line->needed.items[i].name, name) && line->needed.items[i].path)
			return line->needed.items[i].path;
	return NULL;
}

/* ldelf_after_open: the libraries that only DT_NEEDED names. */
static void load_needed(struct rp *r)
{
	for (size_t q = 0; q < r->queue.nr; q++) {
		struct needed_entry e = r->queue.items[q];
		struct dso_read d = { -1, NULL, NULL, e.by, e.copy ? DSO_COPY_DT_NEEDED : DSO_NEEDED_ONLY };
		struct lk_elf_info info;

		if (soname_kept(r, e.name))
			continue;
		d.path = needed_path(r->line, e.name);
		if (!d.path) {
			note(r, "%s, needed by a shared object on the line, is not found (ld warns \"try using -rpath or -rpath-link\")",
			     e.name);
			continue;
		}
		lk_elf_identify(d.path, &info);
		d.info = &info;
		if (info.kind == LK_FILE_SHARED)
			read_dso(r, &d);
		lk_elf_info_release(&info);
	}
}

/* ---- the end of the line: ld's checks ---- */

/* Symbols GNU ld defines itself (its default linker script and ELF backend). */
static int linker_defined(const char *name)
{
	static const char *const names[] = {
		"_GLOBAL_OFFSET_TABLE_", "_DYNAMIC", "__ehdr_start", "__executable_start",
		"__bss_start", "_edata", "edata", "_end", "end", "_etext", "etext", "__etext",
		"__init_array_start", "__init_array_end", "__fini_array_start", "__fini_array_end",
		"__preinit_array_start", "__preinit_array_end", "__rela_iplt_start",
		"__rela_iplt_end", "__rel_iplt_start", "__rel_iplt_end", "__GNU_EH_FRAME_HDR",
		"_PROCEDURE_LINKAGE_TABLE_", "__dso_handle", "_TLS_MODULE_BASE_",
		"__data_start", "data_start", "_fdata", "__global_pointer$", NULL,
	};

	/* __start_SEC and __stop_SEC for any section named like a C identifier. */
	if (!strncmp(name, "__start_", 8) || !strncmp(name, "__stop_", 7))
		return 1;
	for (const char *const *n = names; *n; n++)
		if (!strcmp(name, *n))
			return 1;
	return 0;
}

/* __start_X / __stop_X exist only when a regular input has a section X. */
static int start_stop_missing(const struct rp *r, const char *name)
{
	const char *x = !strncmp(name, "__start_", 8) ? name + 8 : !strncmp(name, "__stop_", 7) ? name + 7 : NULL;

	if (!x)
		return 0;
	for (size_t i = 0; i < r->start_stop.nr; i++)
		if (!strcmp(r->start_stop.items[i], x))
			return 0;
	return 1;
}

/*
 * ld's two checks at the end (lk_policy says which are on): a relocation
 * against a symbol left undefined (not only weakly) fails the link when it
 * sits in a section that stays; a shared object's strong reference fails it
 * when no regular object references the symbol, or under --gc-sections
 * (elflink.c elf_link_output_extsym).
 */
static void final_checks(struct rp *r)
{
	const struct lk_policy *p = &r->policy;
	int static_exe = p->static_link && !r->line->shared;
	struct lk_sym *s;
	size_t cursor = 0;

	for (size_t i = 0; i < p->required.nr; i++) {
		s = lk_symtab_lookup(r->tab, p->required.items[i]);

		/* ld: "required symbol `x' not defined". */
		if (s && !s->defined && !s->diagnosed) {
			s->diagnosed = 1;
			new_diag(r, LK_DIAG_UNDEFINED, s);
		}
	}
	if (p->warn_unresolved)
		return;
	while ((s = lk_symtab_next(r->tab, &cursor))) {
		int referenced, strong;

		if (s->defined || s->diagnosed || (linker_defined(s->name) && !start_stop_missing(r, s->name)))
			continue;
		/* A static executable's TLS accesses are all relaxed to local-exec: no call is left. */
		if (static_exe && !strcmp(s->name, "__tls_get_addr"))
			continue;
		/* lld does not load DT_NEEDED libraries, so it cannot judge shared objects' own references. */
		if ((r->mode & RP_LLD) && !s->ref_regular_strong)
			continue;
		referenced = r->gc ? s->gc_live : s->nrefs > 0;
		strong = s->ref_regular_strong || s->ref_dynamic_strong;
		if (referenced && strong && p->report_objects) {
			struct lk_diag *d = new_diag(r, LK_DIAG_UNDEFINED, s);

			for (size_t k = 0; k < r->live_undefined.nr; k++)
				if (r->live_undefined.items[k].sym == s)
					d->ref_input = r->live_undefined.items[k].input;
		} else if (s->ref_dynamic_strong && p->report_shlibs && (!s->nrefs || r->gc)) {
			new_diag(r, LK_DIAG_UNDEFINED, s);
		}
	}
}

/* ld stops at an input it cannot open, a script's member too; so does the prediction. */
static void inputs_not_found(struct rp *r)
{
	const struct lk_line *line = r->line;

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		struct lk_diag *d;

		if ((it->kind != LK_ITEM_LIB && it->kind != LK_ITEM_FILE) || it->info.kind != LK_FILE_MISSING)
			continue;
		r->out->success = 0;
		LK_GROW(r->out->diags.items, r->out->diags.nr + 1, r->out->diags.alloc);
		d = &r->out->diags.items[r->out->diags.nr++];
		memset(d, 0, sizeof(*d));
		d->kind = LK_DIAG_NOT_FOUND;
		d->symbol = lk_xstrdup(it->word);
		d->ref_input = d->def_input = -1;
		if (it->kind == LK_ITEM_FILE && !it->note)
			note(r, "'%s' cannot be read now (gone, or the record comes from another machine): the replay treats it as ld would, as missing",
			     it->word);
	}
}

/* ---- section garbage collection: the replay's symbols seen by gc.c ---- */

static const char *gc_name(void *ctx, void *sym)
{
	(void)ctx;
	return ((struct lk_sym *)sym)->name;
}

static long gc_definer(void *ctx, void *sym, uint32_t *section)
{
	const struct lk_sym *s = sym;

	(void)ctx;
	*section = s->def_section;
	return s->defined && !s->dynamic ? s->def_input : -1;
}

static void gc_live(void *ctx, void *sym, long input)
{
	struct rp *r = ctx;
	struct lk_sym *s = sym;

	/* The first live reference of a symbol still undefined, for its diagnostic (few; kept aside). */
	if (!s->gc_live && !s->defined) {
		LK_GROW(r->live_undefined.items, r->live_undefined.nr + 1, r->live_undefined.alloc);
		r->live_undefined.items[r->live_undefined.nr].sym = s;
		r->live_undefined.items[r->live_undefined.nr++].input = input;
	}
	s->gc_live = 1;
}

/* The sections that define `name`, if a regular object does: a root. */
static void gc_keep_symbol(struct rp *r, const char *name)
{
	struct lk_sym *s = lk_symtab_lookup(r->tab, name);

	if (s && s->defined && !s->dynamic)
		lk_gc_keep(r->gc, s->def_input, s->def_section);
}

/*
 * bfd's roots that come from symbols (_bfd_elf_gc_keep and
 * bfd_elf_gc_mark_dynamic_ref_symbol): the entry, -u and the like, and when
 * the output has dynamic sections, every visible definition a shared object
 * references or, with -shared or -E, exports.
 */
static void collect_sections(struct rp *r)
{
	int dynamic = !r->policy.static_link || r->line->pie || r->line->shared;
	int export_all = r->line->shared || r->policy.export_dynamic;
	size_t removed, total, cursor = 0;
	const struct lk_sym *s;

	gc_keep_symbol(r, r->policy.entry);
	for (size_t i = 0; i < r->policy.roots.nr; i++)
		gc_keep_symbol(r, r->policy.roots.items[i]);
	while (dynamic && (s = lk_symtab_next(r->tab, &cursor))) {
		if (s->defined && !s->dynamic && !s->def_hidden && s->def_section &&
		    (export_all || s->ref_dynamic))
			lk_gc_keep(r->gc, s->def_input, s->def_section);
	}
	for (size_t i = 0; i < r->line->items.nr && export_all; i++)
		if (r->line->items.items[i].ld_option == LK_LD_VERSION_SCRIPT)
			note(r, "--gc-sections with a version script: symbols it makes local are still taken as exported roots (not modelled), so fewer sections are collected than ld collects");
	lk_gc_run(r->gc);
	lk_gc_counts(r->gc, &removed, &total);
	note(r, "--gc-sections: %zu of %zu sections of the regular inputs are collected; references made only from them do not count (bfd's roots: entry %s, -u, exports, KEEP sections)",
	     removed, total, r->policy.entry);
}

/* ---- one replay ---- */

static int allows_multiple(const struct lk_line *line)
{
	for (size_t i = 0; i < line->items.nr; i++)
		if (line->items.items[i].ld_option == LK_LD_MULDEFS)
			return 1;
	return 0;
}

static void rp_release(struct rp *r)
{
	for (size_t i = 0; i < r->queue.nr; i++)
		free(r->queue.items[i].name);
	free(r->queue.items);
	for (size_t i = 0; i < r->archives.nr; i++) {
		if (r->archives.items[i].ok)
			lk_elf_archive_close(&r->archives.items[i].ar);
		free(r->archives.items[i].pulled);
		free(r->archives.items[i].armap_syms);
		free(r->archives.items[i].common_checked);
	}
	lk_gc_free(r->gc);
	free(r->live_undefined.items);
	lk_strvec_release(&r->start_stop);
	lk_policy_release(&r->policy);
	free(r->archives.items);
	free(r->archive_slot.items);
	lk_strvec_release(&r->kept_sonames);
}

/*
 * An undefined symbol that an archive read before its reference defines:
 * the archive, for the explanation and the fix (ld does not go back).
 */
static void archives_defining(struct lk_replay *out, const struct lk_line *line)
{
	for (size_t i = 0; i < out->diags.nr; i++) {
		struct lk_diag *d = &out->diags.items[i];
		const struct lk_sym *s = d->kind == LK_DIAG_UNDEFINED ? lk_symtab_lookup(out->symtab, d->symbol) : NULL;

		if (s && s->armap_item >= 0)
			d->defined_path = lk_xstrdup(line->items.items[s->armap_item].path);
	}
}

/* One replay of `line` (its items from `first_extra` on appended by an edit) into `out`; the table goes to `out`. */
static void replay_core(const struct lk_record *rec, const struct lk_line *line, size_t first_extra,
			unsigned mode, const struct lk_replay_edit *edit, struct lk_replay *out)
{
	struct rp r;

	memset(&r, 0, sizeof(r));
	r.rec = rec;
	r.line = line;
	r.out = out;
	r.tab = lk_symtab_new();
	r.edit = edit;
	r.first_extra = first_extra;
	r.mode = mode;
	if (edit->unref) {
		for (size_t i = 0; i < edit->unref->nr; i++)
			lk_symtab_intern(r.tab, edit->unref->items[i])->unref = 1;
		r.rules |= LK_RULE_UNREF;
	}
	lk_policy_read(line, &r.policy);
	if (r.policy.gc_sections) {
		struct lk_gc_host host = { &r, gc_name, gc_definer, gc_live };

		r.gc = lk_gc_new(&host);
	}
	if (allows_multiple(line))
		r.rules |= LK_RULE_ALLOW_MULTIPLE;
	for (size_t i = 0; i < r.policy.undefined.nr; i++)
		lk_symtab_intern(r.tab, r.policy.undefined.items[i])->ref_regular_strong = 1;	/* ld's lang_place_undefineds */
	read_line(&r);
	if (!(mode & RP_LLD))
		load_needed(&r);
	if (r.gc)
		collect_sections(&r);
	final_checks(&r);
	out->success = out->diags.nr == 0;
	inputs_not_found(&r);
	if (r.mode & RP_WORKER) {
		/* A fix trial: its outcome is all the parent needs. */
		struct lk_strvec left = LK_STRVEC_INIT;

		lk_replay_remaining(out, &left);
		lk_trial_reply(out->trials, out->success, &left);
	}
	out->symtab = r.tab;
	archives_defining(out, r.line);
	rp_release(&r);
}

/* The neutral edit: nothing changed. */
static const struct lk_replay_edit no_edit = { -1, 0, NULL, -1, NULL };

static int copies_dt_needed(const struct lk_line *line)
{
	for (size_t i = 0; i < line->items.nr; i++)
		if (line->items.items[i].state & LK_ST_COPY_DT_NEEDED)
			return 1;
	return 0;
}

/* lld and mold reject GNU ld's --copy-dt-needed-entries (and --add-needed) as unknown options. */
static const struct lk_line_item *lld_rejects(const struct lk_line *line)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->ld_option == LK_LD_COPY_DT_NEEDED)
			return it;
	}
	return NULL;
}

/*
 * Does a regular object reference, strongly, a symbol that no input on
 * the line defines at all (no armap names it, no shared object read
 * defines it, not even one --as-needed dropped)? Then lld's rules, which
 * read a superset of GNU ld's inputs, fail the link as well.
 */
static int undefined_everywhere(const struct lk_replay *out)
{
	const struct lk_sym *s;
	size_t cursor = 0;

	while ((s = lk_symtab_next(out->symtab, &cursor))) {
		if (!s->defined && s->ref_regular_strong && s->armap_item < 0 && !s->dropped_def &&
		    !linker_defined(s->name)) {
			for (size_t k = 0; k < out->diags.nr; k++)
				if (out->diags.items[k].kind == LK_DIAG_UNDEFINED && !strcmp(out->diags.items[k].symbol, s->name))
					return 1;
		}
	}
	return 0;
}

int lk_replay_run(const struct lk_record *rec, const struct lk_line *line, unsigned flags,
		  struct lk_replay *out, struct lk_err *err)
{
	const struct lk_line_item *rejected;
	struct lk_replay lld;

	(void)err;
	memset(out, 0, sizeof(*out));
	replay_core(rec, line, line->items.nr, (flags & LK_REPLAY_SNAPSHOT) ? RP_SNAPSHOT : 0, &no_edit, out);
	if ((rejected = lld_rejects(line))) {
		struct lk_buf n = LK_BUF_INIT;

		lk_buf_addf(&n, "lld and mold reject %s (at %ld) as an unknown option: with them (rustc's default rust-lld too) this line fails before reading any input",
			    rejected->word, rejected->position);
		lk_strvec_push_owned(&out->notes, lk_buf_detach(&n));
		out->lld_success = 0;
	} else if (out->success && !copies_dt_needed(line)) {
		/*
		 * lld's rules read every archive member and shared object GNU
		 * ld's do; only libraries reached through DT_NEEDED, which lld
		 * never loads, could make a difference, and without
		 * --copy-dt-needed-entries GNU ld refuses to bind regular
		 * references to those anyway. So the link succeeds under both.
		 */
		out->lld_success = 1;
	} else if (undefined_everywhere(out)) {
		/* lld reads a superset of what GNU ld read; a symbol no input defines stays undefined. */
		out->lld_success = 0;
	} else {
		memset(&lld, 0, sizeof(lld));
		replay_core(rec, line, line->items.nr, RP_LLD, &no_edit, &lld);
		out->lld_success = lld.success;
		lk_replay_release(&lld);
	}
	/* Whether a failure is a prediction at all (certainty.c): when not, the fix stage offers none. */
	out->unknown = lk_certainty_unknown(rec, line, out);
	return 0;
}

void lk_replay_edited(const struct lk_record *rec, const struct lk_line *line,
		      const struct lk_replay_edit *edit, struct lk_replay *out)
{
	struct lk_overlay ov;

	memset(out, 0, sizeof(*out));
	if (!edit->append || !edit->append->nr) {
		replay_core(rec, line, line->items.nr, 0, edit, out);
		return;
	}
	lk_overlay_open(&ov, rec, line, edit->append);
	replay_core(rec, &ov.view, line->items.nr, 0, edit, out);
	lk_overlay_close(&ov);
}

int lk_replay_outcome(const struct lk_record *rec, const struct lk_line *line,
		      const char *append, long skip_position)
{
	struct lk_strvec words = LK_STRVEC_INIT;
	struct lk_replay_edit edit = no_edit;
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
	free(d->refs.items);
	lk_strvec_release(&d->via);
	memset(d, 0, sizeof(*d));
}

void lk_replay_release(struct lk_replay *r)
{
	free(r->unknown);
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
	lk_symtab_free(r->symtab);
	memset(r, 0, sizeof(*r));
}
