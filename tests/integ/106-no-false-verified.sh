# Never a false "verified" (issue #18, points 2 and 5), the real gcc and
# ld the oracle: "link with g++" is replayed with what g++ adds to that
# line, so under -nodefaultlibs (rustc passes it) it changes nothing and
# is not offered; the fix that is offered links when the real linker runs
# it (--verify-with-linker); and `explain` of a failed link says nothing
# of what "the success rests on": those facts belong to successes.
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always

not() { ! "$@" >/dev/null 2>&1; }
q() { "$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$J" "$1"; }
drivers='[f for d in r["diagnostics"] for f in d["fixes"] if f["edit"]["kind"] == "driver"]'

printf '#include <string>\nextern "C" int cpp_len(const char *s) { return (int)std::string(s).size(); }\n' >cpp.cc
g++ -c cpp.cc && ar rcs libcpp.a cpp.o
echo 'int cpp_len(const char *); int main(void) { return cpp_len("hello") - 5; }' >m.c && gcc -c m.c

# A C line with -nodefaultlibs: g++ would add nothing, so "link with g++" is no fix.
"$SHIM" -- gcc -nodefaultlibs m.o -L. -lcpp -lc -lgcc -o p1 >/dev/null 2>&1
check_eq "-nodefaultlibs: the real link fails" 1 "$?"
J=$("$LINKSCOPE" report --format json last)
check_eq "... predicted" failure "$(q 'r["predicted"]["outcome"]')"
check_eq "... no driver change offered" "[]" "$(q "$drivers")"
check "... and indeed g++ does not link that line" not g++ -nodefaultlibs m.o -L. -lcpp -lc -lgcc -o p1
# The same line without -nodefaultlibs: g++ is the fix, and links.
"$SHIM" -- gcc m.o -L. -lcpp -o p2 >/dev/null 2>&1
J=$("$LINKSCOPE" report --format json last)
check_eq "without it: g++ offered, verified by replay" "[True]" "$(q '[f["verified"] for f in '"$drivers"']')"
check "... and its argv links with the real tools" apply_fix "$J" "$drivers[0]" p2

# A Rust binary using the C++ archive: rustc's line has -nodefaultlibs.
if command -v rustc >/dev/null 2>&1 || [ -x "$HOME/.cargo/bin/rustc" ]; then
	export PATH=$PATH:$HOME/.cargo/bin
	cat >r.rs <<'RS'
#[link(name = "cpp", kind = "static")]
extern "C" { fn cpp_len(s: *const u8) -> i32; }
fn main() { unsafe { std::process::exit(cpp_len(b"hello\0".as_ptr()) - 5); } }
RS
	rustc -C linker="$SHIM" -L. r.rs -o rbin >/dev/null 2>&1
	check_eq "rustc: the link fails" 1 "$?"
	J=$("$LINKSCOPE" report --format json --verify-with-linker last)
	check_contains "... rustc passed -nodefaultlibs" "$(q '" ".join(r["argv"]) if "argv" in r else ""')$(rec "$(last_record)" '" ".join(r["argv"])')" "-nodefaultlibs"
	check_eq "... no \"link with g++\"" "[]" "$(q "$drivers")"
	check_eq "... the first fix: -lstdc++, verified by replay and by the real linker" "['-lstdc++'] True True" \
		"$(q 'r["diagnostics"][0]["fixes"][0]["args"], r["diagnostics"][0]["fixes"][0]["verified"], r["diagnostics"][0]["fixes"][0]["linker_verified"]' | tr -d '(),' | sed "s/\[-lstdc++\]/['-lstdc++']/")"
fi

# explain: a failed link (GNU ld fails, lld would link) says nothing of a success.
echo 'int foo(void); int main(void) { return foo(); }' >main.c
echo 'int foo(void) { return 0; }' >foo.c
gcc -c main.c foo.c && ar rcs libfoo.a foo.o
"$SHIM" -- gcc -L. -lfoo main.o -o p3 >/dev/null 2>&1
out=$("$LINKSCOPE" explain last)
check_contains "explain of a failed link: the failure" "$out" "undefined-symbol"
check "... and no \"the success rests on\"" not grep -q "success rests on" <<<"$out"
check "... nor in why" not grep -q "fails-with" <<<"$("$LINKSCOPE" why last foo)"
# A success still says what it rests on: the group's rescan.
echo 'int b1(void); int a1(void) { return b1(); }' >a1.c
echo 'int a2(void) { return 0; }' >a2.c
echo 'int a2(void); int b1(void) { return a2(); }' >b1.c
echo 'int a1(void); int main(void) { return a1(); }' >m2.c
gcc -c a1.c a2.c b1.c m2.c && ar rcs liba.a a1.o a2.o && ar rcs libb.a b1.o
"$SHIM" -- gcc m2.o -L. -Wl,--start-group -la -lb -Wl,--end-group -o p4 >/dev/null 2>&1
check_contains "a success: what it rests on, still said" "$("$LINKSCOPE" explain last)" "the success rests on"
finish
