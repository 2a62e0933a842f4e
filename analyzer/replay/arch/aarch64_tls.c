/*
 * AArch64's TLS relocation types (512-573), as each linker takes them:
 * the three do not know the same types, and do not judge local-exec in
 * a shared object alike. Learnt by linking one relocation of each type
 * (an object made with `.reloc`, and GCC's own code) into -shared, -pie
 * and -no-pie outputs with GNU ld 2.40, ld.lld 14.0.6, rustc's rust-lld
 * (LLD 22.1.2) and mold 1.10.1, and read in their sources:
 *
 * - GNU ld (bfd/elfnn-aarch64.c) has a howto for every type and links
 *   them all, in every output. Local-exec (TLSLE_*) in a shared object
 *   too: check_relocs does not look at the output kind for them, and
 *   relocate_section writes the offset from the thread pointer as for an
 *   executable (the module's TLS block taken to follow the 16-byte TCB),
 *   with no dynamic relocation and no DF_STATIC_TLS. x86-64's GNU ld
 *   refuses R_X86_64_TPOFF32 there (arch/judge.c).
 * - lld (Arch/AArch64.cpp getRelExpr; LLVM 14 and 22 alike) knows the
 *   TLS descriptor types (TLSDESC_ADR_PAGE21, _LD64_LO12, _ADD_LO12,
 *   _CALL), initial-exec's ADR_GOTTPREL_PAGE21 and LD64_GOTTPREL_LO12_NC,
 *   and the local-exec MOVW_TPREL_G0..G2, ADD_TPREL_HI12,
 *   ADD_TPREL_LO12_NC and LDST*_TPREL_LO12_NC; anything else is its
 *   default case, "unknown relocation (N) against symbol S", in every
 *   output: the traditional dialect's general dynamic (TLSGD_*, what
 *   `gcc -mtls-dialect=trad` emits for general and local dynamic alike)
 *   and every local-dynamic TLSLD_* type. It does not relax a type it
 *   does not know: an executable fails as a shared object does.
 *   Local-exec in a shared object: "relocation R_AARCH64_TLSLE_... against
 *   S cannot be used with -shared".
 * - mold 1.10 (elf/arch-arm64.cc scan_relocations) knows what lld knows
 *   but the local-exec LDST*_TPREL_LO12* types, and also TLSGD_ADR_PAGE21,
 *   TLSGD_ADD_LO12_NC and TLSLE_ADD_TPREL_LO12 (GCC's local-exec under
 *   -mtls-size=12, which lld does not know); the rest is its default
 *   case, "unknown relocation: R_AARCH64_...". So it links GCC's
 *   -mtls-dialect=trad code, not a TLSLD_* one. Local-exec in a shared
 *   object: "relocation ... can not be used when making a shared object".
 *
 * Types 520-522 and 570-573 no assembler here emits: lld's and mold's
 * are their default case (not in their switch), GNU ld's is not checked
 * (its verdict is then unknown).
 */
#include <elf.h>
#include <string.h>

#include "arch.h"

#ifndef R_AARCH64_TLSLE_LDST128_TPREL_LO12
#define R_AARCH64_TLSLE_LDST128_TPREL_LO12 570
#define R_AARCH64_TLSLE_LDST128_TPREL_LO12_NC 571
#define R_AARCH64_TLSLD_LDST128_DTPREL_LO12 572
#define R_AARCH64_TLSLD_LDST128_DTPREL_LO12_NC 573
#endif

/* Per linker: 'k' known, 'u' unknown to it ("unknown relocation"), '?' not checked. */
struct tls_type {
	struct lk_reloc_howto howto;
	char gnu, lld, mold;
};

/* (Each names its type itself: a name passed on to another macro would be expanded to its number first.) */
#define GD(type, g, l, m) { { type, #type, LK_RC_TLS, 0, 0 }, g, l, m }
#define LE(type, g, l, m) { { type, #type, LK_RC_TLS_LE, 0, 0 }, g, l, m }

