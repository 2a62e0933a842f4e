/*
 * Sections and relocations of a regular input, for --gc-sections (see
 * elf.c): what bfd/elflink.c's bfd_elf_gc_sections walks: each
 * section's relocations as edges to the sections their symbols are
 * defined in, COMDAT groups (SHT_GROUP), and .eh_frame's FDEs tied to
 * the functions they describe (elf-eh-frame.c's view of them).
 */
#include <stdint.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkscope/banned.h"
#include "linkscope/buf.h"
#include "elf.h"
#include "elf_parts.h"
#include "linkscope/vec.h"

#ifndef SHF_X86_64_LARGE
#define SHF_X86_64_LARGE 0x10000000	/* elf.h of older glibc lacks it */
#endif

/* ---- sections and relocations, for --gc-sections ---- */

/* One .eh_frame record: a CIE or an FDE (`cie`: the offset of its CIE). */
struct eh_record {
	size_t start, end;
	long cie;		/* -1 for a CIE */
	long owner;		/* an FDE: the section its pc_begin relocation points to, or -1 */
};

struct eh_reloc {
	size_t offset;
	uint32_t to, symbol;
};

struct eh_frame {
	struct { struct eh_record *items; size_t nr, alloc; } recs;
	struct { struct eh_reloc *items; size_t nr, alloc; } relocs;
};

static void parse_eh_frame(Elf_Scn *scn, struct eh_frame *eh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0;

	while (data && data->d_buf && off + 8 <= data->d_size) {
		const unsigned char *p = (const unsigned char *)data->d_buf + off;
		uint32_t len = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		uint32_t id = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
		struct eh_record *r;

		if (len == 0 || len == 0xffffffffu || len > data->d_size - off - 4)
			break;	/* the terminator, a 64-bit record (never emitted by GCC), or garbage */
		LK_GROW(eh->recs.items, eh->recs.nr + 1, eh->recs.alloc);
		r = &eh->recs.items[eh->recs.nr++];
		r->start = off;
		r->end = off + 4 + len;
		r->cie = id == 0 ? -1 : (long)(off + 4) - (long)id;
		r->owner = -1;
		off = r->end;
	}
}

static long eh_record_at(const struct eh_frame *eh, size_t offset)
{
	size_t lo = 0, hi = eh->recs.nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (offset < eh->recs.items[mid].start)
			hi = mid;
		else if (offset >= eh->recs.items[mid].end)
			lo = mid + 1;
		else
			return (long)mid;
	}
	return -1;
}

static void add_edge(struct lk_elf_gc *gc, size_t from, uint32_t to, uint32_t symbol)
{
	struct lk_elf_gc_edge *e;

	LK_GROW(gc->edges.items, gc->edges.nr + 1, gc->edges.alloc);
	e = &gc->edges.items[gc->edges.nr++];
	e->from = (uint32_t)from;
	e->to = to;
	e->symbol = symbol;
}

/* FDE relocations other than pc_begin, and its CIE's, become needs of the FDE's function section. */
static void eh_frame_edges(struct lk_elf_gc *gc, struct eh_frame *eh)
{
	for (size_t i = 0; i < eh->relocs.nr; i++) {
		const struct eh_reloc *x = &eh->relocs.items[i];
		long k = eh_record_at(eh, x->offset);

		if (k >= 0 && eh->recs.items[k].cie >= 0 && x->offset == eh->recs.items[k].start + 8 && !x->symbol)
			eh->recs.items[k].owner = (long)x->to;
	}
	for (size_t i = 0; i < eh->relocs.nr; i++) {
		const struct eh_reloc *x = &eh->relocs.items[i];
		long k = eh_record_at(eh, x->offset);

		if (k < 0)
			continue;
		if (eh->recs.items[k].cie >= 0) {
			if (x->offset != eh->recs.items[k].start + 8 && eh->recs.items[k].owner >= 0)
				add_edge(gc, (size_t)eh->recs.items[k].owner, x->to, x->symbol);
			continue;
		}
		/* A CIE's relocation (the personality): a need of every function whose FDE uses it. */
		for (size_t f = 0; f < eh->recs.nr; f++)
			if (eh->recs.items[f].cie == (long)eh->recs.items[k].start && eh->recs.items[f].owner >= 0)
				add_edge(gc, (size_t)eh->recs.items[f].owner, x->to, x->symbol);
	}
}

