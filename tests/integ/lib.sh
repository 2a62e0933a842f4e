# Shared helpers for the integration tests. Each test is a bash script that
# sources this file, prints one "ok N - ..." or "not ok N - ..." line per
# check, and exits non-zero if any check failed. LK_BUILD names the build
# directory whose binaries are under test (build or build-san).
set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LK_BUILD=${LK_BUILD:-$ROOT/build}
SHIM=$LK_BUILD/bin/linkscope-cc
LINKSCOPE=$LK_BUILD/bin/linkscope
PY=/usr/bin/python3

T=$(mktemp -d /tmp/lk-integ.XXXXXX)
# LK_GOLDEN_OLD (tests/golden.sh): compare the old binary's analysis of the
# records this test left with ours before the scratch dir goes.
# LK_KEEP_RECORDS=DIR (tests/golden-records.sh): every record the test
# made goes to DIR/TEST/ first, with the scratch dir's name, so the records
# of two builds can be compared.
golden_then_clean() {
	cd /
	if [ -n "${LK_GOLDEN_OLD:-}" ]; then
		LK_GOLDEN_TEST=$(basename "$0") LK_GOLDEN_NEW=$LINKSCOPE bash "$ROOT/tests/golden-compare.sh" "$T"
	fi
	if [ -n "${LK_KEEP_RECORDS:-}" ]; then
		local keep=$LK_KEEP_RECORDS/$(basename "$0" .sh)
		mkdir -p "$keep"
		echo "$T" >"$keep/scratch"
		(cd "$T" && find . -name '2*.json' ! -name '*.report.json' -type f -print0 |
			tar --null -T - -cf - 2>/dev/null) | tar -C "$keep" -xf - 2>/dev/null
	fi
	rm -rf "$T"
}
trap golden_then_clean EXIT
cd "$T" || exit 1

# A clean slate: nothing of the caller's linkscope settings leaks in.
unset LINKSCOPE_LINKER LINKSCOPE_DISABLE LINKSCOPE_ACTIVE LINKSCOPE_REPORT \
	LINKSCOPE_EXPAND LINKSCOPE_KEEP LINKSCOPE_KEEP_MAX LINKSCOPE_REPRODUCE LINKSCOPE_REDACT \
	LINKSCOPE_DIR_SHARED
export LINKSCOPE_DIR=$T/records
# A TMPDIR of its own: what a test looks for there (the shim's private
# lk-objs-* dirs, gcc's temporaries) is its own, not another build's.
mkdir "$T/tmp" && export TMPDIR=$T/tmp
# The provider index cache (issue #10) stays in the test's scratch dir.
export XDG_CACHE_HOME=$T/cache

# LK_ELSEWHERE=1 (tests/run.sh's second pass): every analysis runs from
# another directory, in another environment than the build's (search-path
# variables of its own, no caller's settings; only where the records and
# the analyzer's cache live, the sanitizer's options, the CI workspace
# annotations are relative to, the analysis's CPU bound, and the RUSTFLAGS
# that whatif reads as part of the change, as cargo would, carry over), with
# its file arguments made absolute. The verdicts must not change: they
# depend on the record (and whatif's on its sources of the change) only.
if [ "${LK_ELSEWHERE:-0}" = 1 ]; then
	mkdir -p "$T/elsewhere/lib" "$T/elsewhere/bin"
	cat >"$T/linkscope-elsewhere" <<EOF
#!/bin/bash
args=()
for a in "\$@"; do
	if [[ \$a != -* && -e \$a ]]; then a=\$(realpath -- "\$a"); fi
	args+=("\$a")
done
keep=()
for v in LINKSCOPE_DIR LINKSCOPE_DIR_SHARED NO_COLOR TERM XDG_CACHE_HOME ASAN_OPTIONS GITHUB_WORKSPACE LINKSCOPE_ANALYSIS_CPU_LIMIT \\
	RUSTFLAGS CARGO_ENCODED_RUSTFLAGS; do
	if [ -n "\${!v+set}" ]; then keep+=("\$v=\${!v}"); fi
