/* Inputs ld cannot use, explained (unusable.c); their fixes are the fix stage's. */
#ifndef ANALYZER_EXPLAIN_UNUSABLE_H
#define ANALYZER_EXPLAIN_UNUSABLE_H

#include "line.h"
#include "linkscope/record.h"
#include "replay.h"

/* Is `kind` one of the unusable-input kinds (wrong-machine, bitcode-without-plugin, ...)? */
int lk_unusable_kind(enum lk_diag_kind kind);

/* The timeline of such a diagnostic of `line`'s replay. */
void lk_unusable_explain(const struct lk_line *line, struct lk_diag *d);

#endif
