/*
 * x86-64 relocation types (the x86-64 psABI, table "Relocation Types"),
 * as GNU ld (bfd/elf64-x86-64.c: elf_x86_64_check_relocs and
 * relocate_section) judges them: R_X86_64_32/32S/16/8 cannot be made
 * dynamic, so a PIE or a shared object rejects them ("recompile with
 * -fPIE"); R_X86_64_PC32 against a preemptible symbol in a shared object
 * from a read-only section is rejected ("recompile with -fPIC");
 * R_X86_64_TPOFF32 (local-exec TLS) only fits an executable. PC-relative
 * and GOT-relative 32-bit fields reach +-2 GiB (the small code model).
 */
#include <elf.h>

#include "arch.h"

#ifndef R_X86_64_GOTPCRELX
#define R_X86_64_GOTPCRELX 41
#define R_X86_64_REX_GOTPCRELX 42
#endif

#define T(type, cls, reach, pc) { type, #type, cls, reach, pc }

static const struct lk_reloc_howto types[] = {
	T(R_X86_64_NONE, LK_RC_OK, 0, 0),
	T(R_X86_64_64, LK_RC_ABS, 0, 0),
	T(R_X86_64_PC32, LK_RC_PC, 31, 1),
	T(R_X86_64_GOT32, LK_RC_OK, 0, 0),
	T(R_X86_64_PLT32, LK_RC_BRANCH, 31, 1),
	T(R_X86_64_GOTPCREL, LK_RC_GOT, 31, 1),
	T(R_X86_64_32, LK_RC_ABS_NARROW, 32, 0),
	T(R_X86_64_32S, LK_RC_ABS_NARROW, 31, 0),
	T(R_X86_64_16, LK_RC_ABS_NARROW, 16, 0),
	T(R_X86_64_PC16, LK_RC_PC, 15, 1),
	T(R_X86_64_8, LK_RC_ABS_NARROW, 8, 0),
	T(R_X86_64_PC8, LK_RC_PC, 7, 1),
	T(R_X86_64_DTPMOD64, LK_RC_TLS, 0, 0),
	T(R_X86_64_DTPOFF64, LK_RC_TLS, 0, 0),
	T(R_X86_64_TPOFF64, LK_RC_TLS, 0, 0),
	T(R_X86_64_TLSGD, LK_RC_TLS, 31, 1),
	T(R_X86_64_TLSLD, LK_RC_TLS, 31, 1),
	T(R_X86_64_DTPOFF32, LK_RC_TLS, 0, 0),
	T(R_X86_64_GOTTPOFF, LK_RC_TLS, 31, 1),
	T(R_X86_64_TPOFF32, LK_RC_TLS_LE, 0, 0),
	T(R_X86_64_PC64, LK_RC_PC, 0, 1),
	T(R_X86_64_GOTOFF64, LK_RC_OK, 0, 0),
	T(R_X86_64_GOTPC32, LK_RC_OK, 31, 1),
	T(R_X86_64_GOT64, LK_RC_OK, 0, 0),
	T(R_X86_64_GOTPCREL64, LK_RC_GOT, 0, 1),
	T(R_X86_64_GOTPC64, LK_RC_OK, 0, 1),
	T(R_X86_64_GOTPLT64, LK_RC_OK, 0, 0),
	T(R_X86_64_PLTOFF64, LK_RC_OK, 0, 0),
	T(R_X86_64_SIZE32, LK_RC_OK, 0, 0),
	T(R_X86_64_SIZE64, LK_RC_OK, 0, 0),
	T(R_X86_64_GOTPC32_TLSDESC, LK_RC_TLS, 31, 1),
	T(R_X86_64_TLSDESC_CALL, LK_RC_TLS, 0, 0),
	T(R_X86_64_TLSDESC, LK_RC_TLS, 0, 0),
	T(39, LK_RC_PC, 31, 1),		/* R_X86_64_PC32_BND (MPX, obsolete) */
	T(40, LK_RC_BRANCH, 31, 1),	/* R_X86_64_PLT32_BND */
	T(R_X86_64_GOTPCRELX, LK_RC_GOT, 31, 1),
	T(R_X86_64_REX_GOTPCRELX, LK_RC_GOT, 31, 1),
};

const struct lk_reloc_arch lk_reloc_arch_x86_64 = {
	EM_X86_64, "x86-64", types, sizeof(types) / sizeof(types[0]), 0x400000, 31, 0, "-mcmodel=medium",
};