static void add_reloc(struct lk_elf_gc *gc, size_t from, const GElf_Rela *rela, size_t symi, size_t offset)
{
	struct lk_elf_reloc *x;

	LK_GROW(gc->relocs.items, gc->relocs.nr + 1, gc->relocs.alloc);
	x = &gc->relocs.items[gc->relocs.nr++];
	x->offset = offset;
	x->addend = rela->r_addend;
	x->section = (uint32_t)from;
	x->type = (uint32_t)GELF_R_TYPE(rela->r_info);
	x->symbol = (uint32_t)symi;
}

/* Every symbol's value, section, type, binding and visibility, for the relocation room. */
static void read_symbol_details(Elf_Data *syms, size_t nsyms, struct lk_elf_gc *gc)
{
	gc->symbols = lk_xcalloc(nsyms + 1, sizeof(*gc->symbols));
	for (size_t i = 0; i < nsyms; i++) {
		GElf_Sym s;

		if (!gelf_getsym(syms, (int)i, &s))
			continue;
		gc->symbols[i].value = s.st_value;
		gc->symbols[i].shndx = s.st_shndx;
		gc->symbols[i].name = s.st_name;
		gc->symbols[i].type = (unsigned char)GELF_ST_TYPE(s.st_info);
		gc->symbols[i].bind = (unsigned char)GELF_ST_BIND(s.st_info);
		gc->symbols[i].vis = (unsigned char)GELF_ST_VISIBILITY(s.st_other);
	}
}

/*
 * Entry i of a 64-bit object's relocation or symbol table, as gelf_getrela
 * and gelf_getsym give it (libelf has converted the table to the host's
 * order, so GElf's type is the entry's), without a library call per entry:
 * the llvm line's members have two million relocations. 0 past the end.
 */
static int entry64(const Elf_Data *data, size_t i, size_t size, void *out)
{
	if (!data->d_buf || i >= data->d_size / size)
		return 0;
	memcpy(out, (const char *)data->d_buf + i * size, size);
	return 1;
}

static int sym_at(Elf_Data *syms, int is64, size_t i, GElf_Sym *s)
{
	return is64 ? entry64(syms, i, sizeof(Elf64_Sym), s) : gelf_getsym(syms, (int)i, s) != NULL;
}

/*
 * The caller's answers by (type, writable), kept for one relocation
 * section: its two million relocations on the LLVM line are of a handful
 * of types, and asking the filter each time was a fifth of the reading.
 */
#define KEEP_MEMO 16
struct keep_memo {
	uint32_t type[KEEP_MEMO];
	signed char answer[KEEP_MEMO];	/* -1: none yet */
};

static int keep_answer(const struct lk_elf_gc *gc, struct keep_memo *memo, uint32_t type, int writable)
{
	size_t slot = ((size_t)type * 2 + (writable != 0)) % KEEP_MEMO;
	uint32_t tag = type * 2 + (writable != 0);

	if (memo->answer[slot] < 0 || memo->type[slot] != tag) {
		memo->type[slot] = tag;
		memo->answer[slot] = (signed char)gc->keep_reloc(gc->keep_ctx, type, writable);
	}
	return memo->answer[slot];
}

/* The caller's filter: the symbol's binding is read only when the answer depends on it. */
static int keep_this(const struct lk_elf_gc *gc, struct keep_memo *memo, const GElf_Rela *rela, size_t from,
		     Elf_Data *syms, size_t symi, size_t nsyms, int is64)
{
	GElf_Sym s;
	int k;

	if (!gc->keep_reloc)
		return 1;
	k = keep_answer(gc, memo, (uint32_t)GELF_R_TYPE(rela->r_info), gc->sections[from].write);
	if (k != LK_ELF_KEEP_IF_GLOBAL)
		return k;
	return symi < nsyms && sym_at(syms, is64, symi, &s) && GELF_ST_BIND(s.st_info) != STB_LOCAL;
}

