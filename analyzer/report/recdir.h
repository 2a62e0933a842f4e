/*
 * The record directory as `list`, `report --failed` and `last` read it:
 * its index (records.index, recindex.h) checked against the directory's
 * names, the records the index lacks read and added to it. The records
 * stay the truth: a record the index does not name is read; a line whose
 * record is gone is dropped; a bad index is said once and rebuilt from the
 * records.
 */
#ifndef ANALYZER_RECDIR_H
#define ANALYZER_RECDIR_H

#include <stddef.h>

#include "linkscope/err.h"
#include "linkscope/recindex.h"

struct lk_recdir {
	char *dir;	/* as given */
	struct { struct lk_index_entry *items; size_t nr, alloc; } entries;	/* newest first */
};

/*
 * Read `dir`: 0, or -1 after saying why it cannot be opened. A record that
 * cannot be read is said (one line naming it) and counted in *bad, as
 * every time it is met. Release with lk_recdir_release().
 */
int lk_recdir_read(const char *dir, struct lk_recdir *out, int *bad);
void lk_recdir_release(struct lk_recdir *rd);

/* The record file of `e`: DIR/NAME.json, malloc'd. */
char *lk_recdir_path(const struct lk_recdir *rd, const struct lk_index_entry *e);

/*
 * RECORD as a file: `which` is a path (a file of that name, or any name
 * with a '/'), "last" or "last-failed" (the newest (failed) record of
 * `dir`), a record's id as list prints it (NAME or NAME.json, or the
 * record's "id") or a prefix of one that no other id has, or "-": stdin,
 * copied to a temporary file that the caller removes (*is_temp set).
 * malloc'd, or NULL with `err` saying why (an ambiguous prefix lists
 * candidates).
 */
char *lk_recdir_resolve(const char *dir, const char *which, int *is_temp, struct lk_err *err);

/* Did the link of `e` fail (a signal, not run, or a non-zero exit)? */
int lk_recdir_failed(const struct lk_index_entry *e);

#endif
