# A real cargo build of testdata/cargo-group through the shim: rustc appends
# the build script's --start-group block after its own -lc; the record must
# say so, from rustc's own command line, and keep rustc's symbols.o.
. "$(dirname "$0")/lib.sh"

CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
check "cargo is installed" test -x "$CARGO"
cp -r "$ROOT/testdata/cargo-group" crate
export CARGO_TARGET_DIR=$T/target
RUSTFLAGS="-Clinker=$SHIM" run_capture cargo "$CARGO" build --offline -q --manifest-path crate/Cargo.toml
check_eq "cargo build through the shim succeeds" 0 "$(cat "$T/cargo.rc")"
check_eq "the program runs" 42 "$("$T/target/debug/cargo-group" 2>&1)"
check_eq "two links recorded (build script, binary)" 2 "$(record_count)"
check "both records validate" validate "$LINKSCOPE_DIR"/*.json

r=$(grep -l '"output": ".*/deps/cargo_group-' "$LINKSCOPE_DIR"/*.json | head -n 1)
check "found the binary's record" test -n "$r"
check_eq "caller is rustc" "rustc" "$(rec "$r" 'r["caller"]["kind"]')"
check_eq "provenance read from rustc's command line" "rustc-cmdline" "$(rec "$r" 'r["provenance"]["method"]')"
check_eq "the appended link args, from the build script" \
	"['-L$T/target/debug/build/OUT', '-Wl,--start-group', '-l:libpart.a', '-l:libanswer.a', '-Wl,--end-group']" \
	"$(rec "$r" 'str(r["caller"]["link_args"]).replace(r["caller"]["link_args"][0][2:], "'"$T"'/target/debug/build/OUT")')"
check_eq "they are the last five arguments" "True" \
	"$(rec "$r" 'r["provenance"]["link_args"]["end"] == len(r["argv_expanded"]) and r["provenance"]["link_args"]["end"] - r["provenance"]["link_args"]["start"] == 5')"
check_eq "marked link-arg" "['link-arg', 'link-arg', 'link-arg', 'link-arg', 'link-arg']" \
	"$(rec "$r" 'r["provenance"]["args"][r["provenance"]["link_args"]["start"]:]')"
check_eq "exactly one -lc, rustc's own" "['-lc'] ['rustc-native-lib']" \
	"$(rec "$r" '"%s %s" % ([r["argv_expanded"][i] for i in r["line"]["lc"]], [r["provenance"]["args"][i] for i in r["line"]["lc"]])')"
check_eq "rustc's -lc comes before the appended group" "True" \
	"$(rec "$r" 'r["line"]["lc"][-1] < r["line"]["groups"][0]["start"]')"
check_eq "the group holds the two archives" "['-l:libpart.a', '-l:libanswer.a']" \
	"$(rec "$r" '[c["text"] for c in r["line"]["groups"][0]["contents"]]')"
check_eq "the group is closed, at the last argument" "True" \
	"$(rec "$r" 'r["line"]["groups"][0]["end"] == len(r["argv_expanded"]) - 1')"
check_eq "rlibs are marked" "True" \
	"$(rec "$r" 'all(p == "rustc-rlib" for a, p in zip(r["argv_expanded"], r["provenance"]["args"]) if a.endswith(".rlib"))')"
check_eq "target triple from rustc's sysroot" "$(rustc -vV | sed -n 's/^host: //p')" "$(rec "$r" 'r["target"]["triple"]')"

symbols=$(rec "$r" '[k for k in r["kept"] if k["path"].endswith("/symbols.o")][0]["blob"]')
check "symbols.o from rustc's temporary dir was kept" test -f "$LINKSCOPE_DIR/$symbols"
check_eq "rustc deleted the original" "False" \
	"$(rec "$r" '__import__("os").path.exists([k for k in r["kept"] if k["path"].endswith("/symbols.o")][0]["path"])')"
check_eq "the kept copy matches its hash" "$(basename "$symbols")" "$(sha256sum "$LINKSCOPE_DIR/$symbols" | cut -d' ' -f1)"

# rustc 1.95 on x86_64 links with its bundled rust-lld; the record says so as a fact.
check_eq "linker flavor from -fuse-ld" "lld" "$(rec "$r" 'r["linker"]["flavor"]')"
check_contains "the ld.lld in rustc's -B dir" "$(rec "$r" 'r["linker"]["program"]')" "/gcc-ld/ld.lld"

# Opt-in: ask lld for its own reproducer next to the record.
touch crate/src/main.rs
LINKSCOPE_REPRODUCE=1 RUSTFLAGS="-Clinker=$SHIM" "$CARGO" build --offline -q --manifest-path crate/Cargo.toml
r=$(last_record)
repro=$(rec "$r" 'r["reproducer"]')
check_eq "LINKSCOPE_REPRODUCE=1: the reproducer sits next to the record" "${r%.json}.repro.tar" "$repro"
check_contains "and it is lld's tar with its response file" "$(tar tf "$repro" 2>/dev/null | head -n 3)" "response.txt"
finish
