/*
 * The ELF reader's part of the source lines (dwarf_line.h): an object's
 * debug sections copied and relocated, as bfd reads them for
 * _bfd_dwarf2_find_nearest_line (bfd_simple_get_relocated_section_contents
 * and place_sections): in a relocatable object the offsets of
 * DW_FORM_strp, DW_FORM_line_strp and DW_AT_stmt_list are relocations
 * against the string and line sections, and each DW_LNE_set_address is 0
 * plus a relocation against the code section it describes; that section
 * is kept beside the address, so a place is a section and an offset.
 */
#include <elf.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "dwarf_line.h"
#include "elf.h"

/* A debug section larger than this is not read (a real object's are far smaller). */
#define DEBUG_SECTION_MAX (64u << 20)

enum { D_INFO, D_ABBREV, D_LINE, D_LINE_STR, D_STR, D_STR_OFFSETS, D_COUNT };
static const char *const debug_names[D_COUNT] = {
	".debug_info", ".debug_abbrev", ".debug_line", ".debug_line_str", ".debug_str", ".debug_str_offsets",
};

struct debug {
	size_t index[D_COUNT];	/* section indexes, 0 when absent */
	unsigned char *bytes[D_COUNT];	/* owned copies */
	size_t size[D_COUNT];
	struct { struct lk_dwarf_addr_reloc *items; size_t nr, alloc; } addr_relocs;
	int big_endian, rela_only;
};

/* The width of an absolute data relocation of `machine` (what debug sections use), or 0. */
static unsigned abs_width(int machine, uint32_t type)
{
	switch (machine) {
	case EM_X86_64: return type == R_X86_64_64 ? 8 : type == R_X86_64_32 || type == R_X86_64_32S ? 4 : 0;
	case EM_AARCH64: return type == R_AARCH64_ABS64 ? 8 : type == R_AARCH64_ABS32 ? 4 : 0;
	case EM_386: return type == R_386_32 ? 4 : 0;
	case EM_ARM: return type == R_ARM_ABS32 ? 4 : 0;
	default: return 0;
	}
}

static uint64_t get_uint(const unsigned char *p, unsigned n, int be)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
	return v;
}

static void put_uint(unsigned char *p, unsigned n, int be, uint64_t v)
{
	for (unsigned i = 0; i < n; i++)
		p[be ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* The copies of the debug sections `e` has; 0 when it has no .debug_line to read. */
static int copy_sections(Elf *e, struct debug *d)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr shdr;

	if (elf_getshdrstrndx(e, &shstrndx) < 0)
		return 0;
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type == SHT_NOBITS || !(name = elf_strptr(e, shstrndx, shdr.sh_name)))
			continue;
		for (int k = 0; k < D_COUNT; k++) {
			if (strcmp(name, debug_names[k]) || d->index[k])
				continue;
			/* Compressed (-gz) sections are not inflated here: no line for them, said by their absence. */
			if ((shdr.sh_flags & SHF_COMPRESSED) || shdr.sh_size > DEBUG_SECTION_MAX ||
			    !(data = elf_getdata(scn, NULL)) || !data->d_buf || data->d_size != shdr.sh_size)
				break;
			d->index[k] = elf_ndxscn(scn);
			d->bytes[k] = lk_xmalloc(data->d_size + 1);
			memcpy(d->bytes[k], data->d_buf, data->d_size);
			d->size[k] = data->d_size;
			break;
		}
	}
	return d->bytes[D_LINE] != NULL && d->bytes[D_INFO] != NULL;
}

static int addr_reloc_cmp(const void *a, const void *b)
{
	const struct lk_dwarf_addr_reloc *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* One relocation section applied to its debug section's copy; 0 when a relocation cannot be read. */
static int apply_relocs(Elf_Scn *scn, const GElf_Shdr *shdr, int k, Elf_Data *syms, size_t nsyms, int machine,
			struct debug *d)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = shdr->sh_entsize ? shdr->sh_size / shdr->sh_entsize : 0;

	if (!data)
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Rela rela;
		GElf_Rel rel;
		GElf_Sym s;
		unsigned width;
		uint64_t value;
		size_t symi;

		if (shdr->sh_type == SHT_RELA ? !gelf_getrela(data, (int)i, &rela) : !gelf_getrel(data, (int)i, &rel))
			return 0;
		if (shdr->sh_type == SHT_REL) {
			rela.r_offset = rel.r_offset;
			rela.r_info = rel.r_info;
			rela.r_addend = 0;
		}
		width = abs_width(machine, (uint32_t)GELF_R_TYPE(rela.r_info));
		symi = GELF_R_SYM(rela.r_info);
		/*
		 * Offsets and addresses are absolute relocations; another type
		 * in .debug_info is a location expression's (a TLS offset), of
		 * no interest; in .debug_line, one we cannot apply: better no
		 * line than a wrong one.
		 */
		if (!width && k != D_LINE)
			continue;
		if (!width)
			return 0;
		if (rela.r_offset > d->size[k] || width > d->size[k] - rela.r_offset)
			return 0;
		if (symi >= nsyms || !gelf_getsym(syms, (int)symi, &s))
			return 0;
		value = s.st_value + (uint64_t)rela.r_addend;
		if (shdr->sh_type == SHT_REL)
			value += get_uint(d->bytes[k] + rela.r_offset, width, d->big_endian);
		put_uint(d->bytes[k] + rela.r_offset, width, d->big_endian, value);
		if (k == D_LINE && s.st_shndx != SHN_UNDEF && s.st_shndx < SHN_LORESERVE) {
			LK_GROW(d->addr_relocs.items, d->addr_relocs.nr + 1, d->addr_relocs.alloc);
			d->addr_relocs.items[d->addr_relocs.nr].offset = rela.r_offset;
			d->addr_relocs.items[d->addr_relocs.nr++].section = s.st_shndx;
		}
	}
	return 1;
}

