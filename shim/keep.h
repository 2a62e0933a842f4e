/* Copies of inputs that will not outlive the link, kept with the record. */
#ifndef SHIM_KEEP_H
#define SHIM_KEEP_H

#include <stdint.h>

#include "linkscope/err.h"
#include "linkscope/record.h"

struct lk_keep_limits {
	int64_t max_file;	/* a larger file is not copied (a warning says so) */
	int64_t max_total;	/* per record */
};

/*
 * Copy `path` into <dir>/blobs/<sha256> unless a blob of that content is
 * already there (copies are shared between records), and add it to
 * rec->kept with `reason`. The copy is also held under a name of this
 * link's own until lk_keep_settle. Limits are checked against `*used`,
 * which grows. Returns 0, or -1 with `err` (the record then carries a
 * warning).
 */
int lk_keep_file(struct lk_record_draft *rec, const char *dir, const char *path,
		 const char *reason, const struct lk_keep_limits *limits,
		 int64_t *used, struct lk_err *err);

/*
 * Keep the objects caught from the driver's TMPDIR (shim/tempobj.c), the
 * n-th for the n-th source on the line, as reason "source-object" under
 * the source's path.
 */
void lk_keep_source_objects(struct lk_record_draft *rec, const char *dir,
			    const struct lk_strvec *objects, const struct lk_keep_limits *limits);

/*
 * Keep what a later replay needs and the build will delete: files in
 * rustc's temporary directory, rustc's codegen units (*.rcgu.o), response
 * files, and sources the call compiles. Failures become lines in `warnings`
 * (the caller puts them in the record where they belong: shim/main.c keeps
 * while the link runs).
 */
void lk_keep_inputs(struct lk_record_draft *rec, const char *dir,
		    const struct lk_keep_limits *limits, struct lk_strvec *warnings);

/*
 * Once the record is written (or could not be): each copy kept is held
 * under a name of the link's own (prune.h's LK_BLOB_HELD) since
 * lk_keep_file; it goes back under blobs/<sha256> if a prune removed that
 * name meanwhile, else the held name goes.
 */
void lk_keep_settle(const struct lk_record_draft *rec, const char *dir);

#endif
