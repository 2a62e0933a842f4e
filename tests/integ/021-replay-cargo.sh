# The x86_64 analogue through real cargo builds: atexit in libc_nonshared.a
# (brought by libc.so's GROUP at rustc's -lc, before the appended archive
# references it) fails with GNU ld and links with rust-lld; a reference to
# __tls_get_addr links because Rust's std needed the loader first.
# passes: plain elsewhere san (cargo's lines: rustc's sysroot and -L dirs relative to
# the link's directory)
. "$(dirname "$0")/lib.sh"
# Records carry the driver's -### view: the analyzer runs no driver unless asked.
export LINKSCOPE_EXPAND=always

CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
cp -r "$ROOT/testdata/cargo-group" crate
build() { "$CARGO" build --offline -q --manifest-path crate/Cargo.toml 2>/dev/null; }

CARGO_GROUP_VARIANT=atexit CARGO_TARGET_DIR=$T/t1 RUSTFLAGS="-Clinker=$SHIM -Clinker-features=-lld" build
out=$("$LINKSCOPE" explain last-failed)
check_contains "GNU ld fails, and the replay agrees" "$out" "the real linker (bfd) failed (exit 1): the replay agrees"
check_contains "undefined-symbol: atexit" "$out" "undefined-symbol: atexit"
check_contains "referenced by the appended archive's member" "$out" "referenced by member answer.o of $T/t1/debug/build/"
check_contains "ordering: libc_nonshared.a was read at rustc's -lc" "$out" "ordering: /usr/lib/x86_64-linux-gnu/libc_nonshared.a (in -lc's GROUP at 39) defines it, but was read before the reference"
check_contains "fix verified: -lc after the group" "$out" "fix (verified by replay): append -lc after -Wl,--end-group at 56"
check_contains "cross-linker verdict" "$out" "links with lld and mold, fails with GNU ld"

CARGO_GROUP_VARIANT=atexit CARGO_TARGET_DIR=$T/t2 RUSTFLAGS="-Clinker=$SHIM" build
check_eq "with rust-lld the same build links" 0 "$(rec "$(last_record)" 'r["result"]["exit_status"]')"
out=$("$LINKSCOPE" explain last)
check_contains "the replay of lld's rules agrees" "$out" "the real linker (lld) succeeded (exit 0): the replay agrees"
check_contains "and says GNU ld would fail" "$out" "fails under GNU ld's rules"

CARGO_GROUP_VARIANT=tls CARGO_TARGET_DIR=$T/t3 RUSTFLAGS="-Clinker=$SHIM -Clinker-features=-lld" build
check_eq "__tls_get_addr: GNU ld links" 0 "$(rec "$(last_record)" 'r["result"]["exit_status"]')"
check_contains "the replay predicts it" "$("$LINKSCOPE" explain last)" "succeeds under GNU ld's rules; the real linker (bfd) succeeded"
why=$("$LINKSCOPE" why last __tls_get_addr)
check_contains "why: std references it first, before -lc" "$why" "libstd-"
check_contains "why: the appended member references it" "$why" "member answer.o of"
check_contains "why: the loader, at -lc, defines it" "$why" "/lib64/ld-linux-x86-64.so.2 at 39 defines it@@GLIBC_2.3"
finish
