# Signals: a driver killed by signal N gives 128+N, as a shell reports it;
# SIGTERM sent to the shim reaches the driver.
. "$(dirname "$0")/lib.sh"

write_main
cat >segv-driver <<'SH'
#!/bin/sh
echo "about to crash" >&2
kill -SEGV $$
SH
chmod +x segv-driver
run_capture sh sh -c './segv-driver main.o -o x'
run_capture shim "$SHIM" -- ./segv-driver main.o -o x
check_eq "killed by SIGSEGV: 128+11" 139 "$(cat "$T/shim.rc")"
check_eq "the same as a shell reports" "$(cat "$T/sh.rc")" "$(cat "$T/shim.rc")"
r=$(last_record)
check "record validates" validate "$r"
check_eq "record: signal 11, no exit status" "11 None 139" \
	"$(rec "$r" '"%s %s %s" % (r["result"]["signal"], r["result"]["exit_status"], r["result"]["shim_exit"])')"
check_eq "record: stderr before the crash" "about to crash" "$(rec "$r" 'r["stderr"]["text"].strip()')"

# The shim asks the driver for its view (-###, -print-prog-name) after the
# link: those answer at once, as they did after 20 s of sleep before; and
# the trap ends the sleep, which would hold the stderr pipe the shim reads.
cat >slow-driver <<SH
#!/bin/bash
case \$1 in -'###' | -print-*) exit 0 ;; esac
trap 'kill \$!; echo got-term >"$T/marker"; exit 42' TERM
echo started >"$T/started"
sleep 20 &
wait
SH
chmod +x slow-driver
"$SHIM" -- ./slow-driver main.o -o x 2>/dev/null &
shim_pid=$!
for _ in $(seq 1 100); do [ -f started ] && break; sleep 0.05; done
kill -TERM "$shim_pid"
wait "$shim_pid"
status=$?
check_eq "SIGTERM to the shim reached the driver" "got-term" "$(cat marker 2>/dev/null)"
check_eq "the shim returns the driver's status" 42 "$status"
check_eq "record: the driver's exit status" 42 "$(rec "$(last_record)" 'r["result"]["exit_status"]')"
finish
