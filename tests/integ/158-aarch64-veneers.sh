# Far AArch64 calls (R_AARCH64_CALL26, +-128 MiB) and where each linker
# puts the stub they go through (issue #33, the case's own class: a debug
# build whose code is larger than a BL reaches; analyzer/replay/stubs.c),
# each line linked with the real GNU ld 2.40, lld 14 and mold 1.10 through
# the cross driver:
# - one 130 MiB .text whose first instruction calls a function after it:
#   GNU ld's veneer goes after the section, out of reach ("relocation
#   truncated to fit"); lld puts a thunk before the section and links;
#   mold links (it does not check the branch to its thunk).
# - its twin, the same code in two sections (what -ffunction-sections
#   makes of it): GNU ld's veneer goes between them, and all three link.
# - the call 3 MiB in: GNU ld's veneer after the section is in reach.
# - ld's --stub-group-size: 200 MB groups both sections of the twin (the
#   veneer then out of reach), 100 MB does not.
# - a 258 MiB section called from its middle: neither end is in reach, so
#   lld fails too ("InputSection too large for range extension thunk");
#   mold links, and the branch it wrote does not reach its thunk: mold's
#   verdict says so (its `hazards`), as for the first line.
# passes: plain (a table of linker rules, each case linked by the real linkers:
# its verdicts depend on the record only; make check-full runs every pass)
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
. "$ROOT/tests/integ/linkers.sh"
LK_CC=aarch64-linux-gnu-gcc
mkdir xb && ln -s "$(command -v ld.lld)" xb/ld.lld && ln -s "$(command -v mold)" xb/ld.mold

# big NAME "SECTION MiB-BEFORE MiB-AFTER"...: an object whose sections each call far_fn after MiB-BEFORE.
big() {
	local name=$1 sec before after n=0
	shift
	: >"$name.s"
	for part in "$@"; do
		read -r sec before after <<<"$part"
		n=$((n + 1))
		printf '\t.section %s,"ax",%%progbits\n\t.skip %s\n\t.globl call_%s_%s\ncall_%s_%s:\n\tbl far_fn\n\t.skip %s\n' \
			"$sec" "$((before << 20))" "$name" "$n" "$name" "$n" "$((after << 20))" >>"$name.s"
	done
	printf '\t.section .note.GNU-stack,"",%%progbits\n' >>"$name.s"
	aarch64-linux-gnu-gcc -c "$name.s" -o "$name.o"
}
printf 'void far_fn(void) {}\nint main(void) { return 0; }\n' >far.c
aarch64-linux-gnu-gcc -c far.c -o far.o

big one ".text 0 130" 2>/dev/null
case_of "failure success success" one -B"$T/xb" one.o far.o
"$LINKSCOPE" report --format json "$T/one-bfd.json" >one.json
q() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
check_eq "one section: the diagnostic is GNU ld's relocation-overflow of the call" \
	"relocation-overflow far_fn R_AARCH64_CALL26" \
	"$(q one.json "d['diagnostics'][0]['kind'] + ' ' + d['diagnostics'][0]['symbol'] + ' ' + d['diagnostics'][0]['relocation']['type']")"
check_contains "... it says where GNU ld puts the veneer, and how far" \
	"$(q one.json "d['diagnostics'][0]['relocation']['stub']")" "after .text of '$T/one.o' (130.0 MiB), the last section of its stub group: 130 MiB after the call"
check_contains "... the first fix: split the code into sections the veneers can go between" \
	"$(q one.json "d['diagnostics'][0]['fixes'][0]['description']")" "rebuild $T/one.o with -ffunction-sections"
hazards() { "$LINKSCOPE" report --format json --replay-only "$1" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["linker_verdicts"]["mold"]["hazards"])'; }
for ld in bfd lld mold; do
	check_contains "one section, the $ld line: mold's verdict says its output is broken" "$(hazards "$T/one-$ld.json")" \
		"mold links, but its output is broken: R_AARCH64_CALL26 far_fn from '$T/one.o' (section .text+0x0) does not reach"
done
rm -f out-one-*

big two ".text.a 0 65" ".text.b 0 65" 2>/dev/null
case_of "success success success" two -B"$T/xb" two.o far.o 2>/dev/null
check_contains "the twin in two sections: GNU ld's veneer between them, said" \
	"$("$LINKSCOPE" report --format json --replay-only "$T/two-bfd.json" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["notes"])')" \
	"GNU ld puts the long-branch veneer of this call after .text.a of '$T/two.o' (65.0 MiB)"
check_eq "... and mold's output is not said to be broken" "[]" "$(hazards "$T/two-mold.json")"
# ld's --stub-group-size past the reach: one group over both sections, its stubs after the second, out
# of reach of the first one's call (lld and mold refuse the option).
case_of "failure failure failure" two-group -B"$T/xb" two.o far.o -Wl,--stub-group-size=200000000
case_of "success failure failure" two-group-small -B"$T/xb" two.o far.o -Wl,--stub-group-size=100000000
rm -f out-two-*

big late ".text 3 127"
case_of "success success success" late -B"$T/xb" late.o far.o
rm -f out-late-* late.o

big huge ".text 129 129"
case_of "failure failure success" huge -B"$T/xb" huge.o far.o
check_contains "258 MiB called from its middle: lld's story is its thunk's place" \
	"$("$LINKSCOPE" report --format json --replay-only "$T/huge-lld.json" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["linker_verdicts"]["lld"]["why"])')" \
	"lld puts a range extension thunk right before .text of '$T/huge.o' (258.0 MiB), the call's own section, 129 MiB before it"
check_contains "... mold's verdict: a success with its output broken" "$(hazards "$T/huge-mold.json")" "mold links, but its output is broken"
# mold's exit status is 0, but its branch does not reach the thunk it made (mold 1.10 writes it unchecked).
thunk=$(aarch64-linux-gnu-nm out-huge-mold | awk '/ far_fn\$thunk$/ { print $1 }')
at=$(aarch64-linux-gnu-nm out-huge-mold | awk '/ call_huge_1$/ { print $1 }')
call=$(aarch64-linux-gnu-objdump -d --start-address=$((0x$at)) --stop-address=$((0x$at + 4)) out-huge-mold |
	awk '/\tbl\t/ { print $4; exit }')
check "... mold's output branches elsewhere than to its far_fn thunk (to $call, the thunk at $thunk)" \
	test -n "$thunk" -a -n "$call" -a "$((0x${call:-0}))" != "$((0x${thunk:-0}))"
rm -f out-huge-* huge.o one.o two.o
finish
