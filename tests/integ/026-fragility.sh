# Links that succeed: what the success rests on (explain, why) and the CI
# verdict (check), on real links. The case of ../shared/background on
# aarch64, with and without the second -lc, where an earlier object does
# and does not reference the loader: the negative control that did not
# reproduce (no second -lc, main.o built with the stack protector, so the
# loader is kept at rustc's -lc) is explained and flagged. Then the cargo
# analogues: __tls_get_addr kept by Rust's std, a member found by the
# group's rescan, and a line that links with rust-lld only.
. "$(dirname "$0")/lib.sh"
# Successful links too need the driver's view of the line (crt files, default libraries).
export LINKSCOPE_EXPAND=always

read -r -a line <<<"$("$ROOT/testdata/iree-case/build.sh")"
# main_sp.o: the same main.c with the stack protector: it references __stack_chk_guard itself.
aarch64-linux-gnu-gcc -c -fPIC -fstack-protector-all "$ROOT/testdata/iree-case/main.c" -o main_sp.o
sp=("${line[@]}")
sp[0]=main_sp.o
link() { local name=$1; shift; "$SHIM" -- aarch64-linux-gnu-gcc "$@" -o "$name" 2>/dev/null; echo $?; }
check_eq "the failing line fails (real ld)" 1 "$(link app "${line[@]}")"
fail=$(last_record)
check_eq "the negative control links (real ld): no second -lc, main.o references the loader" 0 "$(link app_nc "${sp[@]}")"
nc=$(last_record)
check_eq "the fixed line links" 0 "$(link app_fix "${line[@]}" -lc)"
fix=$(last_record)
check_eq "the fixed line with the earlier reference links" 0 "$(link app_fixsp "${sp[@]}" -lc)"
fixsp=$(last_record)

out=$("$LINKSCOPE" explain "$nc")
check_contains "explain: the negative control succeeds, the replay agrees" "$out" "the link succeeds under GNU ld's rules; the real linker (bfd) succeeded (exit 0): the replay agrees"
check_contains "explain: what it rests on" "$out" "the success rests on (each checked by a replay without it):"
check_contains "explain: the loader is kept at -lc only because main.o references __stack_chk_guard" "$out" \
	"error   incidental-dso: /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 (in -lc's AS_NEEDED at 9) is kept (--as-needed) only because $T/main_sp.o at 1 references __stack_chk_guard before it; member call.o of $T/libiree_runtime_unified.a at 13 depends on it for __stack_chk_guard"
check_contains "explain: checked by replay" "$out" \
	"without the reference from $T/main_sp.o at 1, member call.o of $T/libiree_runtime_unified.a at 13 fails with dso-missing __stack_chk_guard (verified by replay)"
why=$("$LINKSCOPE" why "$nc" __stack_chk_guard)
check_contains "why: the chain" "$why" "member call.o of $T/libiree_runtime_unified.a at 13 references it"
check_contains "why: and what it rests on" "$why" "incidental-dso: /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1"

run_capture chk "$LINKSCOPE" check "$nc"
check_eq "check flags the negative control" 1 "$(cat "$T/chk.rc")"
check_contains "check: the fact and its key" "$(cat "$T/chk.out")" "error    incidental-dso:__stack_chk_guard"
check_contains "check: the result line" "$(cat "$T/chk.out")" "result: by-accident (1 error, 0 warnings, 0 accepted, 2 portability)"
run_capture acc "$LINKSCOPE" check --accept incidental-dso:__stack_chk_guard "$nc"
check_eq "check --accept KIND:SYMBOL accepts a known one" 0 "$(cat "$T/acc.rc")"
check_eq "and says nothing of it on stderr" "" "$(grep 'matches no fact' "$T/acc.err")"
# A mistyped accept accepts nothing, and says so (issue #43 point 7: it matched silently).
run_capture typo "$LINKSCOPE" check --accept incidental-dso:__stack_chk_gaurd "$nc"
check_eq "check --accept KIND:TYPO still fails" 1 "$(cat "$T/typo.rc")"
check_contains "and names the accept that matched nothing, with the nearest key" "$(cat "$T/typo.err")" \
	"--accept 'incidental-dso:__stack_chk_gaurd' matches no fact of $nc; did you mean 'incidental-dso:__stack_chk_guard'?"
printf '# known: rustc orders -lc before our archives\nincidental-dso:*\n' >accept.txt
run_capture accf "$LINKSCOPE" check --accept-file accept.txt "$nc"
check_eq "check --accept-file too" 0 "$(cat "$T/accf.rc")"
check_contains "and says it was accepted" "$(cat "$T/accf.out")" "accepted incidental-dso:__stack_chk_guard"

