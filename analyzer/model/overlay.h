/*
 * An overlay of a line model: the line with words appended to the
 * driver's argv, resolved (-l search, scripts expanded, DT_NEEDED), for a
 * fix trial or a counterfactual. The line itself stays as it was: the
 * overlay's `view` shares the line's items (read-only) and owns only what
 * it adds, so a replay can read `view` as one line.
 */
#ifndef ANALYZER_OVERLAY_H
#define ANALYZER_OVERLAY_H

#include "line.h"
#include "linkscope/record.h"
#include "linkscope/strvec.h"

struct lk_overlay {
	struct lk_line view;		/* items 0 .. base->items.nr - 1 are the base's */
	const struct lk_line *base;
};

/*
 * `base` with `words` appended, in order, at the end of the driver's argv
 * (position rec->args.nr) with the input state in force there. Release
 * with lk_overlay_close() before `base` is released.
 */
void lk_overlay_open(struct lk_overlay *o, const struct lk_record *rec, const struct lk_line *base,
		     const struct lk_strvec *words);
/*
 * `base` with `words` in place of the items of driver position `position`
 * (a word replaced): resolved with that position and the input state in
 * force there; the replay reads them there (LK_EDIT_IN_PLACE).
 */
void lk_overlay_open_in_place(struct lk_overlay *o, const struct lk_record *rec, const struct lk_line *base,
			      const struct lk_strvec *words, long position);
void lk_overlay_close(struct lk_overlay *o);

#endif
