# Reports in three formats, the success path, LINKSCOPE_REPORT=1, and
# agreement with the real ld on plain C links.
. "$(dirname "$0")/lib.sh"
# Records carry the driver's -### view: the analyzer runs no driver unless asked.
export LINKSCOPE_EXPAND=always

printf 'int helper(void);\nint main(void) { return helper() - 1; }\n' >main.c
printf 'int helper(void) { return 1; }\n' >helper.c
cc -c main.c -o main.o
cc -c helper.c -o helper.o
ar rcs libhelper.a helper.o

# Order matters for GNU ld: the archive before its user fails.
run_capture bad "$SHIM" -L. -lhelper main.o -o prog
check_eq "archive before its user: ld fails" 1 "$(cat "$T/bad.rc")"
out=$("$LINKSCOPE" report --format text last)
check_contains "text: undefined helper" "$out" "undefined-symbol: helper"
check_contains "text: the ordering is named" "$out" "ordering: $T/libhelper.a at 2 defines it, but was read before the reference at 3"
check_contains "text: agrees with ld" "$out" "the replay agrees"
md=$("$LINKSCOPE" report --format markdown last)
check_contains "markdown: a headline" "$md" "## linkscope: the link of \`prog\` fails under GNU ld's rules"
check_contains "markdown: the fix table, the move first" "$md" "| move -lhelper (at 2) to the end of the line, after the inputs that reference helper (ld reads an archive once, left to right) | yes |"
check_contains "markdown: reading it again, a workaround" "$md" "| workaround: append $T/libhelper.a again, after the reference (it defines helper) | yes |"
json=$("$LINKSCOPE" report --format json last)
check_eq "json: contract fields" "linkscope-report/2 failure True undefined-symbol helper" \
	"$("$PY" -c 'import json,sys; r=json.load(sys.stdin); d=r["diagnostics"][0]; print(r["schema"], r["predicted"]["outcome"], r["linker"]["agrees_with_replay"], d["kind"], d["symbol"])' <<<"$json")"

run_capture good "$SHIM" main.o -L. -lhelper -o prog
check_eq "the right order links" 0 "$(cat "$T/good.rc")"
check_contains "success: predicted and agreed" "$("$LINKSCOPE" explain last)" "succeeds under GNU ld's rules; the real linker (bfd) succeeded (exit 0): the replay agrees"
check_eq "why: the member pulled for helper" "member helper.o of $T/libhelper.a at 3 was pulled in to define it" \
	"$("$LINKSCOPE" why last helper | head -n 1)"

# An --as-needed shared object dropped early in a group gets another chance when ld rescans the group.
printf 'int helper(void) { return 1; }\n' >y.c
cc -shared -fPIC y.c -o libsoY.so -Wl,-soname,libsoY.so
run_capture grp "$SHIM" -L. -Wl,--start-group -lsoY main.o -Wl,--end-group -o p
check_eq "a dropped shared object, reloaded in a group rescan: ld links" 0 "$(cat "$T/grp.rc")"
check_contains "and the replay agrees" "$("$LINKSCOPE" explain last)" "succeeds under GNU ld's rules; the real linker (bfd) succeeded"
run_capture nogrp "$SHIM" -L. -lsoY main.o -o p
check_contains "without the group it fails, and the replay agrees" "$("$LINKSCOPE" explain last)" "fails under GNU ld's rules; the real linker (bfd) failed (exit 1): the replay agrees"

# Two strong definitions: ld's "multiple definition", found by the replay.
printf 'int helper(void) { return 2; }\nint other(void) { return 0; }\n' >dup.c
cc -c dup.c -o dup.o
ar rcs libdup.a dup.o
printf 'int helper(void); int other(void);\nint main(void) { return helper() + other(); }\n' >m2.c
cc -c m2.c -o m2.o
run_capture dup "$SHIM" m2.o helper.o -L. -ldup -o p
check_eq "two definitions: ld fails" 1 "$(cat "$T/dup.rc")"
out=$("$LINKSCOPE" explain last)
check_contains "multiple-definition, and the replay agrees" "$out" "the replay agrees"
check_contains "the symbol" "$out" "multiple-definition: helper"
check_contains "the second definer, pulled for another symbol" "$out" "member dup.o of $T/libdup.a at 4 defines it again (it was pulled in for other)"
run_capture muldefs "$SHIM" m2.o helper.o -L. -ldup -Wl,--allow-multiple-definition -o p
check_contains "--allow-multiple-definition: ld links, the replay agrees" "$("$LINKSCOPE" explain last)" "succeeds under GNU ld's rules; the real linker (bfd) succeeded"

# An input ld cannot open.
run_capture nf "$SHIM" main.o -L. -lnothere -o p
check_eq "input-not-found in the report" "input-not-found -lnothere" \
	"$("$LINKSCOPE" report --format json last | "$PY" -c 'import json,sys; d=json.load(sys.stdin)["diagnostics"]; print(*[(x["kind"] + " " + x["symbol"]) for x in d if x["kind"] == "input-not-found"])')"

# lld rejects GNU ld's --copy-dt-needed-entries: the replay says so, and agrees with rust-lld.
gccld="$(rustc --print sysroot 2>/dev/null || "$HOME/.cargo/bin/rustc" --print sysroot)/lib/rustlib/$HOST_ARCH-unknown-linux-gnu/bin/gcc-ld"
run_capture lldrej "$SHIM" -B"$gccld" -fuse-ld=lld main.o -L. -lhelper -Wl,--copy-dt-needed-entries -o p
check_eq "rust-lld fails on --copy-dt-needed-entries" 1 "$(cat "$T/lldrej.rc")"
out=$("$LINKSCOPE" explain last)
check_contains "the replay of lld's rules agrees" "$out" "the real linker (lld) failed (exit 1): the replay agrees"
check_contains "cross-linker verdict" "$out" "links with GNU ld, fails with rust-lld and mold"

# C++ names are demangled for people (libbfd), kept mangled as the symbol.
printf 'namespace ns { int f(int); }\nint main() { return ns::f(1); }\n' >c.cpp
g++ -c c.cpp -o c.o
"$SHIM" -- g++ c.o -o cpp 2>/dev/null
check_contains "C++: the demangled name beside the symbol" "$("$LINKSCOPE" explain last)" "undefined-symbol: _ZN2ns1fEi (ns::f(int))"
check_eq "C++: JSON keeps both" "_ZN2ns1fEi ns::f(int)" \
	"$("$LINKSCOPE" report --format json last | "$PY" -c 'import json,sys; d=json.load(sys.stdin)["diagnostics"][0]; print(d["symbol"], d["demangled"])')"

LINKSCOPE_REPORT=1 run_capture rep "$SHIM" -L. -lhelper main.o -o prog
check_eq "LINKSCOPE_REPORT=1: the link's status is the linker's" 1 "$(cat "$T/rep.rc")"
check_contains "LINKSCOPE_REPORT=1: ld's message first" "$(head -n 3 "$T/rep.err")" "undefined reference to \`helper'"
check_contains "LINKSCOPE_REPORT=1: then the explanation" "$(cat "$T/rep.err")" "undefined-symbol: helper"
r=$(last_record)
check "LINKSCOPE_REPORT=1: JSON report beside the record" test -s "${r%.json}.report.json"
check "LINKSCOPE_REPORT=1: Markdown report beside the record" test -s "${r%.json}.report.md"
check_eq "list skips the reports" "$(record_count | tr -d ' ')" "$("$LINKSCOPE" list | wc -l | tr -d ' ')"
finish
