/*
 * The relocation types of each target, one file per target as lld keeps
 * lld/ELF/Arch/ (x86_64.c, aarch64.c): for each type, what it computes
 * (absolute, PC-relative, through the GOT or the PLT, TLS) and how far it
 * reaches, so that the relocation room (../reloc.c) can judge it against
 * the output kind and the layout. Learnt from the psABIs and from bfd's
 * elf64-x86-64.c / elfnn-aarch64.c and lld's Arch/X86_64.cpp / AArch64.cpp
 * (what each rejects in a PIE or a shared object); written here anew.
 */
#ifndef ANALYZER_ARCH_H
#define ANALYZER_ARCH_H

#include <stddef.h>
#include <stdint.h>

enum lk_reloc_class {
	LK_RC_OK,		/* computed at link time whatever the output: GOT/PLT-relative offsets, sizes, lo12 halves */
	LK_RC_ABS,		/* a pointer-sized absolute address: a dynamic relocation in a PIC output */
	LK_RC_ABS_NARROW,	/* an absolute address narrower than a pointer: no dynamic relocation can hold it */
	LK_RC_PC,		/* PC-relative to the symbol itself: a preemptible one cannot be reached so */
	LK_RC_BRANCH,		/* a call or jump: through the PLT when the target is not in the output */
	LK_RC_GOT,		/* PC-relative to the symbol's GOT entry */
	LK_RC_TLS,		/* a TLS access through the GOT or __tls_get_addr: fine in every output */
	LK_RC_TLS_LE,		/* local-exec TLS: the offset from the thread pointer, known only in an executable */
};

struct lk_reloc_howto {
	uint32_t type;
	const char *name;		/* "R_X86_64_PC32" */
	unsigned char cls;		/* enum lk_reloc_class */
	unsigned char reach;		/* log2 of the signed reach in bytes (31: +-2 GiB), 0: not limited */
	unsigned char pc;		/* the reach is a distance from the place (else an absolute address) */
};

struct lk_reloc_arch {
	int machine;			/* EM_X86_64, EM_AARCH64 */
	const char *name;
	const struct lk_reloc_howto *types;	/* sorted by type */
	size_t ntypes;
	uint64_t exe_base;		/* a non-PIE executable's first address (GNU ld's default script) */
	/*
	 * The smallest reach (log2) that crosses sections in ordinary code:
	 * an image smaller than that cannot overflow (branches within a
	 * function reach less, and are not judged).
	 */
	unsigned char cross_reach;
	unsigned char branch_veneers;	/* GNU ld adds long-branch stubs for calls that do not reach */
	const char *code_model_fix;	/* the compiler option that lifts the reach */
};

/* ---- the judgement of one relocation against the output (judge.c) ---- */

enum lk_reloc_output { LK_OUT_EXEC, LK_OUT_PIE, LK_OUT_SHARED };

/* What the relocation's symbol is to the output. */
enum lk_reloc_target {
	LK_TGT_LOCAL,		/* a local symbol or section, or a global that binds locally (hidden, -Bsymbolic) */
	LK_TGT_PREEMPTIBLE,	/* a default-visibility global of a shared object, or one it does not define */
	LK_TGT_PROTECTED,	/* protected visibility (bfd's rules for it are not modelled) */
	LK_TGT_UNSURE,		/* a version script or --dynamic-list may make it local: not modelled */
};

/* The linker whose rules judge a relocation, where they differ by type (aarch64_tls.c). */
enum lk_reloc_linker { LK_RL_GNU_LD, LK_RL_LLD, LK_RL_MOLD };

struct lk_reloc_site {
	const struct lk_reloc_arch *arch;
	const struct lk_reloc_howto *howto;
	enum lk_reloc_output output;
	int z_text;		/* text relocations are errors: GNU ld's -z text (its default is notext, with a warning); lld's default */
	int writable;		/* the section it applies to is SHF_WRITE */
	enum lk_reloc_target target;
	enum lk_reloc_linker linker;	/* whose rules, where they differ by type: AArch64's TLS (aarch64_tls.c) */
};

enum lk_reloc_verdict {
	LK_RV_OK,
	LK_RV_NOT_ALLOWED,	/* the output cannot take it: "recompile with -fPIC" */
	LK_RV_TEXTREL,		/* a dynamic relocation in a read-only section: a warning only (-z notext) */
	LK_RV_TEXTREL_ERROR,	/* ... an error under -z text */
	LK_RV_UNKNOWN,		/* the rules here are not modelled; *why says which */
	LK_RV_UNSUPPORTED,	/* the linker knows no such relocation type at all ("unknown relocation") */
};

/*
 * Can the output `site->output` take the relocation `site->howto` (one of
 * `site->arch`) at that place against that target? (AArch64's TLS types:
 * by `site->linker`'s rules, lk_aarch64_tls_judge.) The z-text policy is
 * the caller's, so that each linker's model passes its own (GNU ld: -z
 * text only when the line says so; lld: unless -z notext). *why gets a
 * static phrase for NOT_ALLOWED, TEXTREL* and UNKNOWN.
 */
enum lk_reloc_verdict lk_reloc_judge(const struct lk_reloc_site *site, const char **why);

/* The table of `machine` (e_machine), or NULL when there is none. */
const struct lk_reloc_arch *lk_reloc_arch_of(int machine);
/* The entry of `type`, or NULL when the table has none. */
const struct lk_reloc_howto *lk_reloc_howto_of(const struct lk_reloc_arch *a, uint32_t type);

/* aarch64_tls.c: the entry of a TLS type (512-573), or NULL. */
const struct lk_reloc_howto *lk_reloc_aarch64_tls(uint32_t type);

/*
 * aarch64_tls.c: AArch64 TLS type `type` (512-573) in `output` as
 * `linker` takes it: OK, UNSUPPORTED (it does not know the type),
 * NOT_ALLOWED (local-exec in a shared object: lld and mold; GNU ld links
 * it) or UNKNOWN (not checked); *why gets a static phrase. OK for a type
 * outside the range.
 */
enum lk_reloc_verdict lk_aarch64_tls_judge(uint32_t type, enum lk_reloc_linker linker, enum lk_reloc_output output,
					   const char **why);
/* Do GNU ld, lld and mold judge `type` in `output` differently? */
int lk_aarch64_tls_parts(uint32_t type, enum lk_reloc_output output);
/* Is `type` one the relocation room keeps in every output (a linker does not know it)? */
int lk_aarch64_tls_kept(uint32_t type);
/* The compiler option that makes GCC emit what every linker takes instead of `type`, or NULL. */
const char *lk_aarch64_tls_recompile(uint32_t type);

extern const struct lk_reloc_arch lk_reloc_arch_x86_64;
extern const struct lk_reloc_arch lk_reloc_arch_aarch64;

#endif
