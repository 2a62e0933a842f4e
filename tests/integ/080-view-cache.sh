# Issue #20, point 1: the driver's view (-### and -print-prog-name) taken
# once per profile and reused, the record as exact as a fresh -###. The
# driver is a small ELF program named gcc that logs every run and execs the
# real gcc, so the test can count what the shim ran.
. "$(dirname "$0")/lib.sh"

# This test counts driver runs: no verification by chance, no check mode.
export LINKSCOPE_VIEW_VERIFY_EVERY=1048576
unset LINKSCOPE_VIEW_CHECK
export VIEWLOG=$T/driver.log
mkdir bin
cat >gccwrap.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	FILE *f = fopen(getenv("VIEWLOG"), "a");
	for (int i = 1; i < argc; i++)
		fprintf(f, "%s ", argv[i]);
	fputc('\n', f);
	fclose(f);
	argv[0] = "/usr/bin/gcc";
	execv("/usr/bin/gcc", argv);
	return 127;
}
C
cc -O2 -o bin/gcc gccwrap.c
export LINKSCOPE_LINKER=$T/bin/gcc
write_main
printf 'int helper(void) { return 1; }\n' >helper.c
cc -c helper.c -o helper.o
mkdir lib && ar rcs lib/libhelper.a helper.o

runs() { grep -c -- "$1" "$VIEWLOG" 2>/dev/null || true; }
# The views only: views/linker-* are the linker programs' identities (shim/linkerid.c).
views() { find "$LINKSCOPE_DIR/views" -type f ! -name '.*' ! -name 'linker-*' 2>/dev/null | wc -l; }
fresh_runs() { runs '-###'; }

# The commands a fresh `gcc -###` gives, parsed as gcc quotes them, and
# the record's, gcc's temporary name (ccXXXXXX) left out of both.
cat >same-as-fresh.py <<'PY'
import json, re, shlex, subprocess, sys
rec = json.load(open(sys.argv[1]))
argv = rec["argv_expanded"]
out = subprocess.run(["/usr/bin/gcc", "-###"] + argv[1:], capture_output=True, text=True).stderr
cmds = [shlex.split(l) for l in out.splitlines() if l.startswith(" ") and not l.startswith("  ")]
tmp = re.compile(r"/cc[A-Za-z0-9]{6}\.")
norm = lambda c: [[tmp.sub("/ccXXXXXX.", w) for w in x] for x in c]
got = norm(rec["expansion"]["commands"])
want = norm(cmds)
print("same" if got == want else "differs:\n%s\n%s" % (got, want))
PY
same_as_fresh() { "$PY" same-as-fresh.py "$1"; }

# 1. The first link of a profile: a fresh -###, -print-prog-name and the probe; one entry.
run_capture l1 "$SHIM" main.o -o app1
check_eq "first link: links" 0 "$(cat "$T/l1.rc")"
check_eq "first link: one -### for the record, one for the probe" 2 "$(fresh_runs)"
check_eq "first link: the probe's markers" 1 "$(runs lk-view-slot)"
check_eq "first link: -print-prog-name" 1 "$(runs -print-prog-name)"
check_eq "first link: one entry" 1 "$(views)"
entry=$(find "$LINKSCOPE_DIR/views" -type f ! -name '.*' ! -name 'linker-*')
check_eq "the entry is private (0600)" 600 "$(stat -c %a "$entry")"
check_eq "the views dir is private (0700)" 700 "$(stat -c %a "$LINKSCOPE_DIR/views")"

# 2. The same profile, other words of the link's own: no driver run but the link.
: >"$VIEWLOG"
run_capture l2 "$SHIM" helper.o main.o -Llib -L "$T/lib" -lhelper -Wl,--as-needed,-z,now -Xlinker -O1 -o app2
check_eq "reuse: links" 0 "$(cat "$T/l2.rc")"
check_eq "reuse: the driver ran once, for the link" 1 "$(wc -l <"$VIEWLOG")"
check_eq "reuse: no -###" 0 "$(fresh_runs)"
r2=$(last_record)
check_eq "reuse: the recorded view is a fresh -###'s" same "$(same_as_fresh "$r2")"
check_eq "reuse: -print-prog-name as the driver answers it" "$(/usr/bin/gcc -print-prog-name=ld)" \
	"$(rec "$r2" 'r["linker"]["print_prog_name"]')"
