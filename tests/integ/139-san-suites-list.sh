# tests/run.sh runs in build-san only the integration suites that
# tests/san-suites.txt does not mark `skip` (issue #30), in every other
# build all of them; a list that names no suite, or says neither run nor
# skip, stops the run with one line naming the list, the line and the
# cause. Run on a tree of its own: run.sh, two fake suites and a list.
. "$(dirname "$0")/lib.sh"

# The committed list names only suites there are: the real run.sh reads it
# and, with no suite to run (LK_ONLY matches none), passes.
mkdir empty
run_capture real env LK_ONLY='^none$' bash "$ROOT/tests/run.sh" "$T/empty"
check_eq "tests/san-suites.txt names only existing suites" 0 "$(cat real.rc)"
check_eq "and reading it says nothing" "" "$(cat real.err)"

mkdir -p tree/tests/integ build/bin build-san/bin
cp "$ROOT/tests/run.sh" tree/tests/
printf 'echo "ok 1 - a"\n' >tree/tests/integ/001-a.sh
# 002-b analyses records (it names the analyzer's variable, quoted), so it has an
# elsewhere pass too; the words are split here, or this test would have one.
printf '# "$%s"\necho "ok 1 - b"\n' LINKSCOPE >tree/tests/integ/002-b.sh

# ran BUILD [FULL]: the integration suites that tree's run.sh ran in fake build BUILD
# (FULL 1: every pass, as make check-full; else make check's, whatever this run's own).
ran() {
	LK_ONLY='^integ/' LK_FULL=${2:-0} bash tree/tests/run.sh "$T/$1" 2>&1 |
		sed -n "s|^PASS $1/integ/\([^ ]*\( elsewhere\)\{0,1\}\) .*|\1|p" | sort | paste -sd,
}
printf '# a comment\n\nrun integ/001-a\nskip integ/002-b\n' >tree/tests/san-suites.txt
check_eq "build-san, every pass (check-full): the suites marked skip do not run, an unlisted one does" \
	"001-a,002-b elsewhere" "$(ran build-san 1)"
check_eq "build-san in make check: no elsewhere pass" "001-a" "$(ran build-san)"
check_eq "any other build: every suite runs, no elsewhere pass unless its header says so" "001-a,002-b" "$(ran build)"
# A suite's "# passes:" header: the passes make check runs it in (check-full: all).
printf '# passes: plain (why)\n# "$%s"\necho "ok 1 - c"\n' LINKSCOPE >tree/tests/integ/003-c.sh
printf '# passes: plain san (why)\n# "$%s"\necho "ok 1 - d"\n' LINKSCOPE >tree/tests/integ/004-d.sh
printf '# passes: plain elsewhere san (why,\n# on two lines)\n# "$%s"\necho "ok 1 - e"\n' LINKSCOPE >tree/tests/integ/005-e.sh
check_eq "# passes: plain, plain san, plain elsewhere san: the plain build" "001-a,002-b,003-c,004-d,005-e,005-e elsewhere" "$(ran build)"
check_eq "# passes: plain san, build-san" "001-a,004-d,005-e" "$(ran build-san)"
check_eq "# passes: check-full runs every pass" \
	"001-a,002-b,002-b elsewhere,003-c,003-c elsewhere,004-d,004-d elsewhere,005-e,005-e elsewhere" "$(ran build 1)"
rm tree/tests/integ/003-c.sh tree/tests/integ/004-d.sh tree/tests/integ/005-e.sh

# bad_list DESC EXPECTED-CAUSE LINE: a list with LINE as its second line stops the run.
bad_list() {
	printf 'run integ/001-a\n%s\n' "$3" >tree/tests/san-suites.txt
	run_capture bad env LK_ONLY='^integ/' bash tree/tests/run.sh "$T/build"
	check_eq "$1: exit status 2" 2 "$(cat bad.rc)"
	check_eq "$1: one line naming the list, the line and the cause" \
		"run.sh: $T/tree/tests/san-suites.txt:2: $2" "$(cat bad.err)"
	check_eq "$1: no suite ran" "" "$(grep '^PASS' bad.out)"
}
bad_list "a suite there is not" "no integration suite 'integ/003-gone'" "skip integ/003-gone"
bad_list "an elsewhere pass 001-a does not have" "no integration suite 'integ/001-a elsewhere'" \
	"skip integ/001-a elsewhere"
bad_list "a name that is no integration suite" "no integration suite 'unit/test_argv'" \
	"skip unit/test_argv"
bad_list "neither run nor skip" "'maybe' is not run or skip" "maybe integ/002-b"

rm tree/tests/san-suites.txt
run_capture none env LK_ONLY='^integ/' bash tree/tests/run.sh "$T/build"
check_eq "no list: exit status 2" 2 "$(cat none.rc)"
check_eq "no list: one line naming it" \
	"run.sh: no $T/tree/tests/san-suites.txt (scripts/choose-san-suites.py writes it)" "$(cat none.err)"
finish
