/*
 * "Did you mean": the nearest name by edit distance (suggest.h). The
 * distance is the optimal string alignment one (Damerau-Levenshtein
 * without re-editing a swapped pair): "lsit" is one slip from "list".
 * Two rows of the matrix plus the one before, on the heap (no VLAs).
 */
#include <stdlib.h>
#include <string.h>

#include "linkscope/banned.h"
#include "linkscope/vec.h"
#include "linkscope/suggest.h"

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

size_t lk_suggest_distance(const char *a, const char *b, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b), d;
	size_t *rows, *prev2, *prev, *cur;

	/* The lengths alone bound it from below: a cheap way out of most pairs. */
	if ((la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	rows = prev2 = lk_xcalloc(3 * (lb + 1), sizeof(*rows));
	prev = prev2 + lb + 1;
	cur = prev + lb + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t row_min;

		cur[0] = row_min = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
			if (cur[j] < row_min)
				row_min = cur[j];
		}
		/* Every later row is at least this row's least: stop once it is past the limit. */
		if (row_min > limit) {
			free(rows);
			return limit + 1;
		}
		{
			size_t *t = prev2;

			prev2 = prev;
			prev = cur;
			cur = t;
		}
	}
	d = prev[lb];
	free(rows);
	return d > limit ? limit + 1 : d;
}

void lk_suggest_init(struct lk_suggest *s, const char *word)
{
	s->word = word;
	s->best = NULL;
	s->best_dist = strlen(word) / 3 ? strlen(word) / 3 : 1;
	s->best_dist++;		/* "nearer than this" */
	s->tie = 0;
}

void lk_suggest_add(struct lk_suggest *s, const char *candidate)
{
	size_t d;

	if (!strcmp(candidate, s->word))
		return;
	d = lk_suggest_distance(s->word, candidate, s->best_dist);
	if (d < s->best_dist) {
		s->best = candidate;
		s->best_dist = d;
		s->tie = 0;
	} else if (s->best && d == s->best_dist && strcmp(candidate, s->best)) {
		s->tie = 1;
	}
}

const char *lk_suggest_best(const struct lk_suggest *s)
{
	return s->tie ? NULL : s->best;
}
