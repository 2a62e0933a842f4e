/*
 * Explanations -> source lines (srcline.h). GNU ld reports each
 * relocation against an undefined symbol (elf*-x86-64.c's
 * relocate_section calls ldmain.c's undefined_symbol with the input
 * section and r_offset) and prints the place with bfd_find_nearest_line:
 * "FILE:LINE: undefined reference to `SYM'" when DWARF says, else
 * "OBJECT:(SECTION+0xOFFSET)". The same relocations are read here from
 * the referencing inputs (elf_gc.c's reader, relocations kept) and their
 * places looked up in the inputs' .debug_line (model/dwarf_line.c).
 *
 * Cost: only on a failed replay, only the inputs that reference an
 * undefined symbol (at most INPUTS_MAX per diagnostic and OPENS_MAX in
 * all) and the files the near misses name; a success reads nothing.
 *
 * ld prints at most five references in a row to one symbol, then "more
 * undefined references to `foo' follow"; the report keeps up to
 * LK_SRCREFS_MAX. NEEDSWORK(#18): under --gc-sections ld reports only the
 * references from sections it keeps, and the replay does not say which
 * sections those are: a reference from a discarded section is listed too.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "elf.h"
#include "explain.h"
#include "srcline.h"

#define INPUTS_MAX 8		/* referencing inputs read per diagnostic */
#define OPENS_MAX 64		/* files opened for one replay */
#define SYMBOLS_MAX 16		/* symbols of a group whose references are looked for */
#define MEMBERS_SCAN 4096	/* archive members read to find a near miss's member by name */

/* One object open with its relocations: a file, or an archive's member (the archive open beside it). */
struct opened {
	struct lk_elf_archive ar;
	struct lk_elf_gc gc;
	int has_ar;
};

static void opened_close(struct opened *o)
{
	lk_elf_gc_release(&o->gc);
	if (o->has_ar)
		lk_elf_archive_close(&o->ar);
	o->has_ar = 0;
}

/* The member `member` of the open archive: at `offset` when known (>= 0), else found by its name. */
static int open_member(struct opened *o, const char *member, long offset)
{
	struct lk_err err = LK_ERR_INIT;

	for (size_t m = 0; m < o->ar.members.nr && m < MEMBERS_SCAN; m++) {
		struct lk_elf_syms syms = { 0 };
		char *name = NULL;
		size_t at = offset >= 0 ? (size_t)offset : o->ar.members.items[m];
		int rc = lk_elf_archive_member_gc(&o->ar, at, &name, &syms, &o->gc, &err);
		int found = rc == 0 && name && !strcmp(name, member);

		lk_elf_syms_release(&syms);
		free(name);
		if (found || offset >= 0)
			return found;
		lk_elf_gc_release(&o->gc);
	}
	return 0;
}

/* `path` (member `member` of it when not NULL) open, its relocations read when `relocs`; 1, or 0. */
static int open_object(struct opened *o, const char *path, const char *member, long offset, int relocs)
{
	struct lk_err err = LK_ERR_INIT;
	struct lk_elf_syms syms = { 0 };
	int rc;

	memset(o, 0, sizeof(*o));
	o->gc.fd = -1;
	o->gc.want = relocs ? LK_ELF_GC_RELOCS : 0;
	if (!member) {
		rc = lk_elf_read_syms_gc(path, &syms, &o->gc, &err) == 0;
		lk_elf_syms_release(&syms);
		return rc;
	}
	if (lk_elf_archive_open(path, &o->ar, &err) < 0)
		return 0;
	o->has_ar = 1;
	if (open_member(o, member, offset))
		return 1;
	opened_close(o);
	return 0;
}

static int in_group(const struct lk_strvec *syms, const char *name)
{
	for (size_t i = 0; i < syms->nr; i++)
		if (!strcmp(syms->items[i], name))
			return 1;
	return 0;
}

static struct lk_srcrefs *refs_of(struct lk_diag *d)
{
	if (!d->ref_lines) {
		d->ref_lines = lk_xcalloc(1, sizeof(*d->ref_lines));
		d->ref_lines->decl_input = -1;
	}
	return d->ref_lines;
}

