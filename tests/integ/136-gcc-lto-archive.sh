# An archive of slim GCC LTO objects (gcc -flto: GCC's IR only; issue #34:
# under lld it was told an ordering problem, and GNU ld's and mold's
# successes were predicted failures). GNU ld and mold read the IR through
# GCC's LTO plugin, which the replay does not model: their outcome is
# unknown, naming the member, never a failure; lld reads no symbol from
# it and fails, and no story says the archive was read too early.
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
text=$("$LINKSCOPE" explain "$T/lld.json" 2>&1)
check_eq "lld's line: never called a success" "0" "$(grep -c "the link succeeds" <<<"$text")"
check_eq "... and no ordering story (the archive comes after the reference)" "0" "$(grep -c "read before the reference" <<<"$text")"
finish
