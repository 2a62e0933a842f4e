/* Compiling a link call's source again, for the replay. */
#ifndef ANALYZER_COMPILE_H
#define ANALYZER_COMPILE_H

#include "linkscope/err.h"
#include "linkscope/record.h"
#include "sandbox.h"

/*
 * Compile `copy` (the kept copy of `source`, or `source` itself), as
 * `lang` (its -x on the line; NULL: by its suffix), with
 * `driver` (lk_trust_driver()'s) and the record's allowed compile options,
 * in `dir`, into an object there, inside the walls (sandbox.h: it writes
 * only `dir`; the walls it went without are added to `walls`, which may
 * be NULL). Returns its path (malloc'd), with
 * `*dropped_note` naming the options left out (malloc'd, or NULL); or NULL
 * with `err` (which names them too).
 */
char *lk_compile_source(const struct lk_record *rec, const char *driver, const char *source,
			const char *lang, const char *copy, const char *dir, struct lk_walls *walls, char **dropped_note,
			struct lk_err *err);

#endif
