# The private TMPDIR the shim gives a link that compiles (shim/tempobj.c,
# issue #15): whatever the driver leaves there (a compiler wrapper's log, a
# plugin's directory, a symlink, the objects of a driver killed by SIGKILL)
# ends where it would have gone without the shim, in the caller's TMPDIR,
# and the private lk-objs-* directory never stays.
. "$(dirname "$0")/lib.sh"

check_eq "the test has a TMPDIR of its own" "$T/tmp" "$TMPDIR"
private_dirs() { find "$TMPDIR" -maxdepth 1 -name 'lk-objs-*' | wc -l; }
printf 'int main(void) { return 0; }\n' >prog.c

# A compiler wrapper that leaves a log, a directory with a file in it and a
# symlink in TMPDIR, then runs the real gcc.
cat >leaky-cc <<'SH'
#!/bin/sh
echo "wrapper log" >"$TMPDIR/leaky.log"
mkdir "$TMPDIR/leaky.d" && echo "plugin state" >"$TMPDIR/leaky.d/state"
ln -s /nonexistent/target "$TMPDIR/leaky.lnk"
echo "the driver's" >"$TMPDIR/fixed.name"
exec gcc "$@"
SH
chmod +x leaky-cc
echo "mine" >"$TMPDIR/fixed.name"
run_capture leaky "$SHIM" -- ./leaky-cc prog.c -o prog
check_eq "a leaky wrapper: the link's own status" 0 "$(cat "$T/leaky.rc")"
check_eq "the record keeps the object the driver compiled" "source-object" \
	"$(rec "$(last_record)" '[k["reason"] for k in r["kept"] if k["path"] == "prog.c"][-1]')"
check_eq "no private TMPDIR stays" 0 "$(private_dirs)"
check_eq "the wrapper's log is in TMPDIR" "wrapper log" "$(cat "$TMPDIR/leaky.log" 2>&1)"
check_eq "its directory too, with what is in it" "plugin state" "$(cat "$TMPDIR/leaky.d/state" 2>&1)"
check_eq "a symlink is moved, not followed" "/nonexistent/target" "$(readlink "$TMPDIR/leaky.lnk")"
check_eq "a name taken in TMPDIR: the file there is untouched" "mine" "$(cat "$TMPDIR/fixed.name")"
check_eq "and the driver's is beside it under a fresh name" "the driver's" \
	"$(cat "$TMPDIR/fixed.name.linkscope-1" 2>&1)"

# A driver killed by SIGKILL once it has written its temporary files: the
# shim records the signal, dies by it, and what the driver left is in TMPDIR.
cat >killed-cc <<'SH'
#!/bin/sh
gcc -c prog.c -o "$TMPDIR/ccKILLED.o"
echo "half done" >"$TMPDIR/ccKILLED.s"
kill -KILL $$
SH
chmod +x killed-cc
run_capture killed "$SHIM" -- ./killed-cc prog.c -o prog2
check_eq "a driver killed by SIGKILL: the shim dies by it too" 137 "$(cat "$T/killed.rc")"
check_eq "the record says so" 9 "$(rec "$(last_record)" 'r["result"]["signal"]')"
check_eq "no private TMPDIR stays after a SIGKILL" 0 "$(private_dirs)"
check "the killed driver's object is in TMPDIR" test -s "$TMPDIR/ccKILLED.o"
check_eq "and its other file" "half done" "$(cat "$TMPDIR/ccKILLED.s" 2>&1)"

# The plain case: gcc deletes its own temporaries, nothing is moved.
ls -A "$TMPDIR" | sort >before.list
run_capture plain "$SHIM" prog.c -o prog3
check_eq "a plain compile-and-link: the link's own status" 0 "$(cat "$T/plain.rc")"
check_eq "nothing is added to TMPDIR" "" "$(ls -A "$TMPDIR" | sort | comm -13 before.list -)"
finish
