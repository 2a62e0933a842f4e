# The record directory is missing, not a directory, read-only or full: the
# link runs anyway with its own status and output, and the shim prints one
# warning line. A missing directory is created.
. "$(dirname "$0")/lib.sh"

write_main
printf 'int nope(void);\nint main(void) { return nope(); }\n' >bad.c
cc -c bad.c -o bad.o
cc main.o -o want.bin

LINKSCOPE_DIR=$T/deep/new/dir run_capture shim "$SHIM" main.o -o a.bin
check_eq "missing dir: link ok" 0 "$(cat "$T/shim.rc")"
check_eq "missing dir: created, with the record" 1 "$(find "$T/deep/new/dir" -name '*.json' | wc -l)"

# expect_fail_open LABEL DIR: a good and a bad link with an unusable DIR.
expect_fail_open() {
	local label=$1 dir=$2
	LINKSCOPE_DIR=$dir run_capture shim "$SHIM" main.o -o "$label.bin"
	check_eq "$label: link status unchanged" 0 "$(cat "$T/shim.rc")"
	check "$label: output produced" cmp -s want.bin "$label.bin"
	check_eq "$label: exactly one warning line" 1 "$(wc -l <"$T/shim.err")"
	check_contains "$label: the warning names the cause" "$(cat "$T/shim.err")" "linkscope-cc: warning: this link is not recorded: "
	run_capture direct cc bad.o -o x
	LINKSCOPE_DIR=$dir run_capture shim "$SHIM" bad.o -o x
	check_eq "$label: failing link keeps its status" "$(cat "$T/direct.rc")" "$(cat "$T/shim.rc")"
	check_eq "$label: linker's stderr, then our one line" "$(cat "$T/direct.err")" "$(head -n -1 "$T/shim.err")"
}

touch notadir
expect_fail_open "not-a-directory" "$T/notadir"
expect_fail_open "below-a-file" "$T/notadir/sub"

if mkdir ro full && mount -t tmpfs -o ro,size=64k tmpfs ro 2>/dev/null; then
	expect_fail_open "read-only" "$T/ro"
	umount ro
	mount -t tmpfs -o size=64k tmpfs full
	dd if=/dev/zero of=full/filler bs=4k count=100 2>/dev/null
	expect_fail_open "full" "$T/full"
	check_eq "full: no partial record left" 0 "$(find full -name '*.json*' -o -name '.*.tmp' | wc -l)"
	umount full
else
	# Without mount (not root, or no privilege), a read-only directory by mode.
	chmod 555 ro
	if touch ro/probe 2>/dev/null; then
		ok "read-only and full directories skipped: no tmpfs mount and root ignores modes # SKIP"
	else
		expect_fail_open "read-only" "$T/ro"
	fi
fi
finish
