/*
 * Inputs -> symbols -> resolution -> diagnostics: GNU ld's symbol
 * resolution replayed left to right.
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

#include "linkscope/arena.h"
#include "linkscope/banned.h"
#include "hash.h"
#include "linkscope/buf.h"
#include "demangle.h"
#include "elf.h"
#include "replay.h"
#include "linkscope/vec.h"
#include "certainty.h"
#include "gc.h"
#include "policy.h"
#include "cause.h"
#include "resolve.h"
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

/* ---- the symbol table ---- */

/* A regular input that references a symbol (a list in the table's arena). */
struct ref {
	long input;
	struct ref *next;
};

struct sym {
	const char *name;	/* in the table's arena */
	unsigned defined : 1, weak_def : 1, dynamic : 1, needed_only : 1, mergeable : 1;
	unsigned ref_regular_strong : 1, ref_dynamic_strong : 1, missing_reported : 1;
	unsigned common : 1;	/* the definition is a common symbol (SHN_COMMON) */
	unsigned ref_dynamic : 1;	/* a shared object in the link references it (weakly or not) */
	unsigned gc_live : 1;	/* --gc-sections: a section that stays references it */
	unsigned dropped_def : 1;	/* a shared object dropped by --as-needed defines it */
	unsigned unref : 1;	/* a counterfactual leaves out its early references (lk_replay_edit) */
	unsigned def_hidden : 1;	/* a regular definition with hidden or internal visibility */
	uint32_t def_section;	/* a regular definition's section index in def_input, 0 if none */
	long def_input;
	const char *version;	/* in the table's arena */
	long first_ref;		/* first regular input with a strong reference */
	long first_dyn_ref;	/* first shared object with a strong reference */
	long armap_item;	/* the first archive item whose armap names it, or -1 */
	struct ref *refs, **refs_tail;	/* regular inputs referencing it, in order */
	size_t nrefs;
};

/* Open addressing; each slot keeps its hash so a probe rarely touches the entry. */
struct slot {
	uint64_t hash;
	struct sym *sym;
};

struct table {
	struct slot *slots;
	size_t cap, nr;
	struct lk_arena arena;	/* entries, names and reference lists */
};

static struct slot *slot(struct table *t, const char *name, uint64_t h)
{
	size_t i = (size_t)h & (t->cap - 1);

	while (t->slots[i].sym && (t->slots[i].hash != h || strcmp(t->slots[i].sym->name, name)))
		i = (i + 1) & (t->cap - 1);
	return &t->slots[i];
}

static struct sym *lookup(struct table *t, const char *name)
{
	return t->cap ? slot(t, name, lk_hash_str(name))->sym : NULL;
}

static struct sym *intern(struct table *t, const char *name)
{
	uint64_t h = lk_hash_str(name);
	struct slot *s;

	if ((t->nr + 1) * 10 >= t->cap * 7) {
		size_t cap = t->cap ? t->cap * 2 : 4096;
		struct table bigger = { lk_xcalloc(cap, sizeof(struct slot)), cap, t->nr, t->arena };

		for (size_t i = 0; i < t->cap; i++)
			if (t->slots[i].sym)
				*slot(&bigger, t->slots[i].sym->name, t->slots[i].hash) = t->slots[i];
		free(t->slots);
		*t = bigger;
	}
	s = slot(t, name, h);
	if (!s->sym) {
		s->hash = h;
		s->sym = lk_arena_alloc(&t->arena, sizeof(*s->sym));
		s->sym->name = lk_arena_strdup(&t->arena, name);
		s->sym->def_input = s->sym->first_ref = s->sym->first_dyn_ref = -1;
		s->sym->armap_item = -1;
		s->sym->refs_tail = &s->sym->refs;
		t->nr++;
	}
	return s->sym;
}

static void table_release(struct table *t)
{
	free(t->slots);
	lk_arena_release(&t->arena);
	memset(t, 0, sizeof(*t));
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
	struct sym **armap_syms;	/* the table entry of each armap name, for this replay */
	unsigned char *common_checked;	/* per armap entry: its member does not define the common as data */
	int ok;
};

struct rp {
	const struct lk_record *rec;
	struct lk_line *line;
	struct lk_replay *out;
	struct table tab;
	struct { struct needed_entry *items; size_t nr, alloc; } queue;
	struct { struct open_archive *items; size_t nr, alloc; } archives;
	struct { long *items; size_t nr, alloc; } archive_slot;	/* line item -> archives index + 1, 0: none */
	struct lk_strvec kept_sonames;
	long extra_item;	/* appended items to read after the last user item, or -1 ... */
	size_t extra_nr;	/* ... extra_nr of them from extra_item on */
	int checkpoint;		/* fork the fix-trial server after the last user item */
	int worker;		/* this process is a fix trial (trial.c) */
	long skip_position;	/* top-level items from this driver position are not read, or -1 */
	int no_multiple;	/* --allow-multiple-definition / -z muldefs */
	int lld;		/* lld's rules: archives anywhere, no --as-needed undo, no DT_NEEDED loading */
	int versioned_refs;	/* a regular object references a "sym@VER" */
	struct lk_policy policy;
	struct lk_gc *gc;	/* --gc-sections: the sections of the regular inputs, or NULL */
	int rescanning;		/* in a group's rescan: members pulled now are marked so */
	const struct lk_replay_edit *edit;	/* a counterfactual, or NULL */
	int unref_active;	/* edit->unref applies until edit->unref_until_item is read */
	struct { struct { struct sym *sym; long input; } *items; size_t nr, alloc; } live_undefined;
	struct lk_strvec start_stop;	/* the regular inputs' sections named like C identifiers */
};

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

/* A regular object (or archive member) joins the link. */
static struct lk_diag *new_diag(struct rp *r, enum lk_diag_kind kind, const struct sym *s);

/* ld: "multiple definition of `x'; first defined here", once per symbol. */
static void multiple_definition(struct rp *r, struct sym *s, long second)
{
	struct lk_diag *d;

	if (s->missing_reported)
		return;
	s->missing_reported = 1;
	d = new_diag(r, LK_DIAG_MULTIPLE, s);
	d->def_input = s->def_input;
	d->ref_input = second;
}

