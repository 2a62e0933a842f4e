# Where a Rust user makes the fix (issue #18, point 3): in the build script
# of the -sys crate that links the library (the one with `links =`), not in
# the crate that references the symbols, with the exact cargo: line and
# where it goes among the others. Each fix is applied as the report says
# (build.rs edited) and the workspace rebuilt with the real cargo.
. "$(dirname "$0")/lib.sh"

CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")

# field JSON EXPR: a Python expression over r (the report) and d (its diagnostics).
field() {
	"$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); d=r["diagnostics"]; v=eval(sys.argv[2]); print(v)' "$1" "$2"
}

# A workspace: minz-sys (links = "z") declares zlib's functions and bundles a
# helper archive that calls compressBound, but its build script forgets -lz;
# zwrap calls zlibVersion through it; app calls zwrap.
mkdir -p ws/minz-sys/src ws/minz-sys/csrc ws/zwrap/src ws/app/src
cat >ws/Cargo.toml <<'EOF'
[workspace]
members = ["minz-sys", "zwrap", "app"]
resolver = "2"
EOF
cat >ws/minz-sys/Cargo.toml <<'EOF'
[package]
name = "minz-sys"
version = "0.1.0"
edition = "2021"
links = "z"
build = "build.rs"
EOF
cat >ws/minz-sys/csrc/help.c <<'EOF'
#include <zlib.h>
unsigned long minz_bound(unsigned long n) { return compressBound(n); }
EOF
cat >ws/minz-sys/build.rs <<'EOF'
use std::env;
use std::path::Path;
use std::process::Command;

fn main() {
    let out = env::var("OUT_DIR").unwrap();
    let out = Path::new(&out);
    let obj = out.join("help.o");
    assert!(Command::new("cc").args(["-c", "-fPIC", "csrc/help.c", "-o"]).arg(&obj).status().unwrap().success());
    assert!(Command::new("ar").arg("rcs").arg(out.join("libminzhelp.a")).arg(&obj).status().unwrap().success());
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=minzhelp");
    println!("cargo:rerun-if-changed=csrc");
    println!("cargo:rerun-if-changed=build.rs");
}
EOF
cat >ws/minz-sys/src/lib.rs <<'EOF'
use std::os::raw::{c_char, c_ulong};
extern "C" {
    pub fn zlibVersion() -> *const c_char;
    pub fn minz_bound(n: c_ulong) -> c_ulong;
}
EOF
cat >ws/zwrap/Cargo.toml <<'EOF'
[package]
name = "zwrap"
version = "0.1.0"
edition = "2021"
[dependencies]
minz-sys = { path = "../minz-sys" }
EOF
cat >ws/zwrap/src/lib.rs <<'EOF'
pub fn version_len() -> usize {
    unsafe { std::ffi::CStr::from_ptr(minz_sys::zlibVersion()).to_bytes().len() + minz_sys::minz_bound(0) as usize * 0 }
}
EOF
cat >ws/app/Cargo.toml <<'EOF'
[package]
name = "app"
version = "0.1.0"
edition = "2021"
[dependencies]
zwrap = { path = "../zwrap" }
EOF
cat >ws/app/src/main.rs <<'EOF'
fn main() { println!("{}", zwrap::version_len()); }
EOF
build() { RUSTFLAGS="-Clinker=$SHIM" CARGO_TARGET_DIR=$T/target "$CARGO" build --offline -q --manifest-path ws/Cargo.toml >"$T/cargo.out" 2>&1; }

# --- the library forgotten: the -sys crate's build script prints it, after its own link lines ---
build
check "missing -lz: cargo's link fails" grep -q "zlibVersion" "$T/cargo.out"
json=$("$LINKSCOPE" report --format json last-failed)
where='[f["where"] for f in d[0]["fixes"] if f.get("where")][0]'
check_eq "missing -lz: the fix is in the -sys crate's build script, not zwrap's" \
	"cargo minz-sys $T/ws/minz-sys/build.rs" \
	"$(field "$json" "' '.join([$where['system'], $where['crate'], $where['file']])")"
