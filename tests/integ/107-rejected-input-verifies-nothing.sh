# A replay that reads past what ld would not read verifies nothing
# (issue #18, point 2), the real ld the oracle: the library a fix would
# add by -lplug is a linker script that includes itself (ld reads it
# forever; the model stops at its nesting limit and says the inputs are
# not modelled), so "append -lplug" is no verified fix; the fix offered,
# -l:libplug.so.2, links when applied with the real tools.
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always

q() { "$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$J" "$1"; }

mkdir pl
echo 'int plug(void) { return 0; }' >plug.c
gcc -shared -fPIC -Wl,-soname,libplug.so.2 plug.c -o pl/libplug.so.2
printf 'INPUT ( libplug.so.2 libplug.so )\n' >pl/libplug.so
echo 'int plug(void); int main(void) { return plug(); }' >m.c && gcc -c m.c

"$SHIM" -- gcc m.o -Lpl -o p >/dev/null 2>&1
check_eq "the real link fails (plug undefined)" 1 "$?"
J=$("$LINKSCOPE" report --format json last)
check_eq "... predicted" failure "$(q 'r["predicted"]["outcome"]')"
timeout 3 gcc m.o -Lpl -lplug -o p >/dev/null 2>&1
check_eq "the real ld does not finish a link with -lplug (the script includes itself)" 124 "$?"
check_eq "... so no fix with -lplug is verified" "[]" \
	"$(q '[f["description"] for d in r["diagnostics"] for f in d["fixes"] if "-lplug" in f["args"] and f["verified"]]')"
check_eq "the first fix: -l:libplug.so.2, verified by replay" "(['-l:libplug.so.2'], True)" \
	"$(q 'r["diagnostics"][0]["fixes"][0]["args"], r["diagnostics"][0]["fixes"][0]["verified"]')"
check "... and its argv links with the real tools" apply_fix "$J" 'r["diagnostics"][0]["fixes"][0]' p
check "... and the program runs" env LD_LIBRARY_PATH=pl ./p
finish
