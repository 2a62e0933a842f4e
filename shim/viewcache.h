/*
 * The driver's view, cached per profile in the record directory
 * (viewcache.c; the entry's format: docs/record-format.md, "views/").
 */
#ifndef SHIM_VIEWCACHE_H
#define SHIM_VIEWCACHE_H

#include <stdint.h>

#include "view.h"
#include "linkscope/buf.h"
#include "linkscope/expansion.h"

/* What a link does about its view. */
enum lk_viewcache_use {
	LK_VIEWCACHE_FRESH,	/* a fresh run, as without a cache */
	LK_VIEWCACHE_REUSE,	/* the cached view: no driver run */
	LK_VIEWCACHE_VERIFY,	/* the cached view, checked against a fresh run */
	LK_VIEWCACHE_LEARN,	/* no entry: a fresh run and the probe, then one is written */
};

/* The link, as lk_viewcache_begin needs it. Everything is borrowed. */
struct lk_viewcache_request {
	const char *dir;		/* the record directory */
	const char *driver;		/* the path executed */
	const char *driver_real;	/* its realpath, or NULL */
	char *const *argv;		/* the -### argv without "-###": [0] as the driver sees it */
	const char *cwd;		/* may be NULL */
	int64_t now;			/* unix seconds */
	unsigned long rnd;		/* the record id's random part: which links verify */
	unsigned verify_every;		/* one reuse in this many is verified */
	const char *check_log;		/* LINKSCOPE_VIEW_CHECK: verify every reuse, log each link there */
};

/* One link's dealings with the cache. */
struct lk_viewcache {
	enum lk_viewcache_use use;
	const char *why;		/* static: why FRESH, for the check log */
	struct lk_view_line line;
	struct lk_view_template tmpl;	/* the cached one (REUSE, VERIFY) */
	struct lk_buf key;
	char *path;			/* the entry; NULL when there is none to write */
	int64_t now;
	const char *check_log;
	const char *argv0;		/* borrowed: the driver's argv[0] */
	const char *exe;		/* borrowed: the driver binary */
	int probing;
	struct lk_expansion_query probe;
};

/*
 * Entries older than this are verified against a fresh run; one link in
 * LK_VIEWCACHE_VERIFY_EVERY (LINKSCOPE_VIEW_VERIFY_EVERY) is, whatever the age.
 */
#define LK_VIEWCACHE_MAX_AGE (24 * 3600)
#define LK_VIEWCACHE_VERIFY_EVERY 64
/* The probe's bound, counted from when the shim waits for it (after the link), as the -### run's. */
#define LK_VIEWCACHE_PROBE_TIMEOUT_MS 10000

/*
 * Decide what this link does about its view (c->use), reading the entry
 * of its profile. Never fails: a missing, corrupt or foreign entry is no
 * entry. Release with lk_viewcache_release().
 */
void lk_viewcache_begin(struct lk_viewcache *c, const struct lk_viewcache_request *req);

/* LK_VIEWCACHE_LEARN: start the probe beside the link (the driver with envp). */
void lk_viewcache_start_probe(struct lk_viewcache *c, const char *driver, char *const envp[]);

/* LK_VIEWCACHE_REUSE: the link's view from the cached one, into an empty `exp`. */
void lk_viewcache_fill(const struct lk_viewcache *c, struct lk_expansion *exp);

/*
 * After the link, `exp` holding the fresh view taken beside it:
 * LK_VIEWCACHE_VERIFY compares it with the cached one (and refreshes the
 * entry, or drops it and puts one line in `warning`); when they match and
 * `reuse` (the link ran, and did not fail or died by a signal), `exp`
 * becomes the cached view, as a link that is not verified records it.
 * LK_VIEWCACHE_LEARN learns the profile's template from the probe and
 * writes the entry. LINKSCOPE_VIEW_CHECK's log gets one line per link.
 */
void lk_viewcache_end(struct lk_viewcache *c, struct lk_expansion *exp, int reuse,
		      struct lk_buf *warning);

void lk_viewcache_release(struct lk_viewcache *c);

/*
 * The entry's format, for the fuzz target and tests: parse `len` bytes of
 * `data` into `t` if they are an entry for `key`; 0, or -1 (t released)
 * for anything else. lk_viewcache_write() appends an entry to `out`.
 */
int lk_viewcache_parse(const char *data, size_t len, const struct lk_buf *key,
		       struct lk_view_template *t);
void lk_viewcache_write(const struct lk_view_template *t, const struct lk_buf *key,
			struct lk_buf *out);

#endif
