# Used as CC, the shim sees compiles and queries: they are forwarded with
# identical output and leave no record; a whole make build leaves one
# record, for its one link.
. "$(dirname "$0")/lib.sh"

write_main
run_capture direct cc --version
run_capture shim "$SHIM" --version
same_run "--version" direct shim
run_capture direct cc -dumpmachine
run_capture shim "$SHIM" -dumpmachine
same_run "-dumpmachine" direct shim
run_capture direct cc -print-prog-name=ld
run_capture shim "$SHIM" -print-prog-name=ld
same_run "-print-prog-name=ld" direct shim
run_capture direct cc -E main.c
run_capture shim "$SHIM" -E main.c
same_run "-E" direct shim
run_capture direct cc -M main.c
run_capture shim "$SHIM" -M main.c
same_run "-M" direct shim
run_capture shim "$SHIM" -c main.c -o shim.o
check_eq "-c: status 0" 0 "$(cat "$T/shim.rc")"
check "-c: object identical to a direct compile" cmp -s main.o shim.o
run_capture direct cc -c nosuchfile.c
run_capture shim "$SHIM" -c nosuchfile.c
same_run "a failing compile" direct shim
check_eq "no record for compiles and queries" 0 "$(record_count)"

mkdir proj && cd proj || exit 1
printf 'int f(void);\nint main(void) { return f(); }\n' >a.c
printf 'int f(void) { return 0; }\n' >b.c
printf 'prog: a.o b.o\n\t$(CC) a.o b.o -o prog\n' >Makefile
run_capture make make -s CC="$SHIM"
check_eq "make with CC=linkscope-cc builds" 0 "$(cat "$T/make.rc")"
check "the program runs" ./prog
check_eq "exactly one record: the link" 1 "$(record_count)"
check_eq "the record is the link of prog" "prog" "$(rec "$(last_record)" 'r["line"]["output"]')"
finish
