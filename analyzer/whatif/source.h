/*
 * What a job that does not link leaves behind, read into the line the
 * next link would run: one reader per source of a change (cargo.c for a
 * `cargo check` target dir, cmake.c for a configured CMake build dir,
 * make.c for `make -n` output, argv_file.c for an argv file). Each takes
 * the baseline's record read-only and fills a struct lk_whatif_line;
 * whatif.c turns that into a record of the predicted link and replays it.
 */
#ifndef ANALYZER_WHATIF_SOURCE_H
#define ANALYZER_WHATIF_SOURCE_H

#include "linkscope/err.h"
#include "linkscope/record.h"
#include "linkscope/strvec.h"

/* The new line, as the source says it would run. */
struct lk_whatif_line {
	struct lk_strvec argv;		/* the driver's argv after response files; argv[0] the driver */
	char *cwd;			/* where it runs (owned), or NULL: the baseline's */
	char *manifest_dir;		/* cargo: the package's dir in this tree, when not the baseline's (owned), or NULL */
	const char *source;		/* "cargo", "cmake", "make", "argv-file" (static) */
	char *read;			/* the file(s) the line was read from, for the report (owned) */
	/* cargo: the run of build-script link args on the line (end exclusive), else -1, -1 */
	long link_args_start, link_args_end;
	struct lk_strvec said;		/* what the reader wants the report to say (one sentence each) */
	struct lk_strvec cannot_see;	/* what the prediction cannot see (a reason each); any one makes it "cannot tell" only when it may decide */
	struct lk_strvec unknown;	/* why the line itself cannot be told (exit 3), one reason each */
};

#define LK_WHATIF_LINE_INIT { LK_STRVEC_INIT, NULL, NULL, NULL, NULL, -1, -1, LK_STRVEC_INIT, LK_STRVEC_INIT, LK_STRVEC_INIT }

void lk_whatif_line_release(struct lk_whatif_line *l);

/*
 * Each reader: 0 with `out` filled, or -1 with `err` naming the file and
 * the cause (a usage-level problem: the dir is not a build dir, no target
 * matches the baseline's output, several do and `target` does not choose).
 * `target` is --target NAME or NULL: the baseline's output file name chooses.
 */
int lk_whatif_from_cargo(const struct lk_record *base, const char *target_dir, const char *target,
			 const char *profile, struct lk_whatif_line *out, struct lk_err *err);
int lk_whatif_from_cmake(const struct lk_record *base, const char *build_dir, const char *target,
			 struct lk_whatif_line *out, struct lk_err *err);
int lk_whatif_from_make(const struct lk_record *base, const char *file, const char *target,
			struct lk_whatif_line *out, struct lk_err *err);
int lk_whatif_from_argv_file(const struct lk_record *base, const char *file,
			     struct lk_whatif_line *out, struct lk_err *err);

#endif
