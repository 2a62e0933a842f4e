# report --failed analyses the failed records in worker processes, one
# per CPU or --jobs N (issue #30 point 3): the report is the one process's
# byte for byte, as text and JSON, with a cold cache and a warm one, and
# each record's cache entry (its parts and its read set) is the one a
# single process writes. The workers really are several processes at once,
# and one killed while it analyses costs its own record only.
. "$(dirname "$0")/lib.sh"

# The inputs live in proj/: the analyses list the dirs of their inputs, so
# what the test keeps (in saved/) stays out of what they read.
mkdir -p proj/lib saved
cd proj || exit 1
printf 'int compute(int x) { return x + 1; }\n' >calc.c
printf 'int missing_one(void);\nint main(void) { return missing_one(); }\n' >one.c
printf 'int missing_shared(void);\nint main(void) { return missing_shared(); }\n' >two.c
printf 'int missing_shared(void);\nint main(void) { return missing_shared() + 1; }\n' >three.c
printf 'int compute(int);\nint main(void) { return compute(1); }\n' >early.c
printf 'int dup(void) { return 1; }\nint main(void) { return dup(); }\n' >dup1.c
printf 'int dup(void) { return 2; }\n' >dup2.c
printf 'int helper(void) { return 0; }\n' >nomain.c
cc -c calc.c one.c two.c three.c early.c dup1.c dup2.c nomain.c
ar rcs lib/libcalc.a calc.o
# Seven failed links, six causes: symbols nothing defines (one shared by two
# links), an archive read before the object that needs it, a library not
# found, a symbol defined twice, no main.
"$SHIM" one.o -o one 2>/dev/null
"$SHIM" two.o -o two 2>/dev/null
"$SHIM" three.o -o three 2>/dev/null
"$SHIM" -Llib -lcalc early.o -o early 2>/dev/null
"$SHIM" early.o -Llib -lnothere -lcalc -o nothere 2>/dev/null
"$SHIM" dup1.o dup2.o -o dup 2>/dev/null
"$SHIM" nomain.o -o nomain 2>/dev/null
cd "$T" || exit 1
check_eq "seven failed links recorded" 7 "$("$LINKSCOPE" list | grep -c ' exit:1 ')"

failed_dir=$T/cache/linkscope/failed
# report J FORMAT: report --failed with --jobs J (stderr kept apart: a worker must say nothing there).
report() { "$LINKSCOPE" report --failed --jobs "$1" --format "$2" 2>"$T/err.$1"; }
cold() { rm -rf "$failed_dir"; }

# The provider and package indexes are shared by all the analyses: the
# first analysis that needs one builds it, and its read set holds what the
# build read, whichever record that was. Built beforehand, every entry is
# its own record's alone.
report 1 text >/dev/null

cold
text1=$(report 1 text)
check_eq "-j 1 says nothing on stderr" "" "$(cat "$T/err.1")"
cp -r "$failed_dir" saved/j1
check_eq "one entry per failed record" 7 "$(ls saved/j1 | wc -l)"
check_contains "the shared cause once, with its two links" "$text1" "undefined-symbol: missing_shared (2 links)"
check_contains "the archive read too early" "$text1" "undefined-symbol: compute"
check_contains "the library not found" "$text1" "input-not-found: -lnothere"
check_contains "the symbol defined twice" "$text1" "multiple-definition: dup"
check_contains "no main" "$text1" "undefined-symbol: main"

cold
text2=$(report 2 text)
check_eq "cold cache: -j 2 gives -j 1's report, byte for byte" "$text1" "$text2"
check_eq "-j 2 says nothing on stderr" "" "$(cat "$T/err.2")"
check "cold cache: each record's entry, read set and all, is -j 1's" diff -r saved/j1 "$failed_dir"

cold
json1=$(report 1 json)
cold
json2=$(report 2 json)
check_eq "cold cache: -j 2 gives -j 1's JSON" "$json1" "$json2"
check "the JSON is JSON" "$PY" -c 'import json, sys; json.loads(sys.argv[1])' "$json2"

check_eq "warm cache: -j 2's text is the cold one" "$text1" "$(report 2 text)"
check_eq "warm cache: -j 1's text is the cold one" "$text1" "$(report 1 text)"
check_eq "warm cache: -j 2's JSON is the cold one" "$json1" "$(report 2 json)"
check_eq "warm cache: the entries are still -j 1's" "" "$(diff -r saved/j1 "$failed_dir")"
check_eq "the default (one worker per CPU) gives the same report" "$text1" \
	"$(cold && "$LINKSCOPE" report --failed 2>&1)"
check_eq "as does --jobs=7, more workers than one per CPU" "$text1" \
	"$(cold && "$LINKSCOPE" report --failed --jobs=7 2>&1)"
check_eq "and -j3, as make takes it" "$text1" "$(cold && "$LINKSCOPE" report --failed -j3 2>&1)"

