/*
 * What the where room's files share (where.c and one file per build
 * system): the question asked of each, and bounded file reading.
 */
#ifndef ANALYZER_WHERE_PARTS_H
#define ANALYZER_WHERE_PARTS_H

#include "where.h"

/* A build file read whole is at most this: a bigger one is not read. */
#define WH_FILE_MAX ((size_t)1 << 20)
/* A directory listed for build outputs or targets stops after this many entries. */
#define WH_DIR_MAX 4096

/*
 * Fixes given a where in one analysis: the rest get none. Each is a few
 * searches of build files of up to WH_FILE_MAX, so an analysis of a
 * record with thousands of fixes does not search them thousands of times
 * (issue #29).
 */
#define WH_FIXES_MAX 64

/*
 * What a build system found out about the record, whatever the fix: read
 * at its first fix, kept for the others (where.c frees it). Each system's
 * own, declared in its file.
 */
struct wh_cargo_memo;
struct wh_cmake_memo;
struct wh_memo {
	struct wh_cargo_memo *cargo;
	struct wh_cmake_memo *cmake;
};
void wh_cargo_memo_free(struct wh_cargo_memo *m);
void wh_cmake_memo_free(struct wh_cmake_memo *m);

/* One fix, as the build systems are asked about it. */
struct wh_ask {
	const struct lk_record *rec;
	const struct lk_line *line;
	const struct lk_replay *out;
	const struct lk_diag *d;	/* its diagnostic, or NULL for the whole fix */
	const struct lk_fix *f;
	const char *old;		/* the driver word the fix replaces, or NULL */
	const struct lk_strvec *words;	/* the words it adds to the line */
	struct wh_memo *memo;		/* the record's facts, the analysis's */
};

/* Each returns a where for the fix or NULL (not that build system, or nothing to say). */
struct lk_fix_where *wh_cargo(const struct wh_ask *a);
struct lk_fix_where *wh_cmake(const struct wh_ask *a);
struct lk_fix_where *wh_meson(const struct wh_ask *a);
struct lk_fix_where *wh_make(const struct wh_ask *a);

/*
 * Are the words driver or linker options that do not name a library and
 * do not depend on their place (-nostartfiles, -no-pie, -static, -pthread;
 * not -l, -L, -Wl,, a file)? They go with the flags, not the libraries.
 */
int wh_flags_only(const struct lk_strvec *words);

/* The file's text (NUL-terminated, owned), or NULL: missing, not regular, over WH_FILE_MAX. */
char *wh_read(const char *path);
/* `name` against `dir` (`name` itself when absolute). Owned. */
char *wh_join(const char *dir, const char *name);
/* The directory part of `path`, owned ("." for a bare name). */
char *wh_dirname(const char *path);
/* `*dir` becomes its parent (1), or stays at the root (0). */
int wh_climb(char **dir);
int wh_is_file(const char *path);
int wh_is_dir(const char *path);
/* Is `word` one of the blank-separated words of `text` (up to `end`, or its NUL when NULL)? */
int wh_has_word(const char *text, const char *end, const char *word);
/* A new where, its strings owned (NULL allowed but for `text`). */
struct lk_fix_where *wh_new(const char *system, const char *file, const char *name_key, const char *name,
			    const char *text);

#endif
