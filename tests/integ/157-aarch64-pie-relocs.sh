# Relocations a PIE, a non-PIE executable or a shared object takes, per
# linker (issue #33), each case linked with the real GNU ld 2.40, lld 14
# and mold 1.10 on AArch64 (aarch64-linux-gnu-gcc) and x86-64 (cc); the
# replay's verdict for every linker must be what each real linker did, on
# each linker's own line (the models: analyzer/replay/copyreloc.c,
# arch/copy.c, mold_relocs.c, reloc.c, dso.c).
# - -fno-pic code of a PIE reading a shared object's data (ADRP with an
#   ADD or LDR lo12), or taking its function's address: GNU ld refuses
#   R_AARCH64_ADR_PREL_PG_HI21 ("which may bind externally"); lld and
#   mold copy (a canonical PLT entry for the function). On x86-64 GNU ld
#   copies too. -z nocopyreloc and protected data: lld and mold refuse
#   in a PIE as in any executable; x86-64 GNU ld makes a text relocation
#   under -z nocopyreloc (an error under -z text and --fatal-warnings).
# - mold 1.10 knows no R_AARCH64_ABS32 in an allocated section (fails
#   -no-pie too) and writes MOVW_UABS_* in a PIE unchecked (links), where
#   GNU ld and lld refuse them; lld copies for a shared object's symbol.
#   GNU ld refuses ABS32 against a shared object's symbol in an
#   executable too ("unresolvable"), data or code, where lld copies.
# - -shared -nodefaultlibs with -lc first: a reference only a library
#   DT_NEEDED brings defines (__stack_chk_guard in ld-linux-aarch64.so.1,
#   __libc_stack_end in ld-linux-x86-64.so.2) stays undefined, no "DSO
#   missing"; -z defs refuses it.
# passes: plain (a table of linker rules, each case linked by the real linkers:
# its verdicts depend on the record only; make check-full runs every pass)
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
. "$ROOT/tests/integ/linkers.sh"

A=aarch64-linux-gnu-gcc
mkdir xb a64 x64 && ln -s "$(command -v ld.lld)" xb/ld.lld && ln -s "$(command -v mold)" xb/ld.mold
cat >data.c <<'C'
int x = 3;
__attribute__((visibility("protected"))) int prot = 4;
int fn(void) { return 1; }
C
cat >usex.c <<'C'
extern int x;
int main(void) { return x; }
C
cat >useprot.c <<'C'
extern int prot;
int main(void) { return prot; }
C
cat >fnaddr.c <<'C'
int fn(void);
int (*get(void))(void) { return fn; }
int main(void) { return get() != 0; }
C
cat >libuse.c <<'C'
extern int x;
int getx(void) { return x; }
C
printf 'int g(char *s);\nint f(void) { char b[64]; return g(b); }\n' >guard.c
printf 'extern void *__libc_stack_end;\nvoid *f(void) { return __libc_stack_end; }\n' >stackend.c
printf '.text\n.globl main\nmain: mov x0, 0\nret\n.data\n.globl p\np: .word g\n.globl g\ng: .word 0\n' >abs32.s
printf '.text\n.globl main\nmain: mov x0, 0\nret\n.section .rodata\np: .word x\n' >abs32ext.s
printf '.text\n.globl main\nmain: mov x0, 0\nret\n.data\np: .word fn\n' >abs32fn.s
printf '.text\n.globl main\nmain: movz x0, #:abs_g1:g\nmovk x0, #:abs_g0_nc:g\nret\n.data\n.globl g\ng: .word 0\n' >movw.s
printf '.text\n.globl main\nmain: movz x0, #:abs_g1:x\nmovk x0, #:abs_g0_nc:x\nret\n' >movwext.s

$A -fPIC -shared data.c -o a64/libdata.so
cc -fPIC -shared data.c -o x64/libdata.so
for f in usex useprot fnaddr; do
	$A -fno-pic -c $f.c -o $f-a64.o
	cc -fno-pic -c $f.c -o $f-x64.o
done
$A -O2 -fno-pic -c usex.c -o usex-ldst-a64.o
$A -O2 -fno-pic -c libuse.c -o libuse-a64.o
$A -fPIC -fstack-protector-all -c guard.c -o guard-a64.o
cc -fPIC -c stackend.c -o stackend-x64.o
for f in abs32 abs32ext abs32fn movw movwext; do aarch64-linux-gnu-as $f.s -o $f.o; done

# a64 WANT NAME WORDS...: case_of with the cross driver (lld and mold found by -B, as the driver finds them).
a64() {
	local want=$1 name=$2
	shift 2
	LK_CC=$A case_of "$want" "$name" -B"$T/xb" "$@"
}

