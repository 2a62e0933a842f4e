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
 * mold, rec->linker_flavor and rec->linker_identified_by. The program is
 * run only with `may_ask`: after the link, and only when the link ran it
 * (issue #41 point 6); else the cache's answer or none. Returns 1 when
 * the identity is settled, 0 when only running the program would tell (a
 * later call with `may_ask` does).
 */
int lk_linkerid_find(struct lk_record_draft *rec, const char *dir, int may_ask);

/* "bfd", "gold", "lld" or "mold" for a linker's --version line, or NULL. */
const char *lk_linkerid_flavor(const char *version);

#endif
