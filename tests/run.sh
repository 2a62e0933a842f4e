#!/usr/bin/env bash
# The test runner: for each build directory given (build, build-san), run
# every cmocka unit test binary and every integration script, print one
# line per suite, and end with "N passed, N failed" over all checks.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
passed=0
failed=0
log=$(mktemp /tmp/lk-test-log.XXXXXX)
trap 'rm -f "$log"' EXIT

report() { # report STATUS NAME PASSED FAILED
	printf '%-4s %-42s %4d passed, %d failed\n' "$1" "$2" "$3" "$4"
	passed=$((passed + $3))
	failed=$((failed + $4))
}

count() { grep -c "$1" "$log" || true; }

for build in "$@"; do
	case $build in /*) dir=$build ;; *) dir=$root/$build ;; esac
	for t in "$dir"/tests/test_*; do
		[ -x "$t" ] || continue
		name="$(basename "$build")/unit/$(basename "$t")"
		(cd /tmp && "$t") >"$log" 2>&1
		rc=$?
		p=$(count '^\[       OK \]')
		f=$(count '^\[  FAILED  \] test_')
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
		if [ "$f" -eq 0 ]; then report PASS "$name" "$p" 0; else
			report FAIL "$name" "$p" "$f"; sed 's/^/    /' "$log"; fi
	done
	for f in "$dir"/fuzz_*; do
		[ -x "$f" ] || continue
		fname=${f##*/fuzz_}
		name="$(basename "$build")/fuzz/$fname"
		# New inputs go to a scratch corpus, never into the tree's seeds.
		scratch=$(mktemp -d /tmp/lk-fuzz.XXXXXX)
		"$f" -runs="${FUZZ_RUNS:-20000}" "$scratch" "$root/tests/fuzz/corpus/$fname" >"$log" 2>&1
		frc=$?
		rm -rf "$scratch"
		if [ $frc -eq 0 ]; then report PASS "$name (${FUZZ_RUNS:-20000} runs)" 1 0; else
			report FAIL "$name" 0 1; tail -n 40 "$log" | sed 's/^/    /'; fi
	done
	[ -d "$dir/bin" ] || continue
	for s in "$root"/tests/integ/[0-9]*.sh; do
		name="$(basename "$build")/integ/$(basename "$s" .sh)"
		LK_BUILD=$dir bash "$s" >"$log" 2>&1
		rc=$?
		p=$(count '^ok ')
		f=$(count '^not ok ')
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
		if [ "$f" -eq 0 ]; then report PASS "$name" "$p" 0; else
			report FAIL "$name" "$p" "$f"; sed 's/^/    /' "$log"; fi
	done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
