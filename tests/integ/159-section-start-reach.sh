# --section-start and what each linker places after the moved section
# (issue #33: "--section-start reach"; analyzer/replay/reloc_layout.c),
# each line linked with the real GNU ld 2.40, lld 14 and mold 1.10:
# - GNU ld puts the section where it is told and leaves the others where
#   they were; lld puts the moved sections first and everything else after
#   them (getSectionRank); mold puts the moved one where it is told in its
#   own order (read-only data, then code by name: .far before .text) and
#   what follows it after it. lld's and mold's images start at 0x200000.
# - AArch64: a conditional branch (R_AARCH64_CONDBR19, +-1 MiB: no linker
#   adds a stub for it) from .text to the moved .far, and an ADR
#   (R_AARCH64_ADR_PREL_LO21) from .text to .rodata.
# - x86-64: .far 3 GiB away: GNU ld's .eh_frame no longer reaches it
#   (R_X86_64_PC32 in the FDE); lld moves everything with it (a PIE links;
#   -no-pie's crtbegin.o R_X86_64_32S then does not reach .tm_clone_table);
#   mold moves only what follows .far.
# - a moved section over where GNU ld puts the others: not modelled,
#   `unknown` naming it.
# - without --section-start: a conditional branch over 2 MiB of code in a
#   small image fails with all three; --gc-sections collects the 2 MiB
#   (the layout leaves collected sections out) and all three link.
# passes: plain (a table of linker rules, each case linked by the real linkers:
# its verdicts depend on the record only; make check-full runs every pass)
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
. "$ROOT/tests/integ/linkers.sh"
mkdir xb && ln -s "$(command -v ld.lld)" xb/ld.lld && ln -s "$(command -v mold)" xb/ld.mold

# branchy NAME FAR-SIZE: main branches (cbz) to .far's target and takes .rodata's address (adr).
branchy() {
	cat >"$1.s" <<S
	.text
	.globl main
	.type main,%function
main:
	cbz x0, target
	adr x1, rodat
	mov w0, #0
	ret
	.section .far,"ax",%progbits
	.globl target
target:	ret
	.skip $2
	.section .rodata
rodat:	.word 1
	.section .note.GNU-stack,"",%progbits
S
	aarch64-linux-gnu-gcc -c "$1.s" -o "$1.o"
}
branchy big 0x200000
branchy small 0x100
LK_CC=aarch64-linux-gnu-gcc
case_of "failure failure failure" big-8m -B"$T/xb" big.o -no-pie -Wl,--section-start=.far=0x800000
case_of "success failure failure" big-half -B"$T/xb" big.o -no-pie -Wl,--section-start=.far=0x480000
case_of "failure success failure" small-8m -B"$T/xb" small.o -no-pie -Wl,--section-start=.far=0x800000
case_of "success success failure" small-half -B"$T/xb" small.o -no-pie -Wl,--section-start=.far=0x480000
case_of "success success failure" small-below -B"$T/xb" small.o -no-pie -Wl,--section-start=.far=0x380000
q() { "$LINKSCOPE" report --format json --replay-only "$1" | "$PY" -c "import json,sys; d=json.load(sys.stdin); print($2)"; }
check_contains "the conditional branch's overflow is GNU ld's story, no veneer" \
	"$(q "$T/big-8m-bfd.json" "d['diagnostics'][0]['relocation']['type'], d['diagnostics'][0]['symbol'], d['diagnostics'][0]['relocation'].get('stub')")" \
	"R_AARCH64_CONDBR19 target None"
check_contains "mold's story: the ADR to .rodata, which stays before .far" \
	"$(q "$T/small-8m-mold.json" "d['predicted']['linker_verdicts']['mold']['why']")" "(R_AARCH64_ADR_PREL_LO21)"

"$SHIM" -- aarch64-linux-gnu-gcc -B"$T/xb" big.o -no-pie -Wl,--section-start=.far=0x380000 -o out-over >/dev/null 2>&1
check_eq "a moved section over .text: GNU ld refuses" 1 "$?"
check_contains "... unknown, naming the overlap" "$(q "$(last_record)" "d['predicted']['outcome'], d['predicted']['unknown_because']")" \
	"the section .far placed by --section-start overlaps where"

# A conditional branch over 2 MiB of code in a small image (no --section-start): all three fail;
# under --gc-sections the 2 MiB are collected (nothing references them) and all three link.
cat >gcb.s <<'S'
	.section .text.main,"ax",%progbits
	.globl main
	.type main,%function
main:
	cbz x0, target
	mov w0, #0
	ret
	.section .text.junk,"ax",%progbits
	.globl junk
	.type junk,%function
junk:	ret
	.skip 0x200000
	.section .text.target,"ax",%progbits
	.globl target
	.type target,%function
target:	ret
	.section .note.GNU-stack,"",%progbits
S
aarch64-linux-gnu-gcc -c gcb.s -o gcb.o
case_of "failure failure failure" over-junk -B"$T/xb" gcb.o -no-pie
case_of "success success success" over-junk-gc -B"$T/xb" gcb.o -no-pie -Wl,--gc-sections

cat >x.c <<'C'
__attribute__((section(".far"))) int far_fn(void) { return 1; }
static const char msg[] = "hello";
const char *get(void) { return msg; }
int main(void) { return far_fn() + (get()[0] == 'h'); }
C
gcc -c -O1 -fPIE x.c -o xp.o
gcc -c -O1 -fno-pic x.c -o xn.o
LK_CC=gcc
case_of "failure success failure" x86-pie -B"$T/xb" xp.o -Wl,--section-start=.far=0xc0000000
case_of "failure failure failure" x86-nopie -B"$T/xb" xn.o -no-pie -Wl,--section-start=.far=0xc0000000
case_of "success success success" x86-near -B"$T/xb" xp.o -Wl,--section-start=.far=0x10000000
check_contains "GNU ld's story on x86-64: the FDE of .eh_frame" \
	"$(q "$T/x86-pie-bfd.json" "d['diagnostics'][0]['relocation']['type'], d['diagnostics'][0]['relocation']['section']")" \
	"R_X86_64_PC32 .eh_frame"
rm -f out-*
finish
