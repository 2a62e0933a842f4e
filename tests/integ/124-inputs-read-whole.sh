#!/usr/bin/env bash
# The replay reads each input in a handful of system calls (issue #30):
# an object or an archive member is read whole with one pread, not piece
# by piece (libelf's ELF_C_READ read each header, section header table and
# section with its own call: 124,509 preads for one replay of the llvm
# line). Counted per input with strace -y, on a line of three archives of
# objects with many sections (-ffunction-sections: a piece each) and an
# object, the report the same as GNU ld's outcome.
# The budget per input (elf_archive.c, elf_syms.c, elf_image.c):
#  - an object: its ELF header (is it a shared object?) and its bytes: 2
#    (identification, lk_elf_identify, adds 2 more; 6 in all leaves room);
#  - an archive: opening it and its index (magic, libelf's header, the
#    index head and body, identification's magic: 8), one header per
#    member (the member list), and per member pulled its header and its
#    bytes: 8 + members + 2 x pulled.
. "$(dirname "$0")/lib.sh"

if ! command -v strace >/dev/null || ! strace -f -o /dev/null true 2>/dev/null; then
	ok "# SKIP strace missing or not allowed here"
	finish
fi

# libpN.a: 6 members of 40 functions each, each member calling the next
# member's first function, so the whole archive is pulled.
for a in 1 2 3; do
	for m in 1 2 3 4 5 6; do
		{
			if [ "$m" -lt 6 ]; then
				echo "int p${a}_$((m + 1))_f0(void);"
				echo "int p${a}_${m}_call(void) { return p${a}_$((m + 1))_f0(); }"
			fi
			for f in $(seq 0 39); do
				echo "static int p${a}_${m}_s$f(int x) { return x * $f + $m; }"
				echo "int p${a}_${m}_f$f(void) { return p${a}_${m}_s$f($f); }"
			done
		} >p${a}_$m.c
		cc -O1 -ffunction-sections -fdata-sections -c p${a}_$m.c -o p${a}_$m.o
	done
	ar rcs libp$a.a p${a}_1.o p${a}_2.o p${a}_3.o p${a}_4.o p${a}_5.o p${a}_6.o
done
# Each member's _call pulls the next member: main pulls member 1 of each archive.
cat >main.c <<'C'
int p1_1_call(void), p2_1_call(void), p3_1_call(void);
int p1_2_call(void), p2_2_call(void), p3_2_call(void);
int p1_3_call(void), p2_3_call(void), p3_3_call(void);
int p1_4_call(void), p2_4_call(void), p3_4_call(void);
int p1_5_call(void), p2_5_call(void), p3_5_call(void);
int main(void)
{
	return p1_1_call() + p2_1_call() + p3_1_call() + p1_2_call() + p2_2_call() + p3_2_call() +
	       p1_3_call() + p2_3_call() + p3_3_call() + p1_4_call() + p2_4_call() + p3_4_call() +
	       p1_5_call() + p2_5_call() + p3_5_call();
}
C
cc -c main.c -o main.o
run_capture link "$SHIM" main.o -L. -lp1 -lp2 -lp3 -o app
check_eq "the line links" 0 "$(cat "$T/link.rc")"
record=$(last_record)

# LeakSanitizer cannot run under ptrace (a build-san run would end in its
# fatal error); the leaks of this report are checked without strace below.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -y -e trace=pread64,read -o "$T/calls" "$LINKSCOPE" report --format json "$record" >"$T/report.json" 2>"$T/report.err"
check_eq "the replay predicts the link's success" "success" \
	"$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["predicted"]["outcome"])' "$T/report.json")"

run_capture plain "$LINKSCOPE" report --format json "$record"
check "the same report without strace" cmp -s "$T/report.json" "$T/plain.out"
check_eq "... and its exit status 0 (a sanitizer's leak check included)" 0 "$(cat "$T/plain.rc")"

# calls FILE: the pread64 and read calls on FILE (strace -y shows each descriptor's path).
calls() { grep -cE "^[0-9]+ +(pread64|read)\([0-9]+<$T/$1>" "$T/calls" || true; }

n=$(calls main.o)
if [ "$n" -le 6 ]; then ok "main.o: $n calls (budget 6)"; else not_ok "main.o: $n calls (budget 6)"; fi
for a in 1 2 3; do
	n=$(calls libp$a.a)
	budget=$((8 + 6 + 2 * 6))
	if [ "$n" -gt 0 ] && [ "$n" -le "$budget" ]; then
		ok "libp$a.a, 6 members pulled: $n calls (budget $budget)"
	else
		not_ok "libp$a.a, 6 members pulled: $n calls (budget $budget)" \
			"$(grep -E "<$T/libp$a.a>" "$T/calls" | head -n 5)"
	fi
done
finish
