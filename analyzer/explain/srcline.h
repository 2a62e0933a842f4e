/*
 * Where in the sources (issue #18, point 3, C and C++): the file and line
 * of each reference to an undefined symbol, as GNU ld prints them
 * ("main.c:6: undefined reference to `foo'"), and of the definitions the
 * near misses name, read from the objects' DWARF (model/dwarf_line.h), so
 * a stated fix names the line to change.
 */
#ifndef ANALYZER_SRCLINE_H
#define ANALYZER_SRCLINE_H

#include <stdint.h>

#include "dwarf_line.h"
#include "replay.h"

/* One relocation of a referencing input against an undefined symbol: one line of ld's. */
struct lk_srcref {
	char *symbol;		/* the undefined symbol (mangled) */
	long input;		/* the replay's input that references it */
	char *section;		/* the section the relocation applies to (".text") */
	uint64_t offset;	/* ... and where in it */
	struct lk_srcpos pos;	/* its file and line, or none without DWARF */
};

/* lk_diag.ref_lines: the references, in the order ld meets them, at most LK_SRCREFS_MAX. */
#define LK_SRCREFS_MAX 10
struct lk_srcrefs {
	struct lk_srcref *items;
	size_t nr, alloc;
	int cut;		/* more references than were kept */
	struct lk_srcpos decl;	/* where the first referencing object with DWARF declares the symbol, or none */
	long decl_input;	/* ... that object, or -1 */
	/*
	 * A referencing object whose DWARF has a definition of the symbol it
	 * leaves undefined: a C99 `inline` definition, which gives no external
	 * one (where that definition is), or none.
	 */
	struct lk_srcpos inline_def;
};

/*
 * The explain stage, after the causes: on a failed replay, every
 * undefined-symbol diagnostic of `rp` gets its references' lines
 * (`ref_lines`) and each near miss that names a definition its line
 * (`lk_finding.def_pos`). Reads only the inputs that reference those
 * symbols and the files of the near misses, bounded; never on a success.
 * Freed by lk_explain_diag_release() (lk_srcline_release()).
 */
void lk_srcline_fill(struct lk_replay *rp);
void lk_srcline_release(struct lk_diag *d);

#endif
