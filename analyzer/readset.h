/*
 * The read set of one analysis: every file and directory it looked at
 * (opened, stat'ed, listed, searched for and not found), every variable
 * of the environment it asked for, and every program it ran, each with
 * its fingerprint as it was then; so that a result kept from it
 * (failcache.h) is used again only while all of them are as they were.
 *
 * It is taken by wrapping the C library's calls (ld --wrap, see the
 * Makefile's ANALYZER_WRAP): the analysis is hundreds of files of code
 * that open, stat and search files each in its own way, and a list kept
 * by hand would miss one. What is not seen: what a program the analysis
 * runs reads besides itself (the driver's specs, the headers of a kept
 * source it compiles), and calls made from inside other libraries
 * (libelf and libbfd read only descriptors the analyzer opened).
 */
#ifndef ANALYZER_READSET_H
#define ANALYZER_READSET_H

#include <stddef.h>
#include <stdint.h>

#include "linkscope/strvec.h"

enum lk_read_how {
	LK_READ_STAT,		/* followed symlinks: open, stat, access, opendir, realpath */
	LK_READ_LSTAT,		/* the name itself: lstat, fstatat(AT_SYMLINK_NOFOLLOW) */
	LK_READ_PROGRAM,	/* a program the analysis ran */
};

/* A file as it was: absent, or its identity and times. */
struct lk_read {
	char *path;		/* absolute */
	enum lk_read_how how;
	int exists;
	uint64_t dev, ino;
	uint32_t mode;
	int64_t size, mtime_ns, ctime_ns;
};

struct lk_envread {
	char *name;
	char *value;		/* NULL: unset */
};

struct lk_readset {
	struct { struct lk_read *items; size_t nr, alloc; } reads;
	struct { struct lk_envread *items; size_t nr, alloc; } env;
	char environ_hash[65];	/* "" unless a program ran in our environment */
	struct lk_strvec skip;	/* prefixes not taken: the cache dir, the analysis's own scratch */
	size_t *slots;		/* open addressing over `reads` (index + 1; 0 empty) */
	size_t nslots;
};

/*
 * Start taking the reads of this process into `rs` (zeroed by the
 * caller), leaving out what lies under `skip_dir` (the cache dir: its
 * files are derived from what is taken). One read set at a time.
 */
void lk_readset_start(struct lk_readset *rs, const char *skip_dir);
void lk_readset_stop(void);
void lk_readset_release(struct lk_readset *rs);

/*
 * From now on, the name of each file this process opens is written to
 * `page` (`size` bytes, NUL-terminated, cut to fit): a parent that shares
 * the page (MAP_SHARED) can say which file its child was reading when it
 * ended (failcache.c). Through the same wrapped calls as the read set.
 */
void lk_readset_watch(char *page, size_t size);

/* Fill `r` with what `r->path` is now (by r->how). */
void lk_read_take(struct lk_read *r);
/* Is `r->path` now what it was when `r` was taken? */
int lk_read_unchanged(const struct lk_read *r);
/* The SHA-256 of this process's environment (its sorted entries), as hex. */
void lk_environ_hash(char hex[65]);

#endif
