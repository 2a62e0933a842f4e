/*
 * `linkscope check RECORD [--baseline RECORD]`: exit 1 when a link
 * succeeds only by accident (fragility.c's facts of severity warning or
 * error, not accepted), when it fails under the rules of its own linker
 * or of one that --linkers names (another linker's failure alone is a
 * portability fact, said but no failure),
 * or, with a baseline, when something newly became load bearing or the
 * outcome under GNU ld or lld changed; 0 otherwise.
 */
#ifndef ANALYZER_CHECK_H
#define ANALYZER_CHECK_H

#include <stdio.h>

#include "fragility.h"
#include "linkscope/err.h"
#include "linkscope/strvec.h"

struct lk_check_options {
	const char *format;		/* "text", "json", "markdown" */
	struct lk_strvec accept;	/* "KIND:SYMBOL" ("KIND:*" for all of a kind) */
	unsigned required;		/* --linkers: 1 << enum lk_linker of each that must link too (the line's own always) */
	int color;			/* text: ANSI colours (color.h) */
};

/* "bfd,lld" into `required` (1 << enum lk_linker each). 0, or -1 with `err` naming the unknown one. */
int lk_check_parse_linkers(const char *list, unsigned *required, struct lk_err *err);

/* One side of the check: a record, its linker's flavour and the facts of its replay. */
struct lk_check_side {
	const char *path;
	const char *flavor;		/* the line's linker: "bfd", "lld", ... */
	struct lk_facts *facts;		/* accepted flags are set by lk_check_print */
};

/* Print the verdict on `cur` (and its drift from `base`, or NULL); returns the exit status, 0 or 1. */
int lk_check_print(FILE *out, struct lk_check_side *cur, const struct lk_check_side *base,
		   const struct lk_check_options *opt);

/*
 * Add the KIND:SYMBOL lines of `text` (NUL-terminated, cut into lines in
 * place; # comments, blank lines) to `accept`. `path` names it in `err`.
 * 0, or -1 with `err` naming the first bad line.
 */
int lk_check_parse_accept(char *text, const char *path, struct lk_strvec *accept, struct lk_err *err);
/*
 * Is every KIND of `accept` one that check can say (lk_fact_kind_name)?
 * 0, or -1 with `err` naming the first unknown one and the known kinds.
 */
int lk_check_accept_known(const struct lk_strvec *accept, struct lk_err *err);
/* The same for the file at `path` (a regular file, at most 1 MiB). */
int lk_check_read_accept_file(const char *path, struct lk_strvec *accept, struct lk_err *err);

#endif
