#!/usr/bin/env bash
# `linkscope show` of a link whose -l names a linker script of N inputs
# (8,000, 80,000 and 800,000: ten scripts of 80,000 under one, a script
# being read up to 1 MiB), each the same archive: CPU seconds (user +
# system) of each, and the growth from one size to the next (10: linear).
# The case of tests/integ/123, where it is asserted by a ratio, not timed.
set -eu
build=${1:-build}
bin=$(cd "$build" && pwd)/bin
T=$(mktemp -d /tmp/lk-bench-script.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T"
export LINKSCOPE_DIR=$T/records XDG_CACHE_HOME=$T/cache
printf 'int missing(void);\nint main(void) { return missing(); }\n' >t.c
echo 'int a1(void) { return 1; }' >a.c
cc -c t.c a.c && ar rcs liba1.a a.o
echo 'INPUT(liba1.a)' >libbig.so
"$bin/linkscope-cc" t.o -L. -lbig -o big >/dev/null 2>&1 || true
names() { python3 -c 'import sys; sys.stdout.write("INPUT(" + " liba1.a" * int(sys.argv[1]) + ")\n")' "$1"; }
prev=
for n in 8000 80000 800000; do
	if [ "$n" -le 80000 ]; then
		names "$n" >libbig.so
	else
		names 80000 >part.so
		python3 -c 'import sys; sys.stdout.write("INPUT(" + " part.so" * 10 + ")\n")' >libbig.so
	fi
	cpu=$(/usr/bin/time -f '%U %S' "$bin/linkscope" show last 2>&1 >show.out | tail -n 1 | awk '{ printf "%.2f", $1 + $2 }')
	shown=$(grep -c 'liba1.a' show.out)
	growth=${prev:+$(awk -v a="$prev" -v b="$cpu" 'BEGIN { printf ", %.1fx the last", (a > 0 ? b / a : 0) }')}
	line="show, a linker script of $n inputs ($shown shown): $cpu CPU s$growth"
	echo "$line"
	[ -n "${BENCH_SUMMARY:-}" ] && echo "$line" >>"$BENCH_SUMMARY"
	prev=$cpu
done