static const struct tls_type types[] = {
	GD(R_AARCH64_TLSGD_ADR_PREL21, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSGD_ADR_PAGE21, 'k', 'u', 'k'),
	GD(R_AARCH64_TLSGD_ADD_LO12_NC, 'k', 'u', 'k'),
	GD(R_AARCH64_TLSGD_MOVW_G1, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSGD_MOVW_G0_NC, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_ADR_PREL21, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_ADR_PAGE21, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_ADD_LO12_NC, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_MOVW_G1, '?', 'u', 'u'),
	GD(R_AARCH64_TLSLD_MOVW_G0_NC, '?', 'u', 'u'),
	GD(R_AARCH64_TLSLD_LD_PREL19, '?', 'u', 'u'),
	GD(R_AARCH64_TLSLD_MOVW_DTPREL_G2, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_MOVW_DTPREL_G1, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_MOVW_DTPREL_G1_NC, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_MOVW_DTPREL_G0, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_MOVW_DTPREL_G0_NC, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_ADD_DTPREL_HI12, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_ADD_DTPREL_LO12, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_ADD_DTPREL_LO12_NC, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_LDST8_DTPREL_LO12, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_LDST8_DTPREL_LO12_NC, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_LDST16_DTPREL_LO12, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_LDST16_DTPREL_LO12_NC, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_LDST32_DTPREL_LO12, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_LDST32_DTPREL_LO12_NC, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_LDST64_DTPREL_LO12, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSLD_LDST64_DTPREL_LO12_NC, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSIE_MOVW_GOTTPREL_G1, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSIE_MOVW_GOTTPREL_G0_NC, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSIE_ADR_GOTTPREL_PAGE21, 'k', 'k', 'k'),
	GD(R_AARCH64_TLSIE_LD64_GOTTPREL_LO12_NC, 'k', 'k', 'k'),
	GD(R_AARCH64_TLSIE_LD_GOTTPREL_PREL19, 'k', 'u', 'u'),
	LE(R_AARCH64_TLSLE_MOVW_TPREL_G2, 'k', 'k', 'k'),
	LE(R_AARCH64_TLSLE_MOVW_TPREL_G1, 'k', 'k', 'k'),
	LE(R_AARCH64_TLSLE_MOVW_TPREL_G1_NC, 'k', 'k', 'k'),
	LE(R_AARCH64_TLSLE_MOVW_TPREL_G0, 'k', 'k', 'k'),
	LE(R_AARCH64_TLSLE_MOVW_TPREL_G0_NC, 'k', 'k', 'k'),
	LE(R_AARCH64_TLSLE_ADD_TPREL_HI12, 'k', 'k', 'k'),
	LE(R_AARCH64_TLSLE_ADD_TPREL_LO12, 'k', 'u', 'k'),
	LE(R_AARCH64_TLSLE_ADD_TPREL_LO12_NC, 'k', 'k', 'k'),
	LE(R_AARCH64_TLSLE_LDST8_TPREL_LO12, 'k', 'u', 'u'),
	LE(R_AARCH64_TLSLE_LDST8_TPREL_LO12_NC, 'k', 'k', 'u'),
	LE(R_AARCH64_TLSLE_LDST16_TPREL_LO12, 'k', 'u', 'u'),
	LE(R_AARCH64_TLSLE_LDST16_TPREL_LO12_NC, 'k', 'k', 'u'),
	LE(R_AARCH64_TLSLE_LDST32_TPREL_LO12, 'k', 'u', 'u'),
	LE(R_AARCH64_TLSLE_LDST32_TPREL_LO12_NC, 'k', 'k', 'u'),
	LE(R_AARCH64_TLSLE_LDST64_TPREL_LO12, 'k', 'u', 'u'),
	LE(R_AARCH64_TLSLE_LDST64_TPREL_LO12_NC, 'k', 'k', 'u'),
	GD(R_AARCH64_TLSDESC_LD_PREL19, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSDESC_ADR_PREL21, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSDESC_ADR_PAGE21, 'k', 'k', 'k'),
	GD(R_AARCH64_TLSDESC_LD64_LO12, 'k', 'k', 'k'),
	GD(R_AARCH64_TLSDESC_ADD_LO12, 'k', 'k', 'k'),
	GD(R_AARCH64_TLSDESC_OFF_G1, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSDESC_OFF_G0_NC, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSDESC_LDR, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSDESC_ADD, 'k', 'u', 'u'),
	GD(R_AARCH64_TLSDESC_CALL, 'k', 'k', 'k'),
	LE(R_AARCH64_TLSLE_LDST128_TPREL_LO12, '?', 'u', 'u'),
	LE(R_AARCH64_TLSLE_LDST128_TPREL_LO12_NC, '?', 'k', 'u'),
	GD(R_AARCH64_TLSLD_LDST128_DTPREL_LO12, '?', 'u', 'u'),
	GD(R_AARCH64_TLSLD_LDST128_DTPREL_LO12_NC, '?', 'u', 'u'),
};

