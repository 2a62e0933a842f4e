/*
 * `linkscope report --failed`: one summary of every failed link of a
 * build, one section per cause (the same cause in several links is told
 * once, with the links it broke), as text, JSON, Markdown (for
 * $GITHUB_STEP_SUMMARY) or GitHub annotation lines.
 */
#ifndef ANALYZER_SUMMARY_H
#define ANALYZER_SUMMARY_H

#include <stdint.h>
#include <stdio.h>

#include "linkscope/err.h"
#include "line.h"
#include "linkscope/record.h"

struct lk_summary_options {
	const char *format;		/* "text", "json", "markdown", "github" */
	const char *dir;		/* the record directory, for the heading */
	const char *since;		/* as the user gave it, or NULL */
	struct lk_line_options line;	/* how line models are built */
	size_t examined;		/* records read (failed or not) */
};

/*
 * Replay each record of `failed` (failed links, newest first), group their
 * diagnostics by cause and print the summary. Records are only read.
 */
void lk_summary_print(FILE *out, const struct lk_record *failed, size_t nr,
		      const struct lk_summary_options *opt);

/*
 * --since TIME: "2026-11-30T14:00:00Z", "2026-11-30 14:00", "2026-11-30"
 * (UTC), "@<unix seconds>", or an age ("2h", "30m") counted back from
 * `now_s`. Gives nanoseconds since the epoch; 0, or -1 with `err`.
 */
int lk_summary_parse_since(const char *s, int64_t now_s, int64_t *ns, struct lk_err *err);

#endif
