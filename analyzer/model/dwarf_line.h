/*
 * Source lines from DWARF: the file and line of a place in an object's
 * code, read from .debug_line as GNU ld prints them ("main.c:6: undefined
 * reference to `foo'"), for a failed link's references and the
 * definitions its near misses name.
 *
 * Two parts: dwarf_line.c reads the sections' bytes (no libelf: a bounded
 * parser of untrusted input, fuzzed by tests/fuzz/fuzz_dwarf_line.c), and
 * elf_dwarf.c (the ELF reader's part) gives it an object's debug
 * sections with the object's relocations applied.
 */
#ifndef ANALYZER_DWARF_LINE_H
#define ANALYZER_DWARF_LINE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A place of an object: `offset` in its section `section` (an index of
 * the section header table). Section 0 is an address of a linked file (a
 * shared object's symbol value), or of an address no relocation names.
 */
struct lk_dwarf_place {
	uint32_t section;
	uint64_t offset;
};

/* Where a place is in the sources; `file` malloc'd, or NULL (line 0) when DWARF does not say. */
struct lk_srcpos {
	char *file;
	unsigned line;
};
void lk_srcpos_release(struct lk_srcpos *p);

/* A relocation of .debug_line: the section its symbol is defined in, by offset in .debug_line. */
struct lk_dwarf_addr_reloc {
	uint64_t offset;
	uint32_t section;
};

/* One debug section's bytes (borrowed), or NULL and 0 when the object has none. */
struct lk_dwarf_bytes {
	const unsigned char *p;
	size_t size;
};

/*
 * What the reader reads: the bytes of .debug_info, .debug_abbrev,
 * .debug_line, .debug_line_str, .debug_str and .debug_str_offsets
 * (clang's DW_FORM_strx names), relocated; in a
 * relocatable object the address of a DW_LNE_set_address is an offset
 * in the section that `addr_relocs` (sorted by offset) names for it.
 */
struct lk_dwarf_input {
	struct lk_dwarf_bytes info, abbrev, line, line_str, str, str_offsets;
	int big_endian;
	int addr_size;		/* of the ELF class: 4 or 8 */
	const struct lk_dwarf_addr_reloc *addr_relocs;
	size_t naddr_relocs;
};

/*
 * The file and line of each of the `n` places into out[0..n) (zeroed
 * first), as bfd's dwarf2.c finds them (_bfd_dwarf2_find_nearest_line):
 * each compilation unit's line program (DWARF 2 to 5, 32- and 64-bit),
 * its file names joined to their directory and the unit's
 * DW_AT_comp_dir, the row at the greatest address not above the place in
 * the sequence that holds it. Bad or truncated DWARF leaves a place
 * without a line; it never fails. The caller releases each out[i].
 */
void lk_dwarf_lines(const struct lk_dwarf_input *in, const struct lk_dwarf_place *places, size_t n,
		    struct lk_srcpos *out);

/*
 * Where the object declares `symbol`: the DW_AT_decl_file and
 * DW_AT_decl_line of a DIE with DW_AT_declaration whose linkage name (or
 * name, when it has none: C) is `symbol`, the file named as
 * lk_dwarf_lines() names files: the header line a C++ caller's
 * `extern "C"` goes on. 1, or 0 (out zeroed) when it has none; the caller
 * releases `out`.
 */
int lk_dwarf_declaration(const struct lk_dwarf_input *in, const char *symbol, struct lk_srcpos *out);
/*
 * Likewise for the DIE that defines `symbol` (no DW_AT_declaration): the
 * line of its declarator ("static int f(int x)"), where the line table's
 * row at its address is often the line of its opening brace.
 */
int lk_dwarf_definition(const struct lk_dwarf_input *in, const char *symbol, struct lk_srcpos *out);

/*
 * The ELF reader's side (elf_dwarf.c): the debug sections of the object
 * `gc` has open (elf.h), copied and relocated, for lk_dwarf_lines() and
 * lk_dwarf_declaration(); NULL when there is nothing to read: no DWARF,
 * compressed debug sections, a relocation it cannot apply, a section over
 * 64 MiB. Close with lk_elf_dwarf_close() (NULL is fine).
 */
struct lk_elf_gc;
struct lk_elf_dwarf;
struct lk_elf_dwarf *lk_elf_dwarf_open(const struct lk_elf_gc *gc);
const struct lk_dwarf_input *lk_elf_dwarf_input(const struct lk_elf_dwarf *dw);
void lk_elf_dwarf_close(struct lk_elf_dwarf *dw);
/* The place of the definition of `name` (any binding) in the object of `gc`: 1, or 0 when it has none. */
int lk_elf_gc_symbol_place(const struct lk_elf_gc *gc, const char *name, struct lk_dwarf_place *place);

#endif
