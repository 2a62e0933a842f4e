#!/usr/bin/env bash
# The test runner: for each build directory given (build, build-san,
# build-fuzz), run every cmocka unit test binary, every fuzz target (a
# short run) and every integration script, print one line per suite with
# its wall time, and end with "N passed, N failed" over all checks.
#
# LK_TEST_JOBS=N (default: the number of CPUs) suites run at a time; the
# integration tests are hermetic (tests/integ/lib.sh), so any two can run
# together. Each suite's output goes to a log of its own; its line is
# printed, in the order of a sequential run, once it and every suite
# before it have ended. The logs are kept when a suite fails (the path is
# printed), removed when all pass.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${LK_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) echo "run.sh: LK_TEST_JOBS must be a number of 1 or more, not '$jobs'" >&2; exit 2 ;; esac
logs=$(mktemp -d /tmp/lk-test-logs.XXXXXX)

# An interrupted run stops the suites running and all they started: the
# whole tree under this shell, listed before any of it is killed.
descendants() {
	local c
	for c in $(pgrep -P "$1"); do echo "$c"; descendants "$c"; done
}
stop_suites() {
	local pids
	pids=$(descendants $$)
	[ -n "$pids" ] && kill -TERM $pids 2>/dev/null
	wait
}
trap 'stop_suites; echo "run.sh: interrupted; the logs are in $logs" >&2; exit 130' INT TERM

