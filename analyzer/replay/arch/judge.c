/*
 * One relocation judged against the output kind (see arch.h): what
 * bfd's elf_x86_64_check_relocs / elf_x86_64_need_pic and
 * elfnn-aarch64.c's check_relocs reject, and what lld's
 * RelocationScanner::isStaticLinkTimeConstant says cannot be a
 * link-time constant nor a dynamic relocation. The linker's z-text
 * policy is a parameter.
 */
#include <elf.h>
#include <string.h>

#include "arch.h"

/* aarch64's ABS32/ABS16 and ABS64 in read-only sections: bfd's handling differs by case, not modelled. */
static int aarch64_plain_abs(const struct lk_reloc_site *s)
{
	return s->arch->machine == EM_AARCH64 && !strncmp(s->howto->name, "R_AARCH64_ABS", 13);
}

enum lk_reloc_verdict lk_reloc_judge(const struct lk_reloc_site *s, const char **why)
{
	int pic = s->output != LK_OUT_EXEC;

	*why = NULL;
	if (s->arch->machine == EM_AARCH64 && lk_reloc_aarch64_tls(s->howto->type))
		return lk_aarch64_tls_judge(s->howto->type, s->linker, s->output, why);	/* per linker, in every output */
	if (!pic)
		return LK_RV_OK;
	switch ((enum lk_reloc_class)s->howto->cls) {
	case LK_RC_ABS_NARROW:
		/*
		 * aarch64's ABS32/ABS16: elfNN_aarch64_check_relocs refuses them in
		 * any PIC output against a local or a defined symbol (checked, GNU
		 * ld 2.40 and lld 14); against an undefined one: reloc.c.
		 */
		*why = "an absolute address narrower than a pointer cannot be relocated at load time";
		return LK_RV_NOT_ALLOWED;
	case LK_RC_ABS:
		if (s->writable)
			return LK_RV_OK;
		if (aarch64_plain_abs(s)) {
			*why = "GNU ld's rules for R_AARCH64_ABS64 in a read-only section of a PIE or shared object are not modelled";
			return LK_RV_UNKNOWN;
		}
		*why = "an absolute address in a read-only section needs a dynamic relocation there (a text relocation)";
		return s->z_text ? LK_RV_TEXTREL_ERROR : LK_RV_TEXTREL;
	case LK_RC_PC:
		/*
		 * NEEDSWORK(#17): in a PIE, bfd also rejects a PC-relative reference
		 * from code to a function only a shared object defines (no copy
		 * relocation for a function); the replay's table keeps no symbol
		 * types of shared objects. gcc's -fno-pic code calls through PLT32
		 * and takes addresses with R_X86_64_32 (judged above), so it is rare.
		 */
		if (s->output != LK_OUT_SHARED || s->writable || s->target == LK_TGT_LOCAL)
			return LK_RV_OK;
		if (s->target == LK_TGT_PREEMPTIBLE) {
			*why = "a PC-relative reference cannot reach a symbol that may bind to another object at run time";
			return LK_RV_NOT_ALLOWED;
		}
		*why = s->target == LK_TGT_PROTECTED ?
		       "a PC-relative reference to a protected symbol of a shared object: bfd's rules for it are not modelled" :
		       "a PC-relative reference to a global of a shared object whose binding a version script or --dynamic-list decides: not modelled";
		return LK_RV_UNKNOWN;
	case LK_RC_TLS_LE:
		if (s->output != LK_OUT_SHARED)
			return LK_RV_OK;
		*why = "local-exec TLS (an offset from the thread pointer) is known only in an executable";
		return LK_RV_NOT_ALLOWED;
	case LK_RC_OK:
	case LK_RC_BRANCH:
	case LK_RC_GOT:
	case LK_RC_TLS:
		break;
	}
	return LK_RV_OK;
}
