/* Inputs ld cannot use, explained, with the fixes said (unusable.c). */
#ifndef ANALYZER_EXPLAIN_UNUSABLE_H
#define ANALYZER_EXPLAIN_UNUSABLE_H

#include "line.h"
#include "linkscope/record.h"
#include "replay.h"

/* Is `kind` one of the unusable-input kinds (wrong-machine, bitcode-without-plugin, ...)? */
int lk_unusable_kind(enum lk_diag_kind kind);

/* The timeline of such a diagnostic of `line`'s replay. */
void lk_unusable_explain(const struct lk_line *line, struct lk_diag *d);

/* Its fixes: all are rebuilds or another linker, said and not tried (struct lk_fix.stated). */
void lk_unusable_fixes(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay *out,
		       struct lk_diag *d);

#endif
