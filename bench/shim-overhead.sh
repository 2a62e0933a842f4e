#!/usr/bin/env bash
# make bench: what linkscope-cc adds to a link, measured with paired runs
# (bench/pairtime.c alternates the two commands and reports medians, their
# ratio and the median of per-pair differences).
#
#   1. a trivial real link, cc main.o -o a.out: direct vs through the shim
#   2. the same link through spawn-floor, a do-nothing static wrapper
#      (posix_spawn + wait): the least any wrapper costs on this machine,
#      vs through the shim: the shim's own work
#   3. a compile, forwarded by exec and never recorded
#
# Target (issue #2): the shim adds at most 2 ms median to the link.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
shim=$build/bin/linkscope-cc
runs=${BENCH_RUNS:-300}

t=$(mktemp -d /tmp/lk-bench.XXXXXX)
trap 'rm -rf "$t"' EXIT
cc -O2 -o "$t/pairtime" "$root/bench/pairtime.c"
cc -O2 -static -o "$t/spawn-floor" "$root/bench/spawn-floor.c"
cd "$t"
printf 'int main(void) { return 0; }\n' >main.c
cc -c main.c -o main.o
export LINKSCOPE_DIR=$t/records

paired_median() { sed -n 's/.*paired B-A median \([0-9.-]*\) ms.*/\1/p' <<<"$1"; }

echo "== 1. trivial link: A = cc main.o -o a.out, B = linkscope-cc main.o -o b.out"
total=$("$t/pairtime" "$runs" -- cc main.o -o a.out -- "$shim" main.o -o b.out)
echo "   $total"
echo "== 2. A = spawn-floor cc main.o -o a.out (any wrapper's floor), B = linkscope-cc"
own=$("$t/pairtime" "$runs" -- "$t/spawn-floor" cc main.o -o a.out -- "$shim" main.o -o b.out)
echo "   $own"
echo "== 3. compile: A = cc -c main.c, B = linkscope-cc -c main.c (exec, no record)"
echo "   $("$t/pairtime" "$runs" -- cc -c main.c -o m1.o -- "$shim" -c main.c -o m2.o)"
echo "== 7. the driver's -### view taken beside every link: A = LINKSCOPE_EXPAND=failure linkscope-cc, B = linkscope-cc (default)"
expand=$("$t/pairtime" "$runs" -- env LINKSCOPE_EXPAND=failure "$shim" main.o -o a.out -- "$shim" main.o -o b.out)
echo "   $expand"
echo "== 8. a link call that compiles (cc main.c -o x): A = LINKSCOPE_KEEP=0 linkscope-cc, B = linkscope-cc (default: the source's copy, and the driver's object caught in a private TMPDIR)"
catch=$("$t/pairtime" "$runs" -- env LINKSCOPE_KEEP=0 "$shim" main.c -o a.out -- "$shim" main.c -o b.out)
echo "   $catch"
if command -v valgrind >/dev/null; then
	ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$shim" main.o -o c.out 2>&1 |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
	echo "== 4. instructions executed by the shim's own process for one link (callgrind, repeatable): $ir"
fi
# A bound on the record directory (issue #11): most links pay nothing; one in 32 lists it.
nrec=$(find "$LINKSCOPE_DIR" -maxdepth 1 -name '*.json' | wc -l)
echo "== 5. a bound set: A = linkscope-cc, B = LINKSCOPE_MAX_SIZE=1G linkscope-cc (one link in 32 prunes; $nrec+ records)"
bound=$("$t/pairtime" "$runs" -- env LINKSCOPE_PRUNE_EVERY=32 "$shim" main.o -o a.out -- \
	env LINKSCOPE_MAX_SIZE=1G "$shim" main.o -o b.out)
echo "   $bound"
echo "== 6. the pruning link itself: B prunes every time (LINKSCOPE_PRUNE_EVERY=1), within the bound"
echo "   $("$t/pairtime" "$((runs / 3))" -- env LINKSCOPE_PRUNE_EVERY=1 "$shim" main.o -o a.out -- \
	env LINKSCOPE_MAX_SIZE=1G LINKSCOPE_PRUNE_EVERY=1 "$shim" main.o -o b.out)"
echo "== records written: $(find "$LINKSCOPE_DIR" -maxdepth 1 -name '*.json' | wc -l)"

added=$(paired_median "$total")
work=$(paired_median "$own")
verdict=$(awk -v a="$added" 'BEGIN { print (a <= 2.0) ? "met" : "NOT met" }')
echo "shim overhead per link: ${added} ms median (target <= 2 ms: ${verdict});" \
	"of which the shim's own work over a do-nothing wrapper: ${work} ms;" \
	"of which the link-time -### view: $(paired_median "$expand") ms;" \
	"keeping a compiling call's source and object: $(paired_median "$catch") ms;" \
	"a size bound adds $(paired_median "$bound") ms median"