/* A regular object (or archive member) joins the link; seen[i] (if not NULL) gets the entry of symbol i. */
static void add_regular(struct rp *r, long input, const struct lk_elf_syms *syms, struct sym **seen)
{
	for (size_t i = 0; i < syms->start_stop.nr; i++)
		lk_strvec_push(&r->start_stop, syms->start_stop.items[i]);
	for (size_t i = 0; i < syms->nr; i++) {
		const struct lk_elf_sym *y = &syms->items[i];
		struct sym *s = intern(&r->tab, y->name);

		if (seen)
			seen[i] = s;
		if (y->defined && s->defined && !s->dynamic && !s->weak_def && !y->weak &&
		    !y->common && !s->mergeable && !y->mergeable && !r->no_multiple) {
			multiple_definition(r, s, input);
			continue;
		}
		if (y->defined) {
			/* A regular definition overrides a shared one and a weak one. */
			if (!s->defined || s->dynamic || (s->weak_def && !y->weak)) {
				s->defined = 1;
				s->dynamic = 0;
				s->needed_only = 0;
				s->weak_def = y->weak || y->common;
				s->common = y->common;
				s->mergeable = y->mergeable;
				s->def_input = input;
				s->def_section = y->section;
				s->def_hidden = y->local_vis;
				s->version = NULL;
			}
			continue;
		}
		if (r->unref_active && s->unref)
			continue;
		{
			struct ref *ref = lk_arena_alloc(&r->tab.arena, sizeof(*ref));

			ref->input = input;
			*s->refs_tail = ref;
			s->refs_tail = &ref->next;
			s->nrefs++;
		}
		if (strchr(y->name, '@'))
			r->versioned_refs = 1;
		if (!y->weak) {
			s->ref_regular_strong = 1;
			if (s->first_ref < 0)
				s->first_ref = input;
		}
	}
}

/* The sections of a regular input, for --gc-sections, its globals mapped to the table by symbol index. */
static void gc_add(struct rp *r, long input, const struct lk_elf_syms *syms, struct sym **seen,
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

static void read_object(struct rp *r, long item)
{
	const struct lk_line_item *it = &r->line->items.items[item];
	struct lk_elf_syms syms = { 0 };
	struct lk_err err = LK_ERR_INIT;
	struct lk_elf_gc sections;
	struct sym **seen;
	long input;

	/* Relocations are read only under --gc-sections, and only for inputs that join the link. */
	if (lk_elf_read_syms_gc(it->path, &syms, r->gc ? &sections : NULL, &err) < 0) {
		note(r, "%s", err.msg);
		return;
	}
	input = add_input(r, item, it->path, NULL, 0);
	seen = r->gc ? lk_xcalloc(syms.nr + 1, sizeof(*seen)) : NULL;
	add_regular(r, input, &syms, seen);
	if (r->gc)
		gc_add(r, input, &syms, seen, &sections);
	free(seen);
	lk_elf_syms_release(&syms);
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
	a->ok = lk_elf_archive_open(r->line->items.items[item].path, &a->ar, &err) == 0;
	if (!a->ok) {
		note(r, "%s", err.msg);
		return a;
	}
	a->pulled = lk_xcalloc(a->ar.members.nr + 1, 1);
	/* Hash each armap name once; the scans then only test flags. */
	a->armap_syms = lk_xcalloc(a->ar.armap.nr + 1, sizeof(*a->armap_syms));
	for (size_t k = 0; k < a->ar.armap.nr; k++) {
		a->armap_syms[k] = intern(&r->tab, a->ar.armap.items[k].name);
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
	struct sym **seen;
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
	seen = r->gc ? lk_xcalloc(syms.nr + 1, sizeof(*seen)) : NULL;
	add_regular(r, input, &syms, seen);
	if (r->gc)
		gc_add(r, input, &syms, seen, &sections);
	free(seen);
	lk_elf_syms_release(&syms);
	free(name);
	return 1;
}

/*
 * A common symbol pulls the member only if the member defines it as
 * global data, not as another common and not as a function
 * (elflink.c elf_link_is_defined_archive_symbol).
 */
static int member_defines_data(struct rp *r, struct open_archive *a, size_t k, long m)
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
	(void)r;
	return data;
}

/* One scan of an archive as ld does it; returns how many members it pulled. */
static int scan_archive(struct rp *r, long item)
{
	const struct lk_line_item *it = &r->line->items.items[item];
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
			struct sym *s = a->armap_syms[k];
			long m;

			if (s->defined ? !s->common || s->dynamic || r->lld :
					 !(s->ref_regular_strong || s->ref_dynamic_strong))
				continue;
			m = member_index(a, e->offset);
			if (m < 0 || a->pulled[m])
				continue;
			if (s->defined && !member_defines_data(r, a, k, m))
				continue;
			pulled += pull(r, a, m, e->name);
			again = 1;
		}
	}
	return pulled;
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static int soname_kept(const struct rp *r, const char *soname)
{
	for (size_t i = 0; i < r->kept_sonames.nr; i++)
		if (!strcmp(r->kept_sonames.items[i], soname))
			return 1;
	return 0;
}

static void dso_missing(struct rp *r, struct sym *s, long dso);

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
static struct sym *versioned_ref(struct rp *r, const struct lk_elf_sym *y)
{
	struct lk_buf b = LK_BUF_INIT;
	struct sym *s;

	if (!r->versioned_refs || !y->defined || !y->version)
		return NULL;
	lk_buf_addf(&b, "%s@%s", y->name, y->version);
	s = lookup(&r->tab, b.buf);
	lk_buf_release(&b);
	return s && !s->defined ? s : NULL;
}

/* A shared object joins the link (or, under --as-needed, maybe not). */
/*
 * Returns 1 when the shared object joined the link now. `reload`: a
 * rescan of a group giving a dropped --as-needed library another chance
 * (ldlang.c open_input_bfds); a second drop is not recorded again.
 */