done
cd "$T/elsewhere" || exit 1
exec env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$T/elsewhere" LANG=C.UTF-8 TMPDIR="$T/elsewhere" \
	LIBRARY_PATH="$T/elsewhere/lib" COMPILER_PATH="$T/elsewhere/bin" "\${keep[@]}" \
	"$LINKSCOPE" "\${args[@]}"
EOF
	chmod +x "$T/linkscope-elsewhere"
	LINKSCOPE=$T/linkscope-elsewhere
fi

# LK_VALIDATE_JSON (default 1): every JSON output of the analyzer that a
# test makes is validated against its schema in docs/ on the way
# (linkscope-json-check); finish() fails the test if one does not match.
if [ "${LK_VALIDATE_JSON:-1}" = 1 ]; then
	export LK_JSON_REAL=$LINKSCOPE LK_JSON_DIR=$T
	LINKSCOPE=$ROOT/tests/integ/linkscope-json-check
fi

n_checks=0
n_bad=0

ok() { n_checks=$((n_checks + 1)); echo "ok $n_checks - $1"; }

not_ok() {
	n_checks=$((n_checks + 1))
	n_bad=$((n_bad + 1))
	echo "not ok $n_checks - $1"
	shift
	local line
	for line in "$@"; do printf '#   %s\n' "$line"; done
}

# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc" "failed: $*"; fi
}

# check_eq DESCRIPTION WANT GOT
check_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "want: $2" "got:  $3"; fi
}

# check_contains DESCRIPTION HAYSTACK NEEDLE
check_contains() {
	case "$2" in
	*"$3"*) ok "$1" ;;
	*) not_ok "$1" "want to find: $3" "in: ${2:0:400}" ;;
	esac
}

