# A record is untrusted input (docs/security.md). Real records made by the
# shim, then altered as an attacker would: the analyzer runs nothing a record
# names unless asked (--run-driver, --verify-with-linker), and then only this
# machine's driver of that name with allow-listed options, in a scratch dir;
# --write-reports never follows a planted symlink.
. "$(dirname "$0")/lib.sh"

printf 'int helper(void);\nint main(void) { return helper() - 1; }\n' >main.c
printf 'int helper(void) { return 1; }\n' >helper.c
cc -c main.c -o main.o
cc -c helper.c -o helper.o
ar rcs libhelper.a helper.o
mkdir -p evil
# A "driver" and a "linker" that leave a mark if anyone runs them.
for prog in evil/cc evil/tool evil/ld; do
	printf '#!/bin/sh\ntouch "%s/ran-$(basename "$0")"\nexit 0\n' "$T" >"$prog"
	chmod +x "$prog"
done

# alter IN OUT PYTHON: OUT is IN with the record `r` changed by PYTHON.
# ins(r, pos, text) inserts an argument with its origin and provenance.
alter() {
	"$PY" - "$1" "$2" "$3" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
def ins(r, pos, text):
    r["argv_expanded"].insert(pos, text)
    r["arg_origins"].insert(pos, {"argv_index": 0, "response_file": None})
    r["provenance"]["args"].insert(pos, "user")
exec(sys.argv[3])
json.dump(r, open(sys.argv[2], "w"))
PY
}

marks() { ls "$T" | grep -c '^ran-\|^pwned' ; }

# 1. A failed link with a source on the line, its driver replaced by /usr/bin/env
#    running a shell, options that would write where the record says.
run_capture src "$SHIM" -L. -lhelper main.c -o prog
src=$(last_record)
alter "$src" hostile.json "
r['driver']['given'] = r['driver']['resolved'] = r['argv_expanded'][0] = '/usr/bin/env'
ins(r, 1, \"-Ssh -c 'touch $T/pwned-env' #\")
ins(r, 2, '-MD'); ins(r, 3, '-MF$T/pwned-mf')
r['linker']['print_prog_name'] = '$T/evil/ld'
"
# The same with link options that write, which the recorded -### never saw.
alter hostile.json hostile-wl.json "ins(r, 4, '-Wl,-Map=$T/pwned-map'); ins(r, 5, '-Wl,-o,$T/pwned-o')"
for rj in hostile.json hostile-wl.json; do
	for cmd in "show" "explain" "report --format json" "explain --replay-only" "show --no-driver"; do
		$LINKSCOPE $cmd $rj >/dev/null 2>&1
		check_eq "$rj: $cmd: nothing the record names ran, nothing written" 0 "$(marks)"
	done
	"$LINKSCOPE" why $rj helper >/dev/null 2>&1
	check_eq "$rj: why: nothing ran" 0 "$(marks)"
	"$LINKSCOPE" diff $rj $rj >/dev/null 2>&1
	check_eq "$rj: diff: nothing ran" 0 "$(marks)"
done
check_contains "an object of a source the line model cannot place: unknown, not 'fails'" \
	"$("$LINKSCOPE" explain hostile-wl.json)" "the outcome is unknown"
out=$("$LINKSCOPE" explain hostile.json)
check_contains "explain: an honest unknown, not a guess" "$out" "the outcome is unknown"
check_contains "explain: says what was not run and why" "$out" "'main.c' was not compiled again: the analyzer runs no compiler unless asked (--run-driver)"
check_eq "report json: outcome unknown, no diagnostic" "unknown 0" \
	"$("$LINKSCOPE" report --format json hostile.json | "$PY" -c 'import json,sys; r=json.load(sys.stdin); print(r["predicted"]["outcome"], len(r["diagnostics"]))')"

# Asked to run the driver: /usr/bin/env is no compiler driver, so still nothing runs.
out=$("$LINKSCOPE" explain --run-driver --verify-with-linker hostile.json 2>&1)
check_eq "--run-driver: /usr/bin/env is refused" 0 "$(marks)"
check_contains "and the refusal is said" "$out" "'main.c' was not compiled again: the record's driver 'env' is not a known compiler driver"

# The driver named cc but at the record's path: this machine's cc runs instead,
# with the writing options dropped and reported.
alter hostile.json cc-path.json "
r['driver']['given'] = r['driver']['resolved'] = r['argv_expanded'][0] = '$T/evil/cc'
del r['argv_expanded'][1]; del r['arg_origins'][1]; del r['provenance']['args'][1]
"
out=$("$LINKSCOPE" show --run-driver cc-path.json 2>&1)
check_eq "--run-driver: the record's path to cc never runs, nor its options write" 0 "$(marks)"
check_contains "--run-driver: the source is compiled by this machine's cc" "$out" "'main.c' compiled again now from the file"
check_contains "--run-driver: the dropped options are named" "$out" "not passed to the driver (not on the allow-list of docs/security.md): -MD -MF$T/pwned-mf"

# 2. --verify-with-linker on a failed link whose record asks for writes elsewhere.
run_capture bad "$SHIM" -L. -lhelper main.o -o prog
alter "$(last_record)" verify.json "
r['driver']['resolved'] = '$T/evil/cc'
n = len(r['argv_expanded'])
for k, a in enumerate(['-Wl,-Map=$T/pwned-vmap', '-Wl,-o,$T/pwned-vo', '-B$T/evil/',
                       '-specs=$T/pwned-specs', '-wrapper', '$T/evil/tool']):
    ins(r, n + k, a)
"
out=$("$LINKSCOPE" explain --verify-with-linker verify.json)
check_eq "--verify-with-linker: no -Map, no -o elsewhere, no -B program, no wrapper" 0 "$(marks)"
check_contains "--verify-with-linker: this machine's linker checks the fix" "$out" "the real linker with this edit: links: not passed to the driver"
check "--verify-with-linker: the user's output is untouched" test ! -e prog

# 3. linker.print_prog_name names a program: it is never run, nor looked up on PATH.
mkdir -p onpath
cp evil/ld onpath/evil-ld
cp evil/ld onpath/evil-x86_64-linux-gnu-ld
run_capture ok "$SHIM" main.o helper.o -o prog
alter "$(last_record)" ppn.json "r['linker']['print_prog_name'] = 'evil-ld'"
alter "$(last_record)" ppn2.json "r['linker']['print_prog_name'] = '$T/evil/ld'; r['target']['triple'] = 'evil-x86_64-linux-gnu'"
for rj in ppn.json ppn2.json; do
	PATH="$T/onpath:$PATH" "$LINKSCOPE" show $rj >/dev/null 2>&1
	PATH="$T/onpath:$PATH" "$LINKSCOPE" show --run-driver $rj >/dev/null 2>&1
done
check_eq "print_prog_name and target name programs on PATH: not run" 0 "$(marks)"

# 4. --write-reports replaces a symlink planted where a report goes, never follows it.
run_capture bad2 "$SHIM" -L. -lhelper main.o -o prog
r=$(last_record)
echo precious >victim
ln -s "$T/victim" "${r%.json}.report.json"
"$LINKSCOPE" explain --write-reports "$r" >/dev/null
check_eq "--write-reports: the symlink's target is untouched" precious "$(cat victim)"
check "--write-reports: the report is a regular file now" test -f "${r%.json}.report.json" -a ! -L "${r%.json}.report.json"
check_eq "--write-reports: reports are private" 600 "$(stat -c %a "${r%.json}.report.json")"
finish
