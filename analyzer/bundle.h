/*
 * Bundles: one file that carries a record, its kept copies and (with
 * --inputs) every input its link read, so that a baseline travels to
 * another machine (issue #31 point 3). The layout and the manifest are
 * docs/bundle-format.md's; why a zstd-compressed pax tar, docs/decisions.md.
 *
 * A bundle is untrusted input: it is recognised by its first bytes, and
 * unpacked only into a fresh private directory (mkdtemp, 0700), only the
 * member names a bundle holds (manifest.json, record.json,
 * blobs/<sha256>), only regular files, each blob checked against its
 * name, within LK_BUNDLE_MAX_BYTES in all.
 */
#ifndef ANALYZER_BUNDLE_H
#define ANALYZER_BUNDLE_H

#include <stddef.h>
#include <stdint.h>

#include "linkscope/err.h"
#include "linkscope/record.h"
#include "linkscope/strvec.h"
#include "line.h"

/* The most content a bundle carries (uncompressed, the record and the manifest included). */
#define LK_BUNDLE_MAX_BYTES ((uint64_t)2 << 30)
/* The bound in force: LK_BUNDLE_MAX_BYTES, or LINKSCOPE_BUNDLE_MAX (a size: 500M, 1G) when lower. */
uint64_t lk_bundle_max_bytes(void);

/* The most files it lists. */
#define LK_BUNDLE_MAX_FILES 16384
/* The manifest's own bound: a few hundred bytes a file. */
#define LK_BUNDLE_MANIFEST_MAX ((size_t)16 << 20)

/* What `bundle` wrote, for its summary line. */
struct lk_bundle_summary {
	size_t kept, inputs;		/* files listed as the record's kept copies, as inputs */
	size_t blobs;			/* distinct contents carried */
	uint64_t bytes;			/* their size, uncompressed */
	uint64_t compressed;		/* the bundle file's size */
	struct lk_strvec absent;	/* inputs the link read that are not here to carry (owned) */
};

/* Is `path` a bundle (its first bytes are a bundle's magic)? 1, or 0 (not one, or not readable). */
int lk_bundle_is(const char *path);

/*
 * Write the bundle of `rec` (its record file's text `record_text`, its
 * kept copies, and with `inputs` every file `line` resolved and the
 * DT_NEEDED libraries found) to `out`: a new file (0600) renamed over
 * `out` when complete. 0, or -1 with `err` naming the file at fault (one
 * that would pass the bounds, one that cannot be read). `sum` is filled
 * either way; release it with lk_bundle_summary_release().
 */
int lk_bundle_write(const struct lk_record *rec, const struct lk_line *line, const char *record_text,
		    size_t record_len, const char *out, int inputs, struct lk_bundle_summary *sum,
		    struct lk_err *err);
void lk_bundle_summary_release(struct lk_bundle_summary *sum);

/*
 * Unpack the bundle in `file` (`bundle`: its name as the user gave it, "-"
 * for stdin's copy) into a new private directory, returned (malloc'd; the
 * caller removes it with lk_scratch_remove() and frees it), holding
 * record.json, manifest.json and blobs/. NULL with `err` (one line naming
 * `bundle`, the member and what is wrong); nothing is left behind then.
 */
char *lk_bundle_unpack(const char *file, const char *bundle, struct lk_err *err);

/*
 * The record loaded from an unpacked bundle's `dir`: register every file
 * its manifest lists as a kept copy of its original path (reason
 * "bundle"), so that resolve.c reads the copy where the original is
 * missing or differs. 0, or -1 with `err`.
 */
int lk_bundle_adopt(struct lk_record *rec, const char *dir, const char *bundle, struct lk_err *err);

/*
 * After resolution, of a bundle's record: each input the link read that
 * is neither on this machine nor in the bundle, said in line->unknown (the
 * outcome is then unknown, never a silent "cannot find").
 */
void lk_bundle_say_absent(const struct lk_record *rec, struct lk_line *line);

#endif
