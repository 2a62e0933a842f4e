/*
 * Response files: expand `@file` arguments the way GCC's driver does
 * (libiberty expandargv/buildargv), keeping where each argument came from.
 */
#ifndef LINKSCOPE_RSP_H
#define LINKSCOPE_RSP_H

#include <stddef.h>

#include "linkscope/err.h"

/* One argument after expansion. */
struct lk_arg {
	char *text;		/* owned */
	size_t argv_index;	/* the received argv element it descends from */
	int rsp;		/* index into lk_rspfiles of the innermost file, or -1 */
};

struct lk_args {
	struct lk_arg *items;
	size_t nr, alloc;
};

enum lk_rsp_status {
	LK_RSP_READ,		/* expanded */
	LK_RSP_MISSING,		/* could not be opened: kept literally, as GCC does */
	LK_RSP_UNREADABLE,	/* opened but not read (directory, I/O error, too large): kept literally */
};

struct lk_rspfile {
	char *path;		/* owned; as written after the '@' */
	size_t argv_index;	/* the received argv element it descends from */
	int parent;		/* the response file that named it, or -1 */
	enum lk_rsp_status status;
	int error;		/* errno when not read */
	size_t nargs;		/* arguments it expanded to */
};

struct lk_rspfiles {
	struct lk_rspfile *items;
	size_t nr, alloc;
};

/* GCC stops after this many expansions (libiberty's limit). */
#define LK_RSP_MAX_EXPANSIONS 2000
/* More arguments than this from @-files is an error too (a self-including file). */
#define LK_RSP_MAX_ARGS 4000000
/* A response file larger than this is not read (kept literally). */
#define LK_RSP_MAX_BYTES ((size_t)256 << 20)

/*
 * Split `text` into arguments with buildargv's rules: whitespace separates,
 * '...' and "..." quote, a backslash escapes the next character anywhere
 * (even inside quotes). Text of only whitespace gives no arguments.
 * Appends owned strings to `out`.
 */
struct lk_strvec;
void lk_rsp_split(const char *text, struct lk_strvec *out);

/*
 * Expand argv[1..argc-1] (argv[0] is the program and is never expanded) into
 * `out`, recording each response file in `files`. Nested files are expanded
 * in place, relative to the current directory, as GCC does. A file that is
 * not a regular file (a FIFO, a device) is not read: it is kept literally,
 * status unreadable. Returns 0, or -1 when the expansion limit was hit (GCC
 * fails such a command) or the arguments passed LK_RSP_MAX_ARGS: `out`
 * then holds the received argv unexpanded, and `files` what was read.
 * The caller releases both lists with the functions below.
 */
int lk_rsp_expand(const char *const *argv, size_t argc, struct lk_args *out,
		  struct lk_rspfiles *files, struct lk_err *err);

void lk_args_release(struct lk_args *args);
void lk_rspfiles_release(struct lk_rspfiles *files);

#endif
