# Inputs ld cannot use (issue #17, point 4), each a predicted failure of
# its own kind naming the file and what is wrong, with the real ld as the
# oracle: an object, shared object or pulled archive member of another
# machine (an archive of another machine that nothing pulls from links);
# LLVM bitcode with no LLVM plugin (the producer named), a gcc -flto object
# (unknown through gcc's plugin, ELF symbols only without); a linker script
# with a syntax error (its line and token), where scripts ld accepts are
# no false alarm and one using a command the model does not read is
# unknown; an ELF file cut short, a file of no format ld knows; an empty
# file, which ld takes.
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always

rep() { "$LINKSCOPE" report --format json --replay-only last | "$PY" -c 'import json,sys; r=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }
# link WHAT ARGS...: through the shim; $ld_outcome is the real link's.
link() {
	what=$1
	shift
	"$SHIM" "$@" >/dev/null 2>&1
	ld_outcome=$([ $? -eq 0 ] && echo success || echo failure)
}
# predicts KIND TEXT: ld failed; the prediction is a failure with one diagnostic of KIND whose explanation has TEXT.
predicts() {
	check_eq "$what: ld fails" failure "$ld_outcome"
	check_eq "... predicted as a failure" failure "$(rep 'r["predicted"]["outcome"]')"
	check_eq "... of kind $1, the only diagnostic" "['$1']" "$(rep '[d["kind"] for d in r["diagnostics"]]')"
	check_contains "... naming it: $2" "$(rep '" ".join(r["diagnostics"][0]["explanation"])')" "$2"
	check_eq "... and no fix claimed verified" "[]" "$(rep '[f["description"] for d in r["diagnostics"] for f in d["fixes"] if f["verified"]]')"
}
succeeds() {
	check_eq "$what: ld links" success "$ld_outcome"
	check_eq "... predicted as a success" success "$(rep 'r["predicted"]["outcome"]')"
}

echo 'int f(void) { return 1; }' >f.c
echo 'int f(void); int main(void) { return f() - 1; }' >main.c
cc -c main.c f.c
aarch64-linux-gnu-gcc -c f.c -o f-arm.o
aarch64-linux-gnu-gcc -shared -fPIC f.c -o libf-arm.so
ar rc libarm.a f-arm.o

link "an AArch64 object on an x86-64 link" cc main.o f-arm.o -o p1
predicts wrong-machine "'$T/f-arm.o' is an object for AArch64 (e_machine 183), and the link is for x86-64"
check_contains "... a fix said, not verified" "$(rep 'r["diagnostics"][0]["fixes"][0]')" "'stated': True"
link "an AArch64 shared object by path" cc main.o f.o ./libf-arm.so -o p2
predicts wrong-machine "a shared object for AArch64"
link "an AArch64 archive member pulled" cc main.o libarm.a -o p3
predicts wrong-machine "'$T/libarm.a(f-arm.o)', pulled in for f, is an object for AArch64"
link "an AArch64 archive nothing pulls from" cc main.o f.o libarm.a -o p4
succeeds
printf 'INPUT(%s)\n' "$T/f-arm.o" >arm.ld
link "an AArch64 object a linker script names" cc main.o arm.ld -o p4s
check_eq "$what: ld fails" failure "$ld_outcome"
check_eq "... ld's search of a script's member is not modelled: unknown, not a success" unknown "$(rep 'r["predicted"]["outcome"]')"
check_contains "... saying why" "$(rep 'r["predicted"]["unknown_because"]')" "named by the linker script '$T/arm.ld', is for AArch64"

clang -flto -c f.c -o f-bc.o
link "LLVM bitcode given to GNU ld" cc main.o f-bc.o -o p5
predicts bitcode-without-plugin "'$T/f-bc.o' is LLVM bitcode (made by clang, producer LLVM"
check_contains "... the fixes: lld" "$(rep '[f["description"] for f in r["diagnostics"][0]["fixes"]]')" "-fuse-ld=lld"
check_contains "... or that object without LTO" "$(rep '[f["description"] for f in r["diagnostics"][0]["fixes"]]')" "rebuild '$T/f-bc.o' without link-time optimisation"
check "... lld does link it" cc -fuse-ld=lld main.o f-bc.o -o p5lld

# gcc's LTO objects: through gcc's plugin (the default) LTO is not modelled, so the outcome is
# unknown, never a false failure; with no plugin ld reads only their ELF symbols, as the replay does.
cc -flto -c f.c -o f-lto.o
link "a gcc -flto object through gcc's LTO plugin" cc -flto main.o f-lto.o -o p5gcc
check_eq "$what: ld links" success "$ld_outcome"
check_eq "... LTO is not modelled: unknown" unknown "$(rep 'r["predicted"]["outcome"]')"
check_contains "... saying why" "$(rep 'r["predicted"]["unknown_because"]')" "'$T/f-lto.o' is a gcc LTO object read by gcc's LTO plugin"
link "a gcc -flto object with no plugin" cc -fno-use-linker-plugin main.o f-lto.o -o p5nop
check_eq "$what: ld fails" failure "$ld_outcome"
check_eq "... predicted: f is undefined, as ld says" "failure ['f']" \
	"$(rep 'r["predicted"]["outcome"] + " " + str([d["symbol"] for d in r["diagnostics"]])')"

# Linker scripts: ld is the oracle of what is a syntax error.
printf 'GROUP ( f.o )\nFOO BAR\n' >bad-words.ld
link "two names where ld wants a command" cc main.o bad-words.ld -o p6
predicts script-syntax-error "\"syntax error\" at line 2, at 'BAR'"
printf '/* x */\nINPUT(f.o) )\n' >bad-paren.ld
link "a ')' that closes nothing" cc main.o bad-paren.ld -o p7
predicts script-syntax-error "at line 2, at ')'"
printf 'GROUP ( f.o\n' >bad-open.ld
link "a list never closed" cc main.o bad-open.ld -o p8
predicts script-syntax-error "at the end of the file"
printf '/* GNU ld script */\nOUTPUT_FORMAT(elf64-x86-64)\nFORCE_COMMON_ALLOCATION\nGROUP ( f.o AS_NEEDED ( libm.so.6 ) )\n' >good.ld
link "a script of the commands libc.so's use" cc main.o good.ld -o p9
succeeds
printf 'INPUT(f.o)\n' >inc.ld
printf 'INCLUDE inc.ld\n' >top.ld
link "a script that INCLUDEs another" cc main.o top.ld -o p10
check_eq "$what: ld links" success "$ld_outcome"
check_eq "... the model does not read INCLUDE: unknown, not a syntax error" unknown "$(rep 'r["predicted"]["outcome"]')"
check_contains "... saying why" "$(rep 'r["predicted"]["unknown_because"]')" "uses 'INCLUDE', which the model does not read"

# Files cut short, or of no format ld knows; an empty one ld takes.
head -c 500 f.o >cut.o
link "an object cut short" cc main.o cut.o -o p11
predicts truncated-input "'$T/cut.o' is cut short"
cc -shared -fPIC f.c -o libf.so && head -c 3000 libf.so >libcut.so
link "a shared object cut short" cc main.o ./libcut.so -o p12
predicts truncated-input "'$T/libcut.so' is cut short"
head -c 3 f.o >tiny.o
link "three bytes of an ELF header" cc main.o f.o tiny.o -o p13
predicts unrecognized-input "'$T/tiny.o' is not ELF, an archive or a linker script"
: >empty.o
link "an empty file" cc main.o f.o empty.o -o p14
succeeds
finish