/* The relocations of one SHT_REL/SHT_RELA section, against the symbol table `syms`. */
static void read_relocs(Elf *e, Elf_Scn *scn, const GElf_Shdr *shdr, Elf_Data *syms, size_t strtab,
			size_t nsyms, struct lk_elf_gc *gc, struct eh_frame *eh)
{
	Elf_Data *data;
	size_t from = shdr->sh_info;
	struct keep_memo memo;
	size_t n;
	int keep_relocs, is64;

	if (!shdr->sh_entsize || from >= gc->nsections)
		return;
	/*
	 * Relocations of debug and other non-alloc sections are resolved
	 * statically: no judgement; .eh_frame's are PC-relative to local
	 * sections (nothing an output rejects), kept only for the layout's
	 * reach (LK_ELF_GC_EH_RELOCS). Their bytes are not even read.
	 */
	keep_relocs = (gc->want & LK_ELF_GC_RELOCS) && gc->sections[from].alloc &&
		      (!eh || (gc->want & LK_ELF_GC_EH_RELOCS));
	if (!keep_relocs && !(gc->want & LK_ELF_GC_EDGES))
		return;
	if (!(data = elf_getdata(scn, NULL)))
		return;
	n = shdr->sh_size / shdr->sh_entsize;
	is64 = gelf_getclass(e) == ELFCLASS64;
	memset(memo.answer, -1, sizeof(memo.answer));
	for (size_t i = 0; i < n; i++) {
		GElf_Rela rela;
		GElf_Rel rel;
		GElf_Sym s;
		size_t symi, offset;
		uint32_t to = 0, global = 0;

		if (shdr->sh_type == SHT_RELA) {
			if (!(is64 ? entry64(data, i, sizeof(Elf64_Rela), &rela) : gelf_getrela(data, (int)i, &rela) != NULL))
				break;
			symi = GELF_R_SYM(rela.r_info);
			offset = rela.r_offset;
		} else {
			if (!gelf_getrel(data, (int)i, &rel))
				break;
			symi = GELF_R_SYM(rel.r_info);
			offset = rel.r_offset;
			rela.r_addend = 0;
			rela.r_info = rel.r_info;
		}
		if (keep_relocs && keep_this(gc, &memo, &rela, from, syms, symi, nsyms, is64))
			add_reloc(gc, from, &rela, symi, offset);
		if (!(gc->want & LK_ELF_GC_EDGES))
			continue;
		if (symi == 0 || symi >= nsyms || !sym_at(syms, is64, symi, &s))
			continue;
		if (GELF_ST_BIND(s.st_info) == STB_LOCAL) {
			if (s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE || s.st_shndx >= gc->nsections)
				continue;
			to = s.st_shndx;
		} else {
			if (!gc->names[symi]) {
				const char *name = elf_strptr(e, strtab, s.st_name);

				if (!name || !*name)
					continue;
				gc->names[symi] = name;
			}
			global = (uint32_t)symi;
		}
		if (eh) {
			struct eh_reloc *x;

			LK_GROW(eh->relocs.items, eh->relocs.nr + 1, eh->relocs.alloc);
			x = &eh->relocs.items[eh->relocs.nr++];
			x->offset = offset;
			x->to = to;
			x->symbol = global;
		} else {
			add_edge(gc, from, to, global);
		}
	}
}

/* An SHT_GROUP section: flag word, then member section indices. */
static void read_group(Elf *e, Elf_Scn *scn, const GElf_Shdr *shdr, size_t ndx, struct lk_elf_gc *gc,
		       Elf_Data *syms, size_t strtab)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	const uint32_t *w;
	size_t n;
	GElf_Sym s;

	if (!data || !data->d_buf || data->d_size < 4)
		return;
	w = data->d_buf;
	n = data->d_size / 4;
	gc->sections[ndx].comdat = (w[0] & GRP_COMDAT) != 0;
	if (syms && gelf_getsym(syms, (int)shdr->sh_info, &s)) {
		gc->sections[ndx].signature = elf_strptr(e, strtab, s.st_name);
		gc->sections[ndx].signature_index = (uint32_t)shdr->sh_info;
	}
	for (size_t i = 1; i < n; i++)
		if (w[i] < gc->nsections)
			gc->sections[w[i]].group = (long)ndx;
}

