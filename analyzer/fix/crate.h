/*
 * The Rust crate an input of a rustc line comes from, told by its path
 * alone (cargo's target dir layout, nothing of cargo run): shared by the
 * fix stage (provider_fixes.c: a build-script line is the fix) and where/
 * (cargo.c: whose build script prints it).
 */
#ifndef ANALYZER_FIX_CRATE_H
#define ANALYZER_FIX_CRATE_H

/*
 * The crate of `path`, owned, or NULL: an rlib `libfoo_sys-HASH.rlib` ->
 * foo_sys; a codegen unit `foo-HASH.cgu.rcgu.o` -> foo; a library a build
 * script made in its OUT_DIR, `.../build/PKG-HASH/out/.../libx.a` -> PKG,
 * the package whose build.rs compiled it (with or without `links =`;
 * cargo names the dir by the package, dashes kept). Crate and package
 * names differ only by '-' vs '_' (lk_crate_same).
 */
char *lk_crate_of_path(const char *path);

/* Is `path` a library a build script made in its OUT_DIR (`.../build/PKG-HASH/out/...`)? */
int lk_crate_out_dir(const char *path);

/* "foo-sys" and "foo_sys" are one crate name. */
int lk_crate_same(const char *a, const char *b);

#endif
