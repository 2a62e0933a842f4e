# Bad inputs on a line, and bad records: each gets one clear line naming it
# and the cause; nothing crashes; what can be shown is shown.
. "$(dirname "$0")/lib.sh"

printf 'int main(void) { return 0; }\n' >main.c
cc -c main.c -o main.o
printf 'int g(void) { return 2; }\n' >g.c
cc -c g.c -o g.o
ar rcS noindex.a g.o                     # no symbol index
ar rcT thin.a g.o                        # thin archive
head -c 40 g.o >truncated.o              # ELF magic, truncated header
printf 'hello world\n' >notes.txt        # text that is no linker script
: >empty.o
mkdir adir
aarch64-linux-gnu-gcc -c g.c -o arm.o    # another machine
clang -flto -c g.c -o bitcode.o          # LLVM bitcode

"$SHIM" main.o noindex.a thin.a truncated.o notes.txt empty.o adir arm.o bitcode.o missing.o -o prog 2>/dev/null
out=$("$LINKSCOPE" show last 2>&1)
check_eq "show still exits 0" 0 $?
check_contains "archive without index" "$out" "'$T/noindex.a' has no symbol index (ld: \"archive has no index; run ranlib to add one\")"
check_contains "thin archive identified" "$out" "thin.a  thin archive"
check_contains "truncated ELF" "$out" "'$T/truncated.o' cannot be read"
check_contains "text that is no script, and why" "$out" "notes.txt  -> $T/notes.txt  not ELF, an archive or a linker script: '$T/notes.txt' line 1: 'hello' is not a linker script command"
check_contains "empty file" "$out" "empty.o  unknown format"
check_contains "a directory" "$out" "'$T/adir' cannot be read: is a directory"
check_contains "wrong machine" "$out" "'$T/arm.o' is for AArch64, the link is for x86-64"
check_contains "bitcode" "$out" "'$T/bitcode.o' is LLVM bitcode"
check_contains "missing file" "$out" "missing.o at 10 does not exist"

# Bad records.
printf '{"schema": "linkscope-record/1", "id": "x", "argv_expa' >torn.json
run_capture torn "$LINKSCOPE" show torn.json
check_eq "torn record: exit 1" 1 "$(cat "$T/torn.rc")"
check_contains "torn record: named, with the cause" "$(cat "$T/torn.err")" "torn.json' is not valid JSON"
printf '{"schema": "linkscope-record/7"}' >future.json
run_capture future "$LINKSCOPE" show future.json
check_contains "newer schema: named" "$(cat "$T/future.err")" "future.json' is a record of schema version 7; this linkscope reads up to 1"
printf '{"schema": "linkscope-record/1", "id": "x", "argv_expanded": ["cc"], "arg_origins": [{"argv_index": 0, "response_file": null}]}' >thin.json
run_capture thinrec "$LINKSCOPE" show thin.json
check_contains "a record missing fields: named" "$(cat "$T/thinrec.err")" "thin.json' is truncated or malformed: missing id, driver, provenance, linker or result"
run_capture nofile "$LINKSCOPE" show nonexistent.json
check_eq "a missing record file: one line" "linkscope: cannot read 'nonexistent.json': No such file or directory" "$(cat "$T/nofile.err")"
run_capture nofailed "$LINKSCOPE" show --dir "$T/empty-dir" last-failed
check_eq "no records: exit 1" 1 "$(cat "$T/nofailed.rc")"
run_capture noarg "$LINKSCOPE" show
check_eq "show without RECORD: usage, exit 2" 2 "$(cat "$T/noarg.rc")"
finish