static int read_dso(struct rp *r, long item, const char *path, const struct lk_elf_info *info,
		    int as_needed, int needed_only, long by, int copy, int reload)
{
	struct lk_elf_syms syms = { 0 };
	struct lk_err err = LK_ERR_INIT;
	const char *soname = info->soname ? info->soname : base(path);
	struct lk_strvec kept_for = LK_STRVEC_INIT;
	long input;
	int needed = !as_needed;

	if (soname_kept(r, soname))
		return 0;
	if (lk_elf_read_syms(path, &syms, &err) < 0) {
		note(r, "%s", err.msg);
		return 0;
	}
	needed |= r->lld;	/* lld keeps every shared object's symbols; --as-needed only drops DT_NEEDED */
	for (size_t i = 0; i < syms.nr && !needed; i++) {
		const struct lk_elf_sym *y = &syms.items[i];
		struct sym *s = y->defined && !y->hidden_version ? lookup(&r->tab, y->name) : NULL;

		/*
		 * The ld manual (--as-needed): needed when it satisfies a regular
		 * object's reference or, unless a needed library's DT_NEEDED
		 * already names it, another needed library's non-weak reference.
		 */
		needed = s && !s->defined &&
			 (s->ref_regular_strong || (s->ref_dynamic_strong && !on_needed_list(r, soname)));
		if (!needed && (s = versioned_ref(r, y)))
			needed = s->ref_regular_strong;
	}
	if (needed && as_needed && !r->lld) {
		/* Every symbol that makes it needed here, for fragility.c. */
		for (size_t i = 0; i < syms.nr; i++) {
			const struct lk_elf_sym *y = &syms.items[i];
			struct sym *s = y->defined && !y->hidden_version ? lookup(&r->tab, y->name) : NULL;

			if (s && !s->defined && (s->ref_regular_strong || (s->ref_dynamic_strong && !on_needed_list(r, soname))))
				lk_strvec_push(&kept_for, y->name);
		}
	}
	if (!needed && reload) {
		lk_elf_syms_release(&syms);
		return 0;
	}
	if (!needed)
		lk_strvec_release(&kept_for);
	input = add_input(r, item, path, NULL, 1);
	r->out->inputs.items[input].kept_for = kept_for;
	r->out->inputs.items[input].needed_only = needed_only;
	r->out->inputs.items[input].needed_by = by;
	if (!needed) {
		r->out->inputs.items[input].dropped = 1;
		/* lld keeps it: remember what it would have defined (undefined_everywhere). */
		for (size_t i = 0; i < syms.nr; i++)
			if (syms.items[i].defined && !syms.items[i].hidden_version)
				intern(&r->tab, syms.items[i].name)->dropped_def = 1;
		lk_elf_syms_release(&syms);
		return 0;
	}
	lk_strvec_push(&r->kept_sonames, soname);
	for (size_t i = 0; i < syms.nr; i++) {
		const struct lk_elf_sym *y = &syms.items[i];
		struct sym *s;

		if ((s = versioned_ref(r, y))) {
			/* "sym@VER" in a regular object binds to this version only. */
			s->defined = 1;
			s->dynamic = 1;
			s->needed_only = needed_only;
			s->def_input = input;
			s->version = lk_arena_strdup(&r->tab.arena, y->version);
		}
		if (y->defined && y->hidden_version)
			continue;
		s = intern(&r->tab, y->name);
		if (!y->defined)
			s->ref_dynamic = 1;
		if (y->defined) {
			if (s->defined)
				continue;
			if (needed_only && s->ref_regular_strong)
				dso_missing(r, s, input);
			s->defined = 1;
			s->dynamic = 1;
			s->needed_only = needed_only;
			s->weak_def = y->weak;
			s->def_input = input;
			s->version = y->version ? lk_arena_strdup(&r->tab.arena, y->version) : NULL;
		} else if (!y->weak && !s->defined) {
			s->ref_dynamic_strong = 1;
			if (s->first_dyn_ref < 0)
				s->first_dyn_ref = input;
		}
	}
	for (size_t i = 0; i < info->needed.nr; i++) {
		struct needed_entry *q;

		LK_GROW(r->queue.items, r->queue.nr + 1, r->queue.alloc);
		q = &r->queue.items[r->queue.nr++];
		q->name = lk_xstrdup(info->needed.items[i]);
		q->by = input;
		q->copy = copy;
	}
	lk_elf_syms_release(&syms);
	return 1;
}

static void read_children(struct rp *r, long item);

static int copy_dt_needed(const struct rp *r, const struct lk_line_item *it)
{
	return (it->state & LK_ST_COPY_DT_NEEDED) && !(r->edit && r->edit->no_copy_dt_needed);
}

static void read_item(struct rp *r, long item)
{
	const struct lk_line_item *it = &r->line->items.items[item];

	if (r->edit && item == r->edit->unref_until_item)
		r->unref_active = 0;

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
		read_dso(r, item, it->path, &it->info, (it->state & LK_ST_AS_NEEDED) != 0, 0, -1,
			 copy_dt_needed(r, it), 0);
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
	const struct lk_line_item *it = &r->line->items.items[item];
	int pulled = 0;

	if (it->info.kind == LK_FILE_ARCHIVE || it->info.kind == LK_FILE_RLIB)
		return scan_archive(r, item);
	if (it->info.kind == LK_FILE_SHARED && (it->state & LK_ST_AS_NEEDED))
		return read_dso(r, item, it->path, &it->info, 1, 0, -1, copy_dt_needed(r, it), 1);
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
	return r->extra_item >= 0 && (long)i >= r->extra_item && i < (size_t)r->extra_item + r->extra_nr;
}


/*
 * The fix-trial snapshot (trial.c): returns at once in the analyzer; in a
 * trial worker, after reading the trial's arguments, so the worker replays
 * the rest of the line as the original would have.
 */
static void take_checkpoint(struct rp *r)
{
	struct lk_trial_server *srv = lk_xcalloc(1, sizeof(*srv));
	struct lk_strvec words = LK_STRVEC_INIT;

	r->checkpoint = 0;
	lk_trial_start(srv, &words);
	if (!srv->worker) {
		r->out->trials = srv;
		return;
	}
	r->worker = 1;
	r->out->trials = srv;
	for (size_t k = 0; k < words.nr; k++) {
		size_t idx = lk_resolve_append(r->rec, r->line, words.items[k], (long)r->rec->args.nr,
					       lk_replay_state_at_end(r->line));

		read_item(r, (long)idx);
	}
	lk_strvec_release(&words);
}

/* The top-level items in reading order, with groups rescanned at their end. */
static void read_line(struct rp *r)
{
	const struct lk_line *line = r->line;
	struct { long *items; size_t nr, alloc; } group = { NULL, 0, 0 };
	long last_user = -1;
	int in_group = 0;
	size_t nr = line->items.nr;	/* a fix trial appends items: they are read only as extras */

	for (size_t i = 0; i < nr; i++)
		if (line->items.items[i].parent < 0 && line->items.items[i].position >= 0 && !is_extra(r, i))
			last_user = (long)i;
	for (size_t i = 0; i < nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->parent >= 0 || is_extra(r, i) ||
		    (r->skip_position >= 0 && it->position == r->skip_position))
			continue;
		if ((it->kind == LK_ITEM_GROUP_START || it->kind == LK_ITEM_GROUP_END) &&
		    r->edit && r->edit->no_groups) {
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
			for (size_t k = 0; r->extra_item >= 0 && k < r->extra_nr; k++)
				read_item(r, r->extra_item + (long)k);
			if (r->checkpoint)
				take_checkpoint(r);
		}
	}
	if (in_group)
		rescan_group(r, group.items, group.nr);
	free(group.items);
	if (r->lld) {
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
		const char *path;
		struct lk_elf_info info;

		if (soname_kept(r, e.name))
			continue;
		path = needed_path(r->line, e.name);
		if (!path) {
			note(r, "%s, needed by a shared object on the line, is not found (ld warns \"try using -rpath or -rpath-link\")",
			     e.name);
			continue;
		}
		lk_elf_identify(path, &info);
		if (info.kind == LK_FILE_SHARED)
			read_dso(r, -1, path, &info, 0, !e.copy, e.by, e.copy, 0);
		lk_elf_info_release(&info);
	}
}