int elfr_read_gc(Elf *e, const char *path, struct lk_elf_gc *gc, struct lk_err *err)
{
	Elf_Scn *scn = NULL, *symscn = NULL;
	GElf_Shdr shdr, symshdr;
	Elf_Data *syms = NULL;
	size_t shnum, nsyms = 0, strtab = 0, eh_ndx = 0, shstrndx = 0;
	int has_shstrndx;
	struct eh_frame eh;

	memset(&eh, 0, sizeof(eh));
	GElf_Ehdr ehdr;

	if (elf_getshdrnum(e, &shnum) < 0)
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': %s", path, elf_errmsg(-1));
	if (gelf_getehdr(e, &ehdr))
		gc->machine = ehdr.e_machine;
	gc->nsections = shnum;
	gc->sections = lk_xcalloc(shnum + 1, sizeof(*gc->sections));
	for (size_t i = 0; i < shnum; i++)
		gc->sections[i].group = gc->sections[i].linked_to = -1;
	/* The section names' table, asked once: thousands of sections per object with -ffunction-sections. */
	has_shstrndx = elf_getshdrstrndx(e, &shstrndx) == 0;
	while ((scn = elf_nextscn(e, scn))) {
		size_t ndx = elf_ndxscn(scn);
		struct lk_elf_gc_section *sec;

		if (ndx >= shnum || !gelf_getshdr(scn, &shdr))
			continue;
		sec = &gc->sections[ndx];
		if (has_shstrndx)
			sec->name = elf_strptr(e, shstrndx, shdr.sh_name);
		sec->alloc = (shdr.sh_flags & SHF_ALLOC) != 0;
		sec->note = shdr.sh_type == SHT_NOTE;
		sec->retain = (shdr.sh_flags & SHF_GNU_RETAIN) != 0;
		sec->counted = shdr.sh_type != SHT_SYMTAB && shdr.sh_type != SHT_STRTAB &&
			       shdr.sh_type != SHT_RELA && shdr.sh_type != SHT_REL &&
			       shdr.sh_type != SHT_SYMTAB_SHNDX;
		sec->empty = shdr.sh_size == 0;
		sec->size = shdr.sh_size;
		sec->align = shdr.sh_addralign;
		sec->nobits = shdr.sh_type == SHT_NOBITS;
		sec->exec = (shdr.sh_flags & SHF_EXECINSTR) != 0;
		sec->write = (shdr.sh_flags & SHF_WRITE) != 0;
		sec->tls = (shdr.sh_flags & SHF_TLS) != 0;
		sec->large = (shdr.sh_flags & SHF_X86_64_LARGE) != 0;
		if ((shdr.sh_flags & SHF_LINK_ORDER) && shdr.sh_link < shnum)
			sec->linked_to = shdr.sh_link;
		if (shdr.sh_type == SHT_SYMTAB) {
			symscn = scn;
			symshdr = shdr;
		}
		if (sec->name && !strcmp(sec->name, ".eh_frame") && !eh_ndx)
			eh_ndx = ndx;
	}
	if (!symscn)
		return 0;	/* no symbols: nothing references anything */
	syms = elf_getdata(symscn, NULL);
	if (!syms || !symshdr.sh_entsize)
		return lk_err_set(err, LK_E_FORMAT, "cannot read '%s': bad symbol table", path);
	nsyms = symshdr.sh_size / symshdr.sh_entsize;
	strtab = symshdr.sh_link;
	gc->strtab = strtab;
	if (gc->want & LK_ELF_GC_EDGES)
		gc->names = lk_xcalloc(nsyms + 1, sizeof(*gc->names));
	gc->nnames = nsyms;

	if (eh_ndx && (gc->want & LK_ELF_GC_EDGES))
		parse_eh_frame(elf_getscn(e, eh_ndx), &eh);
	scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &shdr))
			continue;
		if (shdr.sh_type == SHT_GROUP && (gc->want & LK_ELF_GC_EDGES))
			read_group(e, scn, &shdr, elf_ndxscn(scn), gc, syms, strtab);
		else if ((shdr.sh_type == SHT_RELA || shdr.sh_type == SHT_REL) && shdr.sh_link == elf_ndxscn(symscn))
			read_relocs(e, scn, &shdr, syms, strtab, nsyms, gc,
				    eh_ndx && shdr.sh_info == eh_ndx ? &eh : NULL);
	}
	if (gc->want & LK_ELF_GC_EDGES)
		eh_frame_edges(gc, &eh);
	if (gc->relocs.nr)
		read_symbol_details(syms, nsyms, gc);	/* only for an input with relocations kept: most have none */
	free(eh.recs.items);
	free(eh.relocs.items);
	return 0;
}

/* Empty and ready to be read into: what the caller asked for (want, keep_reloc, keep_ctx) kept. */
void elfr_gc_reset(struct lk_elf_gc *gc)
{
	struct lk_elf_gc keep = *gc;

	memset(gc, 0, sizeof(*gc));
	gc->fd = -1;
	gc->want = keep.want;
	gc->keep_reloc = keep.keep_reloc;
	gc->keep_ctx = keep.keep_ctx;
}

void lk_elf_gc_release(struct lk_elf_gc *gc)
{
	free(gc->sections);
	free(gc->edges.items);
	free(gc->names);
	free(gc->relocs.items);
	free(gc->symbols);
	if (gc->elf)
		elf_end(gc->elf);
	free(gc->image);
	if (gc->fd >= 0)
		close(gc->fd);
	memset(gc, 0, sizeof(*gc));
	gc->fd = -1;
}

