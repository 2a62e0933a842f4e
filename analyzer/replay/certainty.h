/* Whether a predicted failure is a prediction at all: the outcome "unknown". */
#ifndef ANALYZER_CERTAINTY_H
#define ANALYZER_CERTAINTY_H

#include "line.h"
#include "linkscope/record.h"
#include "replay.h"

/*
 * NULL when the replay's verdict stands; else why the outcome is unknown
 * (malloc'd, one line): a predicted failure that rests on inputs that
 * cannot be read now or have changed since the link, on a source's object
 * that could not be made again, or on unknown driver additions.
 */
/* What the reason says of an input that changed since the link: a rebuild since, most often. */
#define LK_CERTAINTY_CHANGED "has changed since the link"

char *lk_certainty_unknown(const struct lk_record *rec, const struct lk_line *line,
			   const struct lk_replay *rp);

/*
 * NULL when the replay under the line's own linker's rules gives the
 * outcome the record's real link had (or the record has none); else why
 * not (malloc'd, one line). A replay that disagrees with the link it
 * replays is no verdict for that linker, never a failure (or a success)
 * that check acts on; the record's real outcome is the truth. `*misread`
 * (when not NULL) is 1 when the replay read the inputs ld read (none
 * changed since the link, none unreadable now): the model misreads the
 * line, and whatif predicts nothing from it under that linker; 0 when the
 * inputs are not the link's any more (a rebuild since), which says
 * nothing of the model.
 */
char *lk_certainty_disagreement(const struct lk_record *rec, const struct lk_line *line,
				const struct lk_replay *rp, int *misread);

#endif
