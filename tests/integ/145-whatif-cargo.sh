# whatif --cargo (issue #31): a workspace shaped like the case (the bin's
# own build.rs compiles two C archives and appends them in a --start-group
# after rustc's -lc). The baseline is a real good link through the shim;
# then each edit of the build script or the C code: `cargo check`,
# `linkscope whatif`, then the real `cargo build` of the edited tree. Every
# prediction must equal the real outcome (or be "cannot tell" with its
# reason), under rust-lld and, for the edits where the order matters, GNU ld.
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

# Usage: no source, two sources, a dir without build outputs.
"$LINKSCOPE" whatif "$base" >/dev/null 2>&1
check_eq "no source of the change: usage" 2 "$?"
"$LINKSCOPE" whatif "$base" --cargo "$T/nowhere" 2>err.out >/dev/null
check_eq "a target dir without build outputs: 2" 2 "$?"
check_contains "... said in one line naming it" "$(cat err.out)" "$T/nowhere"
finish
