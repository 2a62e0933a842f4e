/* `linkscope diff`: what differs between two link lines, and which difference decides. */
#ifndef ANALYZER_DIFF_H
#define ANALYZER_DIFF_H

#include <stdio.h>

#include "line.h"
#include "linkscope/record.h"

/* `color`: the added and removed arguments in green and red (color.h). */
void lk_diff_print(FILE *out, const struct lk_record *a, struct lk_line *la,
		   const struct lk_record *b, struct lk_line *lb, int color);
/*
 * diff_linkers.c: each linker's outcome of the two lines, one text line
 * (and which linkers' outcomes differ); or the "linkscope-diff/1" JSON
 * object (docs/report-format.md), returning 0 or -1 when it cannot be written.
 */
void lk_diff_linkers_text(FILE *out, const struct lk_record *a, const struct lk_line *la,
			  const struct lk_record *b, const struct lk_line *lb);
int lk_diff_json(FILE *out, const struct lk_record *a, const struct lk_line *la,
		 const struct lk_record *b, const struct lk_line *lb);

/*
 * The same three, for a caller that replayed both lines already
 * (lk_replay_run; whatif): `rpa` and `rpb` are read, not replayed again.
 */
struct lk_replay;
void lk_diff_print_replayed(FILE *out, const struct lk_record *a, struct lk_line *la, const struct lk_replay *rpa,
			    const struct lk_record *b, struct lk_line *lb, const struct lk_replay *rpb, int color);
void lk_diff_linkers_text_replayed(FILE *out, const struct lk_record *a, const struct lk_line *la,
				   const struct lk_replay *rpa, const struct lk_record *b, const struct lk_line *lb,
				   const struct lk_replay *rpb);
int lk_diff_json_replayed(FILE *out, const struct lk_record *a, const struct lk_line *la, const struct lk_replay *rpa,
			  const struct lk_record *b, const struct lk_line *lb, const struct lk_replay *rpb);

#endif
