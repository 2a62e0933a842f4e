# Multiple definitions with their cause (issue #17, point 7), read from
# both definitions: a header's tentative definition under GCC's
# -fno-common, a function defined in a header, a duplicate source file,
# two archive members both pulled (and for what), two Rust staticlibs each
# with its std; the real linker fails on each, and the stated fix links.
. "$(dirname "$0")/lib.sh"

# cause JSON SYMBOL: "kind|detail|fix" of the multiple-definition diagnostic of SYMBOL.
cause() {
	"$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); c=[d["cause"] for d in r["diagnostics"] if d["kind"] == "multiple-definition" and d["symbol"] == sys.argv[2]][0]; print(c and "|".join([c["kind"], c["detail"], c["fix"]]))' "$1" "$2"
}
case_link() {
	local name=$1
	shift
	run_capture "$name" "$SHIM" "$@"
	check_eq "$name: the real linker fails" 1 "$(cat "$T/$name.rc")"
	"$LINKSCOPE" report --format json --replay-only last >"$T/$name.json"
	json=$(cat "$T/$name.json")
}

# --- a header's `int counter;` and a function defined in it, in two objects ---
printf 'int counter;\nint helper(int x) { return x * 3 + 1; }\n' >common.h
printf '#include "common.h"\nint fa(void) { return counter + helper(1); }\n' >a.c
printf '#include "common.h"\nint fa(void);\nint main(void) { return counter + helper(2) + fa(); }\n' >b.c
cc -c a.c b.c
case_link header a.o b.o -o ab
c=$(cause "$json" counter)
check_eq "tentative: the cause" "tentative-definition" "${c%%|*}"
check_contains "tentative: both objects and -fno-common said" "$c" "counter is a variable in .bss (no initializer, or zero) in both $T/a.o and $T/b.o: a tentative definition"
check_contains "tentative: the compiler from .comment" "$c" 'a.o says it was compiled by "GCC: '
check_contains "tentative: the stated fix" "$c" "declare it \`extern\` in the header and define it in one .c file; or compile every object with -fcommon"
c=$(cause "$json" helper)
check_eq "function in a header: the cause" "function-in-header" "${c%%|*}"
check_contains "function in a header: the same bytes in two sources" "$c" "helper is the same function, byte for byte"
check_contains "function in a header: the sources named" "$c" "(from a.c) and $T/b.o (from b.c)"
printf 'extern int counter;\nstatic inline int helper(int x) { return x * 3 + 1; }\n' >common.h
echo 'int counter;' >>a.c
cc -c a.c b.c
check "header: the stated fixes (extern, static inline) link with the real linker" cc a.o b.o -o ab
printf 'int counter;\n' >common.h
printf '#include "common.h"\nint fa(void) { return counter; }\n' >a.c
printf '#include "common.h"\nint fa(void);\nint main(void) { return counter + fa(); }\n' >b.c
cc -c a.c b.c
check "tentative: without -fcommon the real linker fails" bash -c '! cc a.o b.o -o ab 2>/dev/null'
cc -fcommon -c a.c b.c
check "tentative: -fcommon, the other stated fix, links with the real linker" cc a.o b.o -o ab

# --- a duplicate copy of a source file ---
mkdir x y
echo 'int dup(void) { return 1; }' >x/util.c
echo 'int dup(void) { return 2; }' >y/util.c
cc -c x/util.c -o x/util.o && cc -c y/util.c -o y/util.o
echo 'int dup(void); int main(void) { return dup(); }' >m.c
cc -c m.c
case_link duplicate m.o x/util.o y/util.o -o dd
c=$(cause "$json" dup)
check_eq "duplicate source: the cause" "duplicate-source" "${c%%|*}"
check_contains "duplicate source: both named" "$c" "$T/x/util.o and $T/y/util.o are both compiled from a source named util.c"
check "duplicate source: one copy links with the real linker" cc m.o x/util.o -o dd

# --- two archive members both pulled, each for its own symbol ---
printf 'int shared_sym(void) { return 1; }\nint need1(void) { return 0; }\n' >p1.c
printf 'int shared_sym(void) { return 2; }\nint need2(void) { return 0; }\n' >p2.c
cc -c p1.c p2.c && ar rcs libp1.a p1.o && ar rcs libp2.a p2.o
echo 'int need1(void); int need2(void); int main(void) { return need1() + need2(); }' >pm.c
cc -c pm.c
case_link members pm.o libp1.a libp2.a -o pp
c=$(cause "$json" shared_sym)
check_eq "archive members: the cause" "archive-members" "${c%%|*}"
check_contains "archive members: which symbol pulled each" "$c" "$T/libp1.a(p1.o) was pulled for need1, $T/libp2.a(p2.o) for need2; both members define shared_sym"

