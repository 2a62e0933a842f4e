# "skipping incompatible" during -l search (issue #17, point 4), the real
# ld the oracle: ld skips a libNAME of another machine and goes on; a
# compatible one later is a success, and none is "cannot find -lNAME",
# predicted as incompatible-skipped with the skipped files and their
# machine named, and a dir of the link's machine that has the right one
# (the fix: that file in place of the -l word, verified by replay and by
# the real ld). A cross link (AArch64) is judged by its own machine.
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always

rep() { "$LINKSCOPE" report --format json last | "$PY" -c 'import json,sys; r=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }
inc='[d for d in r["diagnostics"] if d["kind"] == "incompatible-skipped"][0]'
link() {
	what=$1
	shift
	"$SHIM" -- "$@" >/dev/null 2>&1
	ld_outcome=$([ $? -eq 0 ] && echo success || echo failure)
	check_eq "$what: ld's outcome is $ld_outcome, so is the prediction" "$ld_outcome" "$(rep 'r["predicted"]["outcome"]')"
}

echo 'int zf(void) { return 3; }' >zf.c
echo 'int zf(void); int main(void) { return zf() - 3; }' >mz.c
cc -c mz.c
mkdir arm x86
aarch64-linux-gnu-gcc -shared -fPIC zf.c -o arm/libzz.so
aarch64-linux-gnu-gcc -c zf.c -o arm/zf.o && ar rc arm/libzz.a arm/zf.o
cc -shared -fPIC zf.c -o x86/libzz.so

link "only AArch64 libzz.so and libzz.a in the -L dir" cc mz.o -Larm -lzz -o p1
check_eq "... predicted as incompatible-skipped" "['incompatible-skipped']" "$(rep '[d["kind"] for d in r["diagnostics"] if d["kind"] != "undefined-symbol"]')"
check_eq "... naming both files skipped" "['$T/arm/libzz.so', '$T/arm/libzz.a']" "$(rep "$inc"'["skipped"]')"
check_contains "... and their machine" "$(rep '" ".join('"$inc"'["explanation"])')" \
	"ld skipped $T/arm/libzz.so: it is for AArch64 (e_machine 183), and the link is for x86-64"
check_eq "... no dir of x86-64 has one: no file named, no fix" "None []" "$(rep 'str('"$inc"'["not_found_file"]) + " " + str('"$inc"'["fixes"])')"

link "an AArch64 libzz.so skipped, the x86-64 one found after it" cc mz.o -Larm -Lx86 -lzz -o p2
check_eq "... nothing diagnosed" "[]" "$(rep 'r["diagnostics"]')"

# The right one in the x86-64 dir of a sysroot that the line does not search (-nostdlib).
mkdir -p sys/usr/x86_64-linux-gnu/lib && cp x86/libzz.so sys/usr/x86_64-linux-gnu/lib/
link "only AArch64 files searched, an x86-64 one in the sysroot's x86-64 dir" \
	cc -shared -nostdlib -Wl,-nostdlib --sysroot="$T/sys" mz.o -Larm -lzz -o libp3.so
check_eq "... that file named" "$T/sys/usr/x86_64-linux-gnu/lib/libzz.so" "$(rep "$inc"'["not_found_file"]')"
check_eq "... the fix: it in place of -lzz, verified by replay" "$T/sys/usr/x86_64-linux-gnu/lib/libzz.so True True" \
	"$(rep '" ".join(f["args"]) + " " + str(f["verified"]) + " " + str(f["replaces"]) if (f := '"$inc"'["fixes"][0]) else ""')"
check "... and the real ld links with it" cc -shared -nostdlib -Wl,-nostdlib --sysroot="$T/sys" mz.o -Larm \
	"$T/sys/usr/x86_64-linux-gnu/lib/libzz.so" -o libp3.so

# A cross link: the x86-64 library is the incompatible one.
aarch64-linux-gnu-gcc -c mz.c -o mz-arm.o
link "an AArch64 link, only an x86-64 libzz.so" aarch64-linux-gnu-gcc mz-arm.o -Lx86 -lzz -o p4
check_contains "... the x86-64 file skipped, the link's machine AArch64" "$(rep '" ".join('"$inc"'["explanation"])')" \
	"ld skipped $T/x86/libzz.so: it is for x86-64 (e_machine 62), and the link is for AArch64"
link "an AArch64 link with its own libzz.so" aarch64-linux-gnu-gcc mz-arm.o -Lx86 -Larm -lzz -o p5
finish
