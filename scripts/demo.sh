#!/usr/bin/env bash
# make demo: the main job on bundled examples.
#  1. The case of ../shared/background with Debian's aarch64 cross toolchain:
#     an archive built with -fstack-protector-all, linked with rustc's argv
#     shape (its native list ending in -lc, then the appended group, with
#     --copy-dt-needed-entries after the -lc). GNU ld fails with "DSO
#     missing from command line"; LINKSCOPE_REPORT=1 makes the shim explain.
#  2. The x86_64 analogue through a real cargo build (testdata/cargo-group,
#     variant atexit): GNU ld fails, rustc's default rust-lld links;
#     linkscope explains both.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
shim=$build/bin/linkscope-cc
linkscope=$build/bin/linkscope
cargo=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")

t=$(mktemp -d /tmp/lk-demo.XXXXXX)
trap 'rm -rf "$t"' EXIT
export LINKSCOPE_DIR=$t/records
cd "$t"

echo "### 1. aarch64: an IREE-like archive appended after rustc's -lc"
read -r -a line <<<"$("$root/testdata/iree-case/build.sh")"
echo "\$ LINKSCOPE_REPORT=1 linkscope-cc -- aarch64-linux-gnu-gcc ${line[*]} -o app"
LINKSCOPE_REPORT=1 "$shim" -- aarch64-linux-gnu-gcc "${line[@]}" -o app
echo "(exit status $?, the linker's own)"
echo
echo "\$ linkscope show last | grep -E '^-lc|^groups|AS_NEEDED\\)'"
"$linkscope" show last | grep -E '^-lc|^groups|AS_NEEDED\)'

echo
echo "### 2. x86_64: a real cargo build, the archive calls atexit"
cp -r "$root/testdata/cargo-group" crate
export CARGO_GROUP_VARIANT=atexit
CARGO_TARGET_DIR=$t/target-bfd RUSTFLAGS="-Clinker=$shim -Clinker-features=-lld" \
	"$cargo" build --offline -q --manifest-path crate/Cargo.toml >/dev/null 2>&1
echo "\$ linkscope explain last-failed      # GNU ld (-Clinker-features=-lld)"
"$linkscope" explain last-failed | grep -v '^note:'
CARGO_TARGET_DIR=$t/target-lld RUSTFLAGS="-Clinker=$shim" \
	"$cargo" build --offline -q --manifest-path crate/Cargo.toml
echo
echo "\$ linkscope explain last             # rustc's default rust-lld"
"$linkscope" explain last | head -n 2
echo
echo "\$ linkscope list"
"$linkscope" list | cut -c1-160
