/*
 * `linkscope whatif BASELINE --cargo DIR | --cmake DIR | --line FILE |
 * --argv-file FILE`: the link the current tree would run, predicted per
 * linker from the baseline's record and what a job that does not link
 * leaves behind (source.h's readers), explained as `explain` explains,
 * with what changed against the baseline said by meaning (report/diff.c).
 */
#ifndef ANALYZER_WHATIF_H
#define ANALYZER_WHATIF_H

#include "line.h"
#include "linkscope/err.h"
#include "linkscope/record.h"

/* whatif's exit statuses (CONTRACT.md); 2 is bad usage, as everywhere. */
enum lk_whatif_status {
	LK_WHATIF_LINKS = 0,
	LK_WHATIF_FAILS = 1,
	LK_WHATIF_USAGE = 2,
	LK_WHATIF_CANNOT_TELL = 3,
};

struct lk_whatif_options {
	const char *baseline;		/* as the user named it, for the report */
	const char *source;		/* "cargo", "cmake", "make", "argv-file" */
	const char *source_path;	/* TARGET_DIR, BUILD_DIR or FILE */
	const char *target, *profile;	/* --target NAME, --profile NAME, or NULL */
	const char *format;		/* "text", "json", "markdown", "github" */
	unsigned linkers;		/* --linkers: 1 << enum lk_linker of each that must link too */
	const char *root;		/* github: annotations' paths relative to it */
	struct lk_line_options line;	/* how line models are built */
	int color;
};

/*
 * Predict and print. `base` and `base_line` are the baseline, resolved;
 * `next` is a second load of the baseline's record, which becomes the
 * prediction's record (its line replaced by the source's). Returns an
 * enum lk_whatif_status; a source that cannot be read is said on stderr
 * in one line and gives LK_WHATIF_USAGE.
 */
/*
 * BASELINE given as a record directory (baseline.c): the newest good link
 * of the target (`target`, or the only one there), malloc'd; or NULL with
 * `err` (none, or several and no --target: they are listed).
 */
char *lk_whatif_pick_baseline(const char *dir, const char *target, struct lk_err *err);

int lk_whatif(const struct lk_record *base, struct lk_line *base_line, struct lk_record *next,
	      const struct lk_whatif_options *opt);

#endif
