/*
 * Diagnostics -> fixes: candidate edits of the link, each tried on the
 * replay (a trial leaves the line as it was) and, when asked, on the real
 * linker (verify.c). Cause-level fixes (providers, several causes at once)
 * are cause.c's; they are tried here too.
 */
#ifndef ANALYZER_FIX_H
#define ANALYZER_FIX_H

#include "edit.h"
#include "line.h"
#include "linkscope/record.h"
#include "replay.h"
#include "sandbox.h"

struct lk_fix_where;

/* A candidate edit of the link: proposed, tried and verified by the functions below. */
struct lk_fix {
	char *description;
	struct lk_edit edit;	/* what it changes (edit.h): the authority on the fix */
	struct lk_strvec argv;	/* an edit of the line: the driver argv after it (what a script runs); else empty */
	/* Today's fields, kept for the JSON contract: the words the edit puts on the line, and where. */
	struct lk_strvec args;	/* what to insert */
	long position;		/* driver argv index they go before; argc = append; -1: not on the line */
	int replaces;		/* `args` replace the word at `position` instead (a name corrected; none: removed) */
	int stated;		/* said, not tried by the replay (a rebuild, another linker): never verified */
	int verified;		/* the replay with this edit succeeds */
	int workaround;		/* it works around the cause rather than fixing it (listed after those that do) */
	int linker_checked;	/* --verify-with-linker ran the real driver with it */
	int linker_ok;		/* ... and it linked */
	char *linker_said;	/* its first line of stderr when it did not */
	int partial;		/* not verified, but every symbol of its diagnostic is then defined */
	struct lk_strvec remaining;	/* partial: "kind symbol" of what still fails */
	char *driver;		/* the fix is another driver (g++ for cc); `args` is what it adds */
	struct lk_strvec build_script;	/* a Rust crate's: the cargo: lines its build script should print */
	/*
	 * Where the user makes the edit in the build (a build.rs, a CMake
	 * target, a Makefile variable), or NULL: filled and freed by the room
	 * that knows the build systems (issue #18, point 3).
	 */
	struct lk_fix_where *where;
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
 * A fix of `d` with `edit` (taken over: `edit` is left empty), said by
 * `description`: its edited argv made, tried (lk_edit_try) when it is an
 * edit of the line the replay models, else stated; then judged: verified
 * when the link then succeeds, partial when it fails but none of d's
 * symbols is left. Returns the fix, d's last.
 */
struct lk_fix *lk_fix_offer(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay *out,
			    struct lk_diag *d, struct lk_edit *edit, const char *description);

/* `word` appended for diagnostic `d` (an insert at the end of the argv), offered (lk_fix_offer). */
struct lk_fix *lk_fix_try_append(const struct lk_record *rec, const struct lk_line *line, struct lk_replay *out,
				 struct lk_diag *d, const char *word, const char *description);

/* A fix of `d` outside the line (a rebuild, a declaration, another change of the build): stated, never tried. */
struct lk_fix *lk_fix_stated(struct lk_diag *d, enum lk_edit_kind kind, const char *input, const char *needs,
			     const char *description);

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
