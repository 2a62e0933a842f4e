/*
 * What the parts of the fix stage share (fix.c, provider_fixes.c,
 * kind_fixes.c): the context every fix is made from and added to, and
 * the one way a fix is offered. Included by those parts only.
 */
#ifndef ANALYZER_FIX_PARTS_H
#define ANALYZER_FIX_PARTS_H

#include "fix.h"

struct lk_fixer {
	const struct lk_record *rec;
	const struct lk_line *line;
	const struct lk_replay *rp;	/* explained, read only */
	struct lk_fixes *out;
	int foresee;		/* the dry run (fix.c's foresee): trials expected, not asked; each taken to link */
};

/* The fixes of `d`, a diagnostic of fx->rp, being made. */
struct lk_fix_list *lk_fixer_list(const struct lk_fixer *fx, const struct lk_diag *d);

/*
 * A fix of `d` with `edit` (taken over: `edit` is left empty), said by
 * `description`: its edited argv made, tried (lk_edit_try) when it is an
 * edit of the line the replay models, else stated; then judged: verified
 * when the link then succeeds, partial when it fails but none of d's
 * symbols is left. Returns the fix, d's last (valid until d gets another).
 * In the dry run, the trial is only expected (lk_edit_expect) and the fix
 * taken as verified.
 */
struct lk_fix *lk_fix_offer(const struct lk_fixer *fx, const struct lk_diag *d, struct lk_edit *edit,
			    const char *description);

/* `word` appended for `d` (an insert at the end of the argv), offered. */
struct lk_fix *lk_fix_try_append(const struct lk_fixer *fx, const struct lk_diag *d, const char *word,
				 const char *description);

/* A fix of `d` outside the line (a rebuild, a declaration, another change of the build): stated, never tried. */
struct lk_fix *lk_fix_stated(const struct lk_fixer *fx, const struct lk_diag *d, enum lk_edit_kind kind,
			     const char *input, const char *needs, const char *description);

/* The top-level item of the last input (in reading order) that references d's symbols, or NULL. */
const struct lk_line_item *lk_fix_last_reference(const struct lk_fixer *fx, const struct lk_diag *d);

/* kind_fixes.c: input-not-found and incompatible-skipped (a word replaced), the unusable inputs, the relocation room. */
void lk_fix_not_found(const struct lk_fixer *fx, const struct lk_diag *d);
void lk_fix_unusable(const struct lk_fixer *fx, const struct lk_diag *d);
void lk_fix_reloc(const struct lk_fixer *fx, const struct lk_diag *d);

/*
 * provider_fixes.c: the objects of the build tree the near misses found
 * (explain/nearmiss.c), appended; the fixes of the provider groups (the
 * library's argument; g++ as the driver for C++ runtime symbols under a C
 * driver; a Rust crate's build-script line); the edit for the whole link
 * when no single fix is enough; then every fix that neither links nor
 * fixes its own symbols is dropped: it is never offered.
 */
void lk_fix_near_misses(const struct lk_fixer *fx, const struct lk_diag *d);

/* runtime_fixes.c: a symbol the compiler or the C library's headers put into an object (the stack protector's, glibc's __isoc23_*): its rebuild. */
void lk_fix_runtime(const struct lk_fixer *fx, const struct lk_diag *d);
void lk_fix_providers(const struct lk_fixer *fx);

#endif
