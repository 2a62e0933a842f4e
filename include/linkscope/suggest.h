/*
 * "Did you mean": the nearest of a set of names to a word mistyped, by
 * edit distance (insertions, deletions, substitutions and swaps of two
 * neighbours each cost one), as git's help.c suggests a command.
 */
#ifndef LINKSCOPE_SUGGEST_H
#define LINKSCOPE_SUGGEST_H

#include <stddef.h>

/* The edit distance of `a` and `b`, or `limit` + 1 once it is sure to exceed `limit`. */
size_t lk_suggest_distance(const char *a, const char *b, size_t limit);

/*
 * The candidate nearest to `word`, or NULL when none is near enough to be
 * a slip (a third of the word's length, at least one edit) or two are
 * equally near. Feed candidates one by one with lk_suggest_add(); the
 * answer borrows the candidate's string.
 */
struct lk_suggest {
	const char *word;
	const char *best;
	size_t best_dist;
	int tie;
};

void lk_suggest_init(struct lk_suggest *s, const char *word);
void lk_suggest_add(struct lk_suggest *s, const char *candidate);
const char *lk_suggest_best(const struct lk_suggest *s);

#endif
