# A text libNAME.so of another target on the -L path (issue #33 point
# 3c; model/libsearch.c): GNU ld lexes it, finds OUTPUT_FORMAT(elf32-i386)
# and skips it ("skipping incompatible"), mold skips it too, lld reads it
# as any linker script (here: an i386 archive, "incompatible with
# elf64-x86-64"). One of the link's own target is read by all three. Each
# line is linked by the three real linkers; its own linker must agree with
# its replay, and another linker's verdict is right or, where it reads the
# script otherwise than the line's own linker, unknown (lld's, reading a
# script GNU ld skips, is decided where the script names a file that does
# not exist or is of another machine).
# passes: plain (a table of linker rules, each case linked by the real linkers:
# its verdicts depend on the record only; make check-full runs every pass)
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
. "$ROOT/tests/integ/linkers.sh"

foo_and_user
cc -m32 -c foo.c -o foo32.o
mkdir -p other good i386
ar rcs good/libfoo.a foo.o
ar rcs i386/libfoo.a foo32.o
printf 'OUTPUT_FORMAT(elf32-i386)\nGROUP ( %s/i386/libfoo.a )\n' "$T" >other/libfoo.so
cp other/libfoo.so other/libqux.so
printf 'OUTPUT_FORMAT(elf64-x86-64)\nGROUP ( %s/good/libfoo.a )\n' "$T" >other/libsame.so

# skipped WANT NAME WORDS...: WANT is the real outcome of bfd, lld, mold.
skipped() {
	local want=$1 name=$2 got v k
	shift 2
	for ld in bfd lld mold; do linked "$name" "$ld" "$@"; done
	check_eq "$name: the real linkers (bfd lld mold)" "$want" "$(word "$name-bfd") $(word "$name-lld") $(word "$name-mold")"
	read_answers "$name"
	for ld in bfd lld mold; do
		check_eq "$name: the $ld line's own linker agrees with its replay" "True" "${agrees_of[$ld]}"
		got=${replay_of[$ld]}
		k=0
		for other in bfd lld mold; do
			k=$((k + 1))
			v=$(tr ' ' '\n' <<<"$got" | sed -n "s/^$other=//p")
			[ "$v" = unknown ] && { echo "$name $ld $other" >>unknowns; continue; }
			check_eq "$name: the $ld line's verdict for $other" "$(cut -d' ' -f$k <<<"$want")" "$v"
		done
	done
}

skipped "success failure success" next-dir usefoo.o -Lother -Lgood -lfoo
skipped "failure failure failure" only-one usefoo.o -Lother -lqux
skipped "success success success" same-target usefoo.o -Lother -lsame

# aarch64 (the cross driver; lld and mold found by -B): an x86-64 script skipped the same way.
mkdir -p xb a64good && ln -s "$(command -v ld.lld)" xb/ld.lld && ln -s "$(command -v mold)" xb/ld.mold
aarch64-linux-gnu-gcc -c foo.c -o foo-a64.o && aarch64-linux-gnu-gcc -c usefoo.c -o usefoo-a64.o
aarch64-linux-gnu-ar rcs a64good/libfoo.a foo-a64.o
mkdir a64other && printf 'OUTPUT_FORMAT(elf64-x86-64)\nGROUP ( %s/good/libfoo.a )\n' "$T" >a64other/libfoo.so
LK_CC=aarch64-linux-gnu-gcc skipped "success failure success" a64-next-dir -B"$T/xb" usefoo-a64.o -La64other -La64good -lfoo

check_contains "GNU ld's line: lld reads the script it skips, and the i386 archive it names fails it" \
	"$("$LINKSCOPE" report --format json "$T/next-dir-bfd.json" | "$PY" -c 'import json,sys; print(" ".join(json.load(sys.stdin)["predicted"]["linker_verdicts"]["lld"]["why"]))')" \
	"lld fails: for -lfoo (at 5) it reads '$T/other/libfoo.so', a linker script of another target that GNU ld skips, and '$T/i386/libfoo.a', which it names, is for i386"
check_contains "lld's line: GNU ld's search on from the script it skips, unknown and named" \
	"$("$LINKSCOPE" report --format json "$T/next-dir-lld.json" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["linker_verdicts"]["bfd"]["unknown_because"])')" \
	"GNU ld skips '$T/other/libfoo.so' for -lfoo (a linker script of OUTPUT_FORMAT(elf32-i386)), which lld reads"
check_eq "the cross verdicts left unknown (line, other linker)" \
	"a64-next-dir lld bfd,a64-next-dir lld mold,next-dir lld bfd,next-dir lld mold,only-one lld bfd,only-one lld mold" \
	"$(sort unknowns | paste -sd,)"
finish
