/* The rustflags cargo would give rustc now (cargo_config.c): environment, then .cargo/config.toml. */
#ifndef ANALYZER_WHATIF_CARGO_CONFIG_H
#define ANALYZER_WHATIF_CARGO_CONFIG_H

#include "linkscope/strvec.h"

/*
 * The rustflags for a cargo run in `cwd` building for `triple` (may be
 * NULL), in order, appended to `flags`; *from says where they came from
 * ("RUSTFLAGS", "build.rustflags in .cargo/config.toml", "no rustflags",
 * ...). 0, or -1 when a `target.'cfg(...)'` table has rustflags: cfg
 * expressions are not evaluated, so what cargo would pass is not known.
 */
int lk_cargo_rustflags(const char *cwd, const char *triple, struct lk_strvec *flags, const char **from);

#endif
