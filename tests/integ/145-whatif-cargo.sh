# whatif --cargo (issue #31): a workspace shaped like the case (the bin's
# own build.rs compiles two C archives and appends them in a --start-group
# after rustc's -lc). The baseline is a real good link through the shim;
# then each edit of the build script or the C code: `cargo check`,
# `linkscope whatif`, then the real `cargo build` of the edited tree. Every
# prediction must equal the real outcome (or be "cannot tell" with its
# reason), under rust-lld and, for the edits where the order matters, GNU ld.
# passes: plain (cargo builds are its cost: 90 s a pass; 172's elsewhere pass
# holds whatif's RUSTFLAGS from another directory; fuzz_whatif_sources reads
# cargo's output under the sanitizers; make check-full runs every pass)
. "$(dirname "$0")/lib.sh"

CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
export CARGO_TARGET_DIR=$T/target
cp -r "$ROOT/testdata/cargo-group" crate
cp crate/build.rs build.rs.orig
cp crate/csrc/answer.c answer.c.orig
cp -p crate/src/main.rs main.rs.orig

# The edits, each a few lines of shell on crate/ (restored before each).
edit() {
	case $1 in
	drop-archive) sed -i 's|^    println!("cargo:rustc-link-arg{which}=-l:{answer}");|    let _ = answer;|' crate/build.rs ;;
	out-of-group) # part before the group, answer alone in it: GNU ld reads part when nothing needs it yet
		sed -i 's|^    println!("cargo:rustc-link-arg{which}=-Wl,--start-group");|    println!("cargo:rustc-link-arg{which}=-l:libpart.a");\n    println!("cargo:rustc-link-arg{which}=-Wl,--start-group");|; 0,/-l:libpart.a"/!{/^    println!("cargo:rustc-link-arg{which}=-l:libpart.a");$/d}' crate/build.rs ;;
	new-dep) # a new C file in a new archive, called from answer.c, added to the group
		printf 'int lk_extra(void) { return 0; }\n' >crate/csrc/extra.c
		sed -i 's|return lk_answer_part() \* 2;|return lk_answer_part() * 2 + lk_extra();|; s|^int lk_answer_part(void);|int lk_answer_part(void);\nint lk_extra(void);|' crate/csrc/answer.c
		sed -i 's|^    archive(out, "answer", answer);|    archive(out, "answer", answer);\n    archive(out, "extra", "csrc/extra.c");|; s|^    println!("cargo:rustc-link-arg{which}=-Wl,--end-group");|    println!("cargo:rustc-link-arg{which}=-l:libextra.a");\n    println!("cargo:rustc-link-arg{which}=-Wl,--end-group");|' crate/build.rs ;;
	new-undefined) sed -i 's|return lk_answer_part() \* 2;|return lk_answer_part() * 2 + lk_not_defined_anywhere();|; s|^int lk_answer_part(void);|int lk_answer_part(void);\nint lk_not_defined_anywhere(void);|' crate/csrc/answer.c ;;
	as-needed) # zlib from answer.c; -lz under --as-needed before the group that needs it
		sed -i 's|^int lk_answer_part(void);|#include <zlib.h>\nint lk_answer_part(void);|; s|return lk_answer_part() \* 2;|return lk_answer_part() * 2 + (zlibVersion()[0] == 0);|' crate/csrc/answer.c
		sed -i 's|^    println!("cargo:rustc-link-arg{which}=-Wl,--start-group");|    println!("cargo:rustc-link-arg{which}=-Wl,--as-needed");\n    println!("cargo:rustc-link-arg{which}=-lz");\n    println!("cargo:rustc-link-arg{which}=-Wl,--start-group");|' crate/build.rs ;;
	rename-lib) sed -i 's|archive(out, "answer", answer);|archive(out, "answer_c", answer);|; s|group(out, "", "libanswer.a");|group(out, "", "libanswer_c.a");|' crate/build.rs ;;
	refused-option) sed -i 's|^    println!("cargo:rustc-link-arg{which}=-Wl,--end-group");|    println!("cargo:rustc-link-arg{which}=-Wl,--end-group");\n    println!("cargo:rustc-link-arg{which}=-Wl,--no-such-linker-option");|' crate/build.rs ;;
	missing-lib) sed -i 's|^fn main() {|fn main() {\n    println!("cargo:rustc-link-lib=dylib=lk_not_on_this_system");|' crate/build.rs ;;
	rust-extern) sed -i 's|    fn lk_answer() -> i32;|    fn lk_answer() -> i32;\n    fn lk_rust_side_new() -> i32;|; s|unsafe { lk_answer() }|unsafe { lk_answer() + lk_rust_side_new() }|' crate/src/main.rs ;;
	esac
}