static const struct tls_type *type_of(uint32_t type)
{
	/* The table is dense: 512 to 573, in order. */
	if (type < R_AARCH64_TLSGD_ADR_PREL21 || type - R_AARCH64_TLSGD_ADR_PREL21 >= sizeof(types) / sizeof(types[0]))
		return NULL;
	return &types[type - R_AARCH64_TLSGD_ADR_PREL21];
}

const struct lk_reloc_howto *lk_reloc_aarch64_tls(uint32_t type)
{
	const struct tls_type *t = type_of(type);

	return t ? &t->howto : NULL;
}

static char knowledge(const struct tls_type *t, enum lk_reloc_linker linker)
{
	return linker == LK_RL_LLD ? t->lld : linker == LK_RL_MOLD ? t->mold : t->gnu;
}

enum lk_reloc_verdict lk_aarch64_tls_judge(uint32_t type, enum lk_reloc_linker linker, enum lk_reloc_output output,
					   const char **why)
{
	const struct tls_type *t = type_of(type);

	*why = NULL;
	if (!t)
		return LK_RV_OK;
	switch (knowledge(t, linker)) {
	case 'u':
		*why = "the linker does not know this TLS relocation type (\"unknown relocation\", in every output)";
		return LK_RV_UNSUPPORTED;
	case '?':
		*why = "GNU ld's handling of this AArch64 TLS relocation type was not checked (no assembler here emits it)";
		return LK_RV_UNKNOWN;
	default:
		break;
	}
	if (t->howto.cls != LK_RC_TLS_LE || output != LK_OUT_SHARED || linker == LK_RL_GNU_LD)
		return LK_RV_OK;
	*why = "local-exec TLS (an offset from the thread pointer) is known only in an executable";
	return LK_RV_NOT_ALLOWED;
}

int lk_aarch64_tls_parts(uint32_t type, enum lk_reloc_output output)
{
	const struct tls_type *t = type_of(type);
	const char *why;
	enum lk_reloc_verdict v;

	if (!t)
		return 0;
	v = lk_aarch64_tls_judge(type, LK_RL_GNU_LD, output, &why);
	return lk_aarch64_tls_judge(type, LK_RL_LLD, output, &why) != v ||
	       lk_aarch64_tls_judge(type, LK_RL_MOLD, output, &why) != v;
}

int lk_aarch64_tls_kept(uint32_t type)
{
	const struct tls_type *t = type_of(type);

	/* Local-exec in a shared object is kept as x86-64's is (reloc.c's keep_for_output), in that output only. */
	return t && (t->gnu != 'k' || t->lld != 'k' || t->mold != 'k');
}

const char *lk_aarch64_tls_recompile(uint32_t type)
{
	/* What GCC's -mtls-dialect=trad emits (general and local dynamic alike); desc, its default, emits TLSDESC_*. */
	if (type == R_AARCH64_TLSGD_ADR_PAGE21 || type == R_AARCH64_TLSGD_ADD_LO12_NC)
		return "-mtls-dialect=desc";
	/* GCC's local-exec under -mtls-size=12 (one ADD, which lld does not know); 24, its default, is ADD_TPREL_HI12 and _LO12_NC. */
	if (type == R_AARCH64_TLSLE_ADD_TPREL_LO12)
		return "-mtls-size=24";
	return NULL;
}