/* ---- diagnostics ---- */

static struct lk_diag *new_diag(struct rp *r, enum lk_diag_kind kind, const struct sym *s)
{
	struct lk_diag *d;

	LK_GROW(r->out->diags.items, r->out->diags.nr + 1, r->out->diags.alloc);
	d = &r->out->diags.items[r->out->diags.nr++];
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->symbol = lk_xstrdup(s->name);
	d->ref_input = s->first_ref >= 0 ? s->first_ref : s->first_dyn_ref;
	d->def_input = -1;
	for (const struct ref *ref = s->refs; ref; ref = ref->next) {
		LK_GROW(d->refs.items, d->refs.nr + 1, d->refs.alloc);
		d->refs.items[d->refs.nr++] = ref->input;
	}
	return d;
}

static void dso_missing(struct rp *r, struct sym *s, long dso)
{
	struct lk_diag *d;

	if (s->missing_reported)
		return;
	s->missing_reported = 1;
	d = new_diag(r, LK_DIAG_DSO_MISSING, s);
	d->def_input = dso;
	/* The version is the one of the definition being bound. */
	{
		struct lk_elf_syms syms = { 0 };
		struct lk_err err = LK_ERR_INIT;

		if (lk_elf_read_syms(r->out->inputs.items[dso].path, &syms, &err) == 0) {
			for (size_t i = 0; i < syms.nr; i++)
				if (syms.items[i].defined && !syms.items[i].hidden_version &&
				    !strcmp(syms.items[i].name, s->name) && syms.items[i].version)
					d->version = lk_xstrdup(syms.items[i].version);
		}
		lk_elf_syms_release(&syms);
	}
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

	for (size_t i = 0; i < p->required.nr; i++) {
		struct sym *s = lookup(&r->tab, p->required.items[i]);

		/* ld: "required symbol `x' not defined". */
		if (s && !s->defined && !s->missing_reported) {
			s->missing_reported = 1;
			new_diag(r, LK_DIAG_UNDEFINED, s);
		}
	}
	if (p->warn_unresolved)
		return;
	for (size_t i = 0; i < r->tab.cap; i++) {
		struct sym *s = r->tab.slots[i].sym;
		int referenced, strong;

		if (!s || s->defined || s->missing_reported || (linker_defined(s->name) && !start_stop_missing(r, s->name)))
			continue;
		/* A static executable's TLS accesses are all relaxed to local-exec: no call is left. */
		if (static_exe && !strcmp(s->name, "__tls_get_addr"))
			continue;
		/* lld does not load DT_NEEDED libraries, so it cannot judge shared objects' own references. */
		if (r->lld && !s->ref_regular_strong)
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

/* ---- section garbage collection: the replay's symbols seen by gc.c ---- */

static const char *gc_name(void *ctx, void *sym)
{
	(void)ctx;
	return ((struct sym *)sym)->name;
}

static long gc_definer(void *ctx, void *sym, uint32_t *section)
{
	const struct sym *s = sym;

	(void)ctx;
	*section = s->def_section;
	return s->defined && !s->dynamic ? s->def_input : -1;
}

static void gc_live(void *ctx, void *sym, long input)
{
	struct rp *r = ctx;
	struct sym *s = sym;

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
	struct sym *s = lookup(&r->tab, name);

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
	size_t removed, total;

	gc_keep_symbol(r, r->policy.entry);
	for (size_t i = 0; i < r->policy.roots.nr; i++)
		gc_keep_symbol(r, r->policy.roots.items[i]);
	for (size_t i = 0; i < r->tab.cap && dynamic; i++) {
		const struct sym *s = r->tab.slots[i].sym;

		if (s && s->defined && !s->dynamic && !s->def_hidden && s->def_section &&
		    (export_all || s->ref_dynamic))
			lk_gc_keep(r->gc, s->def_input, s->def_section);
	}
	for (size_t i = 0; i < r->line->items.nr && export_all; i++)
		if (r->line->items.items[i].kind == LK_ITEM_OPTION &&
		    !strncmp(r->line->items.items[i].word, "--version-script", 16))
			note(r, "--gc-sections with a version script: symbols it makes local are still taken as exported roots (not modelled), so fewer sections are collected than ld collects");
	lk_gc_run(r->gc);
	lk_gc_counts(r->gc, &removed, &total);
	note(r, "--gc-sections: %zu of %zu sections of the regular inputs are collected; references made only from them do not count (bfd's roots: entry %s, -u, exports, KEEP sections)",
	     removed, total, r->policy.entry);
}

/* ---- explanations ---- */

static void say(struct lk_diag *d, struct lk_buf *b)
{
	lk_strvec_push_owned(&d->explanation, lk_buf_detach(b));
}

void lk_replay_site_text(const struct lk_replay *out, const struct lk_line *line, long input,
			 struct lk_buf *b)
{
	const struct lk_rinput *in = &out->inputs.items[input];
	long pos = in->item >= 0 ? line->items.items[in->item].position : -1;

	if (in->member)
		lk_buf_addf(b, "member %s of %s", in->member, in->path);
	else
		lk_buf_addstr(b, in->path);
	if (pos >= 0)
		lk_buf_addf(b, " at %ld", pos);
	else if (in->item >= 0)
		lk_buf_addstr(b, " (added by the driver)");
}

static void explain_dso_missing(struct rp *r, struct lk_diag *d)
{
	const struct lk_replay *out = r->out;
	const struct lk_line *line = r->line;
	const struct lk_rinput *def = &out->inputs.items[d->def_input];
	struct lk_buf b = LK_BUF_INIT;

	/* Was the same DSO on the line, as-needed, and dropped? */
	for (size_t i = 0; i < out->inputs.nr; i++) {
		const struct lk_rinput *in = &out->inputs.items[i];
		const struct lk_line_item *it;

		if (!in->dso || !in->dropped || in->item < 0 || strcmp(base(in->path), base(def->path)))
			continue;
		it = &line->items.items[in->item];
		lk_buf_addf(&b, "%s was on the line as-needed", base(in->path));
		if (it->parent >= 0)
			lk_buf_addf(&b, " through %s's AS_NEEDED at %ld", line->items.items[it->parent].word,
				    line->items.items[it->parent].position);
		else
			lk_buf_addf(&b, " at %ld", it->position);
		lk_buf_addstr(&b, ", and was dropped: nothing referenced it yet");
		say(d, &b);
		break;
	}
	lk_buf_addf(&b, "%s references %s", "", d->symbol);
	lk_buf_reset(&b);
	lk_replay_site_text(out, line, d->ref_input, &b);
	lk_buf_addf(&b, " references %s", d->symbol);
	if (out->inputs.items[d->ref_input].pulled_for)
		lk_buf_addf(&b, " (it was pulled in for %s)", out->inputs.items[d->ref_input].pulled_for);
	say(d, &b);
	lk_buf_addf(&b, "%s defines %s%s%s, but it is not on the line: ld reaches it only through the DT_NEEDED of ",
		    def->path, d->symbol, d->version ? "@@" : "", d->version ? d->version : "");
	for (size_t i = 0; i < d->via.nr; i++)
		lk_buf_addf(&b, "%s%s", i ? " -> " : "", d->via.items[i]);
	say(d, &b);
	/* --copy-dt-needed-entries placed after the DSO that needs it. */
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *opt = &line->items.items[i];
		long needer = d->via.nr ? (long)out->inputs.nr : -1;

		(void)needer;
		if (opt->kind != LK_ITEM_OPTION || strcmp(opt->word, "--copy-dt-needed-entries"))
			continue;
		lk_buf_addf(&b, "--copy-dt-needed-entries at %ld does not help: it applies only to shared objects read after it, and %s was read before it",
			    opt->position, d->via.nr ? base(d->via.items[0]) : "the needing library");
		say(d, &b);
	}
	lk_buf_addstr(&b, "so ld refuses the reference: \"undefined reference to symbol\" and \"DSO missing from command line\"");
	say(d, &b);
	lk_buf_release(&b);
}

/* Archives on the line that define `name` in their armap, read before the reference. */
static void explain_undefined(struct rp *r, struct lk_diag *d)
{
	const struct lk_replay *out = r->out;
	const struct lk_line *line = r->line;
	struct lk_buf b = LK_BUF_INIT;
	long ref_item = d->ref_input >= 0 ? out->inputs.items[d->ref_input].item : -1;

	if (d->ref_input >= 0) {
		lk_replay_site_text(out, line, d->ref_input, &b);
		lk_buf_addf(&b, " references %s", d->symbol);
		if (out->inputs.items[d->ref_input].pulled_for)
			lk_buf_addf(&b, " (it was pulled in for %s)", out->inputs.items[d->ref_input].pulled_for);
		if (d->refs.nr > 1)
			lk_buf_addf(&b, "; %zu inputs reference it in all", d->refs.nr);
		say(d, &b);
	}
	{
		const struct sym *s = lookup(&r->tab, d->symbol);

		if (s && s->armap_item >= 0) {
			const struct lk_line_item *it = &line->items.items[s->armap_item];

			lk_buf_addf(&b, "ordering: %s", it->path);
			if (it->parent >= 0)
				lk_buf_addf(&b, " (in %s's %s at %ld)", line->items.items[it->parent].word,
					    it->script_group ? "GROUP" : "INPUT", line->items.items[it->parent].position);
			else
				lk_buf_addf(&b, " at %ld", it->position);
			lk_buf_addstr(&b, " defines it, but was read before the reference");
			if (ref_item >= 0)
				lk_buf_addf(&b, " at %ld", line->items.items[ref_item].position);
			lk_buf_addstr(&b, ", and ld does not go back to an archive");
			say(d, &b);
			d->defined_path = lk_xstrdup(it->path);
		}
	}
	lk_buf_release(&b);
}

static int by_symbol(const void *a, const void *b)
{
	return strcmp((*(const struct lk_diag *const *)a)->symbol, (*(const struct lk_diag *const *)b)->symbol);
}

/* Shared objects on the line that have an undefined symbol only as an old "sym@V": each read once. */
static void explain_old_versions(struct rp *r)
{
	const struct lk_replay *out = r->out;
	struct lk_diag **sorted = NULL;
	size_t n = 0;
	struct lk_buf b = LK_BUF_INIT;

	for (size_t i = 0; i < out->diags.nr; i++)
		if (out->diags.items[i].kind == LK_DIAG_UNDEFINED)
			n++;
	if (!n)
		return;
	sorted = lk_xcalloc(n, sizeof(*sorted));
	n = 0;
	for (size_t i = 0; i < out->diags.nr; i++)
		if (out->diags.items[i].kind == LK_DIAG_UNDEFINED)
			sorted[n++] = &out->diags.items[i];
	qsort(sorted, n, sizeof(*sorted), by_symbol);
	for (size_t i = 0; i < out->inputs.nr; i++) {
		const struct lk_rinput *in = &out->inputs.items[i];
		struct lk_elf_syms syms = { 0 };
		struct lk_err err = LK_ERR_INIT;

		if (!in->dso || in->dropped || lk_elf_read_syms(in->path, &syms, &err) < 0)
			continue;
		for (size_t k = 0; k < syms.nr; k++) {
			struct lk_diag key, *kp = &key, **hit;

			if (!syms.items[k].defined || !syms.items[k].hidden_version)
				continue;
			key.symbol = syms.items[k].name;
			hit = bsearch(&kp, sorted, n, sizeof(*sorted), by_symbol);
			if (!hit)
				continue;
			lk_buf_addf(&b, "%s has only %s@%s, an old version that no new reference binds to",
				    in->path, (*hit)->symbol, syms.items[k].version ? syms.items[k].version : "?");
			say(*hit, &b);
		}
		lk_elf_syms_release(&syms);
	}
	free(sorted);
	lk_buf_release(&b);
}

static void explain_multiple(struct rp *r, struct lk_diag *d)
{
	struct lk_buf b = LK_BUF_INIT;

	lk_replay_site_text(r->out, r->line, d->def_input, &b);
	lk_buf_addf(&b, " defines %s first", d->symbol);
	say(d, &b);
	lk_replay_site_text(r->out, r->line, d->ref_input, &b);
	lk_buf_addstr(&b, " defines it again");
	if (r->out->inputs.items[d->ref_input].pulled_for)
		lk_buf_addf(&b, " (it was pulled in for %s)", r->out->inputs.items[d->ref_input].pulled_for);
	lk_buf_addstr(&b, ": both are strong definitions in regular objects, so ld fails");
	say(d, &b);
	lk_buf_release(&b);
}

/* ---- fixes ---- */

static int replay_core(const struct lk_record *rec, struct lk_line *line, long extra, size_t extra_nr,
		       long skip, int lld, int checkpoint, struct lk_replay *out);
static int replay_core_edit(const struct lk_record *rec, struct lk_line *line, long extra, size_t extra_nr,
			    long skip, int lld, int checkpoint, const struct lk_replay_edit *edit,
			    struct lk_replay *out);

unsigned lk_replay_state_at_end(const struct lk_line *line)
{
	unsigned state = 0;

	for (size_t i = 0; i < line->items.nr; i++)
		if (line->items.items[i].parent < 0 && line->items.items[i].position >= 0)
			state = line->items.items[i].state;
	return state;
}

int lk_replay_trial(struct lk_replay *r, const struct lk_record *rec, struct lk_line *line,
		    const struct lk_strvec *words, struct lk_strvec *remaining)
{
	size_t nr = line->items.nr;
	struct lk_replay trial;
	long first = -1;
	int ok;

	if (r->trials) {
		ok = lk_trial_ask(r->trials, words, remaining);
		if (ok >= 0)
			return ok;
	}
	/* No snapshot (or it is gone): replay the whole line with the words appended. */
	for (size_t i = 0; i < words->nr; i++) {
		size_t idx = lk_resolve_append(rec, line, words->items[i], (long)rec->args.nr, lk_replay_state_at_end(line));

		if (first < 0)
			first = (long)idx;
	}
	memset(&trial, 0, sizeof(trial));
	replay_core(rec, line, first, words->nr, -1, 0, 0, &trial);
	ok = trial.success;
	for (size_t i = 0; remaining && i < trial.diags.nr; i++) {
		struct lk_buf b = LK_BUF_INIT;

		lk_buf_addf(&b, "%s %s", lk_diag_kind_name(trial.diags.items[i].kind), trial.diags.items[i].symbol);
		lk_strvec_push_owned(remaining, lk_buf_detach(&b));
	}
	lk_replay_release(&trial);
	lk_line_truncate(line, nr);
	return ok;
}

static void try_fix(const struct lk_record *rec, struct lk_line *line, struct lk_replay *out,
		    struct lk_diag *d, const char *word, const char *description)
{
	struct lk_strvec words = LK_STRVEC_INIT;
	struct lk_fix *f;
	int ok;

	struct lk_strvec left = LK_STRVEC_INIT;

	lk_strvec_push(&words, word);
	ok = lk_replay_trial(out, rec, line, &words, &left);
	lk_strvec_release(&words);
	LK_GROW(d->fixes.items, d->fixes.nr + 1, d->fixes.alloc);
	f = &d->fixes.items[d->fixes.nr++];
	memset(f, 0, sizeof(*f));
	f->description = lk_xstrdup(description);
	lk_strvec_push(&f->args, word);
	f->position = (long)rec->args.nr;
	lk_cause_judge(f, d, ok, &left);
	lk_strvec_release(&left);
}

/* "-Wl,--end-group at 56": the last input or group end the driver's argv gave ld. */
static void last_user_arg(const struct lk_record *rec, const struct lk_line *line, struct lk_buf *b)
{
	long last = -1;

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->parent < 0 && it->position > last &&
		    (it->kind == LK_ITEM_FILE || it->kind == LK_ITEM_LIB || it->kind == LK_ITEM_GROUP_END))
			last = it->position;
	}
	if (last < 0)
		last = (long)rec->args.nr - 1;
	lk_buf_addf(b, "%s at %ld", rec->args.items[last].text, last);
}

