# A failing gcc link through the shim: the same failure, byte for byte, and
# a record with the linker's stderr and the driver's -### expansion.
. "$(dirname "$0")/lib.sh"

cat >user.c <<'C'
int missing_function(void);
int main(void) { return missing_function(); }
C
cc -c user.c -o user.o
printf 'int helper(void) { return 1; }\n' >helper.c
cc -c helper.c -o helper.o
ar rcs libhelper.a helper.o

run_capture direct cc user.o -L. -lhelper -o direct.bin
run_capture shim "$SHIM" user.o -L. -lhelper -o shim.bin
same_run "failing link" direct shim
check_eq "the link failed with ld's status" 1 "$(cat "$T/shim.rc")"
check_contains "ld said why" "$(cat "$T/shim.err")" "undefined reference to \`missing_function'"

r=$(last_record)
check "record validates" validate "$r"
check_eq "record: exit status 1" 1 "$(rec "$r" 'r["result"]["exit_status"]')"
check_eq "record: shim exit 1" 1 "$(rec "$r" 'r["result"]["shim_exit"]')"
check_eq "record: stderr is the linker's" "$(cat "$T/shim.err")" "$(rec "$r" 'r["stderr"]["text"].rstrip("\n")')"
check_eq "record: expansion taken beside the link" "always" "$(rec "$r" 'r["expansion"]["trigger"]')"
check_contains "record: the linker command is collect2" \
	"$(rec "$r" 'r["expansion"]["commands"][r["expansion"]["linker_command"]][0]')" "collect2"
check_contains "record: the expanded ld line has crt1.o" \
	"$(rec "$r" '" ".join(r["expansion"]["commands"][r["expansion"]["linker_command"]])')" "crt1.o"
check_contains "record: the driver's library path" "$(rec "$r" 'r["expansion"]["library_path"]')" "/usr/lib/gcc/"
check_eq "record: the ld gcc would run" "ld" "$(rec "$r" 'r["linker"]["print_prog_name"]')"
check_eq "record: -lhelper resolved in -L." "./libhelper.a $(stat -c %s libhelper.a)" \
	"$(rec "$r" '[(c["path"], c["size"]) for i in r["inputs"] if i["kind"] == "library" for c in i["candidates"]][0][0] + " " + str([c["size"] for i in r["inputs"] if i["kind"] == "library" for c in i["candidates"]][0])')"
check_eq "linkscope list shows it failed" "exit:1" "$("$LINKSCOPE" list | awk '{print $2}')"
LINKSCOPE_EXPAND=failure "$SHIM" user.o -L. -lhelper -o shim2.bin 2>/dev/null
check_eq "LINKSCOPE_EXPAND=failure: taken after the failure" "failure" "$(rec "$(last_record)" 'r["expansion"]["trigger"]')"
finish
