/* Which inputs of a resolved line GNU ld cannot use (usable.c). */
#ifndef ANALYZER_USABLE_H
#define ANALYZER_USABLE_H

#include "line.h"

/*
 * Judge the items of `line` from index `from` on (resolved): fills each
 * one's `unusable` and `unusable_why`, and adds to line->unknown what the
 * model cannot judge (a script command it does not read, LTO through a
 * plugin). Called by the resolution stage (resolve.c).
 */
void lk_usable_classify(struct lk_line *line, size_t from);

#endif
