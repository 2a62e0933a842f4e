/*
 * AArch64 relocation types (ELF for the Arm 64-bit Architecture, "Static
 * relocations"), as GNU ld (bfd/elfnn-aarch64.c) judges them: absolute
 * MOVW_UABS_* and narrow ABS fields cannot be made dynamic, so a PIE or a
 * shared object rejects them; ADR_PREL_PG_HI21 (and the other
 * PC-relative forms) against a symbol "which may bind externally" is
 * rejected in a shared object ("recompile with -fPIC"). ADRP reaches
 * +-4 GiB; B/BL (JUMP26/CALL26) +-128 MiB, but ld then adds a long-branch
 * veneer (elfNN_aarch64_size_stubs), so only a call that no stub can
 * serve fails.
 */
#include <elf.h>

#include "arch.h"

#define T(type, cls, reach, pc) { type, #type, cls, reach, pc }

static const struct lk_reloc_howto types[] = {
	T(R_AARCH64_NONE, LK_RC_OK, 0, 0),
	T(R_AARCH64_ABS64, LK_RC_ABS, 0, 0),
	T(R_AARCH64_ABS32, LK_RC_ABS_NARROW, 32, 0),
	T(R_AARCH64_ABS16, LK_RC_ABS_NARROW, 16, 0),
	T(R_AARCH64_PREL64, LK_RC_PC, 0, 1),
	T(R_AARCH64_PREL32, LK_RC_PC, 31, 1),
	T(R_AARCH64_PREL16, LK_RC_PC, 15, 1),
	T(R_AARCH64_MOVW_UABS_G0, LK_RC_ABS_NARROW, 16, 0),
	T(R_AARCH64_MOVW_UABS_G0_NC, LK_RC_ABS_NARROW, 0, 0),
	T(R_AARCH64_MOVW_UABS_G1, LK_RC_ABS_NARROW, 32, 0),
	T(R_AARCH64_MOVW_UABS_G1_NC, LK_RC_ABS_NARROW, 0, 0),
	T(R_AARCH64_MOVW_UABS_G2, LK_RC_ABS_NARROW, 48, 0),
	T(R_AARCH64_MOVW_UABS_G2_NC, LK_RC_ABS_NARROW, 0, 0),
	T(R_AARCH64_MOVW_UABS_G3, LK_RC_ABS_NARROW, 0, 0),
	T(R_AARCH64_MOVW_SABS_G0, LK_RC_ABS_NARROW, 16, 0),
	T(R_AARCH64_MOVW_SABS_G1, LK_RC_ABS_NARROW, 32, 0),
	T(R_AARCH64_MOVW_SABS_G2, LK_RC_ABS_NARROW, 48, 0),
	T(R_AARCH64_LD_PREL_LO19, LK_RC_PC, 20, 1),
	T(R_AARCH64_ADR_PREL_LO21, LK_RC_PC, 20, 1),
	T(R_AARCH64_ADR_PREL_PG_HI21, LK_RC_PC, 32, 1),
	T(R_AARCH64_ADR_PREL_PG_HI21_NC, LK_RC_PC, 0, 1),
	T(R_AARCH64_ADD_ABS_LO12_NC, LK_RC_OK, 0, 0),
	T(R_AARCH64_LDST8_ABS_LO12_NC, LK_RC_OK, 0, 0),
	T(R_AARCH64_TSTBR14, LK_RC_BRANCH, 15, 1),
	T(R_AARCH64_CONDBR19, LK_RC_BRANCH, 20, 1),
	T(R_AARCH64_JUMP26, LK_RC_BRANCH, 27, 1),
	T(R_AARCH64_CALL26, LK_RC_BRANCH, 27, 1),
	T(R_AARCH64_LDST16_ABS_LO12_NC, LK_RC_OK, 0, 0),
	T(R_AARCH64_LDST32_ABS_LO12_NC, LK_RC_OK, 0, 0),
	T(R_AARCH64_LDST64_ABS_LO12_NC, LK_RC_OK, 0, 0),
	T(R_AARCH64_MOVW_PREL_G0, LK_RC_PC, 15, 1),
	T(R_AARCH64_MOVW_PREL_G0_NC, LK_RC_PC, 0, 1),
	T(R_AARCH64_MOVW_PREL_G1, LK_RC_PC, 31, 1),
	T(R_AARCH64_MOVW_PREL_G1_NC, LK_RC_PC, 0, 1),
	T(R_AARCH64_MOVW_PREL_G2, LK_RC_PC, 47, 1),
	T(R_AARCH64_MOVW_PREL_G2_NC, LK_RC_PC, 0, 1),
	T(R_AARCH64_MOVW_PREL_G3, LK_RC_PC, 0, 1),
	T(R_AARCH64_LDST128_ABS_LO12_NC, LK_RC_OK, 0, 0),
	T(R_AARCH64_MOVW_GOTOFF_G0, LK_RC_OK, 0, 0),
	T(R_AARCH64_MOVW_GOTOFF_G0_NC, LK_RC_OK, 0, 0),
	T(R_AARCH64_MOVW_GOTOFF_G1, LK_RC_OK, 0, 0),
	T(R_AARCH64_MOVW_GOTOFF_G1_NC, LK_RC_OK, 0, 0),
	T(R_AARCH64_MOVW_GOTOFF_G2, LK_RC_OK, 0, 0),
	T(R_AARCH64_MOVW_GOTOFF_G2_NC, LK_RC_OK, 0, 0),
	T(R_AARCH64_MOVW_GOTOFF_G3, LK_RC_OK, 0, 0),
	T(R_AARCH64_GOTREL64, LK_RC_OK, 0, 0),
	T(R_AARCH64_GOTREL32, LK_RC_OK, 0, 0),
	T(R_AARCH64_GOT_LD_PREL19, LK_RC_GOT, 20, 1),
	T(R_AARCH64_LD64_GOTOFF_LO15, LK_RC_OK, 0, 0),
	T(R_AARCH64_ADR_GOT_PAGE, LK_RC_GOT, 32, 1),
	T(R_AARCH64_LD64_GOT_LO12_NC, LK_RC_OK, 0, 0),
	T(R_AARCH64_LD64_GOTPAGE_LO15, LK_RC_OK, 0, 0),
};

const struct lk_reloc_arch lk_reloc_arch_aarch64 = {
	EM_AARCH64, "AArch64", types, sizeof(types) / sizeof(types[0]), 0x400000, 27, 1, "-mcmodel=large",
};

/* aarch64's TLS range (512-573), kept out of the sorted table, is aarch64_tls.c's: its linkers differ there. */