/* The -l word of the linker script that brought `path` onto the line ("-lc" for libc_nonshared.a), or NULL. */
static const char *script_of(const struct lk_line *line, const char *path)
{
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if (it->parent >= 0 && it->path && !strcmp(it->path, path)) {
			const struct lk_line_item *p = &line->items.items[it->parent];

			return p->kind == LK_ITEM_LIB ? p->word : NULL;
		}
	}
	return NULL;
}

static void propose_fixes(const struct lk_record *rec, struct lk_line *line, struct lk_replay *out)
{
	for (size_t i = 0; i < out->diags.nr; i++) {
		struct lk_diag *d = &out->diags.items[i];
		struct lk_buf desc = LK_BUF_INIT;

		if (d->kind == LK_DIAG_DSO_MISSING) {
			lk_buf_addstr(&desc, "append -lc after ");
			last_user_arg(rec, line, &desc);
			lk_buf_addstr(&desc, ", so that libc is read again after the inputs that need it");
			try_fix(rec, line, out, d, "-lc", desc.buf);
			lk_buf_reset(&desc);
			if (d->def_input >= 0) {
				const char *path = out->inputs.items[d->def_input].path;

				lk_buf_addf(&desc, "append %s, the library that defines %s", path, d->symbol);
				try_fix(rec, line, out, d, path, desc.buf);
			}
		} else if (d->kind == LK_DIAG_UNDEFINED && d->defined_path) {
			/* An archive that defines it but was read too early: read it again at the end. */
			const char *script = script_of(line, d->defined_path);

			if (script) {
				lk_buf_addf(&desc, "append %s after ", script);
				last_user_arg(rec, line, &desc);
				lk_buf_addf(&desc, ", so that %s (in its linker script) is read again, after the reference",
					    d->defined_path);
				try_fix(rec, line, out, d, script, desc.buf);
			} else {
				char *path = lk_xstrdup(d->defined_path);

				lk_buf_addf(&desc, "append %s again, after the reference (it defines %s)", path,
					    d->symbols.nr > 1 ? "them" : d->symbol);
				try_fix(rec, line, out, d, path, desc.buf);
				free(path);
			}
		}
		lk_buf_release(&desc);
	}
}

