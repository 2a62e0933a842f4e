#!/usr/bin/env bash
# make bench, part 2: `linkscope show` on a real line of 160+ archives: a
# C++ program linked against every static component library of Debian's
# llvm-14-dev (llvm-config --libs all, less Polly, which the package does not
# ship). Target (issue #3): well under a second. Median of 7 runs, and the
# peak memory of one.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
llvm_config=$(command -v llvm-config-14 || true)
if [ -z "$llvm_config" ]; then
	echo "show bench: llvm-config-14 not found (scripts/install-deps.sh bench installs llvm-14-dev)"
	exit 1
fi

t=$(mktemp -d /tmp/lk-bench-show.XXXXXX)
trap 'rm -rf "$t"' EXIT
cd "$t"
cat >main.cpp <<'CPP'
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
int main() { llvm::LLVMContext ctx; llvm::Module m("bench", ctx); llvm::outs() << m.getName() << "\n"; return 0; }
CPP
g++ -c $("$llvm_config" --cxxflags) main.cpp -o main.o
libs=$("$llvm_config" --link-static --libs all | tr ' ' '\n' | grep -v Polly | xargs)
export LINKSCOPE_DIR=$t/records
LINKSCOPE_EXPAND=always "$build/bin/linkscope-cc" -- g++ main.o $("$llvm_config" --ldflags) $libs \
	$("$llvm_config" --link-static --system-libs) -o app
./app >/dev/null
archives=$("$build/bin/linkscope" show --json last | /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(1 for i in d["items"] if i.get("file_kind") == "archive"))' 2>/dev/null || echo "?")
times=()
for _ in 1 2 3 4 5 6 7; do
	s=$(date +%s%N)
	"$build/bin/linkscope" show last >/dev/null
	e=$(date +%s%N)
	times+=($(( (e - s) / 1000 )))
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 4p)
rss=$( { /usr/bin/time -f '%M' "$build/bin/linkscope" show last >/dev/null; } 2>&1 | tail -n 1)
echo "== linkscope show on a line of $archives archives (llvm-14 static components): median $((median / 1000)).$(printf '%03d' $((median % 1000))) ms over 7 runs, peak RSS ${rss} KiB"
