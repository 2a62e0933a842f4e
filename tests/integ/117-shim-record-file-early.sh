#!/usr/bin/env bash
# What the shim leaves for after the link (issue #20): the record's temp
# file is made while the link runs, so that after it only a write and a
# rename are left; and after the end of the driver's stderr the shim asks
# for its exit a moment before it sleeps again. What that must not break:
#  - the temp file exists while the link runs, private and empty, under
#    the dot name readers skip;
#  - a prune takes a temp file over 10 minutes old for a dead writer's and
#    removes it: a link that long still leaves its record, made again;
#  - a driver that closes its stderr and goes on running is waited for.
. "$(dirname "$0")/lib.sh"

write_main
# A driver that looks for the record's temp file while the link runs, says
# what it found, removes it if asked (as a prune would), then links.
cat >driver.sh <<'SH'
#!/bin/sh
i=0
while [ $i -lt 500 ]; do
	for f in "$LINKSCOPE_DIR"/.*.json.tmp; do
		if [ -f "$f" ]; then
			stat -c '%a %s' "$f" >"$PROBE"
			[ -n "$REMOVE" ] && rm -f "$f"
			exec cc "$@"
		fi
	done
	sleep 0.01
	i=$((i + 1))
done
echo none >"$PROBE"
exec cc "$@"
SH
chmod +x driver.sh

PROBE=$T/seen.probe LINKSCOPE_LINKER=$T/driver.sh run_capture seen "$SHIM" main.o -o seen
check_eq "a link through the probing driver: links" 0 "$(cat "$T/seen.rc")"
check_eq "the record's temp file is there while the link runs, 0600 and empty" "600 0" "$(cat "$T/seen.probe")"
check_eq "one record" 1 "$(record_count)"
check_eq "no temp file left" 0 "$(find "$LINKSCOPE_DIR" -maxdepth 1 -name '.*.json.tmp' | wc -l)"

PROBE=$T/gone.probe REMOVE=1 LINKSCOPE_LINKER=$T/driver.sh run_capture gone "$SHIM" main.o -o gone
check_eq "its temp file removed while the link runs: links" 0 "$(cat "$T/gone.rc")"
check_eq "the driver removed it" "600 0" "$(cat "$T/gone.probe")"
check_eq "the record is written all the same" 2 "$(record_count)"
check_eq "with no warning" "" "$(cat "$T/gone.err")"
check_eq "of that link" gone "$(rec "$(last_record)" 'r["line"]["output"]')"
validate "$(last_record)" >"$T/validate.out" 2>&1
check_eq "valid" 0 $?

printf '#!/bin/sh\nexec 2>&-\nsleep 0.3\nexit 3\n' >closes.sh && chmod +x closes.sh
LINKSCOPE_LINKER=$T/closes.sh run_capture closes "$SHIM" main.o -o closes
check_eq "a driver that closes its stderr and goes on running: its status" 3 "$(cat "$T/closes.rc")"
check_eq "recorded" 3 "$(rec "$(last_record)" 'r["result"]["exit_status"]')"
check "waited for to its end (duration >= 300 ms)" \
	test "$(rec "$(last_record)" 'int(r["time"]["duration_ms"] >= 300)')" = 1
finish