check_eq "missing -lz: the cargo: line to print" "cargo:rustc-link-lib=z" "$(field "$json" "$where['text']")"
check_eq "missing -lz: after the build script's last link line (line 12)" "12" "$(field "$json" "$where['line']")"
text=$("$LINKSCOPE" explain last-failed)
check_contains "missing -lz: the sentence names the -sys crate and its links key" "$text" \
	"where: in the build script of the crate minz-sys ($T/ws/minz-sys/build.rs), print \"cargo:rustc-link-lib=z\" after \"cargo:rustc-link-lib=static=minzhelp\", the last cargo:rustc-link-* line it prints: minz-sys is the crate with links = \"z\""
check_contains "missing -lz: Markdown says it too" "$("$LINKSCOPE" report --format markdown last-failed)" "where: in the build script of the crate minz-sys"

# A Cargo.toml that is not as expected: no where, no crash.
cp ws/minz-sys/Cargo.toml "$T/Cargo.toml.good"
printf 'garbage' >ws/minz-sys/Cargo.toml
out=$("$LINKSCOPE" report --format json last-failed; echo "rc=$?")
check_contains "a broken Cargo.toml: the report is still written" "$out" "rc=0"
case $out in *'"where": {'*) not_ok "a broken Cargo.toml: no where" "${out:0:400}" ;; *) ok "a broken Cargo.toml: no where" ;; esac
cp "$T/Cargo.toml.good" ws/minz-sys/Cargo.toml

# Apply it as it says: the line printed after line 12 of build.rs; the real cargo builds and the program runs.
line=$(field "$json" "$where['line']")
sed -i "${line}a\\    println!(\"$(field "$json" "$where['text']")\");" ws/minz-sys/build.rs
build
check "missing -lz: with the build script edited, cargo links" test -x "$T/target/debug/app"
check "missing -lz: the program runs" "$T/target/debug/app" >/dev/null

# --- a wrong library name: the build script's line changed where it is ---
sed -i 's/cargo:rustc-link-lib=z"/cargo:rustc-link-lib=zlib"/' ws/minz-sys/build.rs
build
check "-lzlib: cargo's link fails" grep -q "zlib" "$T/cargo.out"
json=$("$LINKSCOPE" report --format json last-failed)
where='[f["where"] for x in d if x["kind"] == "input-not-found" for f in x["fixes"] if f.get("where")][0]'
check_eq "-lzlib: the line of minz-sys's build script replaced" \
	"minz-sys cargo:rustc-link-lib=z cargo:rustc-link-lib=zlib 13" \
	"$(field "$json" "' '.join(map(str, [$where['crate'], $where['text'], $where['replaces'], $where['line']]))")"
sed -i "$(field "$json" "$where['line']")s/$(field "$json" "$where['replaces']")\"/$(field "$json" "$where['text']")\"/" ws/minz-sys/build.rs
build
check_eq "-lzlib: with the line replaced, cargo links" 0 "$?"
check_eq "-lzlib: and the last link succeeded" 0 "$(rec "$(last_record)" 'r["result"]["exit_status"]')"

# --- the real case's shape (../shared/background): archives appended in a
# group by cargo:rustc-link-arg after rustc's -lc, GNU ld: the -lc goes in
# the same build script, after the group's end ---
cp -r "$ROOT/testdata/cargo-group" grp
gbuild() { CARGO_GROUP_VARIANT=atexit CARGO_TARGET_DIR=$T/gt RUSTFLAGS="-Clinker=$SHIM -Clinker-features=-lld" \
	LINKSCOPE_EXPAND=always "$CARGO" build --offline -q --manifest-path grp/Cargo.toml >"$T/grp.out" 2>&1; }
gbuild
check "group: GNU ld fails on atexit" grep -q "atexit" "$T/grp.out"
json=$("$LINKSCOPE" report --format json last-failed)
where='[f["where"] for f in d[0]["fixes"] if f.get("where")][0]'
check_eq "group: -lc after the group's end, in the build script that printed it (line 29)" \
	"cargo-group $T/grp/build.rs 29 cargo:rustc-link-arg=-lc" \
	"$(field "$json" "' '.join(map(str, [$where[k] for k in ('crate', 'file', 'line', 'text')]))")"
check_contains "group: the sentence says after which line" "$("$LINKSCOPE" explain last-failed)" \
	'print "cargo:rustc-link-arg=-lc" after "cargo:rustc-link-arg=-Wl,--end-group", which put -Wl,--end-group on the line'
sed -i "$(field "$json" "$where['line']")a\\    println!(\"$(field "$json" "$where['text']")\");" grp/build.rs
gbuild
check_eq "group: with the build script edited, GNU ld links" 0 "$?"

finish
