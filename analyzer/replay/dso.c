/*
 * Shared objects in the replay (see replay.c), as
 * bfd/elflink.c's elf_link_add_object_symbols reads a dynamic object:
 * default-version and unversioned definitions bind references,
 * "sym@VER" ones do not bind unversioned ones, and under --as-needed the
 * object stays only if it is needed then (else its symbols are undone and
 * kept aside for the explanations). After the line, the libraries only
 * DT_NEEDED names are loaded as ld/ldelf.c's ldelf_after_open does, and a
 * regular reference one of them satisfies is "DSO missing from command
 * line" unless --copy-dt-needed-entries covered the library that needed it.
 *
 * no_dso_missing_in_shared: in a shared object, GNU ld 2.40 leaves such a
 * reference undefined instead, which -shared allows (an "undefined
 * reference" under -z defs / --no-undefined, policy.c). Checked: a
 * reference to b, which only liba.so's DT_NEEDED libb.so defines, with
 * -shared --no-as-needed -la (x86-64), and glibc's __stack_chk_guard,
 * which only ld-linux-aarch64.so.1 (libc.so's AS_NEEDED, dropped before
 * the object that references it) defines, in
 * "aarch64-linux-gnu-gcc -shared -Wl,--no-as-needed -lc guard.o
 * -nodefaultlibs" (tests/integ/157-aarch64-pie-relocs.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "rp.h"

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
	d = rp_new_diag(r, LK_DIAG_DSO_MISSING, s);
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

	/*
	 * lld binds a "sym@VER" reference read after the shared object too:
	 * its entry is made now (mold's few bindings: mold.c).
	 */
	if (!(r->versioned_refs || (r->mode & RP_LLD)) || !y->defined || !y->version)
		return NULL;
	lk_buf_addf(&b, "%s@%s", y->name, y->version);
	s = (r->mode & RP_LLD) ? lk_symtab_intern(r->tab, b.buf) : lk_symtab_lookup(r->tab, b.buf);
	lk_buf_release(&b);
	return s && !s->defined ? s : NULL;
}

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
	rp_answer_dropped(r, syms);
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
		if (!y->defined && needed_only)
			rp_answer_gc_root(r, s);
		if (!y->defined && rp_mold_dormant(r, input, s, !y->weak))
			continue;	/* mold: no reference until the object is loaded */
		if (!y->defined)
			s->ref_dynamic = 1;
		if (y->defined) {
			rp_tls_meet_shared(r, s, y, input);
			if (s->defined)
				continue;
			if (needed_only && s->ref_regular_strong && (r->line->facts & LK_LINE_SHARED))
				continue;	/* -shared: left undefined (no_dso_missing_in_shared) */
			if (needed_only && s->ref_regular_strong)
				dso_missing(r, s, input, y->version);
			s->defined = 1;
			s->dynamic = 1;
			s->needed_only = needed_only;
			s->weak_def = y->weak;
			s->dyn_object = y->object;
			s->dyn_protected = y->protected_vis;
			s->def_input = input;
			s->version = y->version ? lk_symtab_strdup(r->tab, y->version) : NULL;
		} else if (!y->weak && !s->defined) {
			s->ref_dynamic_strong = 1;
			if (s->armap_item >= 0)
				r->lazy_pending = 1;
			rp_answer_ref(r, s);
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
		rp_note(r, "%s", err.msg);
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
	input = rp_add_input(r, d->item, d->path, NULL, 1);
	r->out->inputs.items[input].kept_for = kept_for;
	r->out->inputs.items[input].needed_only = (d->flags & DSO_NEEDED_ONLY) != 0;
	r->out->inputs.items[input].needed_by = d->needed_by;
	if (!needed) {
		drop_dso(r, input, &syms);
		lk_elf_syms_release(&syms);
		return 0;
	}
	lk_strvec_push(&r->kept_sonames, soname);
	if (rp_mold_sleeps(r, &syms, as_needed)) {
		LK_GROW(r->asleep.items, r->asleep.nr + 1, r->asleep.alloc);
		r->asleep.items[r->asleep.nr++] = input;
	}
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
int rp_read_dso_item(struct rp *r, long item, unsigned flags)
{
	const struct lk_line_item *it = item_at(r, item);
	struct dso_read d = { item, it->path, &it->info, -1, flags };

	rp_lld_part(r);	/* lld keeps every shared object, and the entries of its versions (lld_part.c) */
	if (it->state & LK_ST_AS_NEEDED)
		d.flags |= DSO_AS_NEEDED;
	if ((it->state & LK_ST_COPY_DT_NEEDED) && !(r->edit->flags & LK_EDIT_NO_COPY_DT_NEEDED))
		d.flags |= DSO_COPY_DT_NEEDED;
	return read_dso(r, &d);
}

static const char *needed_path(const struct lk_line *line, const char *name)
{
	for (size_t i = 0; i < line->needed.nr; i++)
		if (!strcmp(line->needed.items[i].name, name) && line->needed.items[i].path)
			return line->needed.items[i].path;
	return NULL;
}

/* ldelf_after_open: the libraries that only DT_NEEDED names. */
void rp_load_needed(struct rp *r)
{
	for (size_t q = 0; q < r->queue.nr; q++) {
		struct needed_entry e = r->queue.items[q];
		struct dso_read d = { -1, NULL, NULL, e.by, e.copy ? DSO_COPY_DT_NEEDED : DSO_NEEDED_ONLY };
		struct lk_elf_info info;

		if (soname_kept(r, e.name))
			continue;
		d.path = needed_path(r->line, e.name);
		if (!d.path) {
			rp_note(r, "%s, needed by a shared object on the line, is not found (ld warns \"try using -rpath or -rpath-link\")",
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
