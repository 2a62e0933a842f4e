# A driver that does not exist or cannot run: a clear line, and the status
# a shell gives (127 not found, 126 not executable).
. "$(dirname "$0")/lib.sh"

write_main
run_capture sh sh -c 'no-such-driver-xyz main.o'
LINKSCOPE_LINKER=no-such-driver-xyz run_capture shim "$SHIM" main.o -o x
check_eq "not found: the shell's status" "$(cat "$T/sh.rc")" "$(cat "$T/shim.rc")"
check_eq "not found: one clear line" "linkscope-cc: cannot run 'no-such-driver-xyz': not found on PATH" "$(cat "$T/shim.err")"
run_capture shim "$SHIM" -- /no/such/gcc main.o
check_eq "launcher with a missing path: 127" 127 "$(cat "$T/shim.rc")"
check_eq "launcher: one clear line" "linkscope-cc: cannot run '/no/such/gcc': No such file or directory" "$(cat "$T/shim.err")"
printf 'not a program\n' >notexec
run_capture shim "$SHIM" -- ./notexec main.o
check_eq "not executable: 126" 126 "$(cat "$T/shim.rc")"
check_contains "not executable: says so" "$(cat "$T/shim.err")" "'./notexec': not an executable file"
run_capture usage "$SHIM" --
check_eq "launcher without a driver: usage, 2" 2 "$(cat "$T/usage.rc")"
check_eq "no records for runs that never started" 0 "$(record_count)"
finish
