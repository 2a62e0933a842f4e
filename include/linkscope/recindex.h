/*
 * The record directory's index (DIR/records.index, docs/record-format.md,
 * "The index"): one text line per record with what `list`, `report
 * --failed` and `prune` need, so that they read one file instead of every
 * record. The shim appends its record's line in one O_APPEND write(2) of at
 * most LK_INDEX_LINE_MAX bytes, after the record is renamed into place, so
 * parallel links never interleave; a prune rewrites it (tmp + rename) with a
 * checkpoint line. The records stay the truth: a reader compares the index
 * with the directory's names and reads the records it lacks. The index is
 * untrusted input like a record: every line is checked, and a bad one makes
 * the reader fall back to the records.
 *
 * Used by the shim, common/prune.c and the analyzer (no jansson here).
 */
#ifndef LINKSCOPE_RECINDEX_H
#define LINKSCOPE_RECINDEX_H

#include <stddef.h>
#include <stdint.h>

#include "linkscope/buf.h"
#include "linkscope/err.h"

#define LK_INDEX_NAME "records.index"
/* PIPE_BUF: a write(2) of a line this long to an O_APPEND file is never interleaved. */
#define LK_INDEX_LINE_MAX 4096
/* An index larger than this is not read (100,000 records make about 20 MB). */
#define LK_INDEX_MAX_BYTES ((size_t)512 << 20)

struct lk_index_blob {
	char sha256[65];
	int64_t size;
};

/* One record's line. Strings are owned; NULL where the record has none. */
struct lk_index_entry {
	char *name;		/* the record's file name without ".json" */
	char *id;		/* the record's "id"; NULL when it is `name` */
	int64_t mtime_s;	/* the record file's mtime (seconds) */
	int64_t bytes;		/* the record and its satellites (reports, reproducer) */
	int summary;		/* 1: the fields below are known; 0: read the record for them */
	int64_t start_ns;	/* time.start_unix_ns */
	char *start;		/* time.start */
	int has_exit, exit_status, signal;
	char *caller, *driver, *output;	/* list's columns: caller name, argv_expanded[0], line.output */
	int blobs_listed;	/* 0: not listed (too many): read the record's text for them */
	int64_t blob_bytes;	/* when not listed: the kept copies' bytes (shared ones counted again) */
	struct { struct lk_index_blob *items; size_t nr, alloc; } blobs;
};

struct lk_index {
	struct { struct lk_index_entry *items; size_t nr, alloc; } entries;
	int has_checkpoint;	/* a "c1" line was read (the last one counts) */
	int64_t cp_total;	/* the checkpoint's bytes in the directory */
	int64_t cp_time;	/* when it was written (seconds) */
	size_t cp_next;		/* entries[cp_next...] came after it */
	size_t end;		/* bytes parsed: through the last complete line */
};

void lk_index_entry_release(struct lk_index_entry *e);
void lk_index_release(struct lk_index *idx);

/*
 * The line of `e`, '\n' included, appended to `out`: whole if it fits in
 * LK_INDEX_LINE_MAX, else with its blobs not listed, else without list's
 * fields too (a reader then reads the record), which always fits.
 */
void lk_index_format(const struct lk_index_entry *e, struct lk_buf *out);
/* A checkpoint line: the directory held `total` bytes at `now_s`, by a prune's count. */
void lk_index_format_checkpoint(int64_t total, int64_t now_s, struct lk_buf *out);

/*
 * Parse `len` bytes of index text into `out` (zeroed first; release it
 * either way). An unterminated last line is left out (a line being
 * written). Fails on the first bad line, naming `path` and the line.
 */
int lk_index_parse(const char *text, size_t len, const char *path, struct lk_index *out,
		   struct lk_err *err);

/*
 * Read DIR's index through `dfd`, never through a symbolic link, only a
 * regular file of at most LK_INDEX_MAX_BYTES. 1 when there is none, 0 when
 * read, -1 with `err` (naming `dir`'s index) when it is there but bad.
 * *fd_out, when not NULL, gets the descriptor it was read from (the caller
 * closes it), to read what is appended later from out->end.
 */
int lk_index_read(int dfd, const char *dir, struct lk_index *out, int *fd_out, struct lk_err *err);

/*
 * Append `e`'s line to the index at `path` (relative to `dfd`: the record
 * directory and LK_INDEX_NAME, or AT_FDCWD and DIR/LK_INDEX_NAME) in one
 * write(2), creating it 0600: only a regular file of ours is written to
 * (never a FIFO, nor through a symbolic link). 0, or -1 with errno.
 */
int lk_index_append(int dfd, const char *path, const struct lk_index_entry *e);

/*
 * lk_index_append in two steps, for a writer that opens the index before
 * it knows its line (the shim, while the link runs): the index opened for
 * appending, or -1 with errno (the same checks); then `e`'s line in one
 * write(2) to that fd, which the caller closes. A line written to an index
 * a reader replaced meanwhile is lost, as one appended just before the
 * replace would be: readers add the lines the index lacks (recdir.c).
 */
int lk_index_open_append(int dfd, const char *path);
int lk_index_append_fd(int fd, const struct lk_index_entry *e);

/*
 * Replace DIR's index with `text` atomically (a temporary file beside it,
 * then rename). 0, or -1 with errno.
 */
int lk_index_replace(int dfd, const char *text, size_t len);

/*
 * Sort the entries by name, keeping the last line of each name (a later
 * line of a record says it anew); then lk_index_find() finds one.
 */
void lk_index_sort_by_name(struct lk_index *idx);
const struct lk_index_entry *lk_index_find(const struct lk_index *idx, const char *name);

/* Is `name` (a file in the record directory) a record, for list and report? */
int lk_index_is_record_name(const char *name);

#endif