# --- an unclosed --whole-archive (issue #34): the driver's -lgcc, added
# twice after the line's own words, is loaded whole twice; the cause is the
# missing -Wl,--no-whole-archive, not a function in a header, and the fix,
# verified by the replay, links for real ---
echo 'int wfoo(void) { return 1; }' >wf.c
echo 'int wfoo(void); int main(void) { return wfoo() - 1; }' >wm.c
cc -c wf.c wm.c && ar rcs libwf.a wf.o
case_link unclosed wm.o -Wl,--whole-archive libwf.a -o wa
"$LINKSCOPE" report --format json last >"$T/unclosed-fixes.json"
d0() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1]))["diagnostics"][0]; print(eval(sys.argv[2]))' "$T/unclosed-fixes.json" "$1"; }
check_eq "unclosed --whole-archive: the cause" "whole-archive-unclosed" "$(d0 'd["cause"]["kind"]')"
check_contains "... libgcc.a read twice under it, the second time as the driver's" "$(d0 'd["cause"]["detail"]')" \
	"is read twice under --whole-archive (from 2), the second time as the driver's -lgcc"
check_eq "... the first fix: -Wl,--no-whole-archive after libwf.a, verified" "['-Wl,--no-whole-archive'] 4 True" \
	"$(d0 '" ".join(str(x) for x in (d["fixes"][0]["args"], d["fixes"][0]["position"], d["fixes"][0]["verified"]))')"
check "... which the real linker links" cc wm.o -Wl,--whole-archive libwf.a -Wl,--no-whole-archive -o wa
# The same archive twice under --whole-archive on the line itself: named as such.
case_link twice wm.o -Wl,--whole-archive libwf.a libwf.a -Wl,--no-whole-archive -o wa
c=$(cause "$json" wfoo)
check_eq "an archive twice under --whole-archive: the cause" "whole-archive-twice" "${c%%|*}"
check_contains "... at both positions" "$c" "(from 2), at 3 and at 4"

# --- the program's own _start against the driver's start file (issue #34:
# right diagnosis, no fix): -nostartfiles, stated; applied, ld links ---
printf 'int main(void);\nvoid _start(void) { __builtin_exit(main()); }\nint main(void) { return 0; }\n' >start.c
cc -c start.c
case_link start start.o -o st
"$LINKSCOPE" report --format json last >"$T/start-fixes.json"
check_eq "own _start: the cause, and the first fix -nostartfiles, stated" "start-file ['-nostartfiles'] True" \
	"$("$PY" -c 'import json,sys; d=[d for d in json.load(open(sys.argv[1]))["diagnostics"] if d["symbol"] == "_start"][0]; f=d["fixes"][0]; print(d["cause"]["kind"], f["args"], f["stated"])' "$T/start-fixes.json")"
check "... applied: ld links" cc -nostartfiles start.o -o st

# --- two Rust staticlibs, each with its std (rustc, if there) ---
if command -v rustc >/dev/null; then
	echo '#[no_mangle] pub extern "C" fn ra() -> i32 { let v: Vec<i32> = vec![1, 2]; v.iter().sum() }' >ra.rs
	echo '#[no_mangle] pub extern "C" fn rb() -> i32 { String::from("xy").len() as i32 }' >rb.rs
	rustc --crate-type staticlib -O ra.rs -o libra.a 2>/dev/null && rustc --crate-type staticlib -O rb.rs -o librb.a 2>/dev/null
	echo 'int ra(void); int rb(void); int main(void) { return ra() + rb(); }' >rm.c
	cc -c rm.c
	# Linked plainly, ld pulls one copy of std and the link succeeds; a --whole-archive of both does not.
	check "rust: two staticlibs linked plainly: the real linker links" cc rm.o libra.a librb.a -o r
	case_link rust rm.o -Wl,--whole-archive libra.a librb.a -Wl,--no-whole-archive -o r
	check_eq "rust: every diagnostic has the cause rust-std-twice" "rust-std-twice" \
		"$("$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); print(" ".join(sorted({(d["cause"] or {"kind": "none"})["kind"] for d in r["diagnostics"][:64]})))' "$T/rust.json")"
	check_contains "rust: the two staticlibs named" "$json" "$T/libra.a and $T/librb.a are both Rust staticlibs, and each carries its own copy of Rust's std"
else
	ok "rust: skipped, no rustc"
fi
finish
