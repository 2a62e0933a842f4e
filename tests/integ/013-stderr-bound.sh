# A driver that writes 300 KB to stderr: the caller gets every byte, live;
# the record keeps the first and last 64 KiB and says what was cut.
. "$(dirname "$0")/lib.sh"

write_main
cat >noisy-driver <<'SH'
#!/bin/bash
for i in $(seq 1 6000); do printf 'line %05d: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n' "$i"; done >&2
echo to-stdout
exit 3
SH
chmod +x noisy-driver
run_capture direct ./noisy-driver main.o -o x
run_capture shim "$SHIM" -- ./noisy-driver main.o -o x
same_run "300 KB of stderr" direct shim
r=$(last_record)
check "record validates" validate "$r"
check_eq "record: all bytes counted" "$(stat -c %s "$T/direct.err")" "$(rec "$r" 'r["stderr"]["bytes"]')"
check_eq "record: marked truncated" "True" "$(rec "$r" 'r["stderr"]["truncated"]')"
check_contains "record: the cut is marked" "$(rec "$r" 'r["stderr"]["text"]')" "bytes of stderr not kept]"
check_eq "record: keeps the first line" "line 00001: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" "$(rec "$r" 'r["stderr"]["text"].splitlines()[0]')"
check_eq "record: keeps the last line" "line 06000: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" "$(rec "$r" 'r["stderr"]["text"].splitlines()[-1]')"
check_eq "record: bounded to 128 KiB and the marker" "True" "$(rec "$r" 'len(r["stderr"]["text"]) < 128 * 1024 + 100')"
check_eq "record: exit status 3" 3 "$(rec "$r" 'r["result"]["exit_status"]')"
finish
