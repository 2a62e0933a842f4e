/*
 * mold 1.10's relocation types of AArch64, read from its source at tag
 * v1.10.1 (elf/arch-arm64.cc, InputSection<ARM64>::scan_relocations):
 * the switch that scans every relocation of an allocated section knows a
 * few types and errs on every other ("unknown relocation"), whatever the
 * output; and of those it knows, most it writes with no check of the
 * output at all (their case only breaks): R_AARCH64_MOVW_UABS_*, PREL16/32/64,
 * the lo12 halves, ADR_PREL_LO21, LD_PREL_LO19, CONDBR19 link in a PIE
 * and against a shared object's symbol (GNU ld and lld refuse the
 * absolute ones there). Checked with mold 1.10.1: R_AARCH64_ABS32 in
 * .data fails -no-pie and -pie alike, MOVW_UABS_G1/G0_NC in a PIE links
 * (tests/integ/157-aarch64-pie-relocs.sh). The TLS types (512-573) are
 * arch/aarch64_tls.c's, each linker's table there: not judged here.
 *
 * x86-64: mold's table there is fuller and not read here; every type
 * counts as judged as GNU ld's.
 */
#include <elf.h>

#include "arch/arch.h"
#include "rp.h"

/* The types mold 1.10's AArch64 scan knows but never refuses. */
static const uint32_t unchecked[] = {
	R_AARCH64_PREL64, R_AARCH64_PREL32, R_AARCH64_PREL16,
	R_AARCH64_MOVW_UABS_G0, R_AARCH64_MOVW_UABS_G0_NC, R_AARCH64_MOVW_UABS_G1,
	R_AARCH64_MOVW_UABS_G1_NC, R_AARCH64_MOVW_UABS_G2, R_AARCH64_MOVW_UABS_G2_NC,
	R_AARCH64_MOVW_UABS_G3, R_AARCH64_LD_PREL_LO19, R_AARCH64_ADR_PREL_LO21,
	R_AARCH64_ADD_ABS_LO12_NC, R_AARCH64_LDST8_ABS_LO12_NC, R_AARCH64_CONDBR19,
	R_AARCH64_LDST16_ABS_LO12_NC, R_AARCH64_LDST32_ABS_LO12_NC, R_AARCH64_LDST64_ABS_LO12_NC,
	R_AARCH64_LDST128_ABS_LO12_NC,
};

/* ... and those it judges (a dynamic relocation, a copy, the GOT, the PLT): as GNU ld's and lld's. */
static const uint32_t judged[] = {
	R_AARCH64_NONE, R_AARCH64_ABS64, R_AARCH64_ADR_GOT_PAGE, R_AARCH64_LD64_GOT_LO12_NC,
	R_AARCH64_LD64_GOTPAGE_LO15, R_AARCH64_CALL26, R_AARCH64_JUMP26, R_AARCH64_ADR_PREL_PG_HI21,
};

static int in(const uint32_t *t, size_t n, uint32_t type)
{
	for (size_t i = 0; i < n; i++)
		if (t[i] == type)
			return 1;
	return 0;
}

enum rp_mold_reloc rp_mold_reloc_of(const struct lk_reloc_arch *a, uint32_t type)
{
	if (!a || a->machine != EM_AARCH64 || lk_reloc_aarch64_tls(type))
		return RP_MOLD_JUDGED;
	if (in(unchecked, sizeof(unchecked) / sizeof(unchecked[0]), type))
		return RP_MOLD_UNCHECKED;
	if (in(judged, sizeof(judged) / sizeof(judged[0]), type))
		return RP_MOLD_JUDGED;
	return RP_MOLD_UNKNOWN;
}