# Every case, one line each: WANT (bfd lld mold) NAME driver WORDS...
cases=(
	"failure success success|a64-pie-data|a64|usex-a64.o -pie -La64 -ldata"
	"failure success success|a64-pie-ldst|a64|usex-ldst-a64.o -pie -La64 -ldata"
	"failure success success|a64-pie-fnaddr|a64|fnaddr-a64.o -pie -La64 -ldata"
	"failure failure failure|a64-pie-nocopyreloc|a64|usex-a64.o -pie -La64 -ldata -Wl,-z,nocopyreloc"
	"failure failure failure|a64-pie-protected|a64|useprot-a64.o -pie -La64 -ldata"
	"success success success|a64-nopie-fnaddr|a64|fnaddr-a64.o -no-pie -La64 -ldata"
	"failure failure failure|a64-shared-data|a64|-shared libuse-a64.o -La64 -ldata"
	"success success failure|a64-abs32-nopie|a64|abs32.o -no-pie"
	"failure failure failure|a64-abs32-pie|a64|abs32.o -pie"
	"failure success failure|a64-abs32-shared-data|a64|abs32ext.o -no-pie -La64 -ldata"
	"failure success failure|a64-abs32-shared-fn|a64|abs32fn.o -no-pie -La64 -ldata"
	"failure failure success|a64-movw-pie|a64|movw.o -pie"
	"failure success success|a64-movw-shared-data|a64|movwext.o -pie -La64 -ldata"
	"success success success|a64-movw-nopie|a64|movw.o -no-pie"
	"success success success|a64-guard|a64|-shared -Wl,--no-as-needed -lc guard-a64.o -nodefaultlibs"
	"failure failure failure|a64-guard-zdefs|a64|-shared -Wl,--no-as-needed -lc guard-a64.o -nodefaultlibs -Wl,-z,defs"
	"success success success|x64-pie-data|cc|usex-x64.o -pie -Lx64 -ldata"
	"success failure failure|x64-pie-nocopyreloc|cc|usex-x64.o -pie -Lx64 -ldata -Wl,-z,nocopyreloc"
	"failure failure failure|x64-pie-nocopyreloc-ztext|cc|usex-x64.o -pie -Lx64 -ldata -Wl,-z,nocopyreloc,-z,text"
	"failure failure failure|x64-pie-nocopyreloc-fw|cc|usex-x64.o -pie -Lx64 -ldata -Wl,-z,nocopyreloc,--fatal-warnings"
	"failure failure failure|x64-pie-protected|cc|useprot-x64.o -pie -Lx64 -ldata"
	"failure success failure|x64-pie-fnaddr|cc|fnaddr-x64.o -pie -Lx64 -ldata"
	"success success success|x64-stackend|cc|-shared -Wl,--no-as-needed -lc stackend-x64.o -nodefaultlibs"
)
declare -A agreed total
for c in "${cases[@]}"; do
	IFS='|' read -r want name drv words <<<"$c"
	before=$n_bad
	# shellcheck disable=SC2086
	if [ "$drv" = a64 ]; then a64 "$want" "$name" $words; else case_of "$want" "$name" $words; fi
	for ld in bfd lld mold; do
		total[$ld]=$((${total[$ld]:-0} + 1))
		read -r b l m <<<"$want"
		got=${replay_of[$ld]}	# case_of read it
		[ "$got" = "bfd=$b lld=$l mold=$m" ] && agreed[$ld]=$((${agreed[$ld]:-0} + 1))
	done
	[ "$n_bad" = "$before" ] || echo "# $name: see above"
done
for ld in bfd lld mold; do
	echo "# $ld's line: the replay's verdict for every linker is the real one in ${agreed[$ld]:-0} of ${total[$ld]} cases"
	check_eq "$ld's lines: every verdict as the real linkers' (N of N)" "${total[$ld]} of ${total[$ld]}" "${agreed[$ld]:-0} of ${total[$ld]}"
done

