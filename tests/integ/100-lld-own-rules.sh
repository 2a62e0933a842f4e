# lld's `-z text` default, judged by the relocation room (issue #19 wired
# to issue #17's relocation judgement at merge): `-shared` with an
# absolute relocation in .text (R_X86_64_64 against a preemptible symbol)
# fails under lld ("relocation R_X86_64_64 cannot be used against symbol
# 'g'; recompile with -fPIC"), links with GNU ld and mold (DT_TEXTREL:
# their default is -z notext); with -z notext lld links it too, with
# -z text all three fail. And lld's -l search, which takes the first
# libNAME.so it finds and skips no file of another machine: `-Larm -Lx86
# -lu` links with GNU ld and mold (both skip arm/libu.so), fails with lld.
# Each line linked by the real three linkers.
# passes: plain (a table of linker rules, each case linked by the real linkers:
# its verdicts depend on the record only; make check-full runs every pass)
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always

cat >t.s <<'S'
	.text
	.globl f
f:	movabs $g, %rax
	ret
	.data
	.globl g
g:	.quad 0
	.section .note.GNU-stack,"",@progbits
S
cc -c t.s -o t.o

. "$ROOT/tests/integ/linkers.sh"

case_of "success failure success" textrel -shared t.o
check_contains "textrel: why lld fails names the relocation and the object" \
	"$("$LINKSCOPE" report --format json "$T/textrel-lld.json" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["linker_verdicts"]["lld"]["why"])')" \
	"lld fails: relocation-not-allowed, g (R_X86_64_64), in t.o"
check_eq "textrel: check on the lld line fails (its own linker)" 1 \
	"$("$LINKSCOPE" check "$T/textrel-lld.json" >/dev/null 2>&1; echo $?)"
case_of "success success success" notext -shared t.o -Wl,-z,notext
case_of "failure failure failure" ztext -shared t.o -Wl,-z,text

mkdir arm x86
echo 'int u(void) { return 0; }' >u.c
echo 'int u(void); int main(void) { return u(); }' >m.c
aarch64-linux-gnu-gcc -shared -fPIC u.c -o arm/libu.so && cc -shared -fPIC u.c -o x86/libu.so && cc -c m.c
case_of "success failure success" incompatible m.o -Larm -Lx86 -lu
check_contains "incompatible: why lld fails names the file it takes" \
	"$("$LINKSCOPE" report --format json "$T/incompatible-bfd.json" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["linker_verdicts"]["lld"]["why"])')" \
	"lld fails: for -lu"
finish