out=$("$LINKSCOPE" explain "$fixsp")
check_contains "two -lc and an earlier reference: -lc at 9 redundant" "$out" "lc-redundant: -lc at 9 (1 of 2 on the line) is redundant today"
check_contains "and -lc at 15 redundant" "$out" "lc-redundant: -lc at 15 (2 of 2 on the line) is redundant today"
check_eq "the second -lc makes it robust: no incidental library" 0 "$(grep -c incidental-dso <<<"$out")"
check_eq "check passes the fixed line" 0 "$("$LINKSCOPE" check "$fixsp" >/dev/null; echo $?)"
out=$("$LINKSCOPE" explain "$fix")
check_contains "without the earlier reference the second -lc is load bearing" "$out" "lc-load-bearing: -lc at 15 (2 of 2 on the line) is load bearing"
check_contains "and the replay says what breaks without it" "$out" "without it, member call.o of $T/libiree_runtime_unified.a at 13 fails with dso-missing __stack_chk_guard (verified by replay)"
check_contains "the first -lc: redundant" "$out" "lc-redundant: -lc at 9 (1 of 2 on the line)"
check_eq "check passes it" 0 "$("$LINKSCOPE" check "$fix" >/dev/null; echo $?)"

run_capture drift "$LINKSCOPE" check --baseline "$fixsp" "$fix"
check_eq "check --baseline: the second -lc newly load bearing is drift" 1 "$(cat "$T/drift.rc")"
check_contains "and says so" "$(cat "$T/drift.out")" "drift    newly load bearing: lc-load-bearing:-lc#2"
run_capture drift2 "$LINKSCOPE" check --baseline "$nc" "$fail"
check_eq "check --baseline: the outcome changed" 1 "$(cat "$T/drift2.rc")"
check_contains "under GNU ld" "$(cat "$T/drift2.out")" "the outcome under GNU ld's rules changed: the baseline links, this line fails"
check_eq "check against itself as baseline: only its own facts count" 0 "$("$LINKSCOPE" check --baseline "$fix" "$fix" >/dev/null; echo $?)"
check_eq "check of a failed link: 1" 1 "$("$LINKSCOPE" check "$fail" >/dev/null; echo $?)"

"$LINKSCOPE" check --format json "$nc" >c1.json
"$LINKSCOPE" check --format json "$nc" >c2.json
check "check --format json: stable across runs" cmp -s c1.json c2.json
j() { "$PY" -c 'import json,sys; r=json.load(open("c1.json")); print(eval(sys.argv[1]))' "$1"; }
check_eq "json: schema, result, exit status" "linkscope-check/1 by-accident 1" "$(j 'r["schema"] + " " + r["result"] + " " + str(r["exit_status"])')"
check_eq "json: the fact" "incidental-dso error True" "$(j '" ".join(str(x) for x in (r["facts"][0]["kind"], r["facts"][0]["severity"], r["facts"][0]["verified"]))')"
md=$("$LINKSCOPE" check --format markdown "$nc")
check_contains "markdown" "$md" "## linkscope check: by-accident"
check_eq "usage: a bad format is 2" 2 "$("$LINKSCOPE" check --format xml "$nc" >/dev/null 2>&1; echo $?)"

# The cargo analogues (x86_64, real cargo builds).
CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
cp -r "$ROOT/testdata/cargo-group" crate
build() { "$CARGO" build --offline -q --manifest-path crate/Cargo.toml >/dev/null 2>&1; }
CARGO_GROUP_VARIANT=tls CARGO_TARGET_DIR=$T/t1 RUSTFLAGS="-Clinker=$SHIM -Clinker-features=-lld" build
out=$("$LINKSCOPE" explain last)
check_contains "tls: the loader kept at rustc's -lc because Rust's std references __tls_get_addr" "$out" \
	"/lib64/ld-linux-x86-64.so.2 (in -lc's AS_NEEDED at 39) is kept (--as-needed) only because member"
check_contains "tls: Rust's std" "$out" "/libstd-"
check_contains "tls: the appended member depends on it" "$out" "member answer.o of $T/t1/debug/build/"
check_contains "tls: verified" "$out" "fails with dso-missing __tls_get_addr (verified by replay)"
check_contains "the group's rescan found libpart.a's member" "$out" "group-rescan: member part.o of $T/t1/debug/build/"
check_contains "and the replay without the group fails" "$out" "without the group (each archive read once, in order), member answer.o of"
check_eq "check flags the tls line" 1 "$("$LINKSCOPE" check last >/dev/null; echo $?)"
CARGO_GROUP_VARIANT=atexit CARGO_TARGET_DIR=$T/t2 RUSTFLAGS="-Clinker=$SHIM" build
run_capture lld "$LINKSCOPE" check last
check_eq "linked with rust-lld, would fail with GNU ld: a portability fact, check says 0" 0 "$(cat "$T/lld.rc")"
check_contains "the cross-linker fact" "$(cat "$T/lld.out")" "portability fails-with-gnu-ld:gnu-ld"
run_capture lldbfd "$LINKSCOPE" check --linkers bfd,lld last
check_eq "check --linkers bfd,lld: GNU ld must link too, check says 1" 1 "$(cat "$T/lldbfd.rc")"
check_contains "the fact is an error then" "$(cat "$T/lldbfd.out")" "error    fails-with-gnu-ld:gnu-ld"
CARGO_TARGET_DIR=$T/t3 RUSTFLAGS="-Clinker=$SHIM -Clinker-features=-lld" build
run_capture plain "$LINKSCOPE" check last
check_eq "the default crate: nothing incidental, check says 0" 0 "$(cat "$T/plain.rc")"
check_contains "only the group's rescan, as info" "$(cat "$T/plain.out")" "info     group-rescan:lk_answer_part"
finish