/* ---- entry points ---- */

static int replay_core(const struct lk_record *rec, struct lk_line *line, long extra, size_t extra_nr,
		       long skip, int lld, int checkpoint, struct lk_replay *out)
{
	return replay_core_edit(rec, line, extra, extra_nr, skip, lld, checkpoint, NULL, out);
}

static int replay_core_edit(const struct lk_record *rec, struct lk_line *line, long extra, size_t extra_nr,
			    long skip, int lld, int checkpoint, const struct lk_replay_edit *edit,
			    struct lk_replay *out)
{
	struct rp r;

	memset(&r, 0, sizeof(r));
	r.edit = edit;
	if (edit && edit->unref) {
		for (size_t i = 0; i < edit->unref->nr; i++)
			intern(&r.tab, edit->unref->items[i])->unref = 1;
		r.unref_active = 1;
	}
	r.rec = rec;
	r.line = line;
	r.out = out;
	r.extra_item = extra;
	r.extra_nr = extra >= 0 ? extra_nr : 0;
	r.checkpoint = checkpoint;
	r.skip_position = skip;
	r.lld = lld;
	lk_policy_read(line, &r.policy);
	if (r.policy.gc_sections) {
		struct lk_gc_host host = { &r, gc_name, gc_definer, gc_live };

		r.gc = lk_gc_new(&host);
	}
	for (size_t i = 0; i < line->items.nr; i++)
		if (line->items.items[i].kind == LK_ITEM_OPTION &&
		    (!strcmp(line->items.items[i].word, "--allow-multiple-definition") ||
		     (!strcmp(line->items.items[i].word, "-z") && line->items.items[i].value &&
		      !strcmp(line->items.items[i].value, "muldefs"))))
			r.no_multiple = 1;
	for (size_t i = 0; i < r.policy.undefined.nr; i++)
		intern(&r.tab, r.policy.undefined.items[i])->ref_regular_strong = 1;	/* ld's lang_place_undefineds */
	read_line(&r);
	if (!lld)
		load_needed(&r);
	if (r.gc)
		collect_sections(&r);
	final_checks(&r);
	out->success = out->diags.nr == 0;
	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];

		if ((it->kind == LK_ITEM_LIB || it->kind == LK_ITEM_FILE) && it->info.kind == LK_FILE_MISSING) {
			/* ld stops at an input it cannot open, a script's member too; so does the prediction. */
			struct lk_diag *d;

			out->success = 0;
			LK_GROW(out->diags.items, out->diags.nr + 1, out->diags.alloc);
			d = &out->diags.items[out->diags.nr++];
			memset(d, 0, sizeof(*d));
			d->kind = LK_DIAG_NOT_FOUND;
			d->symbol = lk_xstrdup(it->word);
			d->ref_input = d->def_input = -1;
			{
				struct lk_buf b = LK_BUF_INIT;

				if (it->kind == LK_ITEM_LIB)
					lk_buf_addf(&b, "ld: \"cannot find %s\": %zu files tried in the -L and default dirs", it->word, it->tried.nr);
				else
					lk_buf_addf(&b, "ld: \"cannot find %s\": no such file", it->word);
				say(d, &b);
			}
			if (it->kind == LK_ITEM_FILE && !it->note)
				note(&r, "'%s' cannot be read now (gone, or the record comes from another machine): the replay treats it as ld would, as missing",
				     it->word);
		}
	}
	if (r.worker) {
		/* A fix trial: its outcome is all the parent needs. */
		struct lk_strvec left = LK_STRVEC_INIT;

		for (size_t i = 0; i < out->diags.nr; i++) {
			struct lk_buf b = LK_BUF_INIT;

			lk_buf_addf(&b, "%s %s", lk_diag_kind_name(out->diags.items[i].kind), out->diags.items[i].symbol);
			lk_strvec_push_owned(&left, lk_buf_detach(&b));
		}
		lk_trial_reply(out->trials, out->success, &left);
	}
	for (size_t i = 0; i < out->diags.nr; i++) {
		struct lk_diag *d = &out->diags.items[i];

		if (d->kind == LK_DIAG_DSO_MISSING)
			explain_dso_missing(&r, d);
		else if (d->kind == LK_DIAG_UNDEFINED)
			explain_undefined(&r, d);
		else if (d->kind == LK_DIAG_MULTIPLE)
			explain_multiple(&r, d);
	}
	explain_old_versions(&r);
	for (size_t i = 0; i < r.queue.nr; i++)
		free(r.queue.items[i].name);
	free(r.queue.items);
	for (size_t i = 0; i < r.archives.nr; i++) {
		if (r.archives.items[i].ok)
			lk_elf_archive_close(&r.archives.items[i].ar);
		free(r.archives.items[i].pulled);
		free(r.archives.items[i].armap_syms);
		free(r.archives.items[i].common_checked);
	}
	lk_gc_free(r.gc);
	free(r.live_undefined.items);
	lk_strvec_release(&r.start_stop);
	lk_policy_release(&r.policy);
	free(r.archives.items);
	free(r.archive_slot.items);
	lk_strvec_release(&r.kept_sonames);
	out->symtab = lk_xcalloc(1, sizeof(struct table));
	*(struct table *)out->symtab = r.tab;
	return 0;
}

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

		if (it->kind == LK_ITEM_OPTION &&
		    (!strcmp(it->word, "--copy-dt-needed-entries") || !strcmp(it->word, "--add-needed")))
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
	const struct table *t = out->symtab;

	for (size_t i = 0; t && i < t->cap; i++) {
		const struct sym *s = t->slots[i].sym;

		if (s && !s->defined && s->ref_regular_strong && s->armap_item < 0 && !s->dropped_def &&
		    !linker_defined(s->name)) {
			for (size_t k = 0; k < out->diags.nr; k++)
				if (out->diags.items[k].kind == LK_DIAG_UNDEFINED && !strcmp(out->diags.items[k].symbol, s->name))
					return 1;
		}
	}
	return 0;
}

