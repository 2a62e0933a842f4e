/*
 * The driver's view of a link (its -### expansion and -print-prog-name)
 * from its profile's template: the model (view.c). The cache of templates
 * is viewcache.h.
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
	struct lk_strvec infiles;	/* the input files, -lNAME, -Wl, and -Xlinker words */
	struct lk_strvec probe;		/* the probe's words after "-###" */
	struct lk_strvec paths;		/* the -B and --sysroot values (whether they exist is in the key) */
};

/*
 * Read the link's words into `line` (`cxx`: the driver is g++, whose
 * -lm and -lc it moves). Sets line->unmodelled when the reuse of a view
 * cannot be shown exact for this line. Exposed for tests.
 */
void lk_view_line_read(struct lk_view_line *line, char *const *argv, int cxx);
void lk_view_line_release(struct lk_view_line *line);

/* Building a template (lk_view_learn, and the cache entry's parser). */
struct lk_view_cmd *lk_view_cmd_add(struct lk_view_template *t);
/* `text` is copied; NULL for the slots. */
void lk_view_tok_add(struct lk_view_cmd *c, enum lk_view_tok_kind kind, const char *text, size_t split);
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
