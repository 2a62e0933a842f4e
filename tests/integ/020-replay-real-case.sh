# The case of ../shared/background, explained end to end by the replay
# alone (--replay-only: the linker's messages are not read): the symbol and
# its version, the archive member and its position, the loader reached
# through libc.so.6's DT_NEEDED, why --copy-dt-needed-entries after rustc's
# -lc does not help, and the verified fix "append -lc after the group".
# passes: plain elsewhere san (the seed case: the loader and libc found through the
# record, not the analyzer's own search paths)
. "$(dirname "$0")/lib.sh"
# Records carry the driver's -### view: the analyzer runs no driver unless asked.
export LINKSCOPE_EXPAND=always

# The case is aarch64's (glibc defines __stack_chk_guard in its loader
# there): natively on an aarch64 host, else with the cross gcc.
need_arch aarch64
a64cc=$(arch_tool aarch64 gcc)
read -r libc6 loader <<<"$(libc_paths "$a64cc")"
read -r -a line <<<"$("$ROOT/testdata/iree-case/build.sh")"
run_capture link "$SHIM" -- "$a64cc" "${line[@]}" -o app
check_eq "the real ld fails" 1 "$(cat "$T/link.rc")"

"$LINKSCOPE" report --format json --replay-only last >report.json
check_eq "report exits 0" 0 $?
j() { "$PY" -c 'import json,sys; r=json.load(open("report.json")); print(eval(sys.argv[1]))' "$1"; }
check_eq "predicted failure, from the replay alone" "failure" "$(j 'r["predicted"]["outcome"]')"
check_eq "--replay-only: no linker status" "None None" "$(j 'r["linker"]["exit_status"], r["linker"]["agrees_with_replay"]' | tr -d '(),')"
check_eq "one diagnostic: dso-missing" "['dso-missing']" "$(j '[d["kind"] for d in r["diagnostics"]]')"
check_eq "the symbol and its version" "__stack_chk_guard GLIBC_2.17" "$(j 'r["diagnostics"][0]["symbol"] + " " + r["diagnostics"][0]["version"]')"
check_eq "referenced by the archive member, at its argv position" "('$T/libiree_runtime_unified.a', 'call.o', 13)" \
	"$(j '(r["diagnostics"][0]["referenced_by"]["path"], r["diagnostics"][0]["referenced_by"]["member"], r["diagnostics"][0]["referenced_by"]["position"])')"
check_eq "defined in the aarch64 loader" "$loader" "$(j 'r["diagnostics"][0]["defined_in"]["path"]')"
check_eq "reached through libc.so.6's DT_NEEDED" "['$libc6']" "$(j 'r["diagnostics"][0]["defined_in"]["via"]')"
check_eq "the first fix: -lc appended after the group, verified" "(['-lc'], 17, True)" \
	"$(j '(r["diagnostics"][0]["fixes"][0]["args"], r["diagnostics"][0]["fixes"][0]["position"], r["diagnostics"][0]["fixes"][0]["verified"])')"
check_contains "the fix says where" "$(j 'r["diagnostics"][0]["fixes"][0]["description"]')" "append -lc after -Wl,--end-group at 14"
check_eq "the loader's path after it, labelled a workaround (issue #18, point 4)" "(False, True, True)" \
	"$(j '(r["diagnostics"][0]["fixes"][0]["workaround"], r["diagnostics"][0]["fixes"][1]["workaround"], r["diagnostics"][0]["fixes"][1]["args"][0].endswith("ld-linux-aarch64.so.1"))')"
expl=$(j '"\n".join(r["diagnostics"][0]["explanation"])')
check_contains "the timeline: the loader was dropped at -lc" "$expl" "ld-linux-aarch64.so.1 was on the line as-needed through -lc's AS_NEEDED at 9, and was dropped: nothing referenced it yet"
check_contains "the timeline: why --copy-dt-needed-entries does not help" "$expl" "--copy-dt-needed-entries at 10 does not help"
check_eq "cross-linker verdict: lld fails too, on the workaround itself" "failure" "$(j 'r["predicted"]["lld"]')"
check_contains "lld rejects --copy-dt-needed-entries" "$(j '"\n".join(r["predicted"]["linker_verdicts"]["lld"]["why"])')" "lld fails: \"unknown argument '--copy-dt-needed-entries'\" (--copy-dt-needed-entries at 10)"
check_contains "so does mold" "$(j '"\n".join(r["predicted"]["linker_verdicts"]["mold"]["why"])')" "mold fails: \"unknown command line option: --copy-dt-needed-entries\" (--copy-dt-needed-entries at 10)"

# With the linker's status: agreement.
"$LINKSCOPE" report --format json last >report.json
check_eq "the replay agrees with the real ld" "True" "$(j 'r["linker"]["agrees_with_replay"]')"

# The fix, applied for real: the real ld links.
run_capture fixed "$a64cc" "${line[@]}" -lc -o app
check_eq "the real ld links with -lc appended" 0 "$(cat "$T/fixed.rc")"
check "... and so does the fix's edited argv" apply_fix "$(cat report.json)" 'r["diagnostics"][0]["fixes"][0]' app

# The negative control of the case: with the fix, no diagnostic.
"$SHIM" -- "$a64cc" "${line[@]}" -lc -o app2
"$LINKSCOPE" report --format json last >report.json
check_eq "with the fix the replay predicts success" "success []" "$(j 'r["predicted"]["outcome"] + " " + str(r["diagnostics"])')"

# diff: what differs between the failing and the fixed line, and what decides.
recs=($(find "$LINKSCOPE_DIR" -maxdepth 1 -name '*.json' ! -name '*.report.json' | sort))
out=$("$LINKSCOPE" diff "${recs[0]}" "${recs[1]}")
check_contains "diff: A fails, B links" "$out" "links under GNU ld's rules (the real linker: linked)"
check_contains "diff: the added -lc" "$out" "+ B  15  user             -lc"
check_contains "diff: and that it decides" "$out" "adding -lc (B 15) makes A link"
check_contains "diff: output names are not tried" "$out" "output: A app, B app2"
out=$("$LINKSCOPE" diff "${recs[1]}" "${recs[0]}")
check_contains "diff the other way: removing the -lc makes it fail" "$out" "removing -lc (A 15) makes A fail"
finish