int lk_replay_run(const struct lk_record *rec, struct lk_line *line, int try_fixes,
		  struct lk_replay *out, struct lk_err *err)
{
	const struct lk_line_item *rejected;
	struct lk_replay lld;

	(void)err;
	memset(out, 0, sizeof(*out));
	replay_core(rec, line, -1, 0, -1, 0, try_fixes, out);
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
		replay_core(rec, line, -1, 0, -1, 1, 0, &lld);
		out->lld_success = lld.success;
		lk_replay_release(&lld);
	}
	/* No fixes for a failure that is no prediction: they would fix the analysis, not the link. */
	out->unknown = lk_certainty_unknown(rec, line, out);
	if (try_fixes && !out->unknown) {
		lk_cause_group(rec, line, out);
		propose_fixes(rec, line, out);
		lk_cause_fixes(rec, line, out);
	}
	return 0;
}

void lk_replay_edited(const struct lk_record *rec, struct lk_line *line,
		      const struct lk_replay_edit *edit, struct lk_replay *out)
{
	memset(out, 0, sizeof(*out));
	replay_core_edit(rec, line, -1, 0, edit->skip_position, 0, 0, edit, out);
}

void lk_replay_each_symbol(const struct lk_replay *r,
			   void (*fn)(void *ctx, const struct lk_symbol_view *s), void *ctx)
{
	const struct table *t = r->symtab;

	for (size_t i = 0; t && i < t->cap; i++) {
		const struct sym *s = t->slots[i].sym;
		struct lk_symbol_view v;

		if (!s)
			continue;
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
	struct sym *s = r->symtab ? lookup(r->symtab, name) : NULL;

	for (const struct ref *ref = s ? s->refs : NULL; ref; ref = ref->next) {
		LK_GROW(out->items, out->nr + 1, out->alloc);
		out->items[out->nr++] = ref->input;
	}
}

int lk_replay_outcome(const struct lk_record *rec, struct lk_line *line,
		      const char *append, long skip_position)
{
	size_t nr = line->items.nr;
	long extra = append ? (long)lk_resolve_append(rec, line, append, (long)rec->args.nr,
						       lk_replay_state_at_end(line)) : -1;
	struct lk_replay trial;
	int ok;

	memset(&trial, 0, sizeof(trial));
	replay_core(rec, line, extra, 1, skip_position, 0, 0, &trial);
	ok = trial.success;
	lk_replay_release(&trial);
	lk_line_truncate(line, nr);
	return ok;
}

void lk_fix_release(struct lk_fix *f)
{
	free(f->description);
	free(f->linker_said);
	free(f->driver);
	lk_strvec_release(&f->args);
	lk_strvec_release(&f->remaining);
	lk_strvec_release(&f->build_script);
	memset(f, 0, sizeof(*f));
}

void lk_diag_release(struct lk_diag *d)
{
	free(d->symbol);
	free(d->version);
	free(d->defined_path);
	free(d->provider);
	free(d->provider_package);
	lk_strvec_release(&d->symbols);
	lk_strvec_release(&d->alternatives);
	lk_strvec_release(&d->looked_in);
	free(d->refs.items);
	lk_strvec_release(&d->via);
	lk_strvec_release(&d->explanation);
	for (size_t k = 0; k < d->fixes.nr; k++)
		lk_fix_release(&d->fixes.items[k]);
	free(d->fixes.items);
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
	}
	free(r->inputs.items);
	for (size_t i = 0; i < r->diags.nr; i++)
		lk_diag_release(&r->diags.items[i]);
	free(r->diags.items);
	if (r->whole_fix) {
		lk_fix_release(r->whole_fix);
		free(r->whole_fix);
	}
	if (r->trials) {
		lk_trial_stop(r->trials);
		free(r->trials);
	}
	lk_strvec_release(&r->notes);
	if (r->symtab) {
		table_release(r->symtab);
		free(r->symtab);
	}
	memset(r, 0, sizeof(*r));
}

