/*
 * The explanations of the relocation room's diagnostics
 * (relocation-not-allowed, relocation-overflow, tls-mismatch): reloc.c.
 */
#ifndef ANALYZER_RELOC_EXPLAIN_H
#define ANALYZER_RELOC_EXPLAIN_H

#include "line.h"
#include "linkscope/record.h"
#include "replay.h"

/* Is `kind` one of the room's? */
int lk_explain_reloc_kind(enum lk_diag_kind kind);
/*
 * Was the referencing object assembled from hand-written assembly, not
 * compiled? Its producer says so ("GNU AS 2.40", with -g), or it names no
 * producer at all: gcc, clang and rustc each leave one in .comment even
 * without -g, as does a -g assembly; `as` alone leaves none.
 */
int lk_reloc_from_assembly(const struct lk_diag_reloc *x);
/* The timeline of one of its diagnostics. */
void lk_explain_reloc(const struct lk_replay *out, const struct lk_line *line, struct lk_diag *d);
#endif
