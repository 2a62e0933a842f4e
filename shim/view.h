/*
 * The driver's view of a link (its -### expansion and -print-prog-name),
 * taken once per profile and reused: see view.c for the model and
 * docs/record-format.md ("The driver's view, reused") for the cache.
 */
#ifndef SHIM_VIEW_H
#define SHIM_VIEW_H

#include <stdint.h>

#include "linkscope/buf.h"
#include "linkscope/expansion.h"
#include "linkscope/strvec.h"

/* One word of a cached command. */
enum lk_view_tok_kind {
	LK_VIEW_WORD,		/* the profile's word, as is */
	LK_VIEW_OUTPUT,		/* the link's -o FILE: two words */
	LK_VIEW_LIBDIRS,	/* the link's -L dirs in order, each as -LDIR */
	LK_VIEW_INFILES,	/* the link's inputs, -l, -Wl, and -Xlinker words, in order */
	LK_VIEW_TEMP,		/* gcc's temporary name: text[0..split) + 6 random [A-Za-z0-9] + text[split..] */
};

struct lk_view_tok {
	enum lk_view_tok_kind kind;
	char *text;		/* owned; WORD and TEMP, else NULL */
	size_t split;		/* TEMP: where the random part goes */
};

struct lk_view_cmd {
	struct lk_view_tok *items;
	size_t nr, alloc;
};

/* A profile's view: what -### printed, with the link's own words as slots. */
struct lk_view_template {
	int64_t created;	/* unix seconds, when taken or last confirmed */
	int negative;		/* no view can be reused for this profile: take it fresh */
	int exit_status;
	long linker_command;
	char *library_path;	/* owned or NULL, as struct lk_expansion */
	char *compiler_path;
	char *linker_program;
	struct { struct lk_view_cmd *items; size_t nr, alloc; } cmds;
};

/*
 * The link's words as the model reads them: the profile (every word that
 * is not one of the link's own, and where those stand between them), the
 * link's own words in the order gcc hands them to collect2, and the probe
 * that shows where they go.
 */
struct lk_view_line {
	const char *unmodelled;		/* static: why this line's view is taken fresh, or NULL */
	int cxx;			/* the driver is g++ */
	const char *output;		/* -o FILE, borrowed; NULL: none */
	struct lk_strvec libdirs;	/* -LDIR */
	struct lk_strvec infiles;
	struct { const char **items; size_t nr, alloc; } files;	/* the input files, borrowed */
	struct lk_strvec probe;		/* the probe's words after "-###" */
	struct lk_strvec paths;		/* -B and --sysroot values, borrowed copies */
};

/* What a link does about its view. */
enum lk_view_use {
	LK_VIEW_FRESH,		/* a fresh run, as without a cache: the line is not modelled */
	LK_VIEW_REUSE,		/* the cached view: no driver run */
	LK_VIEW_VERIFY,		/* the cached view, checked against a fresh run */
	LK_VIEW_LEARN,		/* no entry: a fresh run and the probe, then one is written */
};

/* The link, as lk_view_begin needs it. Everything is borrowed. */
struct lk_view_request {
	const char *dir;		/* the record directory */
	const char *driver;		/* the path executed */
	const char *driver_real;	/* its realpath, or NULL */
	char *const *argv;		/* the -### argv without "-###": [0] as the driver sees it */
	const char *cwd;		/* may be NULL */
	int64_t now;			/* unix seconds */
	unsigned long rnd;		/* the record id's random part: which links verify */
	const char *check_log;		/* LINKSCOPE_VIEW_CHECK: verify every reuse, log each link's view there */
};

struct lk_view {
	enum lk_view_use use;
	const char *why;		/* static: for the check log */
	struct lk_view_line line;
	struct lk_view_template tmpl;	/* the cached one (REUSE, VERIFY) */
	struct lk_buf key;
	char *path;			/* the cache file; NULL when there is none to write */
	int64_t now;
	const char *check_log;
	const char *argv0;		/* borrowed: the driver's argv[0] */
	const char *exe;		/* borrowed: the driver binary */
	int probing;
	struct lk_expansion_query probe;
};

/* Entries older than this are verified against a fresh run; one link in LK_VIEW_VERIFY_EVERY is, whatever the age. */
#define LK_VIEW_MAX_AGE (24 * 3600)
#define LK_VIEW_VERIFY_EVERY 64
/* The probe's bound, counted from when the shim waits for it (after the link), as the -### run's. */
#define LK_VIEW_PROBE_TIMEOUT_MS 10000

/*
 * Read the link's words into `line` (`cxx`: the driver is g++, whose
 * -lm and -lc it moves). Sets line->unmodelled when the reuse of a view
 * cannot be shown exact for this line. Exposed for tests.
 */
void lk_view_line_read(struct lk_view_line *line, char *const *argv, int cxx);
void lk_view_line_release(struct lk_view_line *line);

/*
 * Decide what this link does about its view (v->use), reading the cache
 * entry of its profile. Never fails: a missing, corrupt or foreign entry
 * is no entry. Release with lk_view_release().
 */
void lk_view_begin(struct lk_view *v, const struct lk_view_request *req);

/* LK_VIEW_LEARN: start the probe beside the link (the driver with envp). */
void lk_view_start_probe(struct lk_view *v, const char *driver, char *const envp[]);

/* LK_VIEW_REUSE: the link's view from the cached one, into an empty `exp`. */
void lk_view_fill(const struct lk_view *v, struct lk_expansion *exp);

/*
 * After the link, `exp` holding the fresh view taken beside it:
 * LK_VIEW_VERIFY compares it with the cached one (and refreshes the entry,
 * or drops it and puts one line in `warning`); when they match and
 * `reuse` (the link ran, and did not fail or died by a signal), `exp`
 * becomes the cached view, as a link that is not verified records it.
 * LK_VIEW_LEARN learns the profile's template from the probe and writes
 * the entry. LINKSCOPE_VIEW_CHECK's log gets one line per link.
 */
void lk_view_end(struct lk_view *v, struct lk_expansion *exp, int reuse, struct lk_buf *warning);

void lk_view_release(struct lk_view *v);

/*
 * The cache entry's format, for the fuzz target and tests: parse `len`
 * bytes of `data` into `t` if they are an entry for `key`; 0, or -1 (t
 * released) for anything else. lk_view_template_write() appends an entry.
 */
int lk_view_template_parse(const char *data, size_t len, const struct lk_buf *key,
			   struct lk_view_template *t);
void lk_view_template_write(const struct lk_view_template *t, const struct lk_buf *key,
			    struct lk_buf *out);
void lk_view_template_release(struct lk_view_template *t);

/*
 * The template of `probe` (the profile's -### run with slot markers,
 * `probe_line` read from its words), checked against `fresh` (the link's
 * own run, `line` its words): 0 and `t` filled, or -1 with `*why` set
 * when the view of this profile cannot be reused. Exposed for tests.
 */
int lk_view_learn(const struct lk_expansion *probe, const struct lk_view_line *probe_line,
		  const struct lk_expansion *fresh, const struct lk_view_line *line,
		  struct lk_view_template *t, const char **why);

/*
 * Does the cached `t` give `line` exactly the view `fresh`? 1, or 0 with
 * the first difference in `diff`. gcc's temporary names match any name of
 * their shape.
 */
int lk_view_matches(const struct lk_view_template *t, const struct lk_view_line *line,
		    const struct lk_expansion *fresh, struct lk_buf *diff);

/* The link's view from `t`, into an empty `exp`. */
void lk_view_expand(const struct lk_view_template *t, const struct lk_view_line *line,
		    struct lk_expansion *exp);

#endif
