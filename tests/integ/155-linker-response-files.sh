# -Wl,@FILE: a response file read by the linker itself (issue #33 point
# 3f; model/line.c's expand_linker_rsp): its words are the linker's,
# split with buildargv's rules (quotes, nested @FILE), each at the driver
# position of -Wl,@FILE. It was read as an input named "@FILE": unknown,
# or a false alarm. Each line is linked by the three real linkers; the
# replay of each gives every linker's outcome.
# passes: plain (a table of linker rules, each case linked by the real linkers:
# its verdicts depend on the record only; make check-full runs every pass)
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
. "$ROOT/tests/integ/linkers.sh"

foo_and_user
mkdir -p "lib dir"
ar rcs "lib dir/libfoo.a" foo.o
printf -- '-L"%s/lib dir"\n-lfoo\n' "$T" >libs.rsp
printf -- '-lnosuch\n' >missing.rsp
printf -- '@libs.rsp --as-needed\n' >nested.rsp
printf -- '--gdb-index\n' >gdb.rsp
printf 'V1 { global: foo local: *; };\n' >bad.map
printf -- '--version-script=bad.map\n' >vs.rsp

case_of "success success success" libs usefoo.o -Wl,@libs.rsp
case_of "failure failure failure" missing usefoo.o -Wl,@libs.rsp -Wl,@missing.rsp
case_of "success success success" nested usefoo.o -Wl,@nested.rsp
case_of "failure success success" gdb-index usefoo.o -Wl,@libs.rsp,@gdb.rsp
case_of "failure failure failure" version-script -shared foo.o -Wl,@vs.rsp

check_contains "the response file's option, refused in GNU ld's words" "$("$LINKSCOPE" explain "$T/gdb-index-lld.json")" \
	"GNU ld fails: \"unrecognized option '--gdb-index'\""

# aarch64 (the cross driver; lld and mold found by -B).
mkdir xb a64 && ln -s "$(command -v ld.lld)" xb/ld.lld && ln -s "$(command -v mold)" xb/ld.mold
aarch64-linux-gnu-gcc -c foo.c -o foo-a64.o && aarch64-linux-gnu-gcc -c usefoo.c -o usefoo-a64.o
aarch64-linux-gnu-ar rcs a64/libfoo.a foo-a64.o
printf -- '-L%s/a64 -lfoo\n' "$T" >a64.rsp
LK_CC=aarch64-linux-gnu-gcc case_of "success success success" a64-libs -B"$T/xb" usefoo-a64.o -Wl,@a64.rsp
finish
