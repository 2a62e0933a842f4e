#!/usr/bin/env bash
# make bench, part 2: the record directory at 1,000, 10,000 and 100,000
# records (BENCH_RECORDS), each figure against its floor in the same run:
#   - linkscope list           / enumerating and sorting the names (find | sort)
#   - linkscope report --failed / list (reading the dir's index): with each
#                                 failed record's analysis kept in the cache
#                                 (analyzer/failcache.c); and the first run,
#                                 which analyses the 10 failed records and
#                                 keeps them, against those 10 analyses alone
#                                 (a dir of only the failed, no cache)
#   - linkscope prune --dry-run / enumerating, stat'ing and sorting (find -printf | sort)
#   - a link that prunes        / the same link not pruning (paired runs),
#                                 and that cost spread over the 32 links of
#                                 which one prunes
# Targets (issue #20): list and report --failed over 100,000 records <= 1 s;
# a pruning link at 100,000 <= 50 ms, <= 0.1 ms on average over all links.
# The records are copies of two real ones (a link that succeeds, one that
# fails), renamed; medians of RUNS runs (3).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
sizes=${BENCH_RECORDS:-1000 10000 100000}
runs=${RECORD_RUNS:-3}
t=$(mktemp -d /tmp/lk-bench-dir.XXXXXX)
trap 'rm -rf "$t"' EXIT
cd "$t"
# The analyses' cache (report --failed's, the provider index's) of this run only.
export XDG_CACHE_HOME=$t/cache
cc -O2 -o pairtime "$root/bench/pairtime.c"
printf 'int main(void) { return 0; }\n' >main.c
printf 'int f(void);\nint main(void) { return f(); }\n' >bad.c
cc -c main.c -o main.o
cc -c bad.c -o bad.o
LINKSCOPE_DIR=$t/seed "$build/bin/linkscope-cc" main.o -o ok.out
LINKSCOPE_DIR=$t/seed "$build/bin/linkscope-cc" bad.o -o bad.out 2>/dev/null || true

