/*
 * Diagnostics -> causes: undefined symbols grouped by what would define
 * them, each group with the library that does (provider.c); the edit that
 * adds it is the fix stage's (analyzer/fix/).
 */
#ifndef ANALYZER_CAUSE_H
#define ANALYZER_CAUSE_H

#include "line.h"
#include "linkscope/record.h"
#include "replay.h"

/*
 * Merge the undefined-symbol diagnostics of `out` into one per cause: the
 * archive on the line that defines them but was read too early, or the
 * best library off the line that defines them (searched with provider.c),
 * or, when nothing is found, the input that references them. Each group
 * keeps every symbol (d->symbols) and says where it looked.
 */
void lk_cause_group(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out);

#endif
