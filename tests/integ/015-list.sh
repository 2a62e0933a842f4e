# linkscope list: records newest first; unreadable records named; a bad
# directory or command is a clear error with the contract's exit status.
. "$(dirname "$0")/lib.sh"

write_main
printf 'int nope(void);\nint main(void) { return nope(); }\n' >bad.c
cc -c bad.c -o bad.o
"$SHIM" main.o -o first
"$SHIM" bad.o -o second 2>/dev/null
out=$("$LINKSCOPE" list)
check_eq "list exits 0" 0 $?
check_eq "two lines" 2 "$(printf '%s\n' "$out" | wc -l)"
check_eq "newest first" "second first" "$(printf '%s\n' "$out" | awk '{print $5}' | xargs)"
check_eq "outcomes" "exit:1 ok" "$(printf '%s\n' "$out" | awk '{print $2}' | xargs)"
check_eq "--dir names another directory" "$out" "$(LINKSCOPE_DIR=/nonexistent "$LINKSCOPE" list --dir "$LINKSCOPE_DIR")"

printf '{"schema": "linkscope-record/1", "id": ' >"$LINKSCOPE_DIR/torn.json"
printf '{"schema": "linkscope-record/9"}' >"$LINKSCOPE_DIR/future.json"
run_capture list "$LINKSCOPE" list
check_eq "unreadable records: exit 1" 1 "$(cat "$T/list.rc")"
check_eq "the good records are still listed" 2 "$(wc -l <"$T/list.out")"
check_contains "a torn record is named, with the cause" "$(cat "$T/list.err")" "torn.json' is not valid JSON (line 1"
check_contains "a newer schema is named" "$(cat "$T/list.err")" "future.json' is a record of schema version 9; this linkscope reads up to 1"

run_capture nodir "$LINKSCOPE" list --dir "$T/none"
check_eq "missing directory: exit 1" 1 "$(cat "$T/nodir.rc")"
check_eq "missing directory: one line" "linkscope: cannot open record directory '$T/none': No such file or directory" "$(cat "$T/nodir.err")"
run_capture badcmd "$LINKSCOPE" frobnicate
check_eq "unknown command: exit 2" 2 "$(cat "$T/badcmd.rc")"
check_contains "unknown command: named" "$(cat "$T/badcmd.err")" "unknown command 'frobnicate'"
run_capture badopt "$LINKSCOPE" list --frob
check_eq "unknown option: exit 2" 2 "$(cat "$T/badopt.rc")"
finish
