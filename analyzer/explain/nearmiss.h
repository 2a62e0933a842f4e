/*
 * Diagnostics -> names that nearly match (issue #17, point 5): for each
 * undefined symbol that nothing defines, what the line's inputs, the
 * build tree and the provider index hold that is almost it.
 */
#ifndef ANALYZER_NEARMISS_H
#define ANALYZER_NEARMISS_H

#include "line.h"
#include "linkscope/record.h"
#include "provider.h"
#include "replay.h"

/*
 * For every undefined-symbol group of `out` without an archive on the line
 * or a provider (cause.c has grouped them), the near misses found
 * (d->near_misses, struct lk_finding of explain.h), a sentence each in the
 * explanation, and the fixes that are edits of the line (`-shared` for a
 * library linked as a program, the build tree's object that defines
 * `main` or the symbol), tried like every fix. `ix` is the provider index
 * cause.c built (borrowed).
 */
void lk_nearmiss_find(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out,
		      const struct lk_provider_index *ix);

#endif
