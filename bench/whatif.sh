#!/usr/bin/env bash
# make bench, part 6: `linkscope whatif` against the real link it predicts
# (issue #31: under 1 s for the case's shape and for the LLVM line).
#   1. The case's shape: testdata/cargo-group (the bin's build.rs appends
#      two C archives in a --start-group after rustc's -lc), baseline a
#      real link through the shim; the build script edited to drop an
#      archive; `cargo check`; then, paired (pairtime.c): A = the real
#      link of the edited tree's line (the driver rerun on the line the
#      shim recorded of the real `cargo build`, rustc's objects from their
#      kept copies: the link alone, not rustc), B = whatif --cargo.
#   2. The LLVM line (bench/llvm-line.sh's, 170+ archives): baseline its
#      good g++ link; B = whatif --argv-file of the same line with one
#      archive dropped (the link fails), A = g++'s real link of that line;
#      and whatif of the unchanged line against its real (good) link.
# Medians of PAIRS pairs (WHATIF_PAIRS, 7); both ratios go to the summary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
pairs=${WHATIF_PAIRS:-7}
t=$(mktemp -d /tmp/lk-bench-whatif.XXXXXX)
trap 'rm -rf "$t"' EXIT
export LINKSCOPE_DIR=$t/records XDG_CACHE_HOME=$t/cache CARGO_TARGET_DIR=$t/target
ls=$build/bin/linkscope
cc -O2 -o "$t/pairtime" "$root/bench/pairtime.c"
summary() { [ -z "${BENCH_SUMMARY:-}" ] || sed "s/^   /whatif: /" <<<"$1" >>"$BENCH_SUMMARY"; }
ratio_of() { sed -n 's/.*ratio B\/A \([0-9.]*\).*/\1/p' <<<"$1"; }
median_b() { sed -n 's/.*B median \([0-9.]*\) ms.*/\1/p' <<<"$1"; }