const char *lk_elf_gc_symbol_name(const struct lk_elf_gc *gc, uint32_t index)
{
	const struct lk_elf_gc_symbol *s;
	size_t shstrndx;
	Elf_Scn *scn;
	GElf_Shdr shdr;

	if (!gc->elf || !gc->symbols || index >= gc->nnames)
		return NULL;
	s = &gc->symbols[index];
	if (s->type != STT_SECTION)
		return elf_strptr(gc->elf, gc->strtab, s->name);
	if (elf_getshdrstrndx(gc->elf, &shstrndx) < 0 || !(scn = elf_getscn(gc->elf, s->shndx)) ||
	    !gelf_getshdr(scn, &shdr))
		return NULL;
	return elf_strptr(gc->elf, shstrndx, shdr.sh_name);
}

/* The bytes of the section named `name` of `e` (not compressed), or NULL. */
static Elf_Data *named_section(Elf *e, const char *name)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr shdr;

	if (elf_getshdrstrndx(e, &shstrndx) < 0)
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type == SHT_NOBITS || (shdr.sh_flags & SHF_COMPRESSED))
			continue;
		n = elf_strptr(e, shstrndx, shdr.sh_name);
		if (n && !strcmp(n, name))
			return elf_getdata(scn, NULL);
	}
	return NULL;
}

/* The first string of `data` that `accept` takes, copied. */
static char *first_string(Elf_Data *data, int (*accept)(const char *s))
{
	const char *p, *end;

	if (!data || !data->d_buf)
		return NULL;
	p = data->d_buf;
	end = p + data->d_size;
	while (p < end) {
		const char *z = memchr(p, '\0', (size_t)(end - p));

		if (!z)
			break;
		if (accept(p))
			return lk_xstrdup(p);
		p = z + 1;
	}
	return NULL;
}

/* A DW_AT_producer: gcc's "GNU C17 12.2.0 ...", clang's "... clang version 14 ...", as -g's "GNU AS 2.40". */
static int producer_like(const char *s)
{
	return !strncmp(s, "GNU C", 5) || !strncmp(s, "GNU Fortran", 11) || !strncmp(s, "GNU Assembler", 13) ||
	       !strncmp(s, "GNU AS ", 7) ||
	       strstr(s, "clang version") != NULL;
}

static int any_string(const char *s)
{
	return *s != '\0';
}

char *lk_elf_gc_producer(const struct lk_elf_gc *gc)
{
	char *p;

	if (!gc->elf)
		return NULL;
	p = first_string(named_section(gc->elf, ".debug_str"), producer_like);
	return p ? p : first_string(named_section(gc->elf, ".comment"), any_string);
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * The notes of .note.gnu.property (NT_GNU_PROPERTY_TYPE_0, owner "GNU"),
 * each property (type, size, data padded to 8 bytes in ELF64) read with
 * its size checked against the section; x86 objects are little-endian.
 */
unsigned lk_elf_gc_x86_feature_1(const struct lk_elf_gc *gc)
{
	Elf_Data *d = gc->elf ? named_section(gc->elf, ".note.gnu.property") : NULL;
	const unsigned char *p, *end;
	unsigned features = 0;

	if (!d || !d->d_buf)
		return 0;
	p = d->d_buf;
	end = p + d->d_size;
	while (end - p >= 12) {
		uint32_t namesz = le32(p), descsz = le32(p + 4), type = le32(p + 8);
		size_t name_room = ((size_t)namesz + 3) & ~(size_t)3;
		const unsigned char *desc = p + 12 + name_room, *q;

		if (namesz > (size_t)(end - p) || descsz > (size_t)(end - p) ||
		    name_room + descsz > (size_t)(end - p) - 12)
			break;
		if (type == 5 /* NT_GNU_PROPERTY_TYPE_0 */ && namesz == 4 && !memcmp(p + 12, "GNU", 4)) {
			for (q = desc; desc + descsz - q >= 8;) {
				uint32_t pr_type = le32(q), pr_size = le32(q + 4);

				if (pr_size > (size_t)(desc + descsz - q) - 8)
					break;
				if (pr_type == 0xc0000002u && pr_size >= 4)
					features |= le32(q + 8);
				q += 8 + (((size_t)pr_size + 7) & ~(size_t)7);
			}
		}
		p = desc + (((size_t)descsz + 7) & ~(size_t)7);
	}
	return features;
}