# make_dir DIR N FAILED: N records, FAILED of them the failed link's.
make_dir() {
	/usr/bin/python3 - "$t/seed" "$1" "$2" "$3" <<'PY'
import json, os, sys
seed, out, n, failed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
recs = sorted(f for f in os.listdir(seed) if f.endswith(".json"))
texts = {}
for f in recs:
    r = json.load(open(os.path.join(seed, f)))
    texts["bad" if r["result"]["exit_status"] else "ok"] = (r["id"], open(os.path.join(seed, f)).read())
os.makedirs(out, exist_ok=True)
for i in range(n):
    old, text = texts["bad" if i % max(1, n // failed) == 0 and i // max(1, n // failed) < failed else "ok"]
    new = "20261101T%02d%02d%02d.%06dZ-1-%08x" % (i // 3600000000 % 24, i // 60000000 % 60, i // 1000000 % 60, i % 1000000, i)
    with open(os.path.join(out, new + ".json"), "w") as f:
        f.write(text.replace(old, new))
PY
}

# median NAME COMMAND...: the median wall seconds of $runs runs.
median() {
	local i s e
	shift
	for ((i = 0; i < runs; i++)); do
		s=$(date +%s.%N)
		"$@" >/dev/null 2>&1 || true
		e=$(date +%s.%N)
		awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f\n", e - s }'
	done | sort -n | sed -n "$(( (runs + 1) / 2 ))p"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

make_dir "$t/failed-only" 10 10
summary=""
for n in $sizes; do
	d=$t/dir-$n
	make_dir "$d" "$n" 10
	# The first list of a dir with no index reads every record and writes the index (once).
	first=$(runs=1 median first "$build/bin/linkscope" list --dir "$d")
	lst=$(median list "$build/bin/linkscope" list --dir "$d")
	lst0=$(median floor sh -c "find '$d' -maxdepth 1 -name '2*.json' -printf '%f\n' | sort")
	cold=$(runs=1 median cold "$build/bin/linkscope" report --failed --format json --dir "$d")
	rep=$(median failed "$build/bin/linkscope" report --failed --format json --dir "$d")
	rep0=$(median failed0 env LINKSCOPE_REPORT_CACHE=0 "$build/bin/linkscope" report --failed --format json --dir "$t/failed-only")
	pru=$(median prune "$build/bin/linkscope" prune --max-size 100G --dry-run --dir "$d")
	pru0=$(median prune0 sh -c "find '$d' -maxdepth 1 -name '2*.json' -printf '%T@ %s %f\n' | sort -n")
	# A prune that counts the dir (and rewrites the index): what a link pays when the index says it is over a bound.
	full=$(median full "$build/bin/linkscope" prune --max-size 100G --dir "$d")
	pairs=$(( n >= 100000 ? 5 : 15 ))
	link=$(LINKSCOPE_DIR=$d ./pairtime "$pairs" -- env LINKSCOPE_PRUNE_EVERY=1048576 \
		"$build/bin/linkscope-cc" main.o -o a.out -- env LINKSCOPE_PRUNE_EVERY=1 "$build/bin/linkscope-cc" main.o -o b.out)
	pl=$(sed -n 's/.*paired B-A median \([0-9.-]*\) ms.*/\1/p' <<<"$link")
	echo "== $n records"
	printf '   list, no index yet  %7.3fs   (reads every record, writes records.index)\n' "$first"
	printf '   list               %7.3fs   floor (find | sort) %7.3fs   ratio %s\n' "$lst" "$lst0" "$(ratio "$lst" "$lst0")"
	printf '   report --failed    %7.3fs   floor (list)        %7.3fs   ratio %s\n' "$rep" "$lst" "$(ratio "$rep" "$lst")"
	printf '   the first report --failed (10 analyses kept) %7.3fs   the 10 analyses alone, no cache %7.3fs   ratio %s\n' \
		"$cold" "$rep0" "$(ratio "$cold" "$rep0")"
	printf '   prune --dry-run    %7.3fs   floor (find -printf) %6.3fs   ratio %s\n' "$pru" "$pru0" "$(ratio "$pru" "$pru0")"
	printf '   prune (a full count, the index rewritten) %7.3fs\n' "$full"
	echo "   a pruning link against the same link not pruning, $pairs pairs: $link"
	line=$(awk -v n="$n" -v l="$lst" -v r="$rep" -v p="$pl" -v rl="$(ratio "$lst" "$lst0")" \
		-v rr="$(ratio "$rep" "$lst")" -v rp="$(ratio "$pru" "$pru0")" -v f="$first" \
		-v c="$cold" -v rc="$(ratio "$cold" "$rep0")" 'BEGIN {
		big = n >= 100000;
		printf "records %6d: list %.2fs (%sx find|sort%s; %.2fs the first time, no index), report --failed %.2fs (%sx list%s; the first, 10 analyses kept: %.2fs, %sx them alone), prune --dry-run %sx find, pruning link +%.1f ms (%s), +%.3f ms per link on average (%s)\n",
			n, l, rl, big ? (l <= 1 ? "; target <= 1 s: met" : "; target <= 1 s: NOT met") : "", f,
			r, rr, big ? (r <= 1 ? "; target <= 1 s: met" : "; target <= 1 s: NOT met") : "", c, rc,
			rp, p, big ? (p <= 50 ? "target <= 50 ms: met" : "target <= 50 ms: NOT met") : "-",
			p / 32, big ? (p / 32 <= 0.1 ? "target <= 0.1 ms: met" : "target <= 0.1 ms: NOT met") : "-" }')
	echo "   $line"
	summary+="$line"$'\n'
	rm -rf "$d"
done
[ -n "${BENCH_SUMMARY:-}" ] && printf '%s' "$summary" >>"$BENCH_SUMMARY"
exit 0
