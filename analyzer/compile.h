/* Compiling a link call's source again, for the replay. */
#ifndef ANALYZER_COMPILE_H
#define ANALYZER_COMPILE_H

#include "linkscope/err.h"
#include "linkscope/record.h"

/*
 * Compile `copy` (the kept copy of `source`, or `source` itself) with the
 * record's driver and compile options into an object in `dir`. Returns its
 * path (malloc'd), or NULL with `err`.
 */
char *lk_compile_source(const struct lk_record *rec, const char *source, const char *copy,
			const char *dir, struct lk_err *err);

#endif