# The diagnostics name the relocation, the symbol and the input.
out=$("$LINKSCOPE" explain "$T/a64-pie-data-bfd.json")
check_contains "GNU ld's AArch64 PIE refusal, in its words" "$out" "relocation R_AARCH64_ADR_PREL_PG_HI21 against symbol \`x' which may bind externally can not be used when making a shared object; recompile with -fPIC"
check_contains "... naming the input" "$out" "usex-a64.o"
out=$("$LINKSCOPE" explain "$T/x64-pie-nocopyreloc-bfd.json")
check_contains "lld's and mold's refusal of the copy in a PIE names relocation, symbol and input" "$out" "R_X86_64_PC32 against x from 'usex-x64.o' (libdata.so defines it)"
out=$("$LINKSCOPE" report --format json "$T/a64-abs32-nopie-bfd.json" | "$PY" -c 'import json,sys; print("\n".join(json.load(sys.stdin)["predicted"]["linker_verdicts"]["mold"]["why"]))')
check_contains "mold's unknown relocation names the type" "$out" "R_AARCH64_ABS32"
check_contains "... the symbol and the input" "$out" "abs32.o"
check_contains "... a type mold does not know" "$out" "mold does not know this relocation type"
out=$("$LINKSCOPE" report --format json "$T/a64-abs32-nopie-bfd.json" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["linker_verdicts"]["mold"]["fixes"][0])')
check_contains "mold's first fix: another linker (GNU ld links the line: a64-abs32-nopie-bfd)" "$out" "link with GNU ld (-fuse-ld=bfd)"
out=$("$LINKSCOPE" explain "$T/a64-abs32-shared-data-bfd.json")
check_contains "GNU ld's ABS32 against a shared object's data in an executable, in its words" "$out" "unresolvable R_AARCH64_ABS32 relocation against symbol \`x'"
check_contains "... naming the input" "$out" "abs32ext.o"
out=$("$LINKSCOPE" explain "$T/a64-guard-zdefs-bfd.json")
check_contains "-z defs: the canary an undefined reference, no DSO missing" "$out" "__stack_chk_guard"

# The first fix linkscope offers, done for real: the object rebuilt with the
# words it names relinks with the real GNU ld; the -no-pie workaround's argv
# links too (for hand-written assembly, the only one with an argv).
q() { "$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$J" "$1"; }
mkdir re
for c in "a64-pie-data usex" "a64-pie-fnaddr fnaddr"; do
	read -r name src <<<"$c"
	J=$("$LINKSCOPE" report --format json "$T/$name-bfd.json")
	check_eq "$name: the first fix rebuilds the object with -fPIE" "rebuild -fPIE" \
		"$(q 'r["diagnostics"][0]["fixes"][0]["edit"]["kind"] + " " + " ".join(r["diagnostics"][0]["fixes"][0]["edit"]["words"])')"
	# shellcheck disable=SC2046
	$A $(q '" ".join(r["diagnostics"][0]["fixes"][0]["edit"]["words"])') -c $src.c -o re/$src-a64.o
	run_capture "re-$name" $A -B"$T/xb" -fuse-ld=bfd re/$src-a64.o -pie -La64 -ldata -o "re/$name"
	check_eq "$name: ... and the rebuilt object links with the real GNU ld" 0 "$(cat "$T/re-$name.rc")"
	check "$name: the -no-pie workaround's argv links with the real GNU ld" apply_fix "$J" 'r["diagnostics"][0]["fixes"][1]' "fixed-$name"
done
# lld's and mold's first fix of a copy they cannot make: the object rebuilt
# with -fPIC relinks with that real linker.
for c in "x64-pie-nocopyreloc usex cc x64 -Wl,-z,nocopyreloc" "a64-pie-protected useprot $A a64"; do
	read -r name src drv dir extra <<<"$c"
	for ld in lld mold; do
		J=$("$LINKSCOPE" report --format json "$T/$name-$ld.json")
		check_contains "$name: $ld's first fix rebuilds the object with -fPIC" \
			"$(q 'r["predicted"]["linker_verdicts"]["'$ld'"]["fixes"][0]')" "rebuild '$T/$src-$dir.o' with -fPIC"
	done
	$drv -fPIC -c $src.c -o re/$src-$dir.o
	for ld in lld mold; do
		# shellcheck disable=SC2086
		run_capture "re-$name-$ld" $drv -B"$T/xb" -fuse-ld=$ld re/$src-$dir.o -pie -L$dir -ldata $extra -o "re/$name-$ld"
		check_eq "$name: ... and the rebuilt object links with the real $ld" 0 "$(cat "$T/re-$name-$ld.rc")"
	done
done
J=$("$LINKSCOPE" report --format json "$T/a64-abs32-pie-bfd.json")
check "a64-abs32-pie: the -no-pie workaround's argv links with the real GNU ld" apply_fix "$J" 'r["diagnostics"][0]["fixes"][1]' fixed-abs32
out=$("$LINKSCOPE" explain "$T/a64-abs32-pie-bfd.json")
check_contains "GNU ld's ABS32 refusal, in its words" "$out" "relocation R_AARCH64_ABS32 against \`g' can not be used when making a shared object\""
finish