check_eq "reuse: the record has no warning" "[]" "$(rec "$r2" 'r["warnings"]')"
check "reuse: the record validates against the schema" validate "$r2"

# 3. Another profile (-static), another LIBRARY_PATH: each an entry of its own.
: >"$VIEWLOG"
run_capture l3 "$SHIM" -static main.o -o app3
check_eq "-static: learnt (a probe)" 1 "$(runs lk-view-slot)"
check_eq "-static: a second entry" 2 "$(views)"
LIBRARY_PATH=$T/lib run_capture l4 "$SHIM" main.o -o app4
check_eq "LIBRARY_PATH: a third entry" 3 "$(views)"
: >"$VIEWLOG"
LIBRARY_PATH=$T/lib run_capture l5 "$SHIM" main.o helper.o -o app5
check_eq "LIBRARY_PATH again: reused" 0 "$(fresh_runs)"
check_eq "LIBRARY_PATH again: the view is a fresh -###'s (its -L)" same \
	"$(LIBRARY_PATH=$T/lib same_as_fresh "$(last_record)")"

# 4. A new driver binary in the same place: its view is learnt again.
touch -d '2020-01-01' bin/gcc
: >"$VIEWLOG"
run_capture l6 "$SHIM" main.o -o app6
check_eq "a changed driver: learnt again" 1 "$(runs lk-view-slot)"

# 5. A line the model does not cover (a source): taken fresh, as before.
: >"$VIEWLOG"
run_capture l7 "$SHIM" helper.c main.o -o app7
check_eq "a source on the line: a fresh -###, no probe" "1 0" "$(fresh_runs) $(runs lk-view-slot)"

# 6. A failed link: its view is taken fresh, after it.
: >"$VIEWLOG"
run_capture l8 "$SHIM" main.o -lnosuchlib -o app8
check_eq "failed link: fails" 1 "$(cat "$T/l8.rc")"
check_eq "failed link: a fresh -###" 1 "$(fresh_runs)"
check_eq "failed link: the view is a fresh -###'s" same "$(same_as_fresh "$(last_record)")"