restore() {
	cp build.rs.orig crate/build.rs
	cp answer.c.orig crate/csrc/answer.c
	cp -p main.rs.orig crate/src/main.rs	# its time too: whatif names Rust sources newer than the baseline
	rm -f crate/csrc/extra.c
}

# One edit under one linker: check, predict, build, compare.
try_edit() {
	local linker=$1 name=$2 flags=$3 base=$4 want_equal=${5:-1}
	local predicted real
	restore
	edit "$name"
	"$CARGO" check --offline -q --manifest-path crate/Cargo.toml >check.out 2>&1
	"$LINKSCOPE" whatif "$base" --cargo "$CARGO_TARGET_DIR" >"whatif-$linker-$name.out" 2>&1
	predicted=$?
	RUSTFLAGS="$flags" "$CARGO" build --offline -q --manifest-path crate/Cargo.toml >"build-$linker-$name.out" 2>&1
	real=$?
	[ "$real" -ne 0 ] && real=1
	echo "$linker $name $predicted $real" >>outcomes
	if [ "$want_equal" = 1 ]; then
		if [ "$predicted" = 3 ]; then
			check "$linker, $name: cannot tell, with its reason" grep -q "cannot tell, because" "whatif-$linker-$name.out"
		else
			check_eq "$linker, $name: whatif's exit status is the real link's outcome" "$real" "$predicted"
		fi
	fi
}

