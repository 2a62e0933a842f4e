/*
 * The end of the line in the replay (see replay.c): the checks GNU ld
 * makes once every input is read (bfd/elflink.c's elf_link_output_extsym
 * reporting undefined symbols under the line's policy, policy.c), the
 * symbols ld defines itself (its default linker script, ldlang.c's
 * __start_/__stop_ symbols), and ld stopping at an input it cannot open
 * (ldfile.c's ldfile_open_file).
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "rp.h"

/* ---- the end of the line: ld's checks ---- */

/* Symbols GNU ld defines itself (its default linker script and ELF backend). */
int rp_linker_defined(const char *name)
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

	/*
	 * Each name below starts with '_', 'd' or 'e', and none is a C++ one
	 * (_Z): most names stop here, where the end checks ask of every
	 * undefined entry of the table (in each fix trial too).
	 */
	if ((name[0] != '_' && name[0] != 'd' && name[0] != 'e') || !strncmp(name, "_Z", 2))
		return 0;
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

/* Does the shared object of input `i` define versions, and not `version`? */
static int lacks_version(const struct lk_replay *out, long i, const char *version)
{
	struct lk_elf_every ev = { 0 };
	struct lk_err err = LK_ERR_INIT;
	int versioned = 0, has = 0;

	if (i < 0 || lk_elf_read_every(out->inputs.items[i].path, &ev, &err) < 0)
		return 0;
	for (size_t f = 0; f < ev.nr; f++)
		for (size_t k = 0; k < ev.items[f].syms.nr; k++) {
			const struct lk_elf_every_sym *y = &ev.items[f].syms.items[k];

			if (y->dynamic && y->defined && y->version) {
				versioned = 1;
				has |= !strcmp(y->version, version);
			}
		}
	lk_elf_every_release(&ev);
	return versioned && !has;
}

/* Does the shared object of input `i` define `name` at `version` (sym@@VER or sym@VER)? */
static int defines_at_version(const struct lk_replay *out, long i, const char *name, const char *version)
{
	struct lk_elf_every ev = { 0 };
	struct lk_err err = LK_ERR_INIT;
	int has = 0;

	if (lk_elf_read_every(out->inputs.items[i].path, &ev, &err) < 0)
		return 0;
	for (size_t f = 0; f < ev.nr && !has; f++)
		for (size_t k = 0; k < ev.items[f].syms.nr && !has; k++) {
			const struct lk_elf_every_sym *y = &ev.items[f].syms.items[k];

			has = y->dynamic && y->defined && y->version && !strcmp(y->version, version) &&
			      !strcmp(y->name, name);
		}
	lk_elf_every_release(&ev);
	return has;
}

/*
 * Does another shared object kept in the link define `name` at `version`?
 * ld binds a shared object's "sym@VER" reference to it whatever binds the
 * unversioned name: elflink.c's _bfd_elf_add_default_symbol enters
 * "sym@VER" as an indirection to "sym@@VER" (liba.so's foo@@A_1 first on
 * the line, libb.so.0's foo@@B_2 brought by libx.so's DT_NEEDED: libx.so's
 * foo@B_2 binds libb.so.0's).
 */
static int version_kept_elsewhere(const struct lk_replay *out, long def_input, const char *name,
				  const char *version)
{
	for (size_t i = 0; i < out->inputs.nr; i++) {
		const struct lk_rinput *in = &out->inputs.items[i];

		if ((long)i != def_input && in->dso && !in->dropped &&
		    defines_at_version(out, (long)i, name, version))
			return 1;
	}
	return 0;
}

int rp_version_unbound(const struct lk_replay *out, const struct lk_sym *s, long ref_input, const char *version)
{
	return s && s->defined && s->dynamic && !s->diagnosed && s->def_input != ref_input && s->version &&
	       strcmp(s->version, version) && lacks_version(out, s->def_input, version) &&
	       !version_kept_elsewhere(out, s->def_input, s->name, version);
}

/*
 * GNU ld names a shared object's versioned reference "sym@VER" (elflink.c
 * elf_link_add_object_symbols): another shared object's definition of sym
 * with other versions only does not bind it, and it is undefined then
 * ("libuse.so: undefined reference to `sym@V2'": the library on the line
 * is older than the one libuse.so was built against). An unversioned
 * definition is left as binding it.
 */
