# report --failed says for a rust-lld failure what `explain` says (issue #43,
# point 1): build.rs's -Wl,--start-group of -l: archives loses
# -l:libflb.a; rustc links with rust-lld. explain gives undefined-symbol, a
# verified fix and the build.rs line; the summary (JSON, GitHub annotation)
# must carry the same kind, fix and where, not lld's bare reason.
. "$(dirname "$0")/lib.sh"

CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
if [ ! -x "$CARGO" ]; then
	ok "# SKIP no cargo"
	finish
fi
mkdir -p c crate/src
printf 'int flb_verify(int x);\nint fla_run(int x) { return flb_verify(x) + 1; }\n' >c/a.c
printf 'int flb_verify(int x) { return x * 2; }\n' >c/b.c
(cd c && cc -c a.c b.c && ar rcs libfla.a a.o && ar rcs libflb.a b.o)
cat >crate/Cargo.toml <<'EOF'
[package]
name = "grp"
version = "0.1.0"
edition = "2021"
EOF
cat >crate/build.rs <<EOF
fn main() {
    println!("cargo:rustc-link-search=native=$T/c");
    println!("cargo:rustc-link-arg=-Wl,--start-group");
    println!("cargo:rustc-link-arg=-l:libfla.a");
    println!("cargo:rustc-link-arg=-Wl,--end-group");
}
EOF
printf 'extern "C" { fn fla_run(x: i32) -> i32; }\nfn main() { println!("{}", unsafe { fla_run(2) }); }\n' >crate/src/main.rs
(cd crate && RUSTFLAGS="-Clinker=$SHIM" CARGO_TARGET_DIR=$T/target "$CARGO" build --offline -q) >cargo.out 2>&1
check "the link fails" grep -q flb_verify cargo.out
ex=$("$LINKSCOPE" explain last)
echo "$ex" >explain.out
check_contains "explain: undefined-symbol" "$ex" "undefined-symbol: flb_verify"
check_contains "explain: a verified fix" "$ex" "fix (verified by replay)"
check_contains "explain: the build.rs line" "$ex" "build.rs"
js=$("$LINKSCOPE" report --failed --format json)
echo "$js" >summary.json
get() { "$PY" -c 'import json,sys; c=json.load(sys.stdin)["causes"][0]; print(eval(sys.argv[1]))' "$1" <<<"$js"; }
check_eq "summary: the kind explain says" "undefined-symbol" "$(get 'c["kind"]')"
check_eq "summary: the symbol" "flb_verify" "$(get 'c["symbol"]')"
check_eq "summary: the fix verified, as explain's" "True" "$(get 'any(f["verified"] for f in c["fixes"])')"
check_eq "summary: the fix's where is build.rs" "build.rs" "$(get 'next(f for f in c["fixes"] if f["verified"])["where"]["file"].rsplit("/",1)[-1]')"
check_eq "summary: referenced_by said" "True" "$(get 'c["referenced_by"] is not None and "libfla.a" in c["referenced_by"]')"
gh=$(GITHUB_WORKSPACE=$T/crate "$LINKSCOPE" report --failed --format github)
echo "$gh" >gh.out
check_contains "annotation: on build.rs" "$gh" "::error file=build.rs,line="
check_contains "annotation: carries the verified fix" "$gh" "Fix (verified by replay):"
finish
