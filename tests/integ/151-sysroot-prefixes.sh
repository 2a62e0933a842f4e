# The sysroot's prefixes as each real linker reads them (issue #33 point
# 3b; model/resolve.c's prefixed_as), each line linked with GNU ld 2.40,
# lld 14 and mold 1.10: "=DIR" in -L is the sysroot's DIR in all three
# (without --sysroot: GNU ld's configured "/", lld drops the '=', mold
# searches "=DIR" as it is); "$SYSROOT" in -L is the sysroot's to GNU ld
# and mold, a name to lld; in a linker script's INPUT/GROUP a name may
# start with '=' (no syntax error: it was one here) and is the sysroot's
# in all three, "$SYSROOT" is GNU ld's only. Each line's own linker must
# agree with its replay; another linker's verdict is right or, where it
# reads a prefix otherwise than the line's own linker, unknown (it names
# the prefix) or, where it reads a dir or file that does not exist, its
# failure (a -l found only there, a script's name it cannot open).
# passes: plain (a table of linker rules, each case linked by the real linkers:
# its verdicts depend on the record only; make check-full runs every pass)
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
. "$ROOT/tests/integ/linkers.sh"

foo_and_user
mkdir -p S/lib S/usr/lib
ar rcs S/lib/libfoo.a foo.o
echo 'GROUP ( =/lib/libfoo.a )' >S/usr/lib/libeq.so
echo 'INPUT ( $SYSROOT/lib/libfoo.a )' >S/usr/lib/libss.so
echo 'GROUP ( /lib/libfoo.a )' >S/usr/lib/libabs.so
echo 'GROUP ( =/lib/libfoo.a )' >libeqhere.so

# prefixes WANT NAME WORDS...: WANT is the real outcome of bfd, lld, mold.
prefixes() {
	local want=$1 name=$2 real k got
	shift 2
	for ld in bfd lld mold; do linked "$name" "$ld" "$@"; done
	real="$(word "$name-bfd") $(word "$name-lld") $(word "$name-mold")"
	check_eq "$name: the real linkers (bfd lld mold)" "$want" "$real"
	read_answers "$name"
	for ld in bfd lld mold; do
		check_eq "$name: the $ld line's own linker agrees with its replay" "True" "${agrees_of[$ld]}"
		got=${replay_of[$ld]}
		k=0
		for other in bfd lld mold; do
			k=$((k + 1))
			v=$(tr ' ' '\n' <<<"$got" | sed -n "s/^$other=//p")
			if [ "$v" = unknown ]; then
				echo "$name $ld $other" >>unknowns
				continue
			fi
			check_eq "$name: the $ld line's verdict for $other" "$(cut -d' ' -f$k <<<"$want")" "$v"
		done
	done
}

S=$T/S
prefixes "success success success" eq-libdir usefoo.o -Wl,--sysroot="$S" -L=/lib -lfoo
prefixes "success failure success" dollar-libdir usefoo.o -Wl,--sysroot="$S" '-L$SYSROOT/lib' -lfoo
prefixes "success success success" eq-script usefoo.o -Wl,--sysroot="$S" -L=/usr/lib -leq
prefixes "success failure failure" dollar-script usefoo.o -Wl,--sysroot="$S" -L=/usr/lib -lss
prefixes "success success success" abs-in-sysroot usefoo.o -Wl,--sysroot="$S" -L=/usr/lib -labs
prefixes "success success success" eq-script-here usefoo.o -Wl,--sysroot="$S" -L. -leqhere
prefixes "success success failure" eq-no-sysroot usefoo.o -L="$S/lib" -lfoo

# aarch64, the cross driver (lld and mold found by -B): the same "=" in -L and in a script.
mkdir -p xb A/lib A/usr/lib && ln -s "$(command -v ld.lld)" xb/ld.lld && ln -s "$(command -v mold)" xb/ld.mold
aarch64-linux-gnu-gcc -c foo.c -o foo-a64.o && aarch64-linux-gnu-gcc -c usefoo.c -o usefoo-a64.o
aarch64-linux-gnu-ar rcs A/lib/libfoo.a foo-a64.o
echo 'GROUP ( =/lib/libfoo.a )' >A/usr/lib/libeq.so
LK_CC=aarch64-linux-gnu-gcc prefixes "success success success" a64-eq-libdir -B"$T/xb" usefoo-a64.o -Wl,--sysroot="$T/A" -L=/lib -lfoo
LK_CC=aarch64-linux-gnu-gcc prefixes "success success success" a64-eq-script -B"$T/xb" usefoo-a64.o -Wl,--sysroot="$T/A" -L=/usr/lib -leq

# Where a linker reads a prefix otherwise: a dir or file that does not exist for it is one it does not
# search or cannot open (its failure said); one that exists, unknown, naming it.
check_contains "lld's reading of -L\$SYSROOT: the dir it does not search, said" \
	"$("$LINKSCOPE" report --format json "$T/dollar-libdir-bfd.json" | "$PY" -c 'import json,sys; print(" ".join(json.load(sys.stdin)["predicted"]["linker_verdicts"]["lld"]["why"]))')" \
	"lld fails: it cannot find -lfoo, which only '$S/lib' has, a dir it reads as '$T/\$SYSROOT/lib' (that does not exist)"
check_contains "GNU ld's reading of \$SYSROOT on lld's line, unknown and named" \
	"$("$LINKSCOPE" report --format json "$T/dollar-libdir-lld.json" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["linker_verdicts"]["bfd"]["unknown_because"])')" \
	"GNU ld reads the -L dir '$T/\$SYSROOT/lib' as '$S/lib': what it finds there is not modelled"
check_eq "the cross verdicts left unknown (line, other linker)" \
	"dollar-libdir lld bfd,dollar-libdir lld mold,dollar-script lld bfd,dollar-script mold bfd,eq-no-sysroot mold bfd,eq-no-sysroot mold lld" \
	"$(sort unknowns | paste -sd,)"
finish
