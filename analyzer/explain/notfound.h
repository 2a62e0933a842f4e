/* "cannot find -lNAME" explained (notfound.c); its fixes are the fix stage's. */
#ifndef ANALYZER_NOTFOUND_H
#define ANALYZER_NOTFOUND_H

#include "line.h"
#include "linkscope/record.h"
#include "replay.h"

/*
 * An input-not-found or incompatible-skipped diagnostic of `line`'s
 * replay: its timeline, and its cause and file (not_found_cause,
 * not_found_file), read from the dirs ld searched. `*searched` counts
 * the -l words whose dirs were listed for a cause in this analysis (the
 * caller's, from 0): past LK_NOTFOUND_SEARCH_MAX, a word gets its "cannot
 * find" and no cause, so a line of thousands of missing -l does not list
 * every dir thousands of times (issue #29).
 */
#define LK_NOTFOUND_SEARCH_MAX 16
void lk_notfound_explain(const struct lk_line *line, struct lk_diag *d, size_t *searched);

/* "-lz" for ".../libz.so" or ".../libz.a": the -l word that finds a library file (malloc'd). */
char *lk_notfound_l_word(const char *path);

#endif
