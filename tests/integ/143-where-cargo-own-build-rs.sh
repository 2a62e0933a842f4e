# Where a Rust user makes the fix when the C code is the bin crate's own
# (issue #34, Where): a package with no `links =` whose build.rs compiles C
# with the cc crate (Debian's, /usr/share/cargo/registry, offline) and
# forgets the library that C calls. The OUT_DIR archive on the line
# (TARGET/debug/build/PKG-HASH/out/libNAME.a) names the package; the first
# fix is the cargo: line in THAT package's build.rs, after the cc crate's
# compile; applied as said, the real cargo links and the program runs.
. "$(dirname "$0")/lib.sh"

CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
CC_CRATE=$(ls -d /usr/share/cargo/registry/cc-1.* 2>/dev/null | head -n 1)
if [ -z "$CC_CRATE" ] || [ ! -x "$CARGO" ]; then
	ok "# SKIP no cargo, or no cc crate in /usr/share/cargo/registry (librust-cc-dev)"
	finish
fi

field() {
	"$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); d=r["diagnostics"]; v=eval(sys.argv[2]); print(v)' "$1" "$2"
}

# A workspace of one bin package, zapp: build.rs compiles csrc/bound.c (it
# calls zlib's compressBound) with cc::Build, and never says -lz.
mkdir -p ws/.cargo ws/zapp/src ws/zapp/csrc
cat >ws/.cargo/config.toml <<'EOF'
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
EOF
cat >ws/Cargo.toml <<'EOF'
[workspace]
members = ["zapp"]
resolver = "2"
EOF
cat >ws/zapp/Cargo.toml <<'EOF'
[package]
name = "zapp"
version = "0.1.0"
edition = "2021"
[build-dependencies]
cc = "1"
EOF
cat >ws/zapp/csrc/bound.c <<'EOF'
#include <zlib.h>
unsigned long zapp_bound(unsigned long n) { return compressBound(n); }
EOF
cat >ws/zapp/build.rs <<'EOF'
fn main() {
    cc::Build::new()
        .file("csrc/bound.c")
        .compile("zbound");
    println!("cargo:rerun-if-changed=csrc/bound.c");
}
EOF
cat >ws/zapp/src/main.rs <<'EOF'
extern "C" { fn zapp_bound(n: std::os::raw::c_ulong) -> std::os::raw::c_ulong; }
fn main() { println!("{}", unsafe { zapp_bound(100) }); }
EOF
# cargo reads .cargo/config.toml from the dir it runs in: the workspace's.
build() { (cd ws && RUSTFLAGS="-Clinker=$SHIM" CARGO_TARGET_DIR=$T/target "$CARGO" build --offline -q) >"$T/cargo.out" 2>&1; }

build
check "missing -lz: cargo's link fails on compressBound" grep -q "compressBound" "$T/cargo.out"
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "missing -lz: one diagnostic, undefined compressBound" "undefined-symbol compressBound" \
	"$(field "$json" "' '.join([d[0]['kind'], d[0]['symbol']])")"
first='d[0]["fixes"][0]'
check_eq "missing -lz: the first fix is the build-script line, verified by the replay" \
	"cargo:rustc-link-lib=z True" "$(field "$json" "' '.join(map(str, $first['build_script'] + [$first['verified']]))")"
check_eq "missing -lz: it is made in zapp's own build.rs (no links =), not elsewhere" \
	"cargo zapp $T/ws/zapp/build.rs" \
	"$(field "$json" "' '.join([$first['where'][k] for k in ('system', 'crate', 'file')])")"
check_eq "missing -lz: the line to print, after the cc crate's compile (line 4)" "cargo:rustc-link-lib=z 4" \
	"$(field "$json" "' '.join(map(str, [$first['where'][k] for k in ('text', 'line')]))")"
text=$("$LINKSCOPE" explain last-failed)
check_contains "missing -lz: the fix names the package whose build script made the archive" "$text" \
	'the C code the build script of the package zapp compiled (libzbound.a, in its OUT_DIR) references it: that build script should print "cargo:rustc-link-lib=z"'
