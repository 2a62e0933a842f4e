/*
 * The kept results of `report --failed` (docs/record-format.md "The
 * analysis cache"): each failed record's parts of the summary
 * (summary.h), in CACHE/failed/KEY.json (0600; CACHE is the provider
 * index's dir, $XDG_CACHE_HOME/linkscope), KEY the SHA-256 of the
 * analyzer (its binary's identity), the options that change an analysis,
 * the record's path and its bytes. With the parts, the entry keeps the
 * analysis's read set (readset.h): an entry is used only while every file
 * it read, every variable it asked for and every program it ran are as
 * they were; else the record is analysed again and the entry rewritten.
 * A missing, unreadable or malformed entry is the same as a stale one.
 * The records stay the truth: the report is the same with or without the
 * cache (tests/integ/102-report-failed-cache.sh).
 */
#ifndef ANALYZER_FAILCACHE_H
#define ANALYZER_FAILCACHE_H

#include <stddef.h>

#include "line.h"
#include "linkscope/progress.h"
#include "linkscope/record.h"
#include "summary.h"

struct lk_failcache {
	char *dir;		/* CACHE/failed, or NULL: no cache (off, or no private dir) */
	char *skip;		/* CACHE: its files are not part of a read set */
	char identity[65];	/* of this analyzer and the options */
	size_t used, made;	/* entries used, entries (re)written */
	unsigned cpu_limit;	/* CPU seconds one analysis may take (LINKSCOPE_ANALYSIS_CPU_LIMIT), 0: no bound */
	struct {		/* the read lines found unchanged in this run (open addressing) */
		char **slots;
		size_t nr, nslots;
	} checked;
};

/*
 * The cache for analyses with `lopt`: off when LINKSCOPE_REPORT_CACHE=0,
 * or when there is no private cache dir (lk_provider_cache_dir).
 */
void lk_failcache_open(struct lk_failcache *fc, const struct lk_line_options *lopt);
void lk_failcache_close(struct lk_failcache *fc);

/*
 * The parts of the `nr` records `recs` into parts[0..nr) (zeroed by the
 * caller, released by it): each record's entry's when it is fresh, else
 * the record analysed and its entry written. The analyses run in up to
 * `jobs` worker processes at once (pool.h; 1: in this one), each with
 * its own read set, as one process would take it; the parts do not
 * depend on `jobs`. A worker that dies leaves its record "not-analysed",
 * with the reason. The walls the analyses went without are added to
 * lopt->walls. `progress` is told of each record done.
 * In a worker, each analysis is limited to fc->cpu_limit CPU seconds
 * (LINKSCOPE_ANALYSIS_CPU_LIMIT): past them its record is "not-analysed",
 * "took too long", naming the file it was reading.
 */
void lk_failcache_analyse_all(struct lk_failcache *fc, const struct lk_record *recs, size_t nr,
			      const struct lk_line_options *lopt, unsigned jobs,
			      struct lk_summary_parts *parts, struct lk_progress *progress);

#endif
