/*
 * Diagnostics -> fixes: candidate edits of the link, each tried on the
 * replay (a trial leaves the line as it was) and, when asked, on the real
 * linker (verify.c). Cause-level fixes (providers, several causes at once)
 * are cause.c's; they are tried here too.
 */
#ifndef ANALYZER_FIX_H
#define ANALYZER_FIX_H

#include "line.h"
#include "linkscope/record.h"
#include "replay.h"
#include "sandbox.h"

struct lk_fix_where;

/* A candidate edit of the link: proposed, tried and verified by the functions below. */
struct lk_fix {
	char *description;
	struct lk_strvec args;	/* what to insert */
	long position;		/* driver argv index they go before; argc = append */
	int replaces;		/* `args` replace the word at `position` instead (a name corrected) */
	int stated;		/* said, not tried by the replay (a rebuild, another linker): never verified */
	int verified;		/* the replay with this edit succeeds */
	int linker_checked;	/* --verify-with-linker ran the real driver with it */
	int linker_ok;		/* ... and it linked */
	char *linker_said;	/* its first line of stderr when it did not */
	int partial;		/* not verified, but every symbol of its diagnostic is then defined */
	struct lk_strvec remaining;	/* partial: "kind symbol" of what still fails */
	char *driver;		/* the fix is another driver (g++ for cc); `args` is what it adds */
	struct lk_strvec build_script;	/* a Rust crate's: the cargo: lines its build script should print */
	struct lk_fix_where *where;	/* where the user makes it (where/where.h), or NULL */
};

/*
 * The fix stage, after the explanations: diagnostics grouped by cause,
 * each one's direct fixes, then the cause-level ones (cause.c), every one
 * tried before it is offered. Nothing when the failure is no prediction.
 */
void lk_fix_all(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out);

/* Each diagnostic's direct fixes: libc read again, the defining library appended, an archive read again. */
void lk_fix_propose(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out);

/*
 * One fix trial: the outcome (1 links, 0 fails) of `line` with `words`
 * appended to the driver's argv, in order, with the state in force at the
 * end. Runs from the snapshot of `r` kept after the user's last input when
 * it has one (lk_replay_run with LK_REPLAY_SNAPSHOT), else replays the whole
 * line with the words in an overlay. `remaining` (may be NULL) gets "kind
 * symbol" of each diagnostic left.
 */
int lk_fix_trial(const struct lk_replay *r, const struct lk_record *rec, const struct lk_line *line,
		 const struct lk_strvec *words, struct lk_strvec *remaining);

/* `word` appended for diagnostic `d`, tried (lk_fix_trial): a fix of `d`, judged (cause.c) by what then still fails. */
void lk_fix_try_append(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out,
		       struct lk_diag *d, const char *word, const char *description);

/*
 * --verify-with-linker (verify.c): run the recorded driver again with the
 * fix's arguments inserted, in a scratch directory, the output going to a
 * temporary file (never over the user's), inputs that are gone replaced
 * by the copies kept with the record, inside the walls of sandbox.h (those
 * it went without are added to `walls`, which may be NULL). Fills the
 * fix's linker_* fields.
 */
void lk_fix_verify_with_linker(const struct lk_record *rec, struct lk_fix *fix, struct lk_walls *walls);

void lk_fix_release(struct lk_fix *f);

#endif
