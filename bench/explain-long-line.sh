#!/usr/bin/env bash
# explain on long generated lines (issue #7): main.o after N copies of an
# archive that defines what it needs (a failing link: the replay, its
# diagnostics and their candidate fixes). Median wall time of RUNS runs per
# N, to show how explain scales with the number of inputs.
#   bench/explain-long-line.sh [BUILD] [N...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
shift || true
sizes=${*:-5000 10000 20000 40000}
runs=${RUNS:-3}
linkscope=${LINKSCOPE:-$build/bin/linkscope}
t=$(mktemp -d /tmp/lk-bench-long.XXXXXX)
trap 'rm -rf "$t"' EXIT
cd "$t"
printf 'int helper(void);\nint main(void) { return helper() - 1; }\n' >main.c
printf 'int helper(void) { return 1; }\n' >h.c
cc -c main.c h.c
ar rcs libh.a h.o
for n in $sizes; do
	args=()
	for ((i = 0; i < n; i++)); do args+=(libh.a); done
	LINKSCOPE_DIR=$t/r$n "$build/bin/linkscope-cc" "${args[@]}" main.o -o prog 2>/dev/null || true
	times=()
	for ((k = 0; k < runs; k++)); do
		s=$(date +%s.%N)
		"$linkscope" explain --replay-only --dir "$t/r$n" last >/dev/null
		times+=("$(echo "$(date +%s.%N) - $s" | bc)")
	done
	printf '%6d inputs: explain median %.2f s\n' "$n" \
		"$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")"
done
