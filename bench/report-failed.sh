#!/usr/bin/env bash
# make bench, part 5: report --failed over N failed links (BENCH_FAILED, 24)
# with a cold cache (no kept analysis; the provider index built before, as
# `explain` finds it), its analyses in parallel (issue #30 point 3), against
# its floor measured in the same run: the CPU time of N single `explain`s
# (user + system, of every process they start: cputime.c) shared out over
# the CPUs online.
#   ratio = wall of report --failed / (sum of explain CPU times / CPUs)
# Target: ratio <= 2. The same report with -j 1 is shown beside it, for the
# speed-up, and the load of the run: the explains' wall over their CPU (1
# on an idle machine; on a loaded one every wall figure grows by it, the
# CPU floor does not, so the ratio is also given over the explains' wall). The links are real gcc links through the shim, of four kinds:
# a symbol nothing defines, an archive read before the object that needs
# it, a library not found, a symbol defined twice. Medians of RUNS runs (3).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
n=${BENCH_FAILED:-24}
runs=${FAILED_RUNS:-3}
cpus=$(getconf _NPROCESSORS_ONLN)
t=$(mktemp -d /tmp/lk-bench-failed.XXXXXX)
trap 'rm -rf "$t"' EXIT
export XDG_CACHE_HOME=$t/cache LINKSCOPE_DIR=$t/records
mkdir "$t/proj" "$t/proj/lib"
cd "$t/proj"
printf 'int compute(int x) { return x + 1; }\n' >calc.c
cc -c calc.c && ar rcs lib/libcalc.a calc.o
for ((i = 0; i < n; i++)); do
	printf 'int missing_%d(void);\nint compute(int);\nint twice(void) { return 2; }\nint main(void) { return missing_%d() + compute(%d); }\n' \
		"$i" "$i" "$i" >"m$i.c"
	cc -c "m$i.c"
	case $((i % 4)) in
	0) "$build/bin/linkscope-cc" "m$i.o" -Llib -lcalc -o "o$i" ;;
	1) "$build/bin/linkscope-cc" -Llib -lcalc "m$i.o" -o "o$i" ;;
	2) "$build/bin/linkscope-cc" "m$i.o" -Llib -lcalc -lnothere -o "o$i" ;;
	3) "$build/bin/linkscope-cc" "m$i.o" "m$((i - 1)).o" -Llib -lcalc -o "o$i" ;;
	esac 2>/dev/null || true
done
cd "$t"
failed=$("$build/bin/linkscope" list | grep -c ' exit:1 ' || true)
[ "$failed" = "$n" ] || { echo "report-failed bench: $failed failed links recorded, not $n" >&2; exit 1; }

# The provider index, as explain and report --failed both find it after the first analysis.
"$build/bin/linkscope" report --failed -j 1 >/dev/null

median() { sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }
cc -O2 -o "$t/cputime" "$root/bench/cputime.c"
# cpu_of CMD...: its user + system seconds, every process it started included, and its wall seconds.
cpu_of() { "$t/cputime" "$t/one.time" "$@" >/dev/null 2>&1; cat "$t/one.time"; }
wall_of() { cpu_of "$@" | cut -d' ' -f2; }

: >"$t/explain"
for ((r = 0; r < runs; r++)); do
	for rec in "$LINKSCOPE_DIR"/2*.json; do
		cpu_of "$build/bin/linkscope" explain "$rec"
	done | awk '{ c += $1; w += $2 } END { print c, w }' >>"$t/explain"
done
read -r explain_cpu explain_wall <<<"$(sort -n "$t/explain" | sed -n "$(( (runs + 1) / 2 ))p")"
: >"$t/par"
: >"$t/seq"
for ((r = 0; r < runs; r++)); do
	rm -rf "$XDG_CACHE_HOME/linkscope/failed"
	cpu_of "$build/bin/linkscope" report --failed >>"$t/par"
	rm -rf "$XDG_CACHE_HOME/linkscope/failed"
	wall_of "$build/bin/linkscope" report --failed -j 1 >>"$t/seq"
done
read -r par_cpu par <<<"$(sort -k2 -n "$t/par" | sed -n "$(( (runs + 1) / 2 ))p")"
seq=$(median <"$t/seq")
echo "== report --failed over $n failed links, cold cache, $cpus CPUs, medians of $runs runs"
printf '   sum of %d single explain CPU times   %6.2fs  (/ %d CPUs: %.2fs, the floor)\n' "$n" "$explain_cpu" "$cpus" \
	"$(awk -v c="$explain_cpu" -v p="$cpus" 'BEGIN { print c / p }')"
printf '   report --failed (-j %d), wall           %6.2fs  (its CPU %.2fs)\n' "$cpus" "$par" "$par_cpu"
printf '   report --failed -j 1, wall             %6.2fs\n' "$seq"
printf '   load of the run: explain wall / CPU    %6.2fx  (their wall %.2fs)\n' \
	"$(awk -v c="$explain_cpu" -v w="$explain_wall" 'BEGIN { print (c > 0 ? w / c : 0) }')" "$explain_wall"
line=$(awk -v w="$par" -v s="$seq" -v c="$explain_cpu" -v ew="$explain_wall" -v p="$cpus" -v n="$n" 'BEGIN {
	f = c / p; r = f > 0 ? w / f : 0; rw = ew > 0 ? w / (ew / p) : 0
	printf "report --failed: %d failed links cold in %.2fs, %.2fx (sum of explain CPU)/CPUs (target <= 2: %s), %.2fx (sum of explain wall)/CPUs; -j 1 %.2fs\n",
		n, w, r, r <= 2 ? "met" : "NOT met", rw, s }')
echo "   $line"
[ -z "${BENCH_SUMMARY:-}" ] || echo "$line" >>"$BENCH_SUMMARY"