static void versioned_shlib_refs(struct rp *r)
{
	for (size_t i = 0; i < r->out->inputs.nr; i++) {
		const struct lk_rinput *in = &r->out->inputs.items[i];
		struct lk_elf_every ev = { 0 };
		struct lk_err err = LK_ERR_INIT;

		if (!in->dso || in->dropped || lk_elf_read_every(in->path, &ev, &err) < 0)
			continue;
		for (size_t f = 0; f < ev.nr; f++)
			for (size_t k = 0; k < ev.items[f].syms.nr; k++) {
				const struct lk_elf_every_sym *y = &ev.items[f].syms.items[k];
				struct lk_buf name = LK_BUF_INIT;
				struct lk_diag *d;
				struct lk_sym *s;

				if (!y->dynamic || y->defined || y->weak || !y->version)
					continue;
				s = lk_symtab_lookup(r->tab, y->name);
				if (!rp_version_unbound(r->out, s, (long)i, y->version))
					continue;
				s->diagnosed = 1;
				d = rp_new_diag(r, LK_DIAG_UNDEFINED, s);
				d->ref_input = (long)i;
				/* named as ld names it, as a regular object's sym@VER reference is */
				lk_buf_addf(&name, "%s@%s", y->name, y->version);
				free(d->symbol);
				d->symbol = lk_buf_detach(&name);
			}
		lk_elf_every_release(&ev);
	}
}

/* A hidden regular definition a shared object references: GNU ld's candidates. */
struct hidden_ref {
	struct lk_sym *sym;
	long dso;		/* the first shared object in the link with an unversioned reference to it, or -1 */
};

struct hidden_refs {
	struct hidden_ref *items;
	size_t nr, alloc;
};

static int hidden_candidate(const struct lk_sym *s)
{
	return s->defined && !s->dynamic && s->def_hidden && s->ref_dynamic && !s->diagnosed;
}

static struct hidden_ref *find_candidate(struct hidden_ref *c, size_t n, const struct lk_sym *s)
{
	for (size_t i = 0; i < n; i++)
		if (c[i].sym == s)
			return &c[i];
	return NULL;
}

/*
 * Each shared object in the link read once: which references the
 * candidates without a version (a versioned one, as libstdc++.so's
 * __popcountdi2@GCC_3.4, binds the library of that version, not them).
 */
static void scan_shared_objects(struct rp *r, struct hidden_ref *c, size_t n)
{
	for (size_t i = 0; i < r->out->inputs.nr; i++) {
		const struct lk_rinput *in = &r->out->inputs.items[i];
		struct lk_elf_syms syms = { 0 };
		struct lk_err err = LK_ERR_INIT;

		if (!in->dso || in->dropped || lk_elf_read_syms(in->path, &syms, &err) < 0)
			continue;
		for (size_t k = 0; k < syms.nr; k++) {
			const struct lk_elf_sym *y = &syms.items[k];
			struct hidden_ref *h;

			if (y->defined || y->versioned_ref)
				continue;
			h = find_candidate(c, n, lk_symtab_lookup(r->tab, y->name));
			if (h && h->dso < 0)
				h->dso = (long)i;
		}
		lk_elf_syms_release(&syms);
	}
}

/*
 * GNU ld: "hidden symbol `x' in a.o is referenced by DSO": a regular
 * definition of hidden or internal visibility that a shared object in the
 * link references without a version (elflink.c elf_link_output_extsym),
 * whatever --allow-shlib-undefined says, even when another shared object
 * defines it; lld 14 and mold link it (lld.c). `c`: the candidates, in
 * the table's order.
 */
static void hidden_checks(struct rp *r, struct hidden_refs *c)
{
	if (c->nr)
		scan_shared_objects(r, c->items, c->nr);
	for (size_t i = 0; i < c->nr; i++) {
		struct lk_diag *d;

		if (c->items[i].dso < 0)
			continue;
		c->items[i].sym->diagnosed = 1;
		d = rp_new_diag(r, LK_DIAG_HIDDEN_DSO_REF, c->items[i].sym);
		d->def_input = c->items[i].sym->def_input;
		d->ref_input = c->items[i].dso;
	}
}