/* The relocations of input `input` against undefined symbols of `syms`, with their lines. */
static void input_refs(const struct lk_replay *rp, long input, const struct lk_strvec *syms, struct lk_diag *d)
{
	const struct lk_rinput *in = &rp->inputs.items[input];
	struct lk_srcrefs *refs = refs_of(d);
	struct { struct lk_dwarf_place *items; size_t nr, alloc; } places = { 0 };
	struct lk_srcpos *pos;
	size_t first = refs->nr;
	struct lk_elf_dwarf *dw;
	struct opened o;

	if (!open_object(&o, in->path, in->member, in->member ? (long)in->member_offset : -1, 1))
		return;
	for (size_t i = 0; i < o.gc.relocs.nr; i++) {
		const struct lk_elf_reloc *x = &o.gc.relocs.items[i];
		const struct lk_elf_gc_symbol *s;
		const char *name;
		struct lk_srcref *r;

		if (!x->symbol || x->symbol >= o.gc.nnames || !o.gc.symbols)
			continue;
		s = &o.gc.symbols[x->symbol];
		if (s->shndx != SHN_UNDEF || s->bind == STB_LOCAL || !(name = lk_elf_gc_symbol_name(&o.gc, x->symbol)) ||
		    !in_group(syms, name))
			continue;
		if (refs->nr >= LK_SRCREFS_MAX) {
			refs->cut = 1;
			break;
		}
		LK_GROW(refs->items, refs->nr + 1, refs->alloc);
		r = &refs->items[refs->nr++];
		memset(r, 0, sizeof(*r));
		r->symbol = lk_xstrdup(name);
		r->input = input;
		r->section = lk_xstrdup(x->section < o.gc.nsections && o.gc.sections[x->section].name ?
					o.gc.sections[x->section].name : "?");
		r->offset = x->offset;
		LK_GROW(places.items, places.nr + 1, places.alloc);
		places.items[places.nr].section = x->section;
		places.items[places.nr++].offset = x->offset;
	}
	if (places.nr && (dw = lk_elf_dwarf_open(&o.gc))) {
		pos = lk_xcalloc(places.nr, sizeof(*pos));
		lk_dwarf_lines(lk_elf_dwarf_input(dw), places.items, places.nr, pos);
		for (size_t i = 0; i < places.nr; i++)
			refs->items[first + i].pos = pos[i];
		free(pos);
		if (!refs->decl.file &&
		    lk_dwarf_declaration(lk_elf_dwarf_input(dw), refs->items[first].symbol, &refs->decl))
			refs->decl_input = input;
		/* A C definition here that the object does not emit: an inline one (C++ names are _Z: never). */
		if (!refs->inline_def.file && strncmp(refs->items[first].symbol, "_Z", 2))
			lk_dwarf_definition(lk_elf_dwarf_input(dw), refs->items[first].symbol, &refs->inline_def);
		lk_elf_dwarf_close(dw);
	}
	free(places.items);
	opened_close(&o);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/* The inputs referencing any symbol of the group, in reading order, each once. */
static void referencing_inputs(const struct lk_replay *rp, const struct lk_strvec *syms, struct lk_input_list *out)
{
	size_t k = 0;

	for (size_t i = 0; i < syms->nr && i < SYMBOLS_MAX; i++)
		lk_replay_refs(rp, syms->items[i], out);
	if (!out->nr)
		return;
	qsort(out->items, out->nr, sizeof(*out->items), cmp_long);
	for (size_t i = 0; i < out->nr; i++)
		if (!k || out->items[k - 1] != out->items[i])
			out->items[k++] = out->items[i];
	out->nr = k;
}

static void diag_refs(const struct lk_replay *rp, struct lk_diag *d, size_t *opens)
{
	struct lk_strvec one = LK_STRVEC_INIT;
	const struct lk_strvec *syms = &d->symbols;
	struct lk_input_list inputs = { 0 };

	if (!syms->nr) {
		lk_strvec_push(&one, d->symbol);
		syms = &one;
	}
	referencing_inputs(rp, syms, &inputs);
	for (size_t i = 0; i < inputs.nr && i < INPUTS_MAX && *opens < OPENS_MAX; i++) {
		const struct lk_rinput *in = &rp->inputs.items[inputs.items[i]];

		if (in->dso || (d->ref_lines && d->ref_lines->cut))
			continue;
		++*opens;
		input_refs(rp, inputs.items[i], syms, d);
	}
	if (inputs.nr > INPUTS_MAX && d->ref_lines)
		d->ref_lines->cut = 1;
	free(inputs.items);
	lk_strvec_release(&one);
}

/* The line of the definition a near miss names. */
static void finding_line(struct lk_finding *f)
{
	struct lk_dwarf_place place;
	struct lk_elf_dwarf *dw;
	struct opened o;

	if (!f->def_path || !f->found || !open_object(&o, f->def_path, f->def_member, -1, 0))
		return;
	/* The definition's DIE (its declarator's line), else the line table's row at the symbol. */
	if (lk_elf_gc_symbol_place(&o.gc, f->found, &place) && (dw = lk_elf_dwarf_open(&o.gc))) {
		if (!lk_dwarf_definition(lk_elf_dwarf_input(dw), f->found, &f->def_pos))
			lk_dwarf_lines(lk_elf_dwarf_input(dw), &place, 1, &f->def_pos);
		lk_elf_dwarf_close(dw);
	}
	opened_close(&o);
}

/*
 * C99 and later: a function defined `inline` (neither `static` nor
 * `extern`) in a header is an inline definition: no object emits it, and
 * a call that is not inlined (at -O0, say) needs the one external
 * definition some .c file must give. Said as a near miss with its fix.
 */
static void inline_definition(struct lk_diag *d)
{
	const struct lk_srcpos *at = &d->ref_lines->inline_def;
	struct lk_finding *f;
	struct lk_buf b = LK_BUF_INIT;

	if (d->near_misses.nr >= 8)
		return;
	LK_GROW(d->near_misses.items, d->near_misses.nr + 1, d->near_misses.alloc);
	f = &d->near_misses.items[d->near_misses.nr++];
	memset(f, 0, sizeof(*f));
	f->kind = lk_xstrdup("inline-definition");
	lk_buf_addf(&b, "%s is defined at %s:%u in the objects that call it, and none of them emits it: a C `inline` definition (neither static nor extern) gives no external definition, and a call the compiler did not inline (at -O0, say) needs one",
		    d->symbol, at->file, at->line);
	f->detail = lk_buf_detach(&b);
	lk_buf_addf(&b, "declare it `extern inline` (or plainly, without `inline`) in exactly one .c file that includes %s, so that file emits the external definition; or make it `static inline` in the header",
		    lk_path_base(at->file));
	f->fix = lk_buf_detach(&b);
	f->fix_pos.file = lk_xstrdup(at->file);
	f->fix_pos.line = at->line;
	lk_strvec_push(&d->explanation, f->detail);
}

void lk_srcline_fill(struct lk_replay *rp)
{
	size_t opens = 0;

	if (rp->success)
		return;
	for (size_t i = 0; i < rp->diags.nr; i++) {
		struct lk_diag *d = &rp->diags.items[i];

		if (d->kind != LK_DIAG_UNDEFINED)
			continue;
		diag_refs(rp, d, &opens);
		if (d->ref_lines && d->ref_lines->inline_def.file)
			inline_definition(d);
		for (size_t k = 0; k < d->near_misses.nr && opens < OPENS_MAX; k++) {
			struct lk_finding *f = &d->near_misses.items[k];

			if (f->def_path) {
				opens++;
				finding_line(f);
			}
			/*
			 * extern "C" goes on the declaration the referencing code sees,
			 * whichever side is C++; `static` is removed from the definition.
			 */
			if (!strcmp(f->kind, "extern-c") && d->ref_lines && d->ref_lines->decl.file) {
				f->fix_pos.file = lk_xstrdup(d->ref_lines->decl.file);
				f->fix_pos.line = d->ref_lines->decl.line;
			} else if (!strcmp(f->kind, "local") && f->def_pos.file) {
				f->fix_pos.file = lk_xstrdup(f->def_pos.file);
				f->fix_pos.line = f->def_pos.line;
			}
		}
	}
}

void lk_srcline_release(struct lk_diag *d)
{
	if (!d->ref_lines)
		return;
	for (size_t i = 0; i < d->ref_lines->nr; i++) {
		free(d->ref_lines->items[i].symbol);
		free(d->ref_lines->items[i].section);
		lk_srcpos_release(&d->ref_lines->items[i].pos);
	}
	free(d->ref_lines->items);
	lk_srcpos_release(&d->ref_lines->decl);
	lk_srcpos_release(&d->ref_lines->inline_def);
	free(d->ref_lines);
	d->ref_lines = NULL;
}
