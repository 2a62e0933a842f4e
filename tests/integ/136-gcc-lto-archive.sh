# An archive of slim GCC LTO objects (gcc -flto: GCC's IR only; issue #34:
# under lld it was told an ordering problem, and GNU ld's and mold's
# successes were predicted failures). GNU ld and mold read the IR through
# GCC's LTO plugin, which the replay does not model: their outcome is
# unknown, naming the member, never a failure; lld reads no symbol from
# it and fails, and that is the story (no "archive read too early", no
# "not on the line"), with the member rebuilt -ffat-lto-objects as its fix.
. "$(dirname "$0")/lib.sh"

echo 'int lf(void) { return 4; }' >l.c
echo 'int lf(void); int main(void) { return lf() - 4; }' >m.c
gcc -O2 -flto -c l.c && gcc -c m.c && ar rcs libl.a l.o
for ld in bfd mold lld; do
	"$SHIM" -- gcc -fuse-ld=$ld m.o -L. -ll -o m-$ld 2>/dev/null
	echo $? >"$T/$ld.rc"
	cp "$(last_record)" "$T/$ld.json"
done
check_eq "the real linkers: GNU ld and mold link (the plugin), lld fails" "0 0 1" "$(cat "$T/bfd.rc") $(cat "$T/mold.rc") $(cat "$T/lld.rc")"
for ld in bfd mold; do
	json=$("$LINKSCOPE" report --format json --replay-only "$T/$ld.json")
	check_eq "$ld's line: the outcome is unknown, not a failure" "unknown" \
		"$("$PY" -c 'import json,sys; print(json.loads(sys.argv[1])["predicted"]["outcome"])' "$json")"
	check_contains "... naming the LTO member" "$("$PY" -c 'import json,sys; print(json.loads(sys.argv[1])["predicted"]["unknown_because"])' "$json")" \
		"libl.a(l.o)' is a GCC LTO object, read through GCC's LTO plugin"
done
# lld's line is told: lld reads no symbol from a slim LTO object (the member's IR is the plugin's).
json=$("$LINKSCOPE" report --format json --replay-only "$T/lld.json")
check_eq "lld's line: predicted to fail, as it did" "failure" \
	"$("$PY" -c 'import json,sys; print(json.loads(sys.argv[1])["predicted"]["outcome"])' "$json")"
check_eq "... the cause: the member is a GCC LTO object (finding gcc-lto), first of the diagnostic's findings" "gcc-lto" \
	"$("$PY" -c 'import json,sys; d=json.loads(sys.argv[1])["diagnostics"][0]; print(d["near_misses"][0]["kind"] if d.get("near_misses") else "none")' "$json")"
fix=$("$PY" -c 'import json,sys; d=json.loads(sys.argv[1])["diagnostics"][0]; print(d["fixes"][0]["description"] if d["fixes"] else "")' "$json")
check_contains "... its first fix: rebuild the member with -ffat-lto-objects" "$fix" "rebuild l.o with -ffat-lto-objects"
# The fix applied for real: the member rebuilt fat, the same lld line links.
gcc -O2 -flto -ffat-lto-objects -c l.c && rm -f libl.a && ar rcs libl.a l.o
gcc -fuse-ld=lld m.o -L. -ll -o m-lld-fixed
check_eq "the fix applied: lld links the line with the fat LTO member" 0 "$?"
gcc -O2 -flto -c l.c && rm -f libl.a && ar rcs libl.a l.o
text=$("$LINKSCOPE" explain "$T/lld.json" 2>&1)
check_eq "lld's line: never called a success" "0" "$(grep -c "the link succeeds" <<<"$text")"
check_eq "... and no ordering story (the archive comes after the reference)" "0" "$(grep -c "read before the reference" <<<"$text")"
finish
