/*
 * Names by meaning: what differs between any two builds of the same thing
 * (the directory it was built in, cargo's build root, crate hashes,
 * rustc's temporary directory, the target's architecture) replaced by a
 * placeholder, so that two records can be compared argument by argument.
 */
#ifndef ANALYZER_NORMALIZE_H
#define ANALYZER_NORMALIZE_H

#include "linkscope/record.h"

struct lk_norm {
	char *cwd;		/* the record's working directory, or NULL */
	char *build_root;	/* cargo's target/<triple>/<profile> (or the output's dir), or NULL */
};

/* The placeholders of `rec`: its cwd and its build root. Release with lk_norm_release(). */
void lk_norm_init(struct lk_norm *n, const struct lk_record *rec);
void lk_norm_release(struct lk_norm *n);

/*
 * One argument (or path) by meaning, malloc'd: a relative input made
 * absolute against the cwd, then the build root and the cwd replaced by
 * "<build>" and "<cwd>", and lk_norm_name() applied.
 */
char *lk_norm_arg(const struct lk_norm *n, const char *arg);

/*
 * What differs in any name between builds, malloc'd: rustc's temporary
 * directory ("rustcAbC123" -> "rustc*"), the session part of a codegen
 * unit's name (x.cgu.0i8slao.rcgu.o -> x.cgu.*.rcgu.o), hashes (a run of 8 or more hex
 * digits with a digit in it, such as libfoo-5d1c0e7a.rlib -> libfoo-#.rlib),
 * and the architecture in triples and loader names (x86_64-linux-gnu,
 * aarch64-unknown-linux-gnu, ld-linux-aarch64.so.1 -> <arch>...).
 */
char *lk_norm_name(const char *s);

/*
 * The path a line item had in the record when the line model reads a kept
 * copy instead (blobs/<sha256> of a codegen unit rustc deleted), else
 * `path` itself. Borrowed.
 */
const char *lk_norm_original(const struct lk_record *rec, const char *path);

/* The last path component of `path` (borrowed). */
const char *lk_norm_base(const char *path);

#endif
