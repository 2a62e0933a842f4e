/* What the record's fingerprints (size and mtime of each input when ld ran) say now. */
#ifndef ANALYZER_FINGERPRINT_H
#define ANALYZER_FINGERPRINT_H

#include "line.h"
#include "linkscope/record.h"

/* The fingerprint of a line item the driver's argv named, or NULL (a script's member, the driver's additions). */
const struct lk_record_seen *lk_fingerprint_of(const struct lk_record *rec, const struct lk_line_item *it);

/* A fingerprint's path made absolute against the link's cwd (malloc'd). */
char *lk_fingerprint_path(const struct lk_record *rec, const char *path);

/* The file ld read is still there, at it->path, with another size or mtime. */
int lk_fingerprint_changed(const struct lk_record *rec, const struct lk_line_item *it);

#endif
