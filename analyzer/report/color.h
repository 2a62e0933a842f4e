/*
 * Colours in the text outputs: on when the output is a terminal and
 * NO_COLOR is unset or empty (no-color.org), off in a pipe or a file, so
 * what scripts and tests read has no escapes. One helper for every
 * command (list, show, explain, report, why, diff, check).
 */
#ifndef ANALYZER_COLOR_H
#define ANALYZER_COLOR_H

#include <stdio.h>

#define LK_C_RESET "\033[0m"
#define LK_C_BOLD "\033[1m"
#define LK_C_DIM "\033[2m"
#define LK_C_RED "\033[31m"
#define LK_C_GREEN "\033[32m"
#define LK_C_YELLOW "\033[33m"
#define LK_C_CYAN "\033[36m"

struct lk_color {
	int on;
};

/* Should text written to `out` be coloured? */
int lk_color_wanted(FILE *out);
void lk_color_init(struct lk_color *c, FILE *out);
/* `code` when colours are on, else "". */
const char *lk_color(const struct lk_color *c, const char *code);

#endif
