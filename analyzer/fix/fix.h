/*
 * Explained diagnostics -> fixes (the fix stage, analyzer/fix/): for each
 * diagnostic of an explained replay, taken read-only, the edits of the
 * link (edit.h) that fix it, each tried on the replay of the edited line
 * (a trial leaves the line as it was) and, when asked, by the real linker
 * (verify.c). The fixes are this stage's result, `struct lk_fixes`, beside
 * the replay: the replay knows nothing of them.
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

struct lk_fix_list {
	struct lk_fix *items;
	size_t nr, alloc;
};

/* The fix stage's result. */
struct lk_fixes {
	struct lk_fix_list *of;	/* of[i]: the fixes of the replay's diagnostic i, the fix at the cause first */
	size_t nr;		/* the replay's diagnostics */
	struct lk_fix *whole;	/* several causes: one edit that fixes them all, or NULL */
};

/*
 * The fix stage, after the explanations and the causes (explain.h): each
 * diagnostic's fixes, every one tried before it is offered, into `out`
 * (release with lk_fixes_release, before the replay is released). No
 * fixes when the failure is no prediction.
 */
void lk_fix_all(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay *rp,
		struct lk_fixes *out);

/* The fixes of diagnostic `i` (an empty list for one out of range, so a printer need not check). */
const struct lk_fix_list *lk_fixes_of(const struct lk_fixes *fx, size_t i);

void lk_fixes_release(struct lk_fixes *fx);

/*
 * --verify-with-linker (verify.c): run the fix's edited argv (its driver
 * from this machine's PATH), in a scratch directory, the output going to a
 * temporary file (never over the user's), inputs that are gone replaced
 * by the copies kept with the record, inside the walls of sandbox.h (those
 * it went without are added to `walls`, which may be NULL). Fills the
 * fix's linker_* fields.
 */
void lk_fix_verify_with_linker(const struct lk_record *rec, struct lk_fix *fix, struct lk_walls *walls);

void lk_fix_release(struct lk_fix *f);

#endif