# --- 1. the case's shape
cp -r "$root/testdata/cargo-group" "$t/crate"
cd "$t"
RUSTFLAGS="-Clinker=$build/bin/linkscope-cc" cargo build --offline -q --manifest-path crate/Cargo.toml
base=$(grep -l '"output": ".*/deps/cargo_group-' "$LINKSCOPE_DIR"/*.json | sort | tail -n 1)
sed -i 's|^    println!("cargo:rustc-link-arg{which}=-l:{answer}");|    let _ = answer;|' crate/build.rs
cargo check --offline -q --manifest-path crate/Cargo.toml
RUSTFLAGS="-Clinker=$build/bin/linkscope-cc" cargo build --offline -q --manifest-path crate/Cargo.toml >/dev/null 2>&1 || true
failed=$(grep -l '"output": ".*/deps/cargo_group-' "$LINKSCOPE_DIR"/*.json | sort | tail -n 1)
# The failed link's line, its rustc objects from their kept copies: the link alone.
/usr/bin/python3 - "$failed" >"$t/case-link.sh" <<'PY'
import json, os, shlex, sys
r = json.load(open(sys.argv[1]))
d = os.path.dirname(sys.argv[1])
kept = {k["path"]: os.path.join(d, k["blob"]) for k in r["kept"]}
argv = [kept.get(a, a) if not os.path.exists(a) else a for a in r["argv_expanded"]]
print("cd %s && %s >/dev/null 2>&1; true" % (shlex.quote(r["cwd"]), " ".join(map(shlex.quote, argv))))
PY
"$ls" whatif "$base" --cargo "$CARGO_TARGET_DIR" >"$t/case.out" 2>&1 || true
predicted=$(sed -n '1s/.* \(links\|fails\|cannot tell\)$/\1/p' "$t/case.out")
pair=$("$t/pairtime" "$pairs" -- sh "$t/case-link.sh" -- sh -c '"$0" whatif "$1" --cargo "$2" >/dev/null 2>&1; [ $? -le 1 ]' \
	"$ls" "$base" "$CARGO_TARGET_DIR")
echo "== whatif on the case's shape (cargo-group, an archive dropped from the group; predicted: $predicted), $pairs pairs: A = the real link of that line, B = whatif --cargo"
echo "   $pair"
ratios=$(awk -v r="$(ratio_of "$pair")" -v b="$(median_b "$pair")" \
	'BEGIN { printf "   the case: whatif %.0f ms, %.2fx the real link (target under 1 s: %s)\n", b, r, b < 1000 ? "met" : "NOT met" }')
echo "$ratios"
summary "$ratios"

# --- 2. the LLVM line
llvm_config=$(command -v llvm-config-14 || true)
if [ -z "$llvm_config" ]; then
	echo "whatif bench: llvm-config-14 not found; the LLVM line is left out"
	exit 0
fi
cat >big.cpp <<'CPP'
#include <llvm/Support/TargetSelect.h>
#include <llvm/IR/LLVMContext.h>
int main() { llvm::InitializeAllTargetInfos(); llvm::InitializeAllTargets(); llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters(); llvm::LLVMContext ctx; return 0; }
CPP
g++ -c $("$llvm_config" --cxxflags) big.cpp -o big.o
libs=$("$llvm_config" --link-static --libs all | tr ' ' '\n' | grep -v Polly | xargs)
line=(big.o $("$llvm_config" --ldflags) $libs $("$llvm_config" --link-static --system-libs))
LINKSCOPE_DIR=$t/llvm "$build/bin/linkscope-cc" -- g++ "${line[@]}" -o app
llvm_base=$(ls "$t"/llvm/*.json | head -n 1)
printf '%s\n' g++ "${line[@]}" -o app >same.argv
# One archive the program needs, dropped: libLLVMSupport.a.
printf '%s\n' g++ "${line[@]}" -o app | grep -v -- '-lLLVMSupport$' >dropped.argv
"$ls" whatif "$llvm_base" --argv-file dropped.argv >llvm.out 2>&1 || true
predicted=$(sed -n '1s/.* \(links\|fails\|cannot tell\)$/\1/p' llvm.out)
archives=$(grep -c -- '^-l' same.argv)
pair=$("$t/pairtime" "$pairs" -- sh -c 'g++ $(grep -v "^g++$" dropped.argv | xargs) >/dev/null 2>&1; true' -- \
	sh -c '"$0" whatif "$1" --argv-file dropped.argv >/dev/null 2>&1; [ $? -le 1 ]' "$ls" "$llvm_base")
echo "== whatif on the LLVM line ($archives -l words, libLLVMSupport dropped; predicted: $predicted), $pairs pairs: A = g++'s real link of it, B = whatif --argv-file"
echo "   $pair"
ratios=$(awk -v r="$(ratio_of "$pair")" -v b="$(median_b "$pair")" \
	'BEGIN { printf "   the LLVM line, failing: whatif %.0f ms, %.2fx the real link (target under 1 s: %s)\n", b, r, b < 1000 ? "met" : "NOT met" }')
echo "$ratios"
summary "$ratios"
pair=$("$t/pairtime" "$pairs" -- g++ "${line[@]}" -o app.again -- \
	sh -c '"$0" whatif "$1" --argv-file same.argv >/dev/null 2>&1; [ $? -le 1 ]' "$ls" "$llvm_base")
echo "== whatif on the LLVM line unchanged, $pairs pairs: A = g++'s real link, B = whatif --argv-file"
echo "   $pair"
ratios=$(awk -v r="$(ratio_of "$pair")" -v b="$(median_b "$pair")" \
	'BEGIN { printf "   the LLVM line, unchanged: whatif %.0f ms, %.2fx the real link (target under 1 s: %s)\n", b, r, b < 1000 ? "met" : "NOT met" }')
echo "$ratios"
summary "$ratios"
