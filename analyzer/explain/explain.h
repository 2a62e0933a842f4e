/*
 * Diagnostics -> explanations: the timeline of each diagnostic, one
 * sentence each, from what the replay kept (its inputs, its symbol table,
 * the definitions it set aside); no input is read again.
 */
#ifndef ANALYZER_EXPLAIN_H
#define ANALYZER_EXPLAIN_H

#include "linkscope/buf.h"
#include "dwarf_line.h"
#include "line.h"
#include "linkscope/record.h"
#include "replay.h"

/*
 * What the inputs show about a diagnostic beyond the replay: a name that
 * nearly matches an undefined one (nearmiss.c), or the cause of a
 * multiple definition (multidef.c). `fix` is stated, never verified: it
 * is an edit outside the line (a header, a recompile); an edit of the line
 * (the object that defines it appended) is the fix stage's, which reads
 * `kind` and `in`.
 */
struct lk_finding {
	char *kind;		/* "extern-c", "signature", ...; "tentative-definition", ... (docs/report-format.md) */
	char *found;		/* the name found (near misses), or NULL */
	char *in;		/* where: "PATH", "PATH(MEMBER)", or NULL */
	char *detail;		/* one sentence */
	char *fix;		/* the stated fix, or NULL */
	/* The file that defines `found` (an object, a shared object, an archive and its member), and its source line (srcline.c). */
	char *def_path, *def_member;
	struct lk_srcpos def_pos;
	struct lk_srcpos fix_pos;	/* extern-c: the declaration the referencing code includes, where `fix` goes (srcline.c) */
};
void lk_finding_release(struct lk_finding *f);

/* The explanation stage: fill the `explanation` of every diagnostic of `out`, the replay of `line`. */
void lk_explain_diags(struct lk_replay *out, const struct lk_line *line);

/*
 * The causes, for the fix stage (cause.c): undefined symbols grouped by
 * what would define them, the providers, the near misses. Nothing when
 * the failure is no prediction.
 */
void lk_explain_causes(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out);

/*
 * Free what the explain stage (the explanations and causes of explain.c,
 * cause.c, nearmiss.c, multidef.c) added to a diagnostic of the replay,
 * or to every diagnostic; before lk_replay_release().
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
