/* Parsing a compiler driver's -### output. */
#ifndef LINKSCOPE_EXPANSION_H
#define LINKSCOPE_EXPANSION_H

#include "linkscope/record.h"

/*
 * Parse the text gcc prints for -###: lines starting with one space hold a
 * command; arguments are bare, or double-quoted with backslash escapes when
 * they hold special characters. LIBRARY_PATH= and COMPILER_PATH= lines are
 * kept too (the driver's default search dirs). Appends one strvec per
 * command to exp->commands and sets exp->linker_command to the last
 * collect2/ld one (-1 if none).
 */
void lk_expansion_parse(const char *text, struct lk_rec_expansion *exp);

/* Free what lk_expansion_parse() and the shim filled in. */
void lk_expansion_release(struct lk_rec_expansion *exp);

#endif
