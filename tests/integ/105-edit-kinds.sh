# The edit model (issue #18, point 1): each kind of edit fixing a real
# failure, its edited argv ("argv") applied with the real gcc and ld: a
# library listed before the objects moved after them; two archives that
# need each other grouped; an object compiled twice from one source
# removed; -lzlib replaced by -lz; the C++ driver for C++ objects linked
# with cc; a rebuild with -fPIE stated (never verified), the -no-pie
# workaround after it. The fix a person makes at the cause comes first.
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always

# link ARGS...: through the shim (the real link must fail); then the report in $J.
link() {
	"$SHIM" -- "$@" >"$T/link.out" 2>&1
	check_eq "$*: the real link fails" 1 "$?"
	J=$("$LINKSCOPE" report --format json last)
}
q() { "$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$J" "$1"; }
first='r["diagnostics"][0]["fixes"][0]'
# fixed KIND OUT: the first fix is an edit of KIND, verified by replay, and its argv links with the real tools.
fixed() {
	check_eq "... the first fix: $1, verified by replay" "$1 True False" \
		"$(q "$first"'["edit"]["kind"], '"$first"'["verified"], '"$first"'["workaround"]' | tr -d "(),'")"
	check "... and its argv links with the real tools" apply_fix "$J" "$first" "$2"
	check "... and the program runs" "./$2"
}

echo 'int foo(void); int main(void) { return foo(); }' >main.c
echo 'int foo(void) { return 0; }' >foo.c
gcc -c main.c foo.c && ar rcs libfoo.a foo.o

# move: the library before the objects goes after them (not appended a second time).
link gcc -L. -lfoo main.o -o p1
fixed move p1
check_eq "... the argv: -lfoo taken from before main.o to the end" "['gcc', '-L.', 'main.o', '-o', 'p1', '-lfoo']" "$(q "$first"'["argv"]')"
check_eq "... appending it again is the workaround, said so" "True True" \
	"$(q 'r["diagnostics"][0]["fixes"][1]["workaround"], r["diagnostics"][0]["fixes"][1]["verified"]' | tr -d '(),')"
check_contains "... and labelled in the text" "$("$LINKSCOPE" explain last)" "  workaround (verified by replay): append $T/libfoo.a again"

# group: liba.a and libb.a need each other.
echo 'int b1(void); int a1(void) { return b1(); }' >a1.c
echo 'int a2(void) { return 0; }' >a2.c
echo 'int a2(void); int b1(void) { return a2(); }' >b1.c
echo 'int a1(void); int main(void) { return a1(); }' >m2.c
gcc -c a1.c a2.c b1.c m2.c && ar rcs liba.a a1.o a2.o && ar rcs libb.a b1.o
link gcc m2.o -L. -la -lb -o p2
fixed group p2
check_eq "... the argv: the two archives in a group" \
	"['gcc', 'm2.o', '-L.', '-Wl,--start-group', '-la', '-lb', '-Wl,--end-group', '-o', 'p2']" "$(q "$first"'["argv"]')"
check_eq "... no move offered: it does not link" "[]" "$(q '[f for f in r["diagnostics"][0]["fixes"] if f["edit"]["kind"] == "move"]')"

# remove: the same source compiled twice, both objects on the line.
mkdir dup && cp foo.c dup/ && (cd dup && gcc -c foo.c)
echo 'int foo(void); int main(void) { return foo(); }' >m3.c && gcc -c m3.c
link gcc m3.o foo.o dup/foo.o -o p3
check_eq "... the cause: duplicate-source" duplicate-source "$(q 'r["diagnostics"][0]["cause"]["kind"]')"
fixed remove p3
check_eq "... the argv: without dup/foo.o" "['gcc', 'm3.o', 'foo.o', '-o', 'p3']" "$(q "$first"'["argv"]')"
check_eq "... today's fields say it too: nothing in place of position 3" "[] 3 True" \
	"$(q "$first"'["args"], '"$first"'["position"], '"$first"'["replaces"]' | tr -d "(),")"

# replace: -lzlib is -lz where it stands.
printf '#include <zlib.h>\nint main(void) { return zlibVersion()[0] == 0; }\n' >z.c && gcc -c z.c
link gcc z.o -lzlib -o p4
first='[d for d in r["diagnostics"] if d["kind"] == "input-not-found"][0]["fixes"][0]'
fixed replace p4
check_eq "... the argv: -lz in place of -lzlib" "['gcc', 'z.o', '-lz', '-o', 'p4']" "$(q "$first"'["argv"]')"

# driver: C++ objects linked with gcc; the fix is g++, whose argv links.
printf '#include <string>\nint main() { std::string s("hello"); return (int)s.size() - 5; }\n' >cx.cc
g++ -c cx.cc
first='r["diagnostics"][0]["fixes"][0]'
link gcc cx.o -o p5
fixed driver p5
check_eq "... the argv: g++ for gcc" "['g++', 'cx.o', '-o', 'p5']" "$(q "$first"'["argv"]')"
check_eq "... what g++ adds to this line" "['-lstdc++', '-lm']" "$(q "$first"'["edit"]["words"]')"

# rebuild: position-dependent code in a PIE; the rebuild is stated first, -no-pie the workaround.
# The refused relocation is the host's: on x86_64 -fno-pic code holds an absolute
# address (R_X86_64_32); on aarch64 it addresses PC-relative (ADRP), which a PIE
# takes, except against a shared object's symbol (GNU ld makes no copy
# relocation in an AArch64 PIE).
case $HOST_ARCH in
x86_64)
	echo 'const char *greeting(void) { return "hello"; }' >np.c
	echo 'const char *greeting(void); int main(void) { return greeting()[0] == 104 ? 0 : 1; }' >mp.c
	gcc -c -fPIE mp.c && gcc -c -fno-pic np.c
	nopic=np.c p6=(mp.o np.o -o p6) ;;
aarch64)
	echo 'const char greeting[] = "hello";' >np.c
	echo 'extern const char greeting[]; int main(void) { return greeting[0] == 104 ? 0 : 1; }' >mp.c
	gcc -fPIC -shared np.c -o libnp.so && gcc -c -fno-pic mp.c
	nopic=mp.c p6=(mp.o -L. -lnp -o p6) ;;
esac
link gcc "${p6[@]}"
check_eq "... the first fix: a rebuild with -fPIE of ${nopic%.c}.o, stated, not verified, no argv" \
	"rebuild ['-fPIE'] $T/${nopic%.c}.o True False None" \
	"$(q "$first"'["edit"]["kind"], '"$first"'["edit"]["words"], '"$first"'["edit"]["input"], '"$first"'["stated"], '"$first"'["verified"], '"$first"'["argv"]' | tr -d "(),'" | sed "s/\[-fPIE\]/['-fPIE']/")"
check_contains "... saying what would have to be true" "$(q "$first"'["edit"]["needs"]')" "sources"
check_eq "... then -no-pie, a workaround, verified" "insert True True" \
	"$(q 'r["diagnostics"][0]["fixes"][1]["edit"]["kind"], r["diagnostics"][0]["fixes"][1]["workaround"], r["diagnostics"][0]["fixes"][1]["verified"]' | tr -d "(),'")"
check "... whose argv links with the real tools" apply_fix "$J" 'r["diagnostics"][0]["fixes"][1]' p6
gcc -c -fPIE "$nopic" -o "${nopic%.c}.o"
check "... and the stated rebuild, done, links with the line as it was" gcc "${p6[@]}"

finish
