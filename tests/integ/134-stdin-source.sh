# A source the link call compiles from stdin (`cc -xc - -o x < src.c`,
# issue #33 point 4): the shim keeps it as it keeps conftest.c and hands
# the driver the same bytes (from a file, a pipe, past a pipe's buffer);
# the analyzer reads the object the driver made of it, or compiles the copy
# again under --run-driver; over LINKSCOPE_KEEP_MAX the bytes still reach
# the driver whole and the record says that no copy was kept.
. "$(dirname "$0")/lib.sh"

cat >good.c <<'C'
#include <stdio.h>
int main(void) { puts("hello from stdin"); return 0; }
C
cat >bad.c <<'C'
int missing_fn(void);
int main(void) { return missing_fn(); }
C
kept_of() { rec "$(last_record)" '" ".join(sorted(k["reason"] for k in r["kept"] if k["path"] == "-"))'; }
outcome() { "$LINKSCOPE" report --format json "$@" | "$PY" -c 'import json,sys; p=json.load(sys.stdin)["predicted"]; print(p["outcome"], p["unknown_because"] or "")'; }

# 1. From a file: the program built of it runs; the copy is the file's bytes.
check_eq "from a file: links" 0 "$("$SHIM" -xc - -o p1 <good.c; echo $?)"
check_eq "from a file: the program runs" "hello from stdin" "$(./p1)"
check_eq "from a file: kept, and the object made of it" "source-object stdin-source" "$(kept_of)"
check_eq "from a file: the copy is the source" "$(sha256sum <good.c | cut -d' ' -f1)" \
	"$(rec "$(last_record)" '[k["sha256"] for k in r["kept"] if k["reason"] == "stdin-source"][0]')"
check_eq "from a file: analysed" "success " "$(outcome last)"
check "from a file: the record validates" validate "$(last_record)"

# 2. From a pipe, a failing link: the replay reads the object's symbols.
check_eq "from a pipe: fails" 1 "$(cat bad.c | "$SHIM" -xc - -o p2 2>/dev/null; echo $?)"
bad=$(last_record)
check_eq "from a pipe: kept" "source-object stdin-source" "$(kept_of)"
run_capture explain "$LINKSCOPE" explain "$bad"
check_contains "from a pipe: the cause is the stdin source's reference" "$(cat "$T/explain.out")" "missing_fn"

# 3. The object not kept (a record without it): compiled again from the copy, only with --run-driver.
"$PY" - "$bad" "$LINKSCOPE_DIR/nobj.json" <<'P'
import json, sys
r = json.load(open(sys.argv[1]))
r["kept"] = [k for k in r["kept"] if k["reason"] != "source-object"]
json.dump(r, open(sys.argv[2], "w"))
P
chmod 600 "$LINKSCOPE_DIR/nobj.json"
check_contains "without --run-driver: unknown, not compiled" "$(outcome "$LINKSCOPE_DIR/nobj.json")" "unknown"
check_eq "with --run-driver: compiled again from the copy, the failure found" "failure " \
	"$(outcome --run-driver "$LINKSCOPE_DIR/nobj.json")"
check_contains "and told: missing_fn" "$("$LINKSCOPE" explain --run-driver "$LINKSCOPE_DIR/nobj.json")" "missing_fn"
rm "$LINKSCOPE_DIR/nobj.json"

# 4. More than a pipe holds (256 KiB of source): the driver gets every byte.
{
	for i in $(seq 1 6000); do echo "int pad_$i(void) { return $i; }"; done
	echo 'int main(void) { return pad_6000() == 6000 ? 0 : 1; }'
} >big.c
check "big.c is past a pipe's buffer" test "$(stat -c %s big.c)" -gt 200000
check_eq "a big source through a pipe: links" 0 "$(cat big.c | "$SHIM" -xc - -o p4; echo $?)"
check_eq "its program runs" 0 "$(./p4; echo $?)"
check_eq "kept whole" "$(stat -c %s big.c)" "$(rec "$(last_record)" '[k["size"] for k in r["kept"] if k["reason"] == "stdin-source"][0]')"

# 5. Over the keep bound: forwarded whole, not kept, and the record says so.
check_eq "over LINKSCOPE_KEEP_MAX, a pipe: links" 0 "$(cat big.c | LINKSCOPE_KEEP_MAX=1000 "$SHIM" -xc - -o p5; echo $?)"
check_eq "its program runs" 0 "$(./p5; echo $?)"
check_eq "no copy of stdin" "" "$(rec "$(last_record)" '" ".join(k["reason"] for k in r["kept"] if k["reason"] == "stdin-source")')"
check_contains "the record says why" "$(rec "$(last_record)" 'r["warnings"]')" \
	"no copy kept of the source read from stdin: over 1000 bytes"
check_eq "over the bound, a file: links and runs" 0 "$(LINKSCOPE_KEEP_MAX=1000 "$SHIM" -xc - -o p6 <big.c && ./p6; echo $?)"

# 6. "-" with no -x is gcc's error, unchanged, and stdin is not read for it.
check_eq "'-' without -x: gcc's own failure" 1 "$(echo x | "$SHIM" - -o p7 2>/dev/null; echo $?)"

# 7. A stdin that stays silent, which the driver never reads (issue #41 point 5): the
# driver starts first and fails at once as without the shim; nothing waits for stdin.
# (timeout 10 is a hang guard, not a timer: the shim used to block until stdin ended.)
mkfifo silent
sleep 25 >silent &
writer=$!
run_capture plainsilent timeout 10 cc -xc - --no-such-option <silent
run_capture silent timeout 10 "$SHIM" -xc - --no-such-option <silent
kill "$writer" 2>/dev/null
check_eq "a silent stdin: the driver's status, at once" "$(cat "$T/plainsilent.rc")" "$(cat "$T/silent.rc")"
check_contains "and its message" "$(cat "$T/silent.err")" "no-such-option"
check_eq "no copy of a stdin that had not ended" "" "$(kept_of)"
check_contains "the record says why" "$(rec "$(last_record)" 'r["warnings"]')" \
	"no copy kept of the source read from stdin: it had not ended when the driver did"
# And a real one through a pipe still links and keeps its source.
check_eq "echo | -xc -: links" 0 "$(echo 'int main(){return 0;}' | "$SHIM" -xc - -o p8; echo $?)"
check_eq "its program runs" 0 "$(./p8; echo $?)"
check_eq "its source kept" "$(echo 'int main(){return 0;}' | sha256sum | cut -d' ' -f1)" \
	"$(rec "$(last_record)" '[k["sha256"] for k in r["kept"] if k["reason"] == "stdin-source"][0]')"
finish