/*
 * ld's two checks at the end (lk_policy says which are on): a relocation
 * against a symbol left undefined (not only weakly) fails the link when it
 * sits in a section that stays; a shared object's strong reference fails it
 * when no regular object references the symbol, or under --gc-sections
 * (elflink.c elf_link_output_extsym). Then, for GNU ld, the hidden symbols
 * shared objects reference. One walk of the table finds what both look
 * at (a fix trial walks the whole table it inherits): the undefined
 * entries these checks diagnose and the defined ones the hidden check
 * looks at are apart, so neither changes what the other finds.
 */
void rp_final_checks(struct rp *r)
{
	const struct lk_policy *p = &r->policy;
	int static_exe = p->static_link && !(r->line->facts & LK_LINE_SHARED);
	int undefined = !p->warn_unresolved, hidden = !(r->mode & RP_LLD);
	struct hidden_refs c = { NULL, 0, 0 };
	struct lk_sym *s;
	size_t cursor = 0;

	for (size_t i = 0; i < p->required.nr; i++) {
		s = lk_symtab_lookup(r->tab, p->required.items[i]);

		/* ld: "required symbol `x' not defined". */
		if (s && !s->defined && !s->diagnosed) {
			s->diagnosed = 1;
			rp_new_diag(r, LK_DIAG_UNDEFINED, s);
		}
	}
	while ((undefined || hidden) && (s = lk_symtab_next(r->tab, &cursor))) {
		int referenced, strong;

		if (hidden && hidden_candidate(s)) {
			LK_GROW(c.items, c.nr + 1, c.alloc);
			c.items[c.nr++] = (struct hidden_ref){ s, -1 };
		}
		/* Only a strong reference fails the link: most entries are an armap's names, their names not read. */
		if (!s->ref_regular_strong && !s->ref_dynamic_strong)
			continue;
		if (!undefined || s->defined || s->diagnosed || (rp_linker_defined(s->name) && !start_stop_missing(r, s->name) &&
						       !rp_ehdr_missing(r, s->name)))
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
			struct lk_diag *d = rp_new_diag(r, LK_DIAG_UNDEFINED, s);

			for (size_t k = 0; k < r->live_undefined.nr; k++)
				if (r->live_undefined.items[k].sym == s)
					d->ref_input = r->live_undefined.items[k].input;
		} else if (s->ref_dynamic_strong && p->report_shlibs && (!s->nrefs || r->gc)) {
			rp_new_diag(r, LK_DIAG_UNDEFINED, s);
		}
	}
	/* lld's and mold's bindings of versions are their own (lld.c, mold.c). */
	if (p->report_shlibs && undefined && !(r->mode & RP_LLD))
		versioned_shlib_refs(r);
	if (hidden)
		hidden_checks(r, &c);
	free(c.items);
}

/*
 * ld stops at an input it cannot open, a script's member too; so does the
 * prediction. A -l that found only files of another machine is ld's
 * "skipping incompatible ..." then "cannot find -lNAME".
 */
void rp_inputs_not_found(struct rp *r)
{
	const struct lk_line *line = r->line;

	for (size_t i = 0; i < line->items.nr; i++) {
		const struct lk_line_item *it = &line->items.items[i];
		struct lk_diag *d;

		if ((it->kind != LK_ITEM_LIB && it->kind != LK_ITEM_FILE) || it->info.kind != LK_FILE_MISSING ||
		    rp_skipped(r, it))
			continue;
		r->out->success = 0;
		LK_GROW(r->out->diags.items, r->out->diags.nr + 1, r->out->diags.alloc);
		d = &r->out->diags.items[r->out->diags.nr++];
		memset(d, 0, sizeof(*d));
		d->kind = it->skipped.nr ? LK_DIAG_INCOMPATIBLE : LK_DIAG_NOT_FOUND;
		d->symbol = lk_xstrdup(it->word);
		d->ref_input = d->def_input = -1;
		d->item = (long)i;
		if (it->kind == LK_ITEM_FILE && !it->note)
			rp_note(r, "'%s' cannot be read now (gone, or the record comes from another machine): the replay treats it as ld would, as missing",
			     it->word);
	}
}
