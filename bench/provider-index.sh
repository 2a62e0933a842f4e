#!/usr/bin/env bash
# make bench, part 3: the provider index (issue #10). The first build of the
# index over this machine's library dirs (ld's SEARCH_DIRs, /etc/ld.so.conf,
# gcc's runtime dir), with an empty cache, then a second run from the cache
# (every file's size and mtime unchanged). `linkscope index` is the same
# code the analysis runs for a failed link. Medians of RUNS runs, wall time
# and peak RSS. Target: the first build well under a second on 2 cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
runs=${INDEX_RUNS:-5}
t=$(mktemp -d /tmp/lk-bench-index.XXXXXX)
trap 'rm -rf "$t"' EXIT
dirs=$(ld --verbose | grep -o 'SEARCH_DIR("=[^"]*")' | sed 's/SEARCH_DIR("=//; s/")//')
dirs="$dirs $(cat /etc/ld.so.conf.d/*.conf 2>/dev/null | grep '^/' || true) $(dirname "$(gcc -print-libgcc-file-name)")"
measure() {
	local name=$1 i
	shift
	: >"$t/$name.times"
	for ((i = 0; i < runs; i++)); do
		[ "$name" = first ] && rm -rf "$t/cache"
		/usr/bin/time -f '%e %M' -o "$t/one.time" "$@" >"$t/$name.out" 2>&1
		tail -n 1 "$t/one.time" >>"$t/$name.times"
	done
	sort -n "$t/$name.times" | sed -n "$(( (runs + 1) / 2 ))p"
}
# shellcheck disable=SC2086
read -r first_s first_kb <<<"$(measure first "$build/bin/linkscope" index --cache-dir "$t/cache" $dirs)"
# shellcheck disable=SC2086
read -r again_s again_kb <<<"$(measure again "$build/bin/linkscope" index --cache-dir "$t/cache" $dirs)"
echo "== the provider index over this machine's library dirs, medians of $runs runs"
echo "   $(cat "$t/first.out")"
printf '   first build (empty cache)   %6ss  %8s KiB\n' "$first_s" "$first_kb"
printf '   from the cache              %6ss  %8s KiB   (%s)\n' "$again_s" "$again_kb" "$(cat "$t/again.out" | sed 's/.*libraries (/(/')"
printf '   cache size: %s\n' "$(du -sh "$t/cache" | cut -f1)"
line=$(awk -v f="$first_s" -v a="$again_s" 'BEGIN {
	printf "provider index: first build %.2fs (target well under 1 s: %s), from the cache %.2fx that\n",
		f, f < 0.5 ? "met" : "NOT met", (f > 0 ? a / f : 0) }')
echo "   $line"
[ -z "${BENCH_SUMMARY:-}" ] || echo "$line" >>"$BENCH_SUMMARY"
