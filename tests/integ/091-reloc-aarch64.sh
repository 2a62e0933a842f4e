# The relocation room on AArch64 (issue #17, points 1 and 2), natively or
# with Debian's cross toolchain, its GNU ld the oracle: ADRP (R_AARCH64_ADR_PREL_PG_HI21)
# past +-4 GiB to a section placed by --section-start; a BL
# (R_AARCH64_CALL26) past +-128 MiB, which ld serves with a long-branch
# veneer (a success, not a false alarm); ADRP in a shared object against a
# symbol that may bind externally; MOVW_UABS in a PIE. Fixtures are small:
# the distances come from --section-start, not from bytes on disk.
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
need_arch aarch64
CC=$(arch_tool aarch64 gcc)

report() { "$LINKSCOPE" report --format json last >"$T/r.json"; }
q() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$T/r.json" "$1"; }
link() { "$SHIM" -- $CC "$@" >"$T/link.out" 2>&1; rc=$?; report; }
first() { q "d['diagnostics'][0]$1"; }

cat >fard.c <<'C'
__attribute__((section(".fardata"))) int fard = 1;
C
cat >neard.c <<'C'
extern int fard;
int main(void) { return fard; }
C
cat >far.s <<'S'
	.section .far,"ax",%progbits
	.globl far
	.type far,%function
far:	ret
	.section .note.GNU-stack,"",%progbits
S
cat >near.c <<'C'
void far(void);
int main(void) { far(); return 0; }
C
$CC -c -fno-pic neard.c -o neard.o
$CC -c -fno-pic fard.c -o fard.o
$CC -c near.c -o near.o
$CC -c far.s -o far.o

link -no-pie neard.o fard.o -Wl,--section-start=.fardata=0x200000000 -o app
check_eq "ADRP 8 GiB away: the real ld fails" 1 "$rc"
check_eq "... the replay predicts it" failure "$(q "d['predicted']['outcome']")"
check_eq "... relocation-overflow of R_AARCH64_ADR_PREL_PG_HI21 against fard on AArch64" \
	"relocation-overflow R_AARCH64_ADR_PREL_PG_HI21 fard AArch64" \
	"$(first "['kind']") $(first "['relocation']['type']") $(first "['symbol']") $(first "['relocation']['machine']")"
check_eq "... its reach: 4 GiB" "$((4 << 30))" "$(first "['relocation']['reach']")"
check_contains "... fix: -mcmodel=large for the referencing object, stated" "$(first "['fixes']")" "rebuild $T/neard.o with -mcmodel=large"

link near.o far.o -Wl,--section-start=.far=0x10000000 -o app
check_eq "BL 252 MiB away: the real ld links (a veneer)" 0 "$rc"
check_eq "... the replay predicts the success" success "$(q "d['predicted']['outcome']")"
check_contains "... and says why" "$(q "d['notes']")" "long-branch veneer"

cat >aa.c <<'C'
extern int ext;
int get(void) { return ext; }
C
$CC -c -fno-pic -O1 aa.c -o aa.o
link -shared aa.o -o libaa.so
check_eq "ADRP in a shared object against a preemptible symbol: the real ld fails" 1 "$rc"
check_eq "... the replay predicts it" "relocation-not-allowed R_AARCH64_ADR_PREL_PG_HI21 ext" \
	"$(first "['kind']") $(first "['relocation']['type']") $(first "['symbol']")"
check_contains "... in ld's words" "$(first "['explanation']")" "which may bind externally can not be used when making a shared object; recompile with -fPIC"

cat >mv.s <<'S'
	.text
	.globl get_addr
get_addr:
	movz x0, #:abs_g1:g
	movk x0, #:abs_g0_nc:g
	ret
	.data
	.globl g
g:	.word 0
	.section .note.GNU-stack,"",%progbits
S
cat >mvmain.c <<'C'
long get_addr(void);
int main(void) { return get_addr() != 0 ? 0 : 1; }
C
$CC -c mv.s -o mv.o
$CC -c mvmain.c -o mvmain.o
link mvmain.o mv.o -o app
check_eq "MOVW_UABS in a PIE: the real ld fails" 1 "$rc"
check_eq "... the replay predicts it" relocation-not-allowed "$(first "['kind']")"
check_contains "... a MOVW_UABS relocation named" "$(first "['relocation']['type']")" "R_AARCH64_MOVW_UABS_G"
check_eq "... -no-pie verified by replay" True "$(q "[f['verified'] for f in d['diagnostics'][0]['fixes'] if f['args'] == ['-no-pie']][0]")"
$CC mvmain.o mv.o -no-pie -o app
check_eq "... and with the real ld" 0 "$?"

$CC -c -fPIE neard.c -o neardp.o
link neardp.o fard.o -o app
check_eq "PIE code, an ordinary link: the real ld links" 0 "$rc"
check_eq "... the replay predicts the success" success "$(q "d['predicted']['outcome']")"
finish
