# The shim never changes a link's outcome at the edges (issue #29, point 3):
# - its stderr's reader gone (`... 2>&1 | head -c1`): the driver's next
#   write to stderr kills it by SIGPIPE as it would have without the shim,
#   and the shim dies by SIGPIPE too;
# - an environment near the kernel's limit on an exec's arguments: what
#   the shim adds to the driver's environment (LINKSCOPE_ACTIVE, ...) must
#   not make gcc's own exec of collect2 fail with E2BIG where the plain
#   call links; there the shim runs the driver as it is, unrecorded.
. "$(dirname "$0")/lib.sh"

write_main

# A driver that writes to stderr, waits until the reader has gone, then
# writes again every 10 ms for up to 5 s (the shim notices the reader's
# going a moment later than the driver would: under load, more than one
# write later), then would exit 3. With SIGPIPE ignored its first write
# that fails (EPIPE) ends the writing: no 5 s wait for the outcome.
cat >pipe-driver <<SH
#!/bin/bash
case \$1 in -'###' | -print-*) exit 0 ;; esac
echo first >&2
for _ in \$(seq 1 200); do [ -f "$T/reader-gone" ] && break; sleep 0.05; done
for _ in \$(seq 1 500); do echo second >&2 || break; sleep 0.01; done
exit 3
SH
chmod +x pipe-driver
# pipe_status [SHIM]: the driver's (or the shim's) status when its stderr's reader reads one byte and goes.
pipe_status() {
	rm -f "$T/reader-gone"
	"$@" ./pipe-driver main.o -o x 2>&1 | { head -c1 >/dev/null; exec 0<&-; touch "$T/reader-gone"; }
	echo "${PIPESTATUS[0]}"
}
check_eq "plain driver: killed by SIGPIPE when its stderr's reader goes" 141 "$(pipe_status)"
before=$(record_count)
check_eq "through the shim: the shim dies by SIGPIPE as the driver did" 141 "$(pipe_status "$SHIM" --)"
check_eq "the link is recorded" $((before + 1)) "$(record_count)"
check_eq "the record says the driver died by SIGPIPE" 13 "$(rec "$(last_record)" 'r["result"]["signal"]')"
# SIGPIPE ignored by the caller: the driver's write fails with EPIPE and it goes on, with or without the shim.
check_eq "SIGPIPE ignored: the plain driver exits 3" 3 "$(trap '' PIPE; pipe_status)"
check_eq "SIGPIPE ignored: through the shim, 3 too" 3 "$(trap '' PIPE; pipe_status "$SHIM" --)"

# Near the exec limit. With a 1 MiB stack the kernel's limit is 256 KiB.
# env_with N: an environment padded by N bytes, in variables under the kernel's 128 KiB a string.
env_with() {
	local left=$1 i=0 c
	pads=()
	while [ "$left" -gt 0 ]; do
		c=$((left > 100000 ? 100000 : left))
		pads+=("PAD$i=$(head -c "$c" /dev/zero | tr '\0' a)")
		left=$((left - c))
		i=$((i + 1))
	done
}
# links N [SHIM]: the status of linking main.o with `words` in an environment padded by N bytes.
links() {
	local n=$1
	shift
	env_with "$n"
	(ulimit -s 1024 && env "${pads[@]}" "$@" gcc main.o "${words[@]}" -o x >/dev/null 2>"$T/edge.err")
}
# The largest padding with which plain gcc links (it links at LO, fails at HI).
plain_edge() {
	local lo=$1 hi=$2 mid
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(((lo + hi) / 2))
		if links "$mid"; then lo=$mid; else hi=$mid; fi
	done
	echo "$lo"
}
for shape in short long; do
	words=()
	if [ $shape = long ]; then
		for i in $(seq 1 300); do words+=("-L/nonexistent/some/dir/number$i"); done
	fi
	if ! links 150000 || links 262144; then
		not_ok "$shape line: plain gcc links with 150,000 bytes of environment and not with 262,144"
		continue
	fi
	edge=$(plain_edge 150000 262144)
	bad=""
	for back in 0 8 16 24 32 40 48 64; do
		links $((edge - back)) "$SHIM" || bad="$bad $((edge - back))"
	done
	check_eq "$shape line: the shim links wherever plain gcc links, up to its edge ($edge bytes)" "" "$bad"
	links "$edge" "$SHIM"
	check_eq "$shape line: at the edge, one line says the link is not recorded" \
		"1 linkscope-cc: not recording this link" \
		"$(wc -l <"$T/edge.err") $(cut -c1-37 "$T/edge.err")"
	before=$(record_count)
	links $((edge - 60000)) "$SHIM"
	check_eq "$shape line: far from the edge, the link is recorded and nothing is said" \
		"$((before + 1)) 0" "$(record_count) $(wc -c <"$T/edge.err")"
done
finish
