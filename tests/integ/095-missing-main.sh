# A missing `main` (issue #17, points 5 and 8): never a provider
# (libncurses++.a, libgtest_main.a define main for their own users); a
# library linked as a program gets -shared (stated: the replay cannot try
# it, the real linker can); an object of the build tree that defines main
# and is not on the line is appended, verified by replay and by the real
# linker.
. "$(dirname "$0")/lib.sh"

q() { "$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); d=r["diagnostics"]; print(eval(sys.argv[2]))' "$1" "$2"; }

echo 'int lib_fn(void) { return 3; }' >l.c
cc -fPIC -c l.c
# A main that only a library defines, as libgtest_main.a does: no fix from it.
mkdir lib other
echo 'int main(void) { return 0; }' >other/gm.c
cc -c other/gm.c -o other/gm.o && ar rcs lib/libfake_main.a other/gm.o
run_capture lib "$SHIM" l.o -Llib -o libl.so
check_eq "library as a program: the real linker fails" 1 "$(cat "$T/lib.rc")"
json=$("$LINKSCOPE" report --format json --replay-only last)
check_eq "library as a program: one diagnostic, main" "1 main" "$(q "$json" '"%d %s" % (len(d), d[0]["symbol"])')"
check_eq "library as a program: no provider and no -l fix" "None []" "$(q "$json" '"%s %s" % (d[0]["provider"], [f["args"] for f in d[0]["fixes"]])')"
check_contains "main: the library that defines it is no fix" "$json" "main is the program's own entry point, which no library should give it"
check_eq "library as a program: the near miss and its stated fix" "main add -shared to the link (the driver then makes a shared library, without the start file that references main)" \
	"$(q "$json" 'd[0]["near_misses"][0]["kind"] + " " + d[0]["near_misses"][0]["fix"]')"
check "library as a program: -shared links with the real linker" cc l.o -Llib -shared -o libl.so

# The object with main is in the build tree, not on the line.
echo 'int lib_fn(void); int main(void) { return lib_fn(); }' >prog.c
cc -c prog.c
run_capture prog "$SHIM" l.o -o prog
check_eq "main's object off the line: the real linker fails" 1 "$(cat "$T/prog.rc")"
json=$("$LINKSCOPE" report --format json --replay-only last)
check_eq "main's object off the line: the object named" "main $T/prog.o" "$(q "$json" '[n["kind"] + " " + n["in"] for n in d[0]["near_misses"] if n["in"]][0]')"
check_eq "main's object off the line: appended, verified by replay" "[(['$T/prog.o'], True)]" "$(q "$json" '[(f["args"], f["verified"]) for f in d[0]["fixes"]]')"
check "main's object off the line: the fix links with the real linker" cc l.o -o prog "$T/prog.o"

# Two programs' objects define main: which one is this program's the inputs do not say, and nothing is appended.
echo 'int main(void) { return 1; }' >other.c
cc -c other.c
run_capture two "$SHIM" l.o -o two
json=$("$LINKSCOPE" report --format json --replay-only last)
check_eq "two objects with main: no fix" "[]" "$(q "$json" '[f["args"] for f in d[0]["fixes"]]')"
check_contains "two objects with main: both named" "$json" "2 objects of the build tree define main, and none is on the line: "
check_contains "two objects with main: no guess" "$json" "which one is this program's the inputs do not say"
finish