# usecs EPOCHREALTIME: that time in microseconds.
usecs() { echo $((${1//[.,]/})); }
# seconds USECS: as 12.3.
seconds() { printf '%d.%d' $(($1 / 1000000)) $(($1 % 1000000 / 100000)); }

# The suites, in the order their lines are printed: name, the patterns of
# a passed and of a failed check, the build, the command (quoted for eval),
# and whether it must wait until every suite before it has ended. `early`
# suites start first: the long ones, so that none of them starts last and
# runs alone at the end.
names=() pass_res=() fail_res=() builds=() cmds=() barriers=() earlies=() lates=()
n=0

# The sanitizer build runs the integration suites that tests/san-suites.txt
# marks `run`, not those marked `skip`: the plain run covers no line of
# analyzer/, shim/ or common/ that the suites run under ASan leave out
# (scripts/choose-san-suites.py chose them by coverage and wrote the list).
# A suite the list does not name runs (a new one, until the list is made
# again); a name that is no suite is an error, not a suite silently lost.
declare -A san_skip=()
san_list=$root/tests/san-suites.txt
[ -f "$san_list" ] || { echo "run.sh: no $san_list (scripts/choose-san-suites.py writes it)" >&2; exit 2; }
lineno=0
while read -r verdict suite; do
	lineno=$((lineno + 1))
	case $verdict in '' | '#'*) continue ;; esac
	script=${suite#integ/}
	script=$root/tests/integ/${script% elsewhere}.sh
	if [ "${suite#integ/}" = "$suite" ] || [ ! -f "$script" ] ||
		{ [ "${suite% elsewhere}" != "$suite" ] && ! grep -q '"$LINKSCOPE"' "$script"; }; then
		echo "run.sh: $san_list:$lineno: no integration suite '$suite'" >&2
		exit 2
	fi
	case $verdict in
	run) ;;
	skip) san_skip[$suite]=1 ;;
	*) echo "run.sh: $san_list:$lineno: '$verdict' is not run or skip" >&2; exit 2 ;;
	esac
done <"$san_list"

# LK_ONLY=REGEX: only the suites whose name, less its build's, matches it
# (scripts/choose-san-suites.py runs the suites one at a time so).
only=${LK_ONLY:-}

# [barrier=1] [early=1] add BUILD NAME PASS-PATTERN FAIL-PATTERN COMMAND...: queue a suite,
# unless LK_ONLY or the sanitizer build's list leaves it out.
add() {
	local suite=${2#"$1"/}
	if [ -n "$only" ] && ! [[ $suite =~ $only ]]; then return; fi
	if [ "$1" = build-san ] && [ -n "${san_skip[$suite]:-}" ]; then return; fi
	builds[n]=$1 names[n]=$2 pass_res[n]=$3 fail_res[n]=$4 barriers[n]=${barrier:-0}
	shift 4
	cmds[n]=$(printf '%q ' "$@")
	if [ "${early:-0}" = 1 ]; then earlies+=("$n"); else lates+=("$n"); fi
	n=$((n + 1))
}

# The passes an integration suite runs in `make check` (LK_FULL=1, `make
# check-full`: every pass in every build, as san-suites.txt's coverage rule
# was measured). A suite's header says which with its reason, `# passes:
# plain` (or `plain san`, `plain elsewhere san`, ...); without one, `plain
# san`: the plain build, and build-san when san-suites.txt marks it run.
# The elsewhere pass runs only where a header names it: the suites whose
# answers read what another directory and environment change (the search
# paths, the linker found on PATH, names relative to the directory, the CI
# workspace, RUSTFLAGS); the difftest analyses every case again elsewhere
# with decoys too. The tables of linker rules that link every case with the
# three real linkers, whose verdicts depend on the record only, run once,
# in the plain build (tests/README.md, docs/decisions.md: make check in a
# quarter of the time it took).
full=${LK_FULL:-0}
# runs_pass SCRIPT BUILD PASS: whether make check runs PASS (plain, elsewhere) of SCRIPT in BUILD.
runs_pass() {
	[ "$full" = 1 ] && return 0
	[ "$2" = build-san ] && [ "$3" = elsewhere ] && return 1
	local passes
	passes=$(sed -n '1,40{s/^# passes: \([a-z ]*\).*/\1/p}' "$1" | head -n 1)
	[ -z "$passes" ] && passes="plain san"
	[ "$2" = build-san ] && [[ " $passes " != *" san "* ]] && return 1
	[[ " $passes " == *" $3 "* ]]
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

for build in "$@"; do
	case $build in /*) dir=$build ;; *) dir=$root/$build ;; esac
	b=$(basename "$build")
	for t in "$dir"/tests/test_*; do
		[ -x "$t" ] || continue
		add "$b" "$b/unit/$(basename "$t")" '^\[       OK \]' '^\[  FAILED  \] test_' \
			sh -c 'cd /tmp && exec "$0"' "$t"
	done
	for f in "$dir"/fuzz_*; do
		[ -x "$f" ] || continue
		fz=${f##*/fuzz_}
		runs=${FUZZ_RUNS:-10000}
		# The record target runs every analysis command on each input (about 10 ms
		# under ASan): a tenth of the runs keeps make check short; make fuzz runs it long.
		# The bundle target makes, unpacks and removes a private dir per input;
		# whatif_sources writes six files and reads them back for each input (1 ms
		# of CPU, more of waiting for the file system under load): a tenth too.
		case $fz in record | bundle | whatif_sources) runs=$((runs / 10)) ;; esac
		add "$b" "$b/fuzz/$fz ($runs runs)" '^fuzz ok' '^==[0-9]*==ERROR' \
			fuzz_run "$f" "$root/tests/fuzz/corpus/$fz" "$runs"
	done
	[ -d "$dir/bin" ] || continue
	# Every link of the integration tests and the difftest checks the view
	# the cache gives against a fresh -### (issue #20): tests/view-check.sh.
	views=$logs/views.$b
	for s in "$root"/tests/integ/[0-9]*.sh; do
		runs_pass "$s" "$b" plain || continue
		add "$b" "$b/integ/$(basename "$s" .sh)" '^ok ' '^not ok ' \
			env LK_BUILD="$dir" LINKSCOPE_VIEW_CHECK="$views" bash "$s"
	done
	# Each test that analyses records, again with the analysis run from
	# another directory in another environment (lib.sh, LK_ELSEWHERE).
	for s in $(grep -l '"$LINKSCOPE"' "$root"/tests/integ/[0-9]*.sh); do
		runs_pass "$s" "$b" elsewhere || continue
		add "$b" "$b/integ/$(basename "$s" .sh) elsewhere" '^ok ' '^not ok ' \
			env LK_BUILD="$dir" LK_ELSEWHERE=1 LINKSCOPE_VIEW_CHECK="$views" bash "$s"
	done
	# The difftests draw their cases in nineteen classes, one case of each in
	# turn. make check takes two of each class in the plain build and one
	# under the sanitizers (a half: sanitized sizes, also where
	# scripts/choose-san-suites.py measures what build-san covers, with
	# LK_SAN_SIZES=1); make check-full and make difftest run more.
	san_sized=0
	if [ "$full" != 1 ] && { [ "$b" = build-san ] || [ "${LK_SAN_SIZES:-0}" = 1 ]; }; then san_sized=1; fi
	# The replay against the real ld on random scenarios, every class, two
	# cases at a time. The same cases in every build.
	dn=${DIFFTEST_N:-38}
	[ "$san_sized" = 1 ] && dn=$((dn / 2))
	early=1 add "$b" "$b/difftest ($dn cases, seed 1)" '^ok ' '^DISAGREE' \
		env LINKSCOPE_VIEW_CHECK="$views" /usr/bin/python3 "$root/tests/difftest/difftest.py" "$dir" "$dn" 1 --jobs 2
	# Each linker's verdict against the real GNU ld, lld and mold (issue #19),
	# one case of every class (a quarter of them under the sanitizers).
	ln=${DIFFTEST_LINKERS_N:-19}
	[ "$san_sized" = 1 ] && ln=$((ln / 4))
	early=1 add "$b" "$b/difftest --linkers bfd,lld,mold ($ln cases, seed 2)" '^ok ' '^DISAGREE' \
		env LINKSCOPE_VIEW_CHECK="$views" /usr/bin/python3 "$root/tests/difftest/difftest.py" "$dir" "$ln" 2 \
		--jobs 2 --linkers bfd,lld,mold
	# An aarch64 draw (issue #33 point 3g): the cross toolchain, one case of
	# each class it draws, each linker's verdict; the plain build only.
	an=${DIFFTEST_AARCH64_N:-14}
	if [ "$b" = build ] && [ "$san_sized" = 0 ] && [ "$an" -gt 0 ]; then
		early=1 add "$b" "$b/difftest --arch aarch64 ($an cases, seed 3)" '^ok ' '^DISAGREE' \
			env LINKSCOPE_VIEW_CHECK="$views" /usr/bin/python3 "$root/tests/difftest/difftest.py" "$dir" "$an" 3 \
			--jobs 2 --linkers bfd,lld,mold --arch aarch64
	fi
	# Option shapes (issue #33): options of the generated linker tables, each
	# linked by the real GNU ld, lld and mold; a fixed seed, so that a run
	# is the same whatever the day (make difftest-options: the whole table;
	# DIFFTEST_OPTIONS_SEED=N another sample).
	on=${DIFFTEST_OPTIONS_N:-40}
	[ "$san_sized" = 1 ] && on=$((on / 3))
	early=1 add "$b" "$b/difftest options ($on options)" '^ok ' '^not ok ' \
		/usr/bin/python3 "$root/tests/difftest/options.py" "$dir" "$on" "${DIFFTEST_OPTIONS_SEED:-1}"
	# The first of seed 1's cases with secret-looking words, each record
	# analysed with and without redaction: the same analysis (issue #15).
	rn=${DIFFTEST_REDACTION_N:-19}
	[ "$san_sized" = 1 ] && rn=$((rn / 4))
	early=1 add "$b" "$b/difftest --redaction ($rn cases, seed 1)" '^ok ' '^DISAGREE' \
		env LINKSCOPE_VIEW_CHECK="$views" /usr/bin/python3 "$root/tests/difftest/difftest.py" "$dir" "$rn" 1 \
		--jobs 2 --redaction
	# The verdict over the views of every link above: after they have all ended.
	barrier=1 add "$b" "$b/view-check (the reused views against fresh ones)" '^ok ' '^not ok ' \
		"$root/tests/view-check.sh" "$views"
done

# cpu_usecs: the CPU time (user and system) of the processes this shell has
# waited for, from `times`'s second line ("0m1.250s 0m0.310s"), in microseconds.
cpu_usecs() {
	local user sys
	read -r _ && read -r user sys || return
	echo $(($(min_sec_usecs "$user") + $(min_sec_usecs "$sys")))
}
# min_sec_usecs 1m2.345s: that time in microseconds (`times` gives milliseconds).
min_sec_usecs() {
	local m=${1%%m*} s=${1#*m}
	s=${s%s}
	echo $((10#$m * 60000000 + 10#${s%%[.,]*} * 1000000 + 10#${s#*[.,]} * 1000))
}

# run_suite I: run suite I into its log; its status, wall time and CPU time
# into I.done. The CPU time is the suite's own work, whatever the machine's
# load (a wall time on a shared machine is not); `times` runs in this
# subshell itself (not in a $(...), a fork that has waited for nothing).
run_suite() {
	local i=$1 t0 rc
	t0=$(usecs "$EPOCHREALTIME")
	eval "${cmds[i]}" >"$logs/$i.log" 2>&1 </dev/null 3>&-
	rc=$?
	times >"$logs/$i.times"
	echo "$rc $(($(usecs "$EPOCHREALTIME") - t0)) $(cpu_usecs <"$logs/$i.times")" >"$logs/$i.done"
	echo "$i" >&3
}

passed=0 failed=0 suite_us=() suite_cpu=()
declare -A build_us=() build_cpu=()
# report I: print suite I's line (its log's tail if it failed), count its checks.
report() {
	local i=$1 rc us cpu p f s
	read -r rc us cpu <"$logs/$i.done"
	p=$(grep -c -- "${pass_res[i]}" "$logs/$i.log")
	f=$(grep -c -- "${fail_res[i]}" "$logs/$i.log")
	# A crash or a non-zero exit with no failed check is still a failure.
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	s=$(seconds "$us")
	if [ "$f" -eq 0 ]; then
		printf 'PASS %-42s %4d passed, 0 failed %7s s\n' "${names[i]}" "$p" "$s"
	else
		printf 'FAIL %-42s %4d passed, %d failed %7s s\n' "${names[i]}" "$p" "$f" "$s"
		tail -n 60 "$logs/$i.log" | sed 's/^/    /'
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	build_us[${builds[i]}]=$((${build_us[${builds[i]}]:-0} + us))
	build_cpu[${builds[i]}]=$((${build_cpu[${builds[i]}]:-0} + cpu))
	suite_us[i]=$us suite_cpu[i]=$cpu
}

# Each suite that ends says so on this pipe (one short write: lines never
# interleave); opened for reading and writing, it never reads end-of-file.
mkfifo "$logs/ended" && exec 3<>"$logs/ended" || exit 2
t_run=$(usecs "$EPOCHREALTIME")
started=() ended=() printed=0 running=0
# start_one: start the first suite not started whose turn has come; 1 when none can start now.
start_one() {
	local i
	for i in "${earlies[@]}" "${lates[@]}"; do
		[ -n "${started[i]:-}" ] && continue
		# A barrier suite waits until all before it have been printed, so have ended.
		[ "${barriers[i]}" = 1 ] && [ "$i" -gt "$printed" ] && continue
		started[i]=1
		run_suite "$i" &
		running=$((running + 1))
		return 0
	done
	return 1
}
while [ "$printed" -lt "$n" ]; do
	while [ "$running" -lt "$jobs" ] && start_one; do :; done
	# Nothing running and nothing to start would wait on the pipe for ever.
	[ "$running" -gt 0 ] || { echo "run.sh: no suite can start, ${names[printed]} waits" >&2; exit 2; }
	read -r i <&3 || exit 2
	ended[i]=1
	running=$((running - 1))
	while [ "$printed" -lt "$n" ] && [ -n "${ended[printed]:-}" ]; do
		report "$printed"
		printed=$((printed + 1))
	done
done

echo "time per build (each suite's wall time and CPU time, added up; $jobs suites at a time):"
for build in "$@"; do
	b=$(basename "$build")
	[ -n "${build_us[$b]:-}" ] &&
		printf '  %-10s %8s s wall %8s s CPU\n' "$b" "$(seconds "${build_us[$b]}")" "$(seconds "${build_cpu[$b]}")"
done
echo "the slowest suites (wall, CPU):"
for i in "${!suite_us[@]}"; do echo "${suite_us[i]} $i"; done | sort -rn | head -n 8 |
	while read -r us i; do
		printf '  %-52s %8s s %8s s\n' "${names[i]}" "$(seconds "$us")" "$(seconds "${suite_cpu[i]}")"
	done
echo "wall time: $(seconds $(($(usecs "$EPOCHREALTIME") - t_run))) s"
if [ "$failed" -eq 0 ]; then rm -rf "$logs"; else echo "the suites' logs: $logs"; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