/* The relocations of every debug section copied; 0 when one cannot be applied. */
static int relocate(Elf *e, struct debug *d)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr, symshdr;
	GElf_Ehdr ehdr;

	if (!gelf_getehdr(e, &ehdr))
		return 0;
	if (ehdr.e_type != ET_REL)
		return 1;	/* linked: the sections hold the final values, and addresses are addresses */
	if (ehdr.e_machine != EM_X86_64 && ehdr.e_machine != EM_AARCH64 && ehdr.e_machine != EM_386 &&
	    ehdr.e_machine != EM_ARM)
		return 0;	/* a machine whose relocations abs_width() does not know */
	while ((scn = elf_nextscn(e, scn))) {
		Elf_Scn *symscn;
		Elf_Data *syms;

		if (!gelf_getshdr(scn, &shdr) || (shdr.sh_type != SHT_RELA && shdr.sh_type != SHT_REL))
			continue;
		for (int k = 0; k < D_COUNT; k++) {
			if (!d->index[k] || shdr.sh_info != d->index[k])
				continue;
			if (!(symscn = elf_getscn(e, shdr.sh_link)) || !gelf_getshdr(symscn, &symshdr) ||
			    !symshdr.sh_entsize || !(syms = elf_getdata(symscn, NULL)))
				return 0;
			if (!apply_relocs(scn, &shdr, k, syms, symshdr.sh_size / symshdr.sh_entsize, ehdr.e_machine, d))
				return 0;
		}
	}
	if (d->addr_relocs.nr > 1)
		qsort(d->addr_relocs.items, d->addr_relocs.nr, sizeof(*d->addr_relocs.items), addr_reloc_cmp);
	return 1;
}

struct lk_elf_dwarf {
	struct debug d;
	struct lk_dwarf_input in;
};

static void debug_release(struct debug *d)
{
	for (int k = 0; k < D_COUNT; k++)
		free(d->bytes[k]);
	free(d->addr_relocs.items);
}

struct lk_elf_dwarf *lk_elf_dwarf_open(const struct lk_elf_gc *gc)
{
	struct lk_elf_dwarf *dw;
	struct debug *d;
	Elf *e = gc->elf;
	GElf_Ehdr ehdr;

	if (!e || !gelf_getehdr(e, &ehdr))
		return NULL;
	dw = lk_xcalloc(1, sizeof(*dw));
	d = &dw->d;
	d->big_endian = ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
	if (!copy_sections(e, d) || !relocate(e, d)) {
		lk_elf_dwarf_close(dw);
		return NULL;
	}
	dw->in.info = (struct lk_dwarf_bytes){ d->bytes[D_INFO], d->size[D_INFO] };
	dw->in.abbrev = (struct lk_dwarf_bytes){ d->bytes[D_ABBREV], d->size[D_ABBREV] };
	dw->in.line = (struct lk_dwarf_bytes){ d->bytes[D_LINE], d->size[D_LINE] };
	dw->in.line_str = (struct lk_dwarf_bytes){ d->bytes[D_LINE_STR], d->size[D_LINE_STR] };
	dw->in.str = (struct lk_dwarf_bytes){ d->bytes[D_STR], d->size[D_STR] };
	dw->in.str_offsets = (struct lk_dwarf_bytes){ d->bytes[D_STR_OFFSETS], d->size[D_STR_OFFSETS] };
	dw->in.big_endian = d->big_endian;
	dw->in.addr_size = ehdr.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4;
	dw->in.addr_relocs = d->addr_relocs.items;
	dw->in.naddr_relocs = d->addr_relocs.nr;
	return dw;
}

const struct lk_dwarf_input *lk_elf_dwarf_input(const struct lk_elf_dwarf *dw)
{
	return &dw->in;
}

void lk_elf_dwarf_close(struct lk_elf_dwarf *dw)
{
	if (!dw)
		return;
	debug_release(&dw->d);
	free(dw);
}

int lk_elf_gc_symbol_place(const struct lk_elf_gc *gc, const char *name, struct lk_dwarf_place *place)
{
	Elf *e = gc->elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	GElf_Ehdr ehdr;

	if (!e || !gelf_getehdr(e, &ehdr))
		return 0;
	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *data;
		size_t n;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_SYMTAB || !shdr.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		n = shdr.sh_size / shdr.sh_entsize;
		for (size_t i = 1; i < n; i++) {
			GElf_Sym s;
			const char *sn;

			if (!gelf_getsym(data, (int)i, &s) || s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE ||
			    !(sn = elf_strptr(e, shdr.sh_link, s.st_name)) || strcmp(sn, name))
				continue;
			/* A relocatable object's value is an offset in its section; a linked file's an address. */
			place->section = ehdr.e_type == ET_REL ? s.st_shndx : 0;
			place->offset = s.st_value;
			return 1;
		}
	}
	return 0;
}
