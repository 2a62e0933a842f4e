/*
 * Where the user makes a fix (issue #18, point 3): the build file, the
 * target, crate or variable, and the line to write there, read from the
 * build tree the record's cwd and words point at. Only files are read,
 * each bounded; nothing of cargo, cmake, make or meson runs (records are
 * untrusted, docs/security.md). A file that is missing or not as
 * expected means no `where`, never an error.
 */
#ifndef ANALYZER_WHERE_H
#define ANALYZER_WHERE_H

#include "fix.h"

struct lk_fix_where {
	const char *system;	/* "cargo", "cmake", "make", "meson" (static) */
	char *file;		/* the file to edit, or NULL (the RUSTFLAGS variable) */
	long line;		/* the line of `file` the edit is at or after, 1-based; 0 when not known */
	const char *name_key;	/* "crate", "target" or "variable" (static) */
	char *name;		/* the crate, target or variable that carries the word */
	char *text;		/* what to write, lines separated by '\n' */
	char *replaces;		/* the text `text` replaces in `file`, or NULL (an addition) */
	char *moves_from;	/* make: the variable the word leaves, or NULL */
	char *sentence;		/* the same, said to a person */
};

/*
 * After the fix stage: the `where` of each fix of each diagnostic and of
 * the whole fix, when the build system that wrote the line can be told
 * from the files. Fills lk_fix.where (owned by the fix).
 */
void lk_where_fixes(const struct lk_record *rec, const struct lk_line *line, const struct lk_replay *rp,
		    struct lk_fixes *fx);

void lk_where_free(struct lk_fix_where *w);

#endif