void lk_replay_why(const struct lk_replay *r, const struct lk_line *line,
		   const char *symbol, struct lk_strvec *out)
{
	struct table *t = r->symtab;
	struct sym *s = t ? lookup(t, symbol) : NULL;
	struct lk_buf b = LK_BUF_INIT;

	for (size_t i = 0; i < r->inputs.nr; i++) {
		const struct lk_rinput *in = &r->inputs.items[i];

		if (in->pulled_for && !strcmp(in->pulled_for, symbol)) {
			lk_replay_site_text(r, line, (long)i, &b);
			lk_buf_addstr(&b, " was pulled in to define it");
			lk_strvec_push_owned(out, lk_buf_detach(&b));
		}
	}
	{
		char *human = lk_demangle(symbol);

		if (human) {
			lk_buf_addf(&b, "%s is %s", symbol, human);
			lk_strvec_push_owned(out, lk_buf_detach(&b));
			free(human);
		}
	}
	if (!s) {
		lk_buf_addf(&b, "no input the replay read mentions %s", symbol);
		lk_strvec_push_owned(out, lk_buf_detach(&b));
		return;
	}
	for (const struct ref *ref = s->refs; ref; ref = ref->next) {
		lk_replay_site_text(r, line, ref->input, &b);
		lk_buf_addstr(&b, " references it");
		if (r->inputs.items[ref->input].pulled_for)
			lk_buf_addf(&b, " (pulled in for %s)", r->inputs.items[ref->input].pulled_for);
		lk_strvec_push_owned(out, lk_buf_detach(&b));
	}
	if (s->first_dyn_ref >= 0) {
		lk_replay_site_text(r, line, s->first_dyn_ref, &b);
		lk_buf_addstr(&b, " (a shared object) references it");
		lk_strvec_push_owned(out, lk_buf_detach(&b));
	}
	if (s->defined && s->def_input >= 0) {
		const struct lk_rinput *d = &r->inputs.items[s->def_input];

		lk_replay_site_text(r, line, s->def_input, &b);
		lk_buf_addf(&b, " defines it%s%s%s%s", s->version ? "@@" : "", s->version ? s->version : "",
			    s->dynamic ? " (shared object" : "",
			    s->dynamic ? (d->needed_only ? ", reached only through DT_NEEDED)" : ")") : "");
		lk_strvec_push_owned(out, lk_buf_detach(&b));
	} else {
		lk_buf_addf(&b, "nothing the replay read defines %s", symbol);
		lk_strvec_push_owned(out, lk_buf_detach(&b));
	}
	for (size_t i = 0; i < r->inputs.nr; i++) {
		const struct lk_rinput *in = &r->inputs.items[i];

		if (in->dso && in->dropped) {
			struct lk_elf_syms syms = { 0 };
			struct lk_err err = LK_ERR_INIT;

			if (lk_elf_read_syms(in->path, &syms, &err) == 0) {
				for (size_t k = 0; k < syms.nr; k++) {
					if (!syms.items[k].defined || strcmp(syms.items[k].name, symbol))
						continue;
					lk_replay_site_text(r, line, (long)i, &b);
					lk_buf_addstr(&b, " defines it too, but was dropped (--as-needed: nothing needed it when it was read)");
					lk_strvec_push_owned(out, lk_buf_detach(&b));
					break;
				}
			}
			lk_elf_syms_release(&syms);
		}
	}
}
