# Inputs a record points at may be hostile or odd (issue #7): an archive
# whose index names lack their NUL, a linker script that includes itself, a
# FIFO, a directory given as the record; and LINKSCOPE_KEEP_MAX past 2^61.
# Under ASan and UBSan in make check: nothing crashes, each is said.
. "$(dirname "$0")/lib.sh"

printf 'int helper(void);\nint main(void) { return helper() - 1; }\n' >main.c
printf 'int helper(void) { return 1; }\nint helper2(void) { return 2; }\n' >helper.c
cc -c main.c -o main.o
cc -c helper.c -o helper.o
ar rcs libhelper.a helper.o

# An archive whose armap string table has no NUL at all (names run to its end).
run_capture good "$SHIM" main.o -L. -lhelper -o prog
r=$(last_record)
"$PY" - libhelper.a <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
assert b[8:9] == b'/' and b[8:24].strip() == b'/'
size = int(b[56:66].decode())
n = int.from_bytes(b[68:72], 'big')
start = 68 + 4 + 4 * n
for i in range(start, 68 + size):
    b[i] = ord('A')
open(p, 'wb').write(b)
PY
for cmd in "show" "explain" "report --format json"; do
	run_capture arm $LINKSCOPE $cmd "$r"
	check_eq "armap without NULs: $cmd runs to the end" 0 "$(cat "$T/arm.rc")"
done
run_capture armwhy "$LINKSCOPE" why "$r" helper
check_eq "armap without NULs: why runs to the end" 0 "$(cat "$T/armwhy.rc")"

# A linker script that (now) includes itself: cut at 8 levels, and said.
printf 'INPUT(%s/helper.o)\n' "$T" >sub.ld
run_capture script "$SHIM" main.o "$T/sub.ld" -o prog2
check_eq "the script link" 0 "$(cat "$T/script.rc")"
r=$(last_record)
printf 'INPUT(%s/sub.ld)\n' "$T" >sub.ld
out=$("$LINKSCOPE" explain "$r")
check_contains "a self-including script: the outcome is unknown, and why" "$out" "the linker script '$T/sub.ld' is nested 8 deep (it may include itself)"
check_contains "show names the cut" "$("$LINKSCOPE" show "$r")" "nested 8 deep (does it include itself?)"

# A record naming a FIFO as an input: the analyzer neither opens nor waits on it.
mkfifo pipe.o
"$PY" - "$r" altered.json "$T/pipe.o" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
old = r["argv_expanded"][2]
r["argv_expanded"][2] = sys.argv[3]
# The driver's -### view, taken beside the link, names the input too.
for cmd in (r.get("expansion") or {}).get("commands", []):
    cmd[:] = [sys.argv[3] if w == old else w for w in cmd]
json.dump(r, open(sys.argv[2], "w"))
PY
run_capture fifo timeout 20 "$LINKSCOPE" show altered.json
check_eq "a FIFO input: show does not block" 0 "$(cat "$T/fifo.rc")"
check_contains "and says what it is" "$(cat "$T/fifo.out")" "not a regular file"

# A directory given as RECORD.
run_capture dir "$LINKSCOPE" show "$T"
check_eq "show DIR: exit 1" 1 "$(cat "$T/dir.rc")"
check_contains "show DIR: says it is a directory" "$(cat "$T/dir.err")" "cannot read '$T': is a directory"

# LINKSCOPE_KEEP_MAX over 2^61: no overflow (UBSan aborts the shim on one), the copy is kept.
printf 'int main(void) { return 0; }\n' >keep.c
run_capture km env LINKSCOPE_KEEP_MAX=9223372036854775807 "$SHIM" keep.c -o keep
check_eq "LINKSCOPE_KEEP_MAX=2^63-1: the link" 0 "$(cat "$T/km.rc")"
check_eq "no warning" "" "$(cat "$T/km.err")"
check_eq "the source is kept" source "$(rec "$(last_record)" 'r["kept"][0]["reason"]')"
finish