baseline() {
	local flags=$1
	restore
	RUSTFLAGS="$flags" "$CARGO" build --offline -q --manifest-path crate/Cargo.toml >base.out 2>&1 || cat base.out
	grep -l '"output": ".*/deps/cargo_group-' "$LINKSCOPE_DIR"/*.json | sort | tail -n 1
}

LLD_FLAGS="-Clinker=$SHIM"
BFD_FLAGS="-Clinker=$SHIM -Clinker-features=-lld"

base=$(baseline "$LLD_FLAGS")
check "the baseline is a real good link through the shim (rust-lld)" test -n "$base"
check_eq "its record keeps the build script's link directives" "5" \
	"$(rec "$base" 'len([d for d in r["caller"]["build_script"]["directives"] if d.startswith("rustc-link-arg=")])')"

# Nothing changed: the line is the baseline's.
"$CARGO" check --offline -q --manifest-path crate/Cargo.toml >/dev/null 2>&1
"$LINKSCOPE" whatif "$base" --cargo "$CARGO_TARGET_DIR" >same.out 2>&1
check_eq "no edit: predicted to link" 0 "$?"
check_contains "no edit: no difference in the arguments" "$(cat same.out)" "no difference in the arguments"
"$LINKSCOPE" whatif "$base" --cargo "$CARGO_TARGET_DIR" --format json >same.json 2>&1
check_eq "json: schema and outcome" "linkscope-whatif/1 success 0" \
	"$(rec same.json 'r["schema"] + " " + r["predicted"]["outcome"] + " " + str(r["predicted"]["exit_status"])')"
check "json: validates against docs/whatif.schema.json" "$PY" "$ROOT/tests/validate-record.py" "$ROOT/docs/whatif.schema.json" same.json

for e in drop-archive out-of-group new-dep new-undefined as-needed rename-lib refused-option missing-lib; do
	try_edit lld "$e" "$LLD_FLAGS" "$base"
done
check_contains "drop-archive: the undefined symbol named" "$(cat whatif-lld-drop-archive.out)" "undefined-symbol: lk_answer"
check_contains "drop-archive: the difference that decides, by meaning" "$(cat whatif-lld-drop-archive.out)" "removing -l:libanswer.a"
check_contains "drop-archive: the fix in the build script" "$(cat whatif-lld-drop-archive.out)" "build.rs"
# The edited tree is missing-lib's now: its Markdown and GitHub forms.
"$LINKSCOPE" whatif "$base" --cargo "$CARGO_TARGET_DIR" --format markdown >missing.md
check_eq "markdown: exit 1 too" 1 "$?"
check_contains "markdown: its heading" "$(head -n 1 missing.md)" "## linkscope whatif: the next link of"
rendered=$(cmark-gfm missing.md 2>/dev/null | "$PY" -c 'import html,re,sys; print(html.unescape(re.sub(r"<[^>]*>", "", sys.stdin.read())))')
check_contains "markdown: rendered by cmark-gfm, the library's name intact" "$rendered" "lk_not_on_this_system"
GITHUB_WORKSPACE=$T/crate "$LINKSCOPE" whatif "$base" --cargo "$CARGO_TARGET_DIR" --format github >missing.gh
check_eq "github: exit 1 too" 1 "$?"
check_contains "github: an ::error annotation" "$(cat missing.gh)" "::error "
check_contains "github: naming the library the system lacks" "$(cat missing.gh)" "cannot find -llk_not_on_this_system"
check_contains "missing-lib: the library rustc-link-lib names" "$(cat whatif-lld-missing-lib.out)" "lk_not_on_this_system"

# A Rust-side edit: not seen, and said so.
try_edit lld rust-extern "$LLD_FLAGS" "$base" 0
check_contains "rust-extern: the report says the Rust objects are the baseline's" \
	"$(cat whatif-lld-rust-extern.out)" "the Rust code's objects and rlibs are the baseline's"
check_contains "rust-extern: and names the Rust source changed since it" \
	"$(cat whatif-lld-rust-extern.out)" "Rust sources of the crate changed since the baseline (src/main.rs)"
check_eq "the C edits name no Rust source" "" "$(grep -l 'Rust sources of the crate changed' whatif-lld-drop-archive.out whatif-lld-new-dep.out)"

# GNU ld: the edits whose outcome depends on the order.
base=$(baseline "$BFD_FLAGS")
check_eq "the GNU ld baseline is GNU ld's" "bfd" "$(rec "$base" 'r["linker"]["flavor"]')"
for e in drop-archive out-of-group as-needed refused-option; do
	try_edit bfd "$e" "$BFD_FLAGS" "$base"
done
check_contains "out-of-group under GNU ld: predicted to fail" "$(cat whatif-bfd-out-of-group.out)" "fails"

# The table the checks above rest on: both outcomes occur, and each edit's real outcome is its own.
cat outcomes | sed 's/^/# /'
check_eq "edits that really fail, and really link (lld, bfd)" "9 4" \
	"$(awk '$4 == 1 { f++ } $4 == 0 { l++ } END { print f + 0, l + 0 }' outcomes)"
check_eq "predictions equal to the real outcome" "$(grep -vc rust-extern outcomes)" \
	"$(awk '$2 != "rust-extern" && $3 == $4' outcomes | wc -l)"

# BASELINE as the record directory: the newest good link of its one target (build scripts' links are none).
restore
"$CARGO" check --offline -q --manifest-path crate/Cargo.toml >/dev/null 2>&1
"$LINKSCOPE" whatif "$LINKSCOPE_DIR" --cargo "$CARGO_TARGET_DIR" >dir.out 2>&1
check_eq "the record dir as BASELINE: the tree as it was links" 0 "$?"
check_contains "... from the newest good link of cargo_group (GNU ld's)" "$(cat dir.out)" "own linker is bfd"
"$LINKSCOPE" whatif "$LINKSCOPE_DIR" --target no-such-crate --cargo "$CARGO_TARGET_DIR" 2>err.out >/dev/null
check_eq "--target naming no target of the dir: usage" 2 "$?"
check_contains "... said" "$(cat err.out)" "no good link of target no-such-crate"

# --- A -sys crate exports its archive's dir through `links =` (DEP_CSYS_ROOT);
# the bin's own build.rs puts it in a group with a trailing -lc, as the case's root build.rs does.
mkdir -p ws/csys/src ws/csys/csrc ws/app/src
printf '[workspace]\nmembers = ["csys", "app"]\nresolver = "2"\n' >ws/Cargo.toml
printf '[package]\nname = "csys"\nversion = "0.1.0"\nedition = "2021"\nlinks = "csys"\n' >ws/csys/Cargo.toml
printf '' >ws/csys/src/lib.rs
printf 'int csys_half(void) { return 21; }\nint csys_answer(void) { return csys_half() * 2; }\n' >ws/csys/csrc/csys.c
cat >ws/csys/build.rs <<'RS'
use std::{env, path::Path, process::Command};
fn main() {
    let out = env::var("OUT_DIR").unwrap();
    let obj = Path::new(&out).join("csys.o");
    assert!(Command::new("cc").args(["-c", "-fPIC", "csrc/csys.c", "-o"]).arg(&obj).status().unwrap().success());
    assert!(Command::new("ar").arg("rcs").arg(Path::new(&out).join("libcsys.a")).arg(&obj).status().unwrap().success());
    println!("cargo:root={}", out);
    println!("cargo:rerun-if-changed=csrc");
}
RS
printf '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ncsys = { path = "../csys" }\n' >ws/app/Cargo.toml
printf 'extern crate csys;\nextern "C" { fn csys_answer() -> i32; }\nfn main() { println!("{}", unsafe { csys_answer() }); }\n' >ws/app/src/main.rs
cat >ws/app/build.rs <<'RS'
fn main() {
    let root = std::env::var("DEP_CSYS_ROOT").unwrap();
    for a in ["-Wl,--start-group".to_string(), format!("-L{root}"), "-l:libcsys.a".to_string(), "-Wl,--end-group".to_string(), "-lc".to_string()] {
        println!("cargo:rustc-link-arg={a}");
    }
}
RS
cp ws/csys/csrc/csys.c csys.c.orig
cp ws/app/build.rs app-build.rs.orig
export CARGO_TARGET_DIR=$T/ws-target
RUSTFLAGS="$LLD_FLAGS" "$CARGO" build --offline -q --manifest-path ws/Cargo.toml >ws-base.out 2>&1 || cat ws-base.out
wsbase=$(grep -l '"output": ".*/deps/app-' "$LINKSCOPE_DIR"/*.json | sort | tail -n 1)
check "the -sys workspace's good link is recorded" test -n "$wsbase"
ws_edit() {
	local name=$1 predicted real
	cp csys.c.orig ws/csys/csrc/csys.c
	cp app-build.rs.orig ws/app/build.rs
	case $name in
	sys-new-undefined) printf 'int csys_gone(void);\nint csys_half(void) { return 21 + csys_gone(); }\nint csys_answer(void) { return csys_half() * 2; }\n' >ws/csys/csrc/csys.c ;;
	sys-drop-archive) sed -i 's|"-l:libcsys.a".to_string(), ||' ws/app/build.rs ;;
	sys-new-member) printf 'int csys_half(void) { return 20; }\nint csys_answer(void) { return csys_half() * 2 + 2; }\n' >ws/csys/csrc/csys.c ;;
	esac
	"$CARGO" check --offline -q --manifest-path ws/Cargo.toml >/dev/null 2>&1
	"$LINKSCOPE" whatif "$wsbase" --cargo "$CARGO_TARGET_DIR" >"whatif-$name.out" 2>&1
	predicted=$?
	RUSTFLAGS="$LLD_FLAGS" "$CARGO" build --offline -q --manifest-path ws/Cargo.toml >/dev/null 2>&1
	real=$?
	[ "$real" -ne 0 ] && real=1
	check_eq "-sys workspace, $name: whatif's exit status is the real link's outcome" "$real" "$predicted"
	echo "$name $predicted $real" | sed 's/^/# /'
}
ws_edit sys-new-undefined
check_contains "sys-new-undefined: the new reference in the -sys crate's C code named" "$(cat whatif-sys-new-undefined.out)" "csys_gone"
ws_edit sys-drop-archive
ws_edit sys-new-member

