/*
 * What GNU ld does, per target, with a PC-relative reference of a PIE's
 * code to a symbol a shared object defines (see copy.h). Checked with GNU
 * ld 2.40 (tests/integ/157-aarch64-pie-relocs.sh):
 *
 * - x86-64: elf_x86_64_check_relocs gives R_X86_64_PC32 a copy
 *   relocation (data) or a canonical PLT entry (code) in a PIE as in a
 *   non-PIE executable (binutils 2.26 and later).
 * - AArch64: elfNN_aarch64_final_link_relocate refuses ADR_PREL_PG_HI21,
 *   ADR_PREL_LO21, LD_PREL_LO19 (and the MOVW_PREL forms) in a read-only
 *   section whenever bfd_link_pic, which a PIE is, against a symbol that
 *   does not bind locally ("relocation R_AARCH64_ADR_PREL_PG_HI21 against
 *   symbol `x' which may bind externally can not be used when making a
 *   shared object; recompile with -fPIC"): no copy in a PIE, data or code,
 *   -z nocopyreloc or not. -no-pie copies. lld and mold copy in both
 *   (../copyreloc.c).
 */
#include <elf.h>

#include "copy.h"

int lk_reloc_gnu_pie_copies(const struct lk_reloc_arch *a)
{
	return a->machine != EM_AARCH64;
}
