/*
 * Bounding the record directory: records (and their reports) removed
 * oldest first, past an age or over a total size; kept copies in blobs/
 * removed only when no remaining record names them. Used by `linkscope
 * prune` and by the shim (LINKSCOPE_MAX_SIZE, LINKSCOPE_MAX_AGE, or the defaults below).
 */
#ifndef LINKSCOPE_PRUNE_H
#define LINKSCOPE_PRUNE_H

#include <stddef.h>
#include <stdint.h>

#include "linkscope/err.h"

/*
 * The shim's bound when LINKSCOPE_MAX_SIZE / LINKSCOPE_MAX_AGE are unset
 * or empty, as ccache has one (docs/record-format.md): raised by setting
 * them, turned off by setting them to 0.
 */
#define LK_PRUNE_DEFAULT_MAX_SIZE "1G"
#define LK_PRUNE_DEFAULT_MAX_AGE "30d"

/*
 * Names in blobs/ besides the blobs (<sha256>) and the copies being written
 * (.tmp-*): a link's second name for a copy it kept, until its record is
 * written and the blob's name checked (LK_BLOB_HELD "<sha256>-<pid>-<n>",
 * shim/keep.c), and a prune's tombstone (LK_BLOB_DEAD "<sha256>-<pid>").
 * Either, when stale, goes back to its blob's name.
 */
#define LK_BLOB_HELD ".held-"
#define LK_BLOB_DEAD ".dead-"

struct lk_prune_limits {
	int64_t max_size;	/* bytes in the directory (records, reports, blobs); 0: no bound */
	int64_t max_age_s;	/* records older than this many seconds go; 0: no bound */
	int dry_run;		/* say what would go, remove nothing */
	/*
	 * The shim's way (a link pays for its own share only): prune only when
	 * the index says the directory is over a bound, or its last count is
	 * LK_PRUNE_RECOUNT_S old, and then in one pass down to 9/10 of the size
	 * bound and past 31/32 of the age bound, so the next pass is far off.
	 * Never waits on another prune: skips when one runs.
	 */
	int amortized;
};

/* A prune's count in the index is trusted this long (seconds); then a link counts again. */
#define LK_PRUNE_RECOUNT_S 86400

struct lk_prune_result {
	size_t records, records_removed;
	size_t blobs, blobs_removed;
	size_t other_removed;		/* reports beside removed records, stale temporary files */
	int64_t bytes_before, bytes_after;
};

/*
 * Prune `dir` (the record directory) at time `now_s` (seconds since the
 * epoch). Only files linkscope writes are looked at: <id>.json records
 * and their <id>.report.json, <id>.report.md, <id>.repro.tar, stale
 * .<id>.json.tmp files, blobs/<sha256>, stale blobs/.tmp-* files, and
 * stale held copies and tombstones (renamed back). Symbolic links and
 * anything not a regular file are never followed nor removed. The newest record is
 * always kept, and so is a blob written in the last BLOB_GRACE seconds (a
 * link may be writing the record that names it). A blob is removed only
 * if, renamed to a tombstone, it is still the file listed and no record
 * written since the listing names it (links run meanwhile, see
 * docs/record-format.md). Returns 0, or -1 with `err` when the directory
 * cannot be read.
 */
int lk_prune(const char *dir, const struct lk_prune_limits *lim, int64_t now_s,
	     struct lk_prune_result *res, struct lk_err *err);

/* "500M", "2G", "100k", "4096": bytes (powers of 1024). 0, or -1 with `err`. */
int lk_prune_parse_size(const char *s, int64_t *bytes, struct lk_err *err);
/* "7d", "12h", "30m", "90s", "2w", "3600": seconds. 0, or -1 with `err`. */
int lk_prune_parse_age(const char *s, int64_t *seconds, struct lk_err *err);

#endif
