/* Resolution of a line model's inputs: search, identification, scripts, DT_NEEDED. */
#ifndef ANALYZER_RESOLVE_H
#define ANALYZER_RESOLVE_H

#include "line.h"
#include "linkscope/record.h"

/*
 * The resolution stage, after lk_line_build: resolve every item of `line`
 * (read from `rec`): the linker's default search dirs, -l search,
 * identification, linker scripts expanded into child items, the DT_NEEDED
 * closure. The warnings (warn.h) come next.
 */
void lk_resolve_line(const struct lk_record *rec, struct lk_line *line);

/*
 * Append a top-level item for `word` ("-lc", a path) as if it stood in the
 * driver's argv at `position`, with the input state in force there, and
 * resolve it (scripts expanded). Returns its index. For trying fixes.
 */
size_t lk_resolve_append(const struct lk_record *rec, struct lk_line *line,
			 const char *word, long position, unsigned state);

/* Find -lNAME (or -l:FILE) as GNU ld does; fills item->path and item->tried (item->state says -Bstatic). */
int lk_resolve_search_lib(const struct lk_line *line, struct lk_line_item *item);

/*
 * The copy a bundle carries of `path` (as ld opened it; relative to the
 * link's cwd), when it stands in for the file: the file is not here, or
 * here with other content (another size, another SHA-256). malloc'd, or
 * NULL: no bundled copy, or the file here is the one the link read.
 */
char *lk_resolve_bundled(const struct lk_record *rec, const char *path);

/* Does a bundle's record carry files inside `dir` (a -L dir gone here, whose files the link read)? */
int lk_resolve_bundles_dir(const struct lk_record *rec, const char *dir);

/* The dirs /etc/ld.so.conf names (its includes followed), in the line's sysroot. */
void lk_resolve_ld_so_conf(const struct lk_line *line, struct lk_strvec *out);

#endif
