/*
 * The per-target relocation tables and the judgement of one relocation
 * (analyzer/replay/arch/): every type gcc and clang emit for ordinary
 * x86-64 and AArch64 code is in the table, and lk_reloc_judge says what
 * GNU ld (and, with -z text, lld) says of each against each output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <elf.h>
#include <string.h>

#include "arch/arch.h"

static void test_reloc_ordinary_types_known(void **state)
{
	static const uint32_t x86[] = {
		R_X86_64_64, R_X86_64_PC32, R_X86_64_PLT32, R_X86_64_GOTPCREL, 41, 42, R_X86_64_32, R_X86_64_32S,
		R_X86_64_TLSGD, R_X86_64_TLSLD, R_X86_64_DTPOFF32, R_X86_64_DTPOFF64, R_X86_64_GOTTPOFF,
		R_X86_64_TPOFF32, R_X86_64_PC64, R_X86_64_SIZE32, R_X86_64_SIZE64, R_X86_64_GOTOFF64,
		R_X86_64_GOTPC32, R_X86_64_GOTPC64, R_X86_64_GOTPC32_TLSDESC, R_X86_64_TLSDESC_CALL, R_X86_64_NONE,
	};
	static const uint32_t a64[] = {
		R_AARCH64_ABS64, R_AARCH64_PREL32, R_AARCH64_ADR_PREL_PG_HI21, R_AARCH64_ADD_ABS_LO12_NC,
		R_AARCH64_LDST64_ABS_LO12_NC, R_AARCH64_CALL26, R_AARCH64_JUMP26, R_AARCH64_CONDBR19,
		R_AARCH64_ADR_GOT_PAGE, R_AARCH64_LD64_GOT_LO12_NC, R_AARCH64_TLSDESC_ADR_PAGE21,
		R_AARCH64_TLSIE_ADR_GOTTPREL_PAGE21, R_AARCH64_TLSLE_ADD_TPREL_HI12,
	};
	const struct lk_reloc_arch *x = lk_reloc_arch_of(EM_X86_64), *a = lk_reloc_arch_of(EM_AARCH64);

	(void)state;
	assert_non_null(x);
	assert_non_null(a);
	assert_null(lk_reloc_arch_of(EM_RISCV));
	for (size_t i = 0; i < sizeof(x86) / sizeof(x86[0]); i++)
		assert_non_null(lk_reloc_howto_of(x, x86[i]));
	for (size_t i = 0; i < sizeof(a64) / sizeof(a64[0]); i++)
		assert_non_null(lk_reloc_howto_of(a, a64[i]));
	assert_null(lk_reloc_howto_of(x, 200));
	assert_string_equal(lk_reloc_howto_of(x, R_X86_64_32)->name, "R_X86_64_32");
	assert_int_equal(lk_reloc_howto_of(a, R_AARCH64_TLSLE_ADD_TPREL_HI12)->cls, LK_RC_TLS_LE);
}

static enum lk_reloc_verdict judge(uint32_t type, enum lk_reloc_output out, int z_text, int writable,
				   enum lk_reloc_target target)
{
	const struct lk_reloc_arch *x = lk_reloc_arch_of(EM_X86_64);
	struct lk_reloc_site s = { x, lk_reloc_howto_of(x, type), out, z_text, writable, target, LK_RL_GNU_LD };
	const char *why;

	return lk_reloc_judge(&s, &why);
}

static void test_reloc_judge_x86_64(void **state)
{
	(void)state;
	assert_int_equal(judge(R_X86_64_32, LK_OUT_PIE, 0, 0, LK_TGT_LOCAL), LK_RV_NOT_ALLOWED);
	assert_int_equal(judge(R_X86_64_32S, LK_OUT_SHARED, 0, 1, LK_TGT_LOCAL), LK_RV_NOT_ALLOWED);
	assert_int_equal(judge(R_X86_64_32, LK_OUT_EXEC, 0, 0, LK_TGT_LOCAL), LK_RV_OK);
	assert_int_equal(judge(R_X86_64_PC32, LK_OUT_SHARED, 0, 0, LK_TGT_PREEMPTIBLE), LK_RV_NOT_ALLOWED);
	assert_int_equal(judge(R_X86_64_PC32, LK_OUT_SHARED, 0, 0, LK_TGT_LOCAL), LK_RV_OK);
	assert_int_equal(judge(R_X86_64_PC32, LK_OUT_SHARED, 0, 1, LK_TGT_PREEMPTIBLE), LK_RV_OK);
	assert_int_equal(judge(R_X86_64_PC32, LK_OUT_PIE, 0, 0, LK_TGT_PREEMPTIBLE), LK_RV_OK);
	assert_int_equal(judge(R_X86_64_PC32, LK_OUT_SHARED, 0, 0, LK_TGT_PROTECTED), LK_RV_UNKNOWN);
	assert_int_equal(judge(R_X86_64_PLT32, LK_OUT_SHARED, 1, 0, LK_TGT_PREEMPTIBLE), LK_RV_OK);
	assert_int_equal(judge(R_X86_64_64, LK_OUT_SHARED, 0, 0, LK_TGT_PREEMPTIBLE), LK_RV_TEXTREL);
	assert_int_equal(judge(R_X86_64_64, LK_OUT_SHARED, 1, 0, LK_TGT_PREEMPTIBLE), LK_RV_TEXTREL_ERROR);
	assert_int_equal(judge(R_X86_64_64, LK_OUT_PIE, 1, 1, LK_TGT_PREEMPTIBLE), LK_RV_OK);
	assert_int_equal(judge(R_X86_64_TPOFF32, LK_OUT_SHARED, 0, 0, LK_TGT_LOCAL), LK_RV_NOT_ALLOWED);
	assert_int_equal(judge(R_X86_64_TPOFF32, LK_OUT_PIE, 0, 0, LK_TGT_LOCAL), LK_RV_OK);
	assert_int_equal(judge(R_X86_64_GOTPCRELX, LK_OUT_SHARED, 1, 0, LK_TGT_PREEMPTIBLE), LK_RV_OK);
}

/* arch/aarch64_tls.c: each TLS type by its own name, and each linker's rules (ld.lld 14.0.6, mold 1.10.1, GNU ld 2.40). */
static void test_reloc_aarch64_tls_per_linker(void **state)
{
	const struct lk_reloc_arch *a = lk_reloc_arch_of(EM_AARCH64);
	const char *why;

	(void)state;
	for (uint32_t t = R_AARCH64_TLSGD_ADR_PREL21; t <= R_AARCH64_TLSLD_LDST128_DTPREL_LO12_NC; t++) {
		assert_non_null(lk_reloc_howto_of(a, t));
		assert_int_equal(lk_reloc_howto_of(a, t)->type, t);
		assert_true(!strncmp(lk_reloc_howto_of(a, t)->name, "R_AARCH64_TLS", 13));
	}
	assert_string_equal(lk_reloc_howto_of(a, R_AARCH64_TLSGD_ADR_PAGE21)->name, "R_AARCH64_TLSGD_ADR_PAGE21");
	assert_string_equal(lk_reloc_howto_of(a, R_AARCH64_TLSDESC_CALL)->name, "R_AARCH64_TLSDESC_CALL");
	assert_null(lk_reloc_howto_of(a, 574));
	/* -mtls-dialect=trad: lld refuses it in every output, mold and GNU ld take it. */
	assert_int_equal(lk_aarch64_tls_judge(R_AARCH64_TLSGD_ADR_PAGE21, LK_RL_LLD, LK_OUT_EXEC, &why), LK_RV_UNSUPPORTED);
	assert_int_equal(lk_aarch64_tls_judge(R_AARCH64_TLSGD_ADD_LO12_NC, LK_RL_LLD, LK_OUT_SHARED, &why), LK_RV_UNSUPPORTED);
	assert_int_equal(lk_aarch64_tls_judge(R_AARCH64_TLSGD_ADR_PAGE21, LK_RL_MOLD, LK_OUT_SHARED, &why), LK_RV_OK);
	assert_int_equal(lk_aarch64_tls_judge(R_AARCH64_TLSGD_ADR_PAGE21, LK_RL_GNU_LD, LK_OUT_PIE, &why), LK_RV_OK);
	assert_string_equal(lk_aarch64_tls_recompile(R_AARCH64_TLSGD_ADR_PAGE21), "-mtls-dialect=desc");
	/* Local dynamic: neither lld nor mold. */
	assert_int_equal(lk_aarch64_tls_judge(R_AARCH64_TLSLD_ADR_PAGE21, LK_RL_MOLD, LK_OUT_PIE, &why), LK_RV_UNSUPPORTED);
	assert_int_equal(lk_aarch64_tls_judge(R_AARCH64_TLSLD_ADD_DTPREL_HI12, LK_RL_GNU_LD, LK_OUT_SHARED, &why), LK_RV_OK);
	/* Local-exec in a shared object: GNU ld links it, lld and mold refuse it. */
	assert_int_equal(lk_aarch64_tls_judge(R_AARCH64_TLSLE_ADD_TPREL_HI12, LK_RL_GNU_LD, LK_OUT_SHARED, &why), LK_RV_OK);
	assert_int_equal(lk_aarch64_tls_judge(R_AARCH64_TLSLE_ADD_TPREL_HI12, LK_RL_LLD, LK_OUT_SHARED, &why), LK_RV_NOT_ALLOWED);
	assert_int_equal(lk_aarch64_tls_judge(R_AARCH64_TLSLE_ADD_TPREL_HI12, LK_RL_MOLD, LK_OUT_SHARED, &why), LK_RV_NOT_ALLOWED);
	assert_int_equal(lk_aarch64_tls_judge(R_AARCH64_TLSLE_ADD_TPREL_HI12, LK_RL_LLD, LK_OUT_PIE, &why), LK_RV_OK);
	assert_int_equal(lk_aarch64_tls_judge(R_AARCH64_TLSLE_ADD_TPREL_LO12, LK_RL_LLD, LK_OUT_PIE, &why), LK_RV_UNSUPPORTED);
	/* TLS descriptors and initial-exec: every linker, every output. */
	assert_false(lk_aarch64_tls_parts(R_AARCH64_TLSDESC_ADR_PAGE21, LK_OUT_SHARED));
	assert_false(lk_aarch64_tls_parts(R_AARCH64_TLSIE_LD64_GOTTPREL_LO12_NC, LK_OUT_SHARED));
	assert_false(lk_aarch64_tls_kept(R_AARCH64_TLSDESC_CALL));
	assert_false(lk_aarch64_tls_kept(R_AARCH64_TLSLE_ADD_TPREL_HI12));
	assert_true(lk_aarch64_tls_kept(R_AARCH64_TLSLE_ADD_TPREL_LO12));
	assert_string_equal(lk_aarch64_tls_recompile(R_AARCH64_TLSLE_ADD_TPREL_LO12), "-mtls-size=24");
	assert_true(lk_aarch64_tls_parts(R_AARCH64_TLSLE_ADD_TPREL_HI12, LK_OUT_SHARED));
	assert_false(lk_aarch64_tls_parts(R_AARCH64_TLSLE_ADD_TPREL_HI12, LK_OUT_EXEC));
	assert_int_equal(lk_aarch64_tls_judge(R_AARCH64_TLSLD_MOVW_G1, LK_RL_GNU_LD, LK_OUT_EXEC, &why), LK_RV_UNKNOWN);
	/* lk_reloc_judge hands them over, in every output, with the site's linker. */
	{
		struct lk_reloc_site site = { a, lk_reloc_howto_of(a, R_AARCH64_TLSGD_ADR_PAGE21), LK_OUT_EXEC, 1, 0,
					      LK_TGT_PREEMPTIBLE, LK_RL_LLD };

		assert_int_equal(lk_reloc_judge(&site, &why), LK_RV_UNSUPPORTED);
		site.linker = LK_RL_MOLD;
		assert_int_equal(lk_reloc_judge(&site, &why), LK_RV_OK);
		site.howto = lk_reloc_howto_of(a, R_AARCH64_TLSLE_ADD_TPREL_LO12_NC);
		site.output = LK_OUT_SHARED;
		assert_int_equal(lk_reloc_judge(&site, &why), LK_RV_NOT_ALLOWED);
		site.linker = LK_RL_GNU_LD;
		assert_int_equal(lk_reloc_judge(&site, &why), LK_RV_OK);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reloc_ordinary_types_known),
		cmocka_unit_test(test_reloc_judge_x86_64),
		cmocka_unit_test(test_reloc_aarch64_tls_per_linker),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