# --- A dependency's build script stops linking a library (issue #42 item 1): a path -sys crate
# whose build.rs prints rustc-link-lib=z; -lz reaches the bin's link through mysys's rlib.
mkdir -p zs/mysys/src zs/app/src
printf '[workspace]\nmembers = ["mysys", "app"]\nresolver = "2"\n' >zs/Cargo.toml
printf '[package]\nname = "mysys"\nversion = "0.1.0"\nedition = "2021"\n' >zs/mysys/Cargo.toml
printf 'extern "C" { fn zlibVersion() -> *const u8; }\npub fn first() -> u8 { unsafe { *zlibVersion() } }\n' >zs/mysys/src/lib.rs
printf 'fn main() {\n    println!("cargo:rustc-link-lib=z");\n}\n' >zs/mysys/build.rs
printf '[package]\nname = "zapp"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nmysys = { path = "../mysys" }\n' >zs/app/Cargo.toml
printf 'fn main() { println!("{}", mysys::first()); }\n' >zs/app/src/main.rs
export CARGO_TARGET_DIR=$T/zs-target
RUSTFLAGS="$LLD_FLAGS" "$CARGO" build --offline -q --manifest-path zs/Cargo.toml >zs-base.out 2>&1 || cat zs-base.out
zsbase=$(grep -l '"output": ".*/deps/zapp-' "$LINKSCOPE_DIR"/*.json | sort | tail -n 1)
check "the path -sys crate's good link is recorded" test -n "$zsbase"
"$CARGO" check --offline -q --manifest-path zs/Cargo.toml >/dev/null 2>&1
"$LINKSCOPE" whatif "$zsbase" --cargo "$CARGO_TARGET_DIR" >zs-same.out 2>&1
check_eq "mysys unchanged: predicted to link" 0 "$?"
printf 'fn main() {}\n' >zs/mysys/build.rs
"$CARGO" check --offline -q --manifest-path zs/Cargo.toml >/dev/null 2>&1
"$LINKSCOPE" whatif "$zsbase" --cargo "$CARGO_TARGET_DIR" >zs-drop.out 2>&1
predicted=$?
RUSTFLAGS="$LLD_FLAGS" "$CARGO" build --offline -q --manifest-path zs/Cargo.toml >zs-build.out 2>&1
real=$?
check_eq "mysys's build.rs no longer links z: the real link fails" 1 "$((real != 0))"
# Not yet 3: the record keeps no dependency's script output, so "stopped printing" is not told
# from "never printed" (the -sys workspace above); the prediction says it cannot see it.
echo "# mysys drop-z: predicted $predicted, real $real"
check_contains "... naming mysys's build script" "$(cat zs-drop.out)" "the build script of 'mysys' ran again since the baseline"

# --- RUSTFLAGS and .cargo/config.toml: their link args come before the build script's.
# A baseline linked without RUSTFLAGS (the shim named by CARGO_TARGET_<TRIPLE>_LINKER), so config's rustflags apply.
triple=$(rustc -vV | sed -n 's/^host: //p')
linker_var=CARGO_TARGET_$(tr 'a-z-' 'A-Z_' <<<"$triple")_LINKER
cp -r "$ROOT/testdata/cargo-group" cfgcrate
export CARGO_TARGET_DIR=$T/cfg-target
env "$linker_var=$SHIM" "$CARGO" build --offline -q --manifest-path cfgcrate/Cargo.toml >cfg-base.out 2>&1 || cat cfg-base.out
cfgbase=$(grep -l "\"output\": \"$T/cfg-target/debug/deps/cargo_group-" "$LINKSCOPE_DIR"/*.json | sort | tail -n 1)
check "the config baseline is recorded" test -n "$cfgbase"
mkdir -p cfgcrate/.cargo
printf '[build]\nrustflags = ["-C", "link-arg=-Wl,--no-such-option-from-config"]\n' >cfgcrate/.cargo/config.toml
(cd cfgcrate && "$CARGO" check --offline -q >/dev/null 2>&1)
(cd cfgcrate && "$LINKSCOPE" whatif "$cfgbase" --cargo "$CARGO_TARGET_DIR" >"$T/cfg-config.out" 2>&1)
predicted=$?
(cd cfgcrate && env "$linker_var=$SHIM" "$CARGO" build --offline -q >/dev/null 2>&1)
real=$?; [ "$real" -ne 0 ] && real=1
check_eq "config.toml's build.rustflags link arg: whatif's exit status is the real link's" "$real" "$predicted"
check_contains "... the option named" "$(cat cfg-config.out)" "no-such-option-from-config"
rm -r cfgcrate/.cargo
(cd cfgcrate && RUSTFLAGS="-C link-arg=-Wl,--no-such-option-from-env" "$CARGO" check --offline -q >/dev/null 2>&1)
(cd cfgcrate && RUSTFLAGS="-C link-arg=-Wl,--no-such-option-from-env" "$LINKSCOPE" whatif "$cfgbase" --cargo "$CARGO_TARGET_DIR" >"$T/cfg-env.out" 2>&1)
predicted=$?
(cd cfgcrate && RUSTFLAGS="-C link-arg=-Wl,--no-such-option-from-env" env "$linker_var=$SHIM" "$CARGO" build --offline -q >/dev/null 2>&1)
real=$?; [ "$real" -ne 0 ] && real=1
check_eq "RUSTFLAGS' link arg: whatif's exit status is the real link's" "$real" "$predicted"
check_contains "... the option named" "$(cat cfg-env.out)" "no-such-option-from-env"

# Usage: no source, two sources, a dir without build outputs.
"$LINKSCOPE" whatif "$base" >/dev/null 2>&1
check_eq "no source of the change: usage" 2 "$?"
"$LINKSCOPE" whatif "$base" --cargo "$T/nowhere" 2>err.out >/dev/null
check_eq "a target dir without build outputs: 2" 2 "$?"
check_contains "... said in one line naming it" "$(cat err.out)" "$T/nowhere"
finish
