#!/usr/bin/env bash
# The test runner: for each build directory given (build, build-san,
# build-fuzz), run every cmocka unit test binary, every fuzz target (a
# short run) and every integration script, print one line per suite, and
# end with "N passed, N failed" over all checks.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
passed=0
failed=0
log=$(mktemp /tmp/lk-test-log.XXXXXX)
trap 'rm -f "$log"' EXIT

# seconds SINCE: the wall time from $EPOCHREALTIME value SINCE to now, as 12.3.
seconds() {
	local now=$EPOCHREALTIME
	local us=$((${now//[.,]/} - ${1//[.,]/}))
	printf '%d.%d' $((us / 1000000)) $((us % 1000000 / 100000))
}

# suite NAME PASS-PATTERN FAIL-PATTERN COMMAND...: run it, count its checks,
# report them and its wall time.
suite() {
	local name=$1 pass_re=$2 fail_re=$3 rc p f t0=$EPOCHREALTIME s
	shift 3
	"$@" >"$log" 2>&1
	rc=$?
	s=$(seconds "$t0")
	p=$(grep -c -- "$pass_re" "$log")
	f=$(grep -c -- "$fail_re" "$log")
	# A crash or a non-zero exit with no failed check is still a failure.
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	if [ "$f" -eq 0 ]; then
		printf 'PASS %-42s %4d passed, 0 failed %7s s\n' "$name" "$p" "$s"
	else
		printf 'FAIL %-42s %4d passed, %d failed %7s s\n' "$name" "$p" "$f" "$s"
		tail -n 60 "$log" | sed 's/^/    /'
	fi
	passed=$((passed + p))
	failed=$((failed + f))
}

# fuzz_run TARGET SEEDS RUNS: new inputs go to a scratch corpus, never into the tree's seeds.
fuzz_run() {
	local scratch rc
	scratch=$(mktemp -d /tmp/lk-fuzz.XXXXXX)
	"$1" -runs="$3" "$scratch" "$2" && echo "fuzz ok"
	rc=$?
	rm -rf "$scratch"
	return $rc
}

t_run=$EPOCHREALTIME
for build in "$@"; do
	case $build in /*) dir=$build ;; *) dir=$root/$build ;; esac
	b=$(basename "$build")
	for t in "$dir"/tests/test_*; do
		[ -x "$t" ] || continue
		suite "$b/unit/$(basename "$t")" '^\[       OK \]' '^\[  FAILED  \] test_' \
			sh -c 'cd /tmp && exec "$0"' "$t"
	done
	for f in "$dir"/fuzz_*; do
		[ -x "$f" ] || continue
		n=${f##*/fuzz_}
		runs=${FUZZ_RUNS:-20000}
		# The record target runs every analysis command on each input (about 10 ms
		# under ASan): a tenth of the runs keeps make check short; make fuzz runs it long.
		[ "$n" = record ] && runs=$((runs / 10))
		suite "$b/fuzz/$n ($runs runs)" '^fuzz ok' '^==[0-9]*==ERROR' \
			fuzz_run "$f" "$root/tests/fuzz/corpus/$n" "$runs"
	done
	[ -d "$dir/bin" ] || continue
	# Every link of the integration tests and the difftest checks the view
	# the cache gives against a fresh -### (issue #20): tests/view-check.sh.
	views=$(mktemp /tmp/lk-view-check.XXXXXX)
	export LINKSCOPE_VIEW_CHECK=$views
	for s in "$root"/tests/integ/[0-9]*.sh; do
		suite "$b/integ/$(basename "$s" .sh)" '^ok ' '^not ok ' env LK_BUILD="$dir" bash "$s"
	done
	# Each test that analyses records, again with the analysis run from
	# another directory in another environment (lib.sh, LK_ELSEWHERE).
	for s in $(grep -l '"$LINKSCOPE"' "$root"/tests/integ/[0-9]*.sh); do
		suite "$b/integ/$(basename "$s" .sh) elsewhere" '^ok ' '^not ok ' \
			env LK_BUILD="$dir" LK_ELSEWHERE=1 bash "$s"
	done
	# The replay against the real ld on random scenarios, every class
	# (fewer under sanitizers), two cases at a time.
	n=${DIFFTEST_N:-100}
	case $b in build-san) n=$((n / 4)) ;; esac
	suite "$b/difftest ($n cases, seed 1)" '^ok ' '^DISAGREE' \
		/usr/bin/python3 "$root/tests/difftest/difftest.py" "$dir" "$n" 1 --jobs 2
	# Each linker's verdict against the real GNU ld, lld and mold (issue #19),
	# a few cases of every class.
	n=${DIFFTEST_LINKERS_N:-32}
	case $b in build-san) n=$((n / 2)) ;; esac
	suite "$b/difftest --linkers bfd,lld,mold ($n cases, seed 2)" '^ok ' '^DISAGREE' \
		/usr/bin/python3 "$root/tests/difftest/difftest.py" "$dir" "$n" 2 --jobs 2 --linkers bfd,lld,mold
	# The same cases with secret-looking words, each record analysed with and
	# without redaction: the same analysis (issue #15).
	suite "$b/difftest --redaction ($n cases, seed 1)" '^ok ' '^DISAGREE' \
		/usr/bin/python3 "$root/tests/difftest/difftest.py" "$dir" "$n" 1 --jobs 2 --redaction
	unset LINKSCOPE_VIEW_CHECK
	suite "$b/view-check (the reused views against fresh ones)" '^ok ' '^not ok ' \
		"$root/tests/view-check.sh" "$views"
	rm -f "$views"
done
echo "wall time: $(seconds "$t_run") s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
