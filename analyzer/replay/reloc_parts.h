/*
 * What the relocation room's files share (reloc.c, reloc_reach.c): the
 * kept references and the room's state of one replay, and the helpers
 * both use. Private to the room, as elf_parts.h is to the ELF reader.
 */
#ifndef ANALYZER_RELOC_PARTS_H
#define ANALYZER_RELOC_PARTS_H

#include <stdint.h>

#include "linkscope/vec.h"
#include "arch/arch.h"
#include "replay.h"

struct rp;
struct lk_sym;

/* A relocation kept for the judgement at the end of the line. */
struct rr_ref {
	long input;
	uint32_t section, target_section;	/* target_section: a local target's section in `input` */
	uint64_t offset, target_value;
	int64_t addend;
	const struct lk_reloc_howto *howto;
	struct lk_sym *sym;		/* a global target's entry, or NULL for a local one */
	const char *target;		/* its name (in the table's arena) */
	const char *place;		/* the section's name */
	const char *producer;
	unsigned char vis;		/* the referencing object's own visibility of the symbol */
	unsigned writable : 1, not_allowed : 1;	/* not_allowed: kept for the output kind, else for the layout */
	unsigned lld_only : 1;	/* kept for lld's PIE rule alone (lld_pie): mold keeps it only for the layout */
	unsigned mold_unknown : 1;	/* a type mold 1.10 refuses in every output (mold_relocs.c) */
};

struct rp_relocs {
	const struct lk_reloc_arch *arch;	/* of the line (its first regular input), or NULL */
	int pic_line;		/* -pie or -shared on the line: the output-kind judgements are possible */
	int full;		/* this replay keeps every reaching relocation and the sections (the layout pass) */
	uint64_t image;		/* the alloc sections' total size */
	uint64_t code;		/* ... of them, the code's */
	int fixed_addresses;	/* --section-start, -Ttext...: addresses the size alone does not bound */
	unsigned char short_cross;	/* the smallest reach (log2) of a PC-relative reference to another section, or 0 */
	struct lk_strvec starts;	/* "NAME=ADDR" of --section-start, -Ttext, -Tdata, -Tbss */
	struct { struct rr_ref *items; size_t nr, alloc; } refs;
	struct rr_layout *layout;
	struct rr_stubs *stubs;	/* GNU ld's stub groups, made at the first far call */
};

/* The first thing the room met and does not model: a success is then unknown (lk_replay_run). */
void rr_unmodelled(struct rp *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The output: -shared, -pie (unless an edit appended -no-pie), else an executable. */
enum lk_reloc_output rr_output_of(const struct rp *r);
/* "a shared object", "a PIE object", "an executable" */
const char *rr_output_words(enum lk_reloc_output o);
/* A new relocation diagnostic of `kind` for `ref`, its relocation filled in. */
struct lk_diag_reloc *rr_reloc_diag(struct rp *r, enum lk_diag_kind kind, const struct rr_ref *ref);
/* ld names the first bad relocation of each object and target; so does the replay: was this one named? */
int rr_reported(const struct rp *r, enum lk_diag_kind kind, const struct rr_ref *ref);

/* reloc_reach.c: the layout pass's judgement; whether a line needs one, and the pass itself. */
void rr_judge_layout(struct rp *r);
int rr_layout_may_matter(const struct rp *r);
void rr_layout_pass(struct rp *r);

#endif
