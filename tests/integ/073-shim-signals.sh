# When the driver dies by a signal, the shim dies by the same signal (the
# caller sees what it would have seen: make prints "Segmentation fault", not
# "Error 139"); every signal a shell would pass on reaches the driver.
. "$(dirname "$0")/lib.sh"

write_main
for sig in SEGV TERM ABRT; do
	printf '#!/bin/sh\nkill -%s $$\n' "$sig" >die-$sig
	chmod +x die-$sig
	got=$("$PY" -c 'import subprocess,sys; print(subprocess.run(sys.argv[1:], stderr=subprocess.DEVNULL).returncode)' \
		"$SHIM" -- ./die-$sig main.o -o x)
	want=$("$PY" -c "import signal; print(-signal.SIG$sig)")
	check_eq "driver killed by SIG$sig: the shim dies by SIG$sig too" "$want" "$got"
	check_eq "record: signal and shim_exit" "$((-want)) $((128 - want))" \
		"$(rec "$(last_record)" '"%s %s" % (r["result"]["signal"], r["result"]["shim_exit"])')"
done
check "no core file of the shim's own" test -z "$(ls core* 2>/dev/null)"

for sig in QUIT USR1 USR2 HUP INT TERM ALRM WINCH; do
	rm -f started marker
	# The view's queries (-###, -print-prog-name, after the link) answer at
	# once, as they did after 20 s of sleep before; the trap ends the sleep,
	# which would hold the stderr pipe the shim reads for 20 s.
	cat >slow-driver <<SH
#!/bin/bash
case \$1 in -'###' | -print-*) exit 0 ;; esac
trap 'kill \$!; echo got-$sig >"$T/marker"; exit 42' $sig
echo started >"$T/started"
sleep 20 &
wait
SH
	chmod +x slow-driver
	# A background job of a script starts with INT and QUIT ignored: give it the defaults.
	env --default-signal "$SHIM" -- ./slow-driver main.o -o x 2>/dev/null &
	shim_pid=$!
	for _ in $(seq 1 100); do [ -f started ] && break; sleep 0.05; done
	kill -$sig "$shim_pid"
	wait "$shim_pid"
	status=$?
	check_eq "SIG$sig to the shim reaches the driver" "got-$sig" "$(cat marker 2>/dev/null)"
	check_eq "SIG$sig: the shim returns the driver's status" 42 "$status"
done
finish
