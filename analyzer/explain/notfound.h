/* "cannot find -lNAME" explained, and fixed (notfound.c). */
#ifndef ANALYZER_NOTFOUND_H
#define ANALYZER_NOTFOUND_H

#include "line.h"
#include "linkscope/record.h"
#include "replay.h"

/*
 * An input-not-found or incompatible-skipped diagnostic of `line`'s
 * replay: its timeline, and its cause and file (not_found_cause,
 * not_found_file), read from the dirs ld searched.
 */
void lk_notfound_explain(const struct lk_line *line, struct lk_diag *d);

/* Its fix: the word replaced where it stands, tried by a replay; or said, when no edit of the line does it. */
void lk_notfound_fixes(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay *out,
		       struct lk_diag *d);

#endif
