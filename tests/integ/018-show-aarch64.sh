# The case of ../shared/background, for aarch64 (natively on an aarch64
# host, else with Debian's cross toolchain):
# an archive built with -fstack-protector-all, linked with rustc's argv
# shape (-nodefaultlibs, a native list ending in -lc, then the appended
# --start-group block, with --copy-dt-needed-entries placed after the -lc).
# The real ld fails with "DSO missing from command line"; show must present
# the line as ld reads it.
. "$(dirname "$0")/lib.sh"

need_arch aarch64
a64cc=$(arch_tool aarch64 gcc)
libc_so=$("$a64cc" -print-file-name=libc.so)
read -r libc6 loader <<<"$(libc_paths "$a64cc")"
if [ "$HOST_ARCH" = aarch64 ]; then native=native; else native=cross; fi
read -r -a line <<<"$("$ROOT/testdata/iree-case/build.sh")"
run_capture link "$SHIM" -- "$a64cc" "${line[@]}" -o app
check_eq "the real ld fails" 1 "$(cat "$T/link.rc")"
check_contains "with DSO missing (the linker's own words, a cross-check only)" "$(cat "$T/link.err")" "DSO missing from command line"

out=$("$LINKSCOPE" show last)
check_eq "show exits 0" 0 $?
check_contains "a $native link for aarch64" "$out" "emulation aarch64linux, $native"
# The triple is the driver's name's (a cross gcc); the host's own cc names
# none, and the record says none (the host's default, docs/record-format.md).
case $(basename "$a64cc") in
aarch64-linux-gnu-*) check_eq "the target from the driver's name" "aarch64-linux-gnu driver name" \
	"$(rec "$(last_record)" 'r["target"]["triple"], r["target"]["source"]' | tr -d "(),'")" ;;
*) check_eq "the host's own driver: no target triple, the host's default" "None None" \
	"$(rec "$(last_record)" 'r["target"]["triple"], r["target"]["source"]' | tr -d "(),'")" ;;
esac
check_contains "-lc is the aarch64 libc.so script" "$out" "-lc  -> $libc_so  linker script"
check_contains "its GROUP: libc.so.6" "$out" "$libc6  shared object, SONAME libc.so.6"
check_contains "its AS_NEEDED: the aarch64 loader" "$out" "$loader  shared object, SONAME ld-linux-aarch64.so.1"
check_contains "the DT_NEEDED tree: libc.so.6 needs the loader" "$out" \
	"ld-linux-aarch64.so.1  on the line ($loader in -lc's AS_NEEDED)"
check_contains "--copy-dt-needed-entries does not apply to the -lc before it" "$out" \
	"--copy-dt-needed-entries at 10 comes after -lc at 9 and does not apply to it"
check_contains "the archive in the group, resolved by -l:" "$out" "-l:libiree_runtime_unified.a  -> $T/libiree_runtime_unified.a  archive, 1 members"
check_contains "the group" "$out" "g0 at 12 (user): -l:libiree_runtime_unified.a"
check_eq "no x86-64 file was picked for the aarch64 link" 0 "$(grep -c "x86_64-linux-gnu/lib" <<<"$(grep -- '->' <<<"$out")")"
finish
