/*
 * Diagnostics -> explanations: the timeline of each diagnostic, one
 * sentence each, from what the replay kept (its inputs, its symbol table,
 * the definitions it set aside); no input is read again.
 */
#ifndef ANALYZER_EXPLAIN_H
#define ANALYZER_EXPLAIN_H

#include "linkscope/buf.h"
#include "line.h"
#include "replay.h"

/* The explanation stage: fill the `explanation` of every diagnostic of `out`, the replay of `line`. */
void lk_explain_diags(struct lk_replay *out, const struct lk_line *line);

/*
 * Free what the explain stage (the explanations, causes and fixes of
 * explain.c, cause.c and fix.c) added to a diagnostic of the replay, or
 * to every diagnostic and the replay itself; before lk_replay_release().
 */
void lk_explain_diag_release(struct lk_diag *d);
void lk_explain_release(struct lk_replay *r);

/*
 * Where input `input` of the replay is, for a sentence: "member M of PATH
 * at POS", or "PATH at POS", or "(added by the driver)" when the driver put
 * it there. Appended to `b`.
 */
void lk_explain_site_text(const struct lk_replay *r, const struct lk_line *line, long input,
			  struct lk_buf *b);

/* Every reason the replay has about `symbol`, one line each, in reading order (`linkscope why`). */
void lk_explain_why(const struct lk_replay *r, const struct lk_line *line,
		    const char *symbol, struct lk_strvec *out);

#endif
