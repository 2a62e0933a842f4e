/* Line-level warnings: what the line model alone shows to be wrong or risky. */
#ifndef ANALYZER_WARN_H
#define ANALYZER_WARN_H

#include "line.h"
#include "linkscope/record.h"

/* Append one line per finding to line->warnings. */
void lk_warn_line(const struct lk_record *rec, struct lk_line *line);

#endif
