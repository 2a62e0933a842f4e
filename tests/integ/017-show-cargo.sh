# linkscope show on the cargo crate's record: rustc's -lc against the
# appended group, rlibs, the kept symbols.o, and the linker actually used.
. "$(dirname "$0")/lib.sh"

CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
cp -r "$ROOT/testdata/cargo-group" crate
export CARGO_TARGET_DIR=$T/target CARGO_GROUP_VARIANT=atexit
RUSTFLAGS="-Clinker=$SHIM -Clinker-features=-lld" "$CARGO" build --offline -q --manifest-path crate/Cargo.toml 2>/dev/null
check_eq "the GNU ld build failed, as the case says" 1 "$(rec "$(last_record)" 'r["result"]["exit_status"]')"
out=$("$LINKSCOPE" show last-failed)
check_eq "show exits 0" 0 $?
check_contains "the caller is rustc" "$out" "link     rustc -> /usr/bin/cc"
check_contains "GNU ld, x86-64, native" "$out" "emulation elf_x86_64, native"
check_contains "rustc's -lc, and where it is" "$out" "-lc      at 39 (rustc-native-lib)"
check_contains "the appended group, from the build script" "$out" "g0 at 53 (link-arg): -l:libpart.a -l:libanswer.a"
check_contains "the warning for archives appended after rustc's -lc" "$out" "come after rustc's last -lc at 39"
check_contains "symbols.o, deleted by rustc, read from the kept copy" "$out" "gone; read from the copy kept with the record"
check_contains "rlibs are identified" "$out" "rlib"
check_contains "runs of codegen units are folded" "$out" "more objects (--full shows them)"
full=$("$LINKSCOPE" show --full last-failed)
check "--full shows every codegen unit" test "$(grep -c 'rcgu.o' <<<"$full")" -gt "$(grep -c 'rcgu.o' <<<"$out")"

# The default build links with rustc's rust-lld.
touch crate/src/main.rs
RUSTFLAGS="-Clinker=$SHIM" "$CARGO" build --offline -q --manifest-path crate/Cargo.toml
out=$("$LINKSCOPE" show last)
check_contains "with rust-lld: lld is named" "$out" "linker   lld ("
check_contains "lld searches only -L dirs" "$out" "note: the line links with lld, which has no default search dirs"
finish
