/* The linker program a link runs, found as the driver finds it, and what it is (linkerid.c). */
#ifndef SHIM_LINKERID_H
#define SHIM_LINKERID_H

#include "linkscope/record.h"

/*
 * After lk_target_find_linker and once rec->expansion is what the record
 * will say: rec->linker_program (owned) and its source when not set yet
 * (the -### linker command's program, the -print-prog-name answer, PATH),
 * then rec->linker_version (owned: the program's first --version line,
 * cached in `dir`/views/) and, when that line names GNU ld, gold, lld or
 * mold, rec->linker_flavor and rec->linker_identified_by.
 */
void lk_linkerid_find(struct lk_record_draft *rec, const char *dir);

/* "bfd", "gold", "lld" or "mold" for a linker's --version line, or NULL. */
const char *lk_linkerid_flavor(const char *version);

#endif
