# A -T script's MEMORY regions that overflow (issue #33 point 3e; the
# model is analyzer/replay/memory.c): GNU ld says "region `ROM' overflowed
# by N bytes", lld "section '.text' will not fit in region 'ROM'", mold
# 1.10 refuses MEMORY. Each line is linked by the three real linkers; the
# replay of each gives every linker's outcome, and a region the input
# sections fill to within the margin of padding and linker-made sections
# is unknown, not guessed.
# passes: plain (a table of linker rules, each case linked by the real linkers:
# its verdicts depend on the record only; make check-full runs every pass)
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
. "$ROOT/tests/integ/linkers.sh"

cat >big.c <<'C'
static const char table[4096] = {1};
static char buf[70000];
int start(void) { return table[100] + buf[5]; }
C
cat >small.c <<'C'
int start(void) { return 0; }
C
# script NAME ROM RAM: a script of two regions of those sizes.
script() {
	cat >"$1" <<L
/* regions */
MEMORY { ROM (rx) : ORIGIN = 0x100000, LENGTH = $2
         RAM (rw) : ORIGIN = 0x400000, LENGTH = $3 }
ENTRY(start)
SECTIONS {
  .text : { *(.text*) . = ALIGN(8); *(.rodata*) } > ROM
  .data : { *(.data*) } > RAM AT> ROM
  .bss : { *(.bss*) *(COMMON) } > RAM
}
L
}
script rom-small.ld 1K 128K
script rom-big.ld 16K 128K
script ram-small.ld 16K 64K
script rom-edge.ld 4200 128K
cc -c -fno-pic -fno-asynchronous-unwind-tables big.c small.c
nostd=(-nostdlib -static -Wl,--build-id=none)

case_of "failure failure failure" rom-overflow "${nostd[@]}" big.o -Wl,-T,rom-small.ld
case_of "success success failure" rom-fits "${nostd[@]}" big.o -Wl,-T,rom-big.ld
case_of "failure failure failure" ram-overflow "${nostd[@]}" big.o -Wl,-T,ram-small.ld
case_of "success success failure" small-fits "${nostd[@]}" small.o -Wl,-T,rom-small.ld

# At the edge: the real linkers link it, the replay does not guess.
for ld in bfd lld; do linked rom-edge "$ld" "${nostd[@]}" big.o -Wl,-T,rom-edge.ld; done
check_eq "rom-edge: the real GNU ld and lld link" "success success" "$(word rom-edge-bfd) $(word rom-edge-lld)"
check_eq "rom-edge: the outcome unknown (the own linker's verdict is)" "bfd=unknown lld=unknown mold=unknown" "$(verdicts "$T/rom-edge-bfd.json")"
check_contains "rom-edge: why, named" "$("$LINKSCOPE" report --format json "$T/rom-edge-bfd.json")" \
	"region \`ROM' of 'rom-edge.ld' (4200 bytes) takes"
check_contains "the overflow said" "$("$LINKSCOPE" explain "$T/rom-overflow-bfd.json")" \
	"GNU ld fails: the region \`ROM' of 'rom-small.ld' (1024 bytes) takes at least"

# aarch64 (the cross driver; lld and mold found by -B).
mkdir xb && ln -s "$(command -v ld.lld)" xb/ld.lld && ln -s "$(command -v mold)" xb/ld.mold
aarch64-linux-gnu-gcc -c -fno-pic -fno-asynchronous-unwind-tables big.c -o big-a64.o
LK_CC=aarch64-linux-gnu-gcc case_of "failure failure failure" a64-rom-overflow -B"$T/xb" "${nostd[@]}" big-a64.o -Wl,-T,rom-small.ld
LK_CC=aarch64-linux-gnu-gcc case_of "success success failure" a64-rom-fits -B"$T/xb" "${nostd[@]}" big-a64.o -Wl,-T,rom-big.ld
finish
