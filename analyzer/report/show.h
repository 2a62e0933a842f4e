/* `linkscope show`: the annotated link line, as text or JSON. */
#ifndef ANALYZER_SHOW_H
#define ANALYZER_SHOW_H

#include <stdio.h>

#include "line.h"
#include "linkscope/record.h"

struct lk_show_options {
	int color;	/* ANSI colours (a TTY and no NO_COLOR) */
	int full;	/* every row, no runs of rustc objects folded */
};

void lk_show_text(FILE *out, const struct lk_record *rec, const struct lk_line *line,
		  const struct lk_show_options *opt);
/* Returns 0, or -1 if the JSON could not be written. */
int lk_show_json(FILE *out, const struct lk_record *rec, const struct lk_line *line);

#endif
