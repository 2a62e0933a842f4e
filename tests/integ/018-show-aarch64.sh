# The case of ../shared/background, with Debian's aarch64 cross toolchain:
# an archive built with -fstack-protector-all, linked with rustc's argv
# shape (-nodefaultlibs, a native list ending in -lc, then the appended
# --start-group block, with --copy-dt-needed-entries placed after the -lc).
# The real ld fails with "DSO missing from command line"; show must present
# the line as ld reads it.
. "$(dirname "$0")/lib.sh"

read -r -a line <<<"$("$ROOT/testdata/iree-case/build.sh")"
run_capture link "$SHIM" -- aarch64-linux-gnu-gcc "${line[@]}" -o app
check_eq "the real ld fails" 1 "$(cat "$T/link.rc")"
check_contains "with DSO missing (the linker's own words, a cross-check only)" "$(cat "$T/link.err")" "DSO missing from command line"

out=$("$LINKSCOPE" show last)
check_eq "show exits 0" 0 $?
check_contains "a cross link for aarch64" "$out" "emulation aarch64linux, cross"
check_contains "the target from the driver's name" "$(rec "$(last_record)" 'r["target"]["triple"]')" "aarch64-linux-gnu"
check_contains "-lc is the cross libc.so script" "$out" "-lc  -> /usr/lib/gcc-cross/aarch64-linux-gnu/12/../../../../aarch64-linux-gnu/lib/../lib/libc.so  linker script"
check_contains "its GROUP: libc.so.6" "$out" "/usr/aarch64-linux-gnu/lib/libc.so.6  shared object, SONAME libc.so.6"
check_contains "its AS_NEEDED: the aarch64 loader" "$out" "/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1  shared object, SONAME ld-linux-aarch64.so.1"
check_contains "the DT_NEEDED tree: libc.so.6 needs the loader" "$out" \
	"ld-linux-aarch64.so.1  on the line (/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 in -lc's AS_NEEDED)"
check_contains "--copy-dt-needed-entries does not apply to the -lc before it" "$out" \
	"--copy-dt-needed-entries at 10 comes after -lc at 9 and does not apply to it"
check_contains "the archive in the group, resolved by -l:" "$out" "-l:libiree_runtime_unified.a  -> $T/libiree_runtime_unified.a  archive, 1 members"
check_contains "the group" "$out" "g0 at 12 (user): -l:libiree_runtime_unified.a"
check_eq "no x86-64 file was picked for the aarch64 link" 0 "$(grep -c "x86_64-linux-gnu/lib" <<<"$(grep -- '->' <<<"$out")")"
finish