# 7. An entry older than a day: verified by a fresh run, and young again.
entry=$(grep -l -- '-static' "$LINKSCOPE_DIR"/views/* | head -n 1)
for e in "$LINKSCOPE_DIR"/views/*; do [ "$e" != "$entry" ] && rm -f "$e"; done
: >"$VIEWLOG"
run_capture l9 "$SHIM" main.o -o app9
entry=$(grep -L -- '-static' "$LINKSCOPE_DIR"/views/[0-9a-f]* | head -n 1)
"$PY" - "$entry" <<'PY'
import sys, time
p = sys.argv[1]
d = open(p, "rb").read()
magic = b"linkscope-view/1\n"
rest = d[len(magic):]
n = int(rest[:rest.index(b":")])
key_end = rest.index(b":") + 1 + n + 1
old = str(int(time.time()) - 2 * 86400).encode()
t_len = int(rest[key_end:rest.index(b":", key_end)])
after = rest[rest.index(b":", key_end) + 1 + t_len + 1:]
open(p, "wb").write(magic + rest[:key_end] + b"%d:%s\n" % (len(old), old) + after)
PY
: >"$VIEWLOG"
run_capture l10 "$SHIM" main.o -o app10
check_eq "an old entry: verified by a fresh -###" "1 0" "$(fresh_runs) $(runs lk-view-slot)"
: >"$VIEWLOG"
run_capture l11 "$SHIM" main.o -o app11
check_eq "verified: young again, reused" 0 "$(fresh_runs)"

# 8. An entry that parses but says the wrong thing, found by a verification:
#    the record gets the fresh view and a warning, and the entry goes.
sed -i 's/^10:--build-id$/10:--build-xx/' "$entry"
check_contains "the entry was tampered with" "$(cat "$entry")" "--build-xx"
LINKSCOPE_VIEW_CHECK=$T/check.log run_capture l12 "$SHIM" main.o -o app12
r12=$(last_record)
check_contains "a wrong entry: the record says so" "$(rec "$r12" 'r["warnings"]')" \
	"the driver's view cached for this profile differs from a fresh -###"
check_eq "a wrong entry: the record has the fresh view" same "$(same_as_fresh "$r12")"
check_contains "a wrong entry: the check log says MISMATCH" "$(cat "$T/check.log")" "MISMATCH: commands[0]"
check "a wrong entry: dropped" test ! -e "$entry"

# 9. A corrupt entry is no entry: a fresh view, and the entry written anew.
run_capture l13 "$SHIM" main.o -o app13
entry=$(grep -L -- '-static' "$LINKSCOPE_DIR"/views/[0-9a-f]* | head -n 1)
head -c 100 "$entry" >"$entry.cut" && mv "$entry.cut" "$entry"
: >"$VIEWLOG"
run_capture l14 "$SHIM" main.o -o app14
check_eq "a corrupt entry: links" 0 "$(cat "$T/l14.rc")"
check_eq "a corrupt entry: a fresh view and a probe" "2 1" "$(fresh_runs) $(runs lk-view-slot)"
check_eq "a corrupt entry: the view is a fresh -###'s" same "$(same_as_fresh "$(last_record)")"
: >"$VIEWLOG"
run_capture l15 "$SHIM" main.o -o app15
check_eq "a corrupt entry: written anew, then reused" 0 "$(fresh_runs)"

# 10. A FIFO where the entry goes: never opened, the view taken fresh.
rm -f "$entry" && mkfifo "$entry"
: >"$VIEWLOG"
run_capture l16 timeout 20 "$SHIM" main.o -o app16
check_eq "a FIFO entry: the link does not block" 0 "$(cat "$T/l16.rc")"
check_eq "a FIFO entry: a fresh view, no probe" "1 0" "$(fresh_runs) $(runs lk-view-slot)"
check "a FIFO entry: left as it is" test -p "$entry"
rm -f "$entry"

# 11. A profile the probe shows the model does not cover: -A takes the next
#     word as its value, so x.o is no input. Learnt as such: no reuse, no probe again.
: >"$VIEWLOG"
run_capture l17 "$SHIM" -A x.o main.o -o app17
check_eq "-A x.o: links" 0 "$(cat "$T/l17.rc")"
check_eq "-A x.o: the view is a fresh -###'s" same "$(same_as_fresh "$(last_record)")"
: >"$VIEWLOG"
run_capture l18 "$SHIM" -A x.o helper.o main.o -o app18
check_eq "-A x.o again: a fresh -###, and no probe" "1 0" "$(fresh_runs) $(runs lk-view-slot)"
check_eq "-A x.o again: the view is a fresh -###'s" same "$(same_as_fresh "$(last_record)")"

# 12. The check mode logs one line per link.
: >"$T/check.log"
LINKSCOPE_VIEW_CHECK=$T/check.log "$SHIM" main.o -o app19
LINKSCOPE_VIEW_CHECK=$T/check.log "$SHIM" main.o -o app20
check_eq "check mode: one line per link" "learn ok|reuse verified" "$(paste -sd '|' "$T/check.log")"

# 13. The entry is not redacted, and a record dir travels: a profile word
#     the record redacts makes the view fresh, and no entry holds it.
: >"$VIEWLOG"
run_capture l21 "$SHIM" -DAPI_TOKEN=sekrit1234 main.o -o app21
check_eq "a secret profile word: a fresh -###, no probe" "1 0" "$(fresh_runs) $(runs lk-view-slot)"
check_eq "a secret profile word: in no entry" "" "$(grep -rl sekrit1234 "$LINKSCOPE_DIR/views")"
check_contains "a secret profile word: redacted in the record" "$(rec "$(last_record)" 'r["argv"]')" \
	"API_TOKEN=[redacted]"

# 14. views/ a symlink to elsewhere: nothing written through it, no probe.
rm -rf "$LINKSCOPE_DIR/views" && mkdir outside-views && ln -s "$T/outside-views" "$LINKSCOPE_DIR/views"
: >"$VIEWLOG"
run_capture l22 "$SHIM" main.o -o app22
check_eq "a symlinked views/: links" 0 "$(cat "$T/l22.rc")"
check_eq "a symlinked views/: a fresh -###, no probe" "1 0" "$(fresh_runs) $(runs lk-view-slot)"
check_eq "a symlinked views/: nothing written through it" 0 "$(ls -A outside-views | wc -l)"

finish
