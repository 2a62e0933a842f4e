/*
 * The edit model (issue #18): what a fix changes. An edit of the driver's
 * argv (insert, replace, remove, move, group, another driver) gives the
 * edited argv a script can run and is tried by a replay of the edited
 * line; an edit outside the line (rebuild an input, change a source
 * declaration, anything else of the build) is stated, never tried, and
 * says what would have to be true for it to work.
 */
#ifndef ANALYZER_EDIT_H
#define ANALYZER_EDIT_H

#include "line.h"
#include "linkscope/record.h"
#include "linkscope/strvec.h"
#include "replay.h"

enum lk_edit_kind {
	LK_EDIT_KIND_INSERT,	/* `words` before `position` (argc: appended) */
	LK_EDIT_KIND_REPLACE,	/* `words` in place of the word at `position` */
	LK_EDIT_KIND_REMOVE,	/* the word at `position` leaves the line */
	LK_EDIT_KIND_MOVE,	/* the word at `position` (`words` names it) goes to the end of the argv */
	LK_EDIT_KIND_GROUP,	/* the words `position` .. `to` wrapped in -Wl,--start-group / -Wl,--end-group */
	LK_EDIT_KIND_DRIVER,	/* argv[0] becomes `driver`; `words`: what that driver adds to this line */
	/* Outside the line: stated, never tried. */
	LK_EDIT_KIND_REBUILD,	/* `input` rebuilt with other flags (`words`: the compiler's, when known) */
	LK_EDIT_KIND_DECLARATION,	/* a source declaration changed (`input`: what holds it, when known) */
	LK_EDIT_KIND_OUTSIDE,	/* anything else of the build: a package installed, a script corrected */
};

struct lk_edit {
	enum lk_edit_kind kind;
	long position;		/* driver argv index (see the kinds), or -1 */
	long to;		/* group: the index of its last word; else -1 */
	struct lk_strvec words;
	char *driver;		/* driver: the new argv[0] */
	char *input;		/* rebuild, declaration: the file to change, or NULL */
	char *needs;		/* what would have to be true for it to work (outside the line; a driver's additions) */
	int not_on_line;	/* a line edit the replay cannot try (another linker): stated */
};

/* "insert", "replace", "remove", "move", "group", "driver", "rebuild", "declaration", "outside". */
const char *lk_edit_kind_name(enum lk_edit_kind kind);

/* The edit changes the driver's argv (and so has an edited argv and can be tried). */
int lk_edit_on_line(const struct lk_edit *e);

/* The driver argv of `rec` after the edit, appended to `out` (argv[0] first); -1 for an edit outside the line. */
int lk_edit_argv(const struct lk_record *rec, const struct lk_edit *e, struct lk_strvec *out);

/*
 * What `driver` adds to the line of `rec` after the inputs, appended to
 * `out`: g++ adds -lstdc++ -lm, and nothing of them when the line has
 * -nodefaultlibs or -nostdlib (-nostdlib++: no -lstdc++), as rustc's
 * lines do. Returns 0, or -1 for a driver whose additions are not known.
 */
int lk_edit_driver_adds(const struct lk_record *rec, const char *driver, struct lk_strvec *out);

/*
 * The edit tried on the replay of the edited line: 1 links, 0 fails
 * (`remaining`, which may be NULL, gets "kind symbol" of each diagnostic
 * left), -1 not tried (an edit outside the line, or one no replay models),
 * LK_EDIT_REJECTED not tried either: its words bring what ld would not
 * read as the replay does (a file unreadable now, an executable, a script
 * the model does not read), so no replay of it could verify it; the
 * reason goes to `remaining`.
 * Appended words run from `r`'s snapshot when it has one (trial.h); the
 * others replay the whole line, which stays as it is (lk_replay_edited).
 */
#define LK_EDIT_REJECTED (-2)
int lk_edit_try(const struct lk_replay *r, const struct lk_record *rec, const struct lk_line *line,
		const struct lk_edit *e, struct lk_strvec *remaining);

/*
 * lk_edit_try of `e` will be asked for: when it is a trial from r's
 * snapshot (appended words), the snapshot's server starts it now, so that
 * the trials of one fix stage run together (trial.h). Nothing else.
 */
void lk_edit_expect(const struct lk_replay *r, const struct lk_record *rec, const struct lk_line *line,
		    const struct lk_edit *e);

void lk_edit_release(struct lk_edit *e);

#endif