# Several processes at once: each entry is written by the process that analysed it (its temporary name has its pid).
if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
	cold
	strace -f -qq -e trace=rename -o "$T/renames" "$LINKSCOPE" report --failed -j 3 >/dev/null 2>&1
	writers=$(grep -o '"[^"]*/failed/\.[0-9a-f]*\.[0-9]*\.tmp"' "$T/renames" | sed 's/.*\.\([0-9]*\)\.tmp"/\1/' | sort -u | wc -l)
	check_eq "-j 3: the seven entries are written by three worker processes" 3 "$writers"
	cold
	strace -f -qq -e trace=rename -o "$T/renames" "$LINKSCOPE" report --failed -j 1 >/dev/null 2>&1
	writers=$(grep -o '"[^"]*/failed/\.[0-9a-f]*\.[0-9]*\.tmp"' "$T/renames" | sed 's/.*\.\([0-9]*\)\.tmp"/\1/' | sort -u | wc -l)
	check_eq "-j 1: by one process" 1 "$writers"
else
	ok "# SKIP strace cannot trace here: the workers' pids are not checked"
fi

# A worker killed while it analyses (as the OOM killer would): an ld on the
# PATH that kills the worker running it, the first time only (mkdir is
# atomic), and is the real ld otherwise. Its record is "not-analysed" with
# the reason, the other links are analysed as ever, and the next report
# (the killer gone) analyses that record again.
# The binary itself, not LK_ELSEWHERE's wrapper: that one sets its own PATH.
analyzer=$LK_BUILD/bin/linkscope
mkdir fakebin
cat >fakebin/ld <<'EOF'
#!/bin/bash
# Only a worker: a linkscope whose parent is a linkscope.
grand=$(awk '{ print $4 }' "/proc/$PPID/stat")
if [ "$(cat "/proc/$PPID/comm")" = linkscope ] && [ "$(cat "/proc/$grand/comm")" = linkscope ] &&
	mkdir "$(dirname "$0")/killed" 2>/dev/null; then
	kill -9 "$PPID"
	sleep 5
fi
exec /usr/bin/ld "$@"
EOF
chmod +x fakebin/ld
cold
killed=$(PATH=$T/fakebin:$PATH "$analyzer" report --failed -j 2 2>&1)
check "the killer ran" test -d fakebin/killed
check_contains "a killed worker's record: not-analysed, and why" "$killed" \
	"the analysis stopped: its worker process was killed by signal 9"
check_contains "every link is still in the report" "$killed" "linkscope: 7 failed links of 7 records"
records_of() { grep -o 'record [^ ]*\.json' <<<"$1" | sort -u; }
check_eq "each record is under a cause, the killed one's too" "$(records_of "$text1")" "$(records_of "$killed")"
check_eq "one cause is the killed worker's" 1 "$(grep -c '^[0-9]*\. not-analysed' <<<"$killed")"
check_eq "the next report analyses that record again" "$text1" "$(report 2 text)"

# The progress line: on a terminal (script(1) gives the report one), for a
# run past a second (an ld that is slow the first time it runs), said on
# stderr as the count goes up and cleared before the report; never in a
# pipe or a file (the checks of stderr above).
if command -v script >/dev/null; then
	mkdir slowbin
	printf '#!/bin/bash\nmkdir "$(dirname "$0")/slow" 2>/dev/null && sleep 1.5\nexec /usr/bin/ld "$@"\n' >slowbin/ld
	chmod +x slowbin/ld
	cold
	tty_err=$(PATH=$T/slowbin:$PATH script -qec "'$analyzer' report --failed -j 2 >'$T/tty.out'" /dev/null | od -An -c | tr -s ' \n' ' ')
	check_contains "on a terminal, past a second: the count" "$tty_err" '\r l i n k s c o p e : a n a l y s i n g 7 / 7 l i n k s . . .'
	check_contains "and the line cleared at the end" "$tty_err" '. . . \r 033 [ K'
	check_eq "the report on stdout is the same" "$text1" "$(cat "$T/tty.out")"
else
	ok "# SKIP no script(1): no terminal to show the progress line on"
fi

# Bad values: one line naming the option and the value, exit 2.
for bad in 0 -3 x 2x 100000; do
	err=$("$LINKSCOPE" report --failed -j "$bad" 2>&1 >/dev/null)
	rc=$?
	check_eq "-j $bad: exit 2" 2 "$rc"
	check_eq "-j $bad: one line saying why" "linkscope: '--jobs' takes a number of processes from 1 to 1024, not '$bad'" "$err"
done
err=$("$LINKSCOPE" report --jobs 2 --format text last-failed 2>&1 >/dev/null)
check_eq "--jobs without --failed is refused" "linkscope: --jobs goes with 'report --failed'" "$err"
finish
