# A real gcc link through the shim: same status, same stdout and stderr
# bytes, same output binary as calling cc directly; one valid record.
. "$(dirname "$0")/lib.sh"

write_main
# tmpnam makes GNU ld print a warning: a successful link with stderr output.
cat >warn.c <<'C'
#include <stdio.h>
char *name(void) { static char b[L_tmpnam]; return tmpnam(b); }
C
cc -c warn.c -o warn.o

run_capture direct cc main.o warn.o -o direct.bin
run_capture shim "$SHIM" main.o warn.o -o shim.bin
same_run "successful link" direct shim
check_contains "the link printed ld's warning" "$(cat "$T/shim.err")" "tmpnam"
check "the output is byte-identical" cmp -s direct.bin shim.bin
check_eq "the program runs" "hello" "$(./shim.bin)"

check_eq "one record" 1 "$(record_count)"
r=$(last_record)
check "record validates against the schema" validate "$r"
check_eq "record: exit status" 0 "$(rec "$r" 'r["result"]["exit_status"]')"
check_eq "record: argv as the driver got it" "['/usr/bin/cc', 'main.o', 'warn.o', '-o', 'shim.bin']" "$(rec "$r" 'r["argv"]')"
check_eq "record: driver given" "cc" "$(rec "$r" 'r["driver"]["given"]')"
check_eq "record: output" "shim.bin" "$(rec "$r" 'r["line"]["output"]')"
check_eq "record: cwd" "$T" "$(rec "$r" 'r["cwd"]')"
check_eq "record: stderr kept" "$(cat "$T/shim.err")" "$(rec "$r" 'r["stderr"]["text"].rstrip("\n")')"
check_eq "record: input fingerprint" "$(stat -c %s main.o) True" "$(rec "$r" '"%d %s" % (r["inputs"][0]["file"]["size"], r["inputs"][0]["file"]["exists"])')"
check_eq "record: the -### expansion taken beside the link" "always 0" "$(rec "$r" '"%s %s" % (r["expansion"]["trigger"], r["expansion"]["exit_status"])')"
check_contains "record: its linker command has crt1.o" \
	"$(rec "$r" '" ".join(r["expansion"]["commands"][r["expansion"]["linker_command"]])')" "crt1.o"
check_eq "record: the driver's linker program" "ld" "$(rec "$r" 'r["linker"]["print_prog_name"]')"
LINKSCOPE_EXPAND=failure "$SHIM" main.o warn.o -o shim2.bin 2>/dev/null
check_eq "LINKSCOPE_EXPAND=failure: no -### expansion on success" "None" "$(rec "$(last_record)" 'r["expansion"]')"
# A driver of another name (a wrapper script): its -### might do work, so by
# default it is asked only after a failure; LINKSCOPE_EXPAND=always asks it after any link.
printf '#!/bin/sh\nexec cc "$@"\n' >mywrap && chmod +x mywrap
LINKSCOPE_LINKER=$T/mywrap "$SHIM" main.o warn.o -o shim3.bin 2>/dev/null
check_eq "a wrapper driver: no -### beside a successful link" "None" "$(rec "$(last_record)" 'r["expansion"]')"
LINKSCOPE_EXPAND=always LINKSCOPE_LINKER=$T/mywrap "$SHIM" main.o warn.o -o shim4.bin 2>/dev/null
check_eq "LINKSCOPE_EXPAND=always: a wrapper driver asked after the link" "always 0" \
	"$(rec "$(last_record)" '"%s %s" % (r["expansion"]["trigger"], r["expansion"]["exit_status"])')"
check_eq "record: host machine" "$(uname -m)" "$(rec "$r" 'r["host"]["machine"]')"
finish
