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
	size_t probes, superseded;	/* failed links left out: probes (--probes), superseded (--all) */
	const char *root;		/* github: annotation paths are relative to it (--root, $GITHUB_WORKSPACE, cwd) */
};

/*
 * What one failed link gives the summary: one part per cause (a
 * diagnostic, or why there is none), in the order the replay found them.
 * The part is the link's own: it does not depend on the other links, so
 * it can be kept and used again (failcache.h).
 */
struct lk_summary_fix {
	char *description;
	int verified;
	int stated;		/* said, not tried by the replay */
	char *where;		/* where the user makes it (lk_fix_where.sentence), or NULL */
	char *file;		/* ... the build file the edit is in, or NULL */
	long line;		/* ... and its line (1-based), or 0 */
};

struct lk_summary_fixes {
	struct lk_summary_fix *items;
	size_t nr, alloc;
};

struct lk_summary_part {
	char *key;		/* what makes two links' parts one cause */
	char *kind;
	char *symbol, *version;	/* or NULL */
	char *defined_in;	/* the defining library, or NULL */
	char *referenced_by;	/* "member m of a.a at 13", or NULL */
	char *src_file;		/* the first reference's source file (DWARF), or NULL */
	long src_line;		/* ... and line */
	struct lk_strvec explanation;
	struct lk_summary_fixes fixes;
};

struct lk_summary_parts {
	struct lk_summary_part *items;
	size_t nr, alloc;
};

/*
 * Replay `rec` (a failed link) as `explain` does and fill `parts` (released
 * by the caller); `replay_flags`: lk_replay_run's, besides the snapshot.
 */
void lk_summary_analyse(const struct lk_record *rec, const struct lk_line_options *lopt, unsigned replay_flags,
			struct lk_summary_parts *parts);
void lk_summary_parts_release(struct lk_summary_parts *parts);
/* The one part of a link that could not be analysed, and why (appended to `parts`). */
void lk_summary_not_analysed(struct lk_summary_parts *parts, const char *why);

/*
 * Group the parts of the `nr` records of `failed` (failed links, newest
 * first; parts[i] is failed[i]'s) by cause and print the summary.
 */
void lk_summary_print(FILE *out, const struct lk_record *failed, const struct lk_summary_parts *parts,
		      size_t nr, const struct lk_summary_options *opt);

/*
 * --since TIME: "2026-11-30T14:00:00Z", "2026-11-30 14:00", "2026-11-30"
 * (UTC), "@<unix seconds>", or an age ("2h", "30m") counted back from
 * `now_s`. Gives nanoseconds since the epoch; 0, or -1 with `err`.
 */
int lk_summary_parse_since(const char *s, int64_t now_s, int64_t *ns, struct lk_err *err);

#endif
