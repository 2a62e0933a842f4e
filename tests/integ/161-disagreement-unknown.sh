# A replay that disagrees with the link it replays is no verdict (issue #40):
# when the record says the real link succeeded and the replay under its own
# linker's rules says it fails (or the reverse), `check` gives "unknown"
# and exits 0, and `whatif` from that baseline cannot tell (3), naming the
# disagreement; the record's real outcome is the truth. The disagreeing
# records are real records with their outcome turned over (the replay
# reads the same inputs), so the model is made to misread on purpose.
# Then an input is rewritten since the link (as cargo's build scripts
# rewrite their archives): the disagreement is the inputs', not the
# model's, and whatif predicts from the tree as it is.
. "$(dirname "$0")/lib.sh"

printf 'int f(void);\nint main(void) { return f(); }\n' >bad.c
printf 'int main(void) { return 0; }\n' >good.c
cc -c bad.c && cc -c good.c
"$SHIM" bad.o -o bad 2>/dev/null
failed=$(last_record)
"$SHIM" good.o -o good
linked=$(last_record)

# turn RECORD EXIT OUT: RECORD with its real link's exit status made EXIT.
turn() {
	"$PY" - "$1" "$2" "$3" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))
r["result"]["exit_status"] = r["result"]["shim_exit"] = int(sys.argv[2])
fd = os.open(sys.argv[3], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
os.write(fd, json.dumps(r).encode())
PY
}
turn "$failed" 0 said-linked.json
turn "$linked" 1 said-failed.json

# The controls: a replay that agrees is acted on.
run_capture failed "$LINKSCOPE" check "$failed"
check_eq "check of a real failure the replay agrees with exits 1" 1 "$(cat "$T/failed.rc")"
run_capture linked "$LINKSCOPE" check "$linked"
check_eq "check of a real success the replay agrees with exits 0" 0 "$(cat "$T/linked.rc")"
check_contains "and says ok" "$(cat "$T/linked.out")" "result: ok"

run_capture sl "$LINKSCOPE" check said-linked.json
check_eq "a recorded success the replay fails: check exits 0, no false alarm" 0 "$(cat "$T/sl.rc")"
check_contains "its result is unknown" "$(cat "$T/sl.out")" "result: unknown"
check_contains "naming the disagreement" "$(cat "$T/sl.out")" "says the link fails, where the recorded link succeeded (exit 0)"
"$LINKSCOPE" check --format json said-linked.json >sl.json
check_eq "check --format json: result unknown, exit_status 0" "unknown 0" \
	"$(rec sl.json 'r["result"], r["exit_status"]' | tr -d "(),'")"

run_capture sf "$LINKSCOPE" check said-failed.json
check_eq "a recorded failure the replay links: check exits 0" 0 "$(cat "$T/sf.rc")"
check_contains "its result is unknown, not ok" "$(cat "$T/sf.out")" "result: unknown"
check_contains "naming the disagreement" "$(cat "$T/sf.out")" "says the link links, where the recorded link failed (exit 1)"

# whatif: the same line from a baseline the model misreads cannot be told.
"$PY" -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["argv"]))' "$failed" >bad.argv
run_capture wf "$LINKSCOPE" whatif --argv-file bad.argv "$failed"
check_eq "whatif from the real failure, the same line: predicted to fail (1)" 1 "$(cat "$T/wf.rc")"
run_capture wsl "$LINKSCOPE" whatif --argv-file bad.argv said-linked.json
check_eq "whatif from a baseline whose replay disagrees: cannot tell (3), not 1" 3 "$(cat "$T/wsl.rc")"
check_contains "naming the baseline's disagreement" "$(cat "$T/wsl.out")" "the baseline: the replay under GNU ld's rules says the link fails"

# An input rebuilt since the baseline's link.
touch -d '+1 minute' bad.o
run_capture wch "$LINKSCOPE" whatif --argv-file bad.argv said-linked.json
check_eq "bad.o rewritten since: whatif from that baseline predicts (1), the real link's" 1 "$(cat "$T/wch.rc")"
check_eq "... no 'model misreads' among its reasons" 0 "$(grep -c 'misreads' "$T/wch.out")"
run_capture ech "$LINKSCOPE" explain said-linked.json
check_contains "explain: unknown, naming the input that changed since the link" "$(cat "$T/ech.out")" \
	"'$T/bad.o' has changed since the link"
# The reverse: a recorded failure the replay links, its object rewritten since.
"$PY" -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["argv"]))' "$linked" >good.argv
run_capture wgood "$LINKSCOPE" whatif --argv-file good.argv said-failed.json
check_eq "whatif from the turned success, good.o as linked: cannot tell (3)" 3 "$(cat "$T/wgood.rc")"
touch -d '+1 minute' good.o
run_capture wgch "$LINKSCOPE" whatif --argv-file good.argv said-failed.json
check_eq "good.o rewritten since: whatif predicts 0, the real link's" 0 "$(cat "$T/wgch.rc")"
run_capture egch "$LINKSCOPE" explain said-failed.json
check_contains "explain: the disagreement, and the input that explains it" "$(cat "$T/egch.out")" \
	"it reads other inputs than ld did: '$T/good.o' has changed since the link"
run_capture cgch "$LINKSCOPE" check said-failed.json
check_eq "check: still unknown, exit 0" 0 "$(cat "$T/cgch.rc")"
check_contains "... its reason the changed input, not the model" "$(cat "$T/cgch.out")" "'$T/good.o' has changed since the link"
finish
