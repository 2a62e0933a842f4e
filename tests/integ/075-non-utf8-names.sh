# A path and a symbol name that are not UTF-8 (bytes 0xfe, 0xff: both are
# just bytes to the kernel and to ld) appear in every report format, on
# real links. jansson refuses such strings; before the one JSON string
# helper (common/json.c) the JSON of report, check and report --failed
# silently lost the diagnostic or fact that named them.
. "$(dirname "$0")/lib.sh"
export LC_ALL=C
# Successful links too need the driver's view of the line (check's facts).
export LINKSCOPE_EXPAND=always

X=$(printf '\377')	# 0xff
D=d$(printf '\376')	# a dir named with 0xfe
SYM=sym${X}name
mkdir "$D"

# 1. A failing link: $D/m$X.o references $SYM, which nothing defines.
printf 'int s(void) __asm__("sym\377name");\nint main(void) { return s(); }\n' >m.c
cc -c m.c -o "$D/m$X.o"
"$SHIM" "$D/m$X.o" -o prog 2>/dev/null
check_eq "the failing link fails (real ld)" 1 $?
fail=$(last_record)
OBJ=$T/$D/m$X.o

# 2. A link that succeeds only by a group's rescan of $D/libA$X.a, which defines $SYM.
printf 'int f(void);\nint main(void) { return f(); }\n' >main.c
printf 'int s(void) __asm__("sym\377name");\nint s(void) { return 0; }\n' >a.c
printf 'int s(void) __asm__("sym\377name");\nint f(void) { return s(); }\n' >b.c
cc -c main.c a.c b.c
ar rcs "$D/libA$X.a" a.o
ar rcs libB.a b.o
"$SHIM" main.o -Wl,--start-group "$D/libA$X.a" libB.a -Wl,--end-group -o prog2 2>/dev/null
check_eq "the group link succeeds (real ld)" 0 $?
group=$(last_record)
LIB=$T/$D/libA$X.a

# has_bytes DESC FILE NEEDLE...: every needle's bytes are in the file.
has_bytes() {
	local desc=$1 file=$2 n
	shift 2
	for n in "$@"; do
		if ! grep -qF -- "$n" "$file"; then
			not_ok "$desc" "missing: $(printf '%s' "$n" | od -An -c | tr -s ' ')" "in: $(head -c 300 "$file" | cat -v)"
			return
		fi
	done
	ok "$desc"
}

# json_has DESC FILE NEEDLE...: the file is JSON, and with every {"hex": ...}
# decoded, the needles' bytes are among its strings (and the hex forms are
# the record format's: an object with that one key).
json_has() {
	local desc=$1 file=$2 out
	shift 2
	out=$("$PY" - "$file" "$@" <<'PY' 2>&1
import json, sys
doc = json.load(open(sys.argv[1]))
found = []
def walk(v):
    if isinstance(v, dict):
        if list(v) == ["hex"]:
            found.append(bytes.fromhex(v["hex"]))
            return
        for x in v.values():
            walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)
    elif isinstance(v, str):
        found.append(v.encode("utf-8"))
walk(doc)
for needle in sys.argv[2:]:
    b = needle.encode("utf-8", "surrogateescape")
    if not any(b in f for f in found):
        print("missing", b)
PY
)
	if [ -z "$out" ]; then ok "$desc"; else not_ok "$desc" "$out"; fi
}

"$LINKSCOPE" report --format json "$fail" >r.json
json_has "report json: the symbol and the referencing object" r.json "$SYM" "$OBJ"
check_eq "report json: the diagnostic is there" 1 \
	"$("$PY" -c 'import json; print(len(json.load(open("r.json"))["diagnostics"]))')"
check_eq "report json: the symbol field is the record's hex form" 73796dff6e616d65 \
	"$("$PY" -c 'import json; print(json.load(open("r.json"))["diagnostics"][0]["symbol"]["hex"])')"
"$LINKSCOPE" report --format markdown "$fail" >r.md
has_bytes "report markdown: the symbol and the object" r.md "$SYM" "$OBJ"
"$LINKSCOPE" report --format text "$fail" >r.txt
has_bytes "report text: the symbol and the object" r.txt "$SYM" "$OBJ"
"$LINKSCOPE" explain "$fail" >e.txt
has_bytes "explain: the symbol and the object" e.txt "$SYM" "$OBJ"

"$LINKSCOPE" show --json "$fail" >s.json
json_has "show json: the object" s.json "$OBJ"
"$LINKSCOPE" show "$fail" >s.txt
has_bytes "show: the object" s.txt "$OBJ"

"$LINKSCOPE" check --format json "$group" >c.json
json_has "check json: the symbol and the archive of the group-rescan fact" c.json "$SYM" "$LIB"
check_eq "check json: the fact is there" group-rescan \
	"$("$PY" -c 'import json; print(" ".join(f["kind"] for f in json.load(open("c.json"))["facts"]))')"
"$LINKSCOPE" check "$group" >c.txt
has_bytes "check: the symbol and the archive" c.txt "$SYM" "$LIB"

"$LINKSCOPE" report --failed --format json >f.json
json_has "report --failed json: the symbol and the object" f.json "$SYM" "$OBJ"
"$LINKSCOPE" report --failed >f.txt
has_bytes "report --failed: the symbol and the object" f.txt "$SYM" "$OBJ"
"$LINKSCOPE" report --failed --format markdown >f.md
has_bytes "report --failed markdown: the symbol and the object" f.md "$SYM" "$OBJ"
"$LINKSCOPE" report --failed --format github >f.gh
has_bytes "report --failed github: the symbol and the object" f.gh "$SYM" "$OBJ"
# 3. A record is untrusted: one whose linker flavor is not UTF-8 still gives whole JSON.
"$PY" - "$fail" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["linker"]["flavor"] = {"hex": "62ff"}
json.dump(d, open("flavor.json", "w"))
PY
chmod 600 flavor.json
for c in "report --format json" "show --json" "check --format json"; do
	"$LINKSCOPE" $c flavor.json >fl.json 2>/dev/null
	json_has "$c: a record whose linker flavor is not UTF-8" fl.json "b$X"
done
finish
