/*
 * A cargo build script's output file (`<target>/<profile>/build/<pkg>-<hash>/output`):
 * the directives in it that decide a link. cargo reads `cargo:KEY=VALUE`
 * and, since 1.77, `cargo::KEY=VALUE` (src/cargo/core/compiler/custom_build.rs,
 * BuildOutput::parse); the shim keeps them with a rustc link's record, and
 * `linkscope whatif` reads the new tree's after `cargo check`.
 */
#ifndef LINKSCOPE_CARGO_OUTPUT_H
#define LINKSCOPE_CARGO_OUTPUT_H

#include <stddef.h>

#include "linkscope/strvec.h"

/* An output file larger than this is not read (cargo's own are a few KiB). */
#define LK_CARGO_OUTPUT_MAX ((size_t)4 << 20)

/*
 * One directive: "rustc-link-arg", "rustc-link-arg-bins", "rustc-link-arg-bin"
 * (value "BIN=ARG"), "rustc-link-arg-tests", "-examples", "-benches",
 * "rustc-cdylib-link-arg", "rustc-link-lib", "rustc-link-search",
 * "rustc-flags". `line` is "KEY=VALUE" as the shim keeps it (the "cargo:" or
 * "cargo::" prefix gone); `key` and `value` point into it.
 */
struct lk_cargo_directive {
	const char *key;
	size_t key_len;
	const char *value;
};

/* Split a kept directive line; 0, or -1 for a line that is not "KEY=VALUE". */
int lk_cargo_directive_split(const char *line, struct lk_cargo_directive *d);
/* Is `d` of key `key`? */
int lk_cargo_directive_is(const struct lk_cargo_directive *d, const char *key);

/*
 * The link directives of the output file at `path`, in order, as
 * "KEY=VALUE" lines appended to `out`. 0, or -1 with errno (a file that is
 * missing, not regular, or over LK_CARGO_OUTPUT_MAX).
 */
int lk_cargo_output_read(const char *path, struct lk_strvec *out);

/*
 * The output file of the build script whose OUT_DIR is `out_dir` (cargo
 * sets OUT_DIR for rustc when the package has a build script): the
 * `output` beside it, malloc'd, or NULL when `out_dir` does not end in "/out".
 */
char *lk_cargo_output_of_out_dir(const char *out_dir);

#endif