finish() {
	local outs=("$T"/json-out/*.json) msg
	if [ -e "${outs[0]}" ]; then
		if msg=$("$PY" "$ROOT/tests/validate-json.py" "$ROOT/docs" --expect-by-name "${outs[@]}" 2>&1); then
			ok "every JSON output matches its schema in docs/ (${#outs[@]} validated)"
		else
			not_ok "every JSON output matches its schema in docs/" "$(head -n 5 <<<"$msg")"
		fi
	fi
	exit $((n_bad > 0))
}

# records: the records in $LINKSCOPE_DIR (not the reports beside them) into
# the array `records`, in name order, which is time order (names start with
# a sortable UTC time). A glob in C collation, not find | sort: the table
# suites ask after every link, and three processes a link added up.
records() {
	local f LC_COLLATE=C
	records=()
	for f in "$LINKSCOPE_DIR"/*.json; do
		[[ -e $f && $f != *.report.json ]] && records+=("$f")
	done
	return 0
}
record_count() { records && echo "${#records[@]}"; }

# The newest record.
last_record() { records; [ "${#records[@]}" -eq 0 ] || echo "${records[-1]}"; }

# rec FILE EXPR: evaluate a Python expression over the record `r`.
rec() { "$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

validate() { "$PY" "$ROOT/tests/validate-record.py" "$ROOT/docs/record.schema.json" "$@"; }

# run_capture NAME COMMAND...: stdout, stderr and status into $T/NAME.{out,err,rc}.
run_capture() {
	local name=$1
	shift
	"$@" >"$T/$name.out" 2>"$T/$name.err"
	echo $? >"$T/$name.rc"
}

# same_run DESC A B: two captured runs have the same status, stdout and stderr bytes.
same_run() {
	check_eq "$1: same exit status" "$(cat "$T/$2.rc")" "$(cat "$T/$3.rc")"
	check "$1: same stdout bytes" cmp -s "$T/$2.out" "$T/$3.out"
	check "$1: same stderr bytes" cmp -s "$T/$2.err" "$T/$3.err"
}

# The host's architecture, from the toolchain, never assumed x86_64 (the job
# we exist for links on aarch64): its triple, Debian multiarch dir, the name
# the analyzer gives its ELF machine, GNU ld's emulation; and the other
# architecture the tests link for, through its cross gcc when installed.
HOST_TRIPLE=$(cc -dumpmachine)
HOST_ARCH=${HOST_TRIPLE%%-*}
HOST_MULTIARCH=$(cc -print-multiarch 2>/dev/null)
[ -n "$HOST_MULTIARCH" ] || HOST_MULTIARCH=$HOST_TRIPLE
case $HOST_ARCH in
x86_64) OTHER_ARCH=aarch64 ;;
aarch64) OTHER_ARCH=x86_64 ;;
*) echo "lib.sh: the tests know x86_64 and aarch64 hosts, not '$HOST_TRIPLE'" >&2; exit 1 ;;
esac
OTHER_TRIPLE=$OTHER_ARCH-linux-gnu
OTHER_CC=$OTHER_TRIPLE-gcc
# machine_name ARCH: the ELF machine as the analyzer names it; emulation ARCH: GNU ld's -m.
machine_name() { case $1 in x86_64) echo x86-64 ;; aarch64) echo AArch64 ;; esac; }
emulation() { case $1 in x86_64) echo elf_x86_64 ;; aarch64) echo aarch64linux ;; esac; }
HOST_MACHINE=$(machine_name "$HOST_ARCH")
OTHER_MACHINE=$(machine_name "$OTHER_ARCH")

# arch_tool ARCH TOOL: the command that runs TOOL (gcc, ar, ld, objdump) for
# ARCH: the host's own for the host, the cross one otherwise; empty when
# that is not installed.
arch_tool() {
	local t=$2
	[ "$t" = gcc ] && [ "$1" = "$HOST_ARCH" ] && t=cc
	if [ "$1" = "$HOST_ARCH" ] && command -v "$t" >/dev/null; then echo "$t"; return; fi
	command -v "$1-linux-gnu-$2" >/dev/null && echo "$1-linux-gnu-$2"
}
# need_arch ARCH: the rest of the suite links for ARCH; without a gcc for it,
# one check skipped with the reason, and the suite ends there.
need_arch() {
	[ -n "$(arch_tool "$1" gcc)" ] && return
	ok "# SKIP no $1-linux-gnu-gcc: this $HOST_ARCH host cannot link for $1"
	finish
}
# rust_no_lld: the rustc flag that makes it link with the C driver's own
# linker (GNU ld) where its default is rust-lld (x86_64, rustc 1.90 on); empty
# where rustc knows no -Clinker-features (older, whose default is that already).
# A function: asking rustc costs half a second, which most suites need not pay.
rust_no_lld() {
	if "$(command -v rustc || echo "$HOME/.cargo/bin/rustc")" -Clinker-features=-lld --print sysroot >/dev/null 2>&1; then
		echo -Clinker-features=-lld
	fi
}
# libc_paths CC: the libc.so.6 and the loader that CC's libc.so script
# names (/lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2; a
# cross toolchain's are under /usr/ARCH-linux-gnu/lib).
libc_paths() {
	local script
	script=$("$1" -print-file-name=libc.so)
	sed -n 's/^GROUP *( *\([^ ]*libc\.so\.6\) .*AS_NEEDED *( *\([^ ]*\) *).*/\1 \2/p' "$script"
}

write_main() {
	cat >main.c <<'C'
#include <stdio.h>
int main(void) { puts("hello"); return 0; }
C
	cc -c main.c -o main.o
}

# apply_fix REPORT_JSON FIX OUT: a fix's edited driver argv ("argv", issue
# #18) run with the real tools, its -o made OUT: the real link's status
# (124 after 120 s).
# FIX is a Python expression over the report `r` ('r["diagnostics"][0]["fixes"][0]').
apply_fix() {
	"$PY" - "$@" <<'PYEOF'
import json, subprocess, sys
r = json.loads(sys.argv[1])
argv = list(eval(sys.argv[2])["argv"] or [])
if not argv:
    sys.exit("apply_fix: the fix has no argv")
if "-o" in argv:
    argv[argv.index("-o") + 1] = sys.argv[3]
else:
    argv += ["-o", sys.argv[3]]
try:
    sys.exit(subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120).returncode)
except subprocess.TimeoutExpired:
    sys.exit(124)   # a linker that never ends (a script that includes itself) links nothing
PYEOF
}
