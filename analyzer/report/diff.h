/* `linkscope diff`: what differs between two link lines, and which difference decides. */
#ifndef ANALYZER_DIFF_H
#define ANALYZER_DIFF_H

#include <stdio.h>

#include "line.h"
#include "linkscope/record.h"

void lk_diff_print(FILE *out, const struct lk_record *a, struct lk_line *la,
		   const struct lk_record *b, struct lk_line *lb);

#endif