check_contains "missing -lz: the where says the cc crate's compile" "$text" \
	"where: in the build script of the crate zapp ($T/ws/zapp/build.rs), print \"cargo:rustc-link-lib=z\" after line 4, the cc crate's compile"

# Applied as it says; the real cargo builds and the program runs.
line=$(field "$json" "$first['where']['line']")
sed -i "${line}a\\    println!(\"$(field "$json" "$first['where']['text']")\");" ws/zapp/build.rs
build
check "missing -lz: with zapp's build.rs edited, cargo links" test -x "$T/target/debug/zapp"
check_eq "missing -lz: the program runs (compressBound(100))" 113 "$("$T/target/debug/zapp")"
check_eq "missing -lz: and the last link succeeded" 0 "$(rec "$(last_record)" 'r["result"]["exit_status"]')"

# A bin package whose build.rs compiles C itself (cc, ar) and puts the
# archive on the line with cargo:rustc-link-arg: rustc writes link-args
# after every -l, so the fix is a link-arg after that one (a rustc-link-lib
# line would come before the archive: GNU ld would still fail).
mkdir -p ws/zarg/src ws/zarg/csrc
sed -i 's/members = \["zapp"\]/members = ["zapp", "zarg"]/' ws/Cargo.toml
printf '[package]\nname = "zarg"\nversion = "0.1.0"\nedition = "2021"\n' >ws/zarg/Cargo.toml
printf '#include <zlib.h>\nunsigned long zarg_bound(unsigned long n) { return compressBound(n); }\n' >ws/zarg/csrc/bound.c
cat >ws/zarg/build.rs <<'EOF'
use std::env;
use std::path::Path;
use std::process::Command;

fn main() {
    let out = env::var("OUT_DIR").unwrap();
    let out = Path::new(&out);
    let obj = out.join("bound.o");
    assert!(Command::new("cc").args(["-c", "-fPIC", "csrc/bound.c", "-o"]).arg(&obj).status().unwrap().success());
    assert!(Command::new("ar").arg("rcs").arg(out.join("libzarg.a")).arg(&obj).status().unwrap().success());
    println!("cargo:rustc-link-arg={}", out.join("libzarg.a").display());
}
EOF
printf 'extern "C" { fn zarg_bound(n: std::os::raw::c_ulong) -> std::os::raw::c_ulong; }\nfn main() { std::process::exit(if unsafe { zarg_bound(1) } > 0 { 0 } else { 1 }); }\n' >ws/zarg/src/main.rs
gbuild() { (cd ws && RUSTFLAGS="-Clinker=$SHIM -Clinker-features=-lld" CARGO_TARGET_DIR=$T/gt "$CARGO" build --offline -q -p zarg) >"$T/cargo.out" 2>&1; }
gbuild
check "link-arg archive, GNU ld: cargo's link fails on compressBound" grep -q "compressBound" "$T/cargo.out"
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "link-arg archive: zarg's build.rs, a link-arg after the one that gives the archive (line 11)" \
	"cargo zarg $T/ws/zarg/build.rs 11 cargo:rustc-link-arg=-lz" \
	"$(field "$json" "' '.join(map(str, [$first['where'][k] for k in ('system', 'crate', 'file', 'line', 'text')]))")"
sed -i "11a\\    println!(\"$(field "$json" "$first['where']['text']")\");" ws/zarg/build.rs
gbuild
check_eq "link-arg archive: with zarg's build.rs edited, GNU ld links" 0 "$?"
check "link-arg archive: the program runs" "$T/gt/debug/zarg"

# A C link of that cargo-built archive is not a cargo fix: no crate, no cargo: line.
cat >m.c <<'EOF'
unsigned long zapp_bound(unsigned long n);
int main(void) { return (int)zapp_bound(1) == 0; }
EOF
cc -c m.c -o m.o
"$SHIM" m.o "$(ls "$T"/target/debug/build/zapp-*/out/libzbound.a | head -n 1)" -o m 2>/dev/null
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "a C link of the OUT_DIR archive: the fix is -lz on its line, no build-script line" "-lz []" \
	"$(field "$json" "' '.join(map(str, [$first['args'][0], $first['build_script']]))")"

finish
