# An archive without a symbol index (`ar rcS`, `ar rcST`; issue #34: a
# false "verified" fix appended the member's object while the real GNU ld
# stops at "archive has no index; run ranlib to add one"). GNU ld refuses it
# wherever it is read but under --whole-archive, even when nothing needs
# it; lld and mold read it member by member. The real three linkers are the
# oracles; the fix, ranlib, applied for real, links with GNU ld.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/integ/linkers.sh"

echo 'int memf(void) { return 1; }' >mem.c
echo 'int memf(void); int main(void) { return memf() - 1; }' >m.c
cc -c mem.c m.c
ar rcS libmem.a mem.o
ar rcST libthin.a mem.o

case_of "failure success success" no-index m.o -L. -lmem
case_of "failure success success" thin-no-index m.o -L. -lthin
case_of "failure success success" not-needed m.o mem.o libmem.a
case_of "success success success" whole m.o -Wl,--whole-archive libmem.a -Wl,--no-whole-archive

json=$("$LINKSCOPE" report --format json "$T/no-index-bfd.json")
q() { "$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$json" "$1"; }
check_eq "GNU ld's line: one diagnostic, the archive without an index" "archive-without-index -lmem" \
	"$(q '" ".join(d["kind"] + " " + d["symbol"] for d in r["diagnostics"])')"
check_eq "... no fix claimed verified (ld stops at the archive whatever follows)" "[]" \
	"$(q '[f["description"] for d in r["diagnostics"] for f in d["fixes"] if f["verified"]]')"
check_contains "... the first fix: ranlib, stated" "$(q 'r["diagnostics"][0]["fixes"][0]["description"]')" "run ranlib on it"
ranlib libmem.a
check "... applied: GNU ld links" cc -fuse-ld=bfd m.o -L. -lmem -o m
finish
