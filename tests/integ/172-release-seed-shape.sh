# The seed's shape (issue #40), as its CI job builds it: `cargo build
# --release`, the bin's build.rs compiling two C archives and appending them
# in a --start-group after rustc's -lc (testdata/cargo-group), linked with
# GNU ld through the shim. `check` of the good link says ok; `whatif` on the
# unchanged tree predicts 0 (release and dev profiles alike), and 1 when
# an archive is dropped from the group, which the real build confirms; and
# 0 again on the tree put back after a failed build rewrote the baseline's
# archives (its replay then disagrees with its link: the rebuild's doing,
# not the model's). Then aarch64: the target's std when rustup has it, else
# the same line as a plain C link with the cross gcc (-O2, -Wl,-O1), whose
# stack-protected members need the seed's fix (a -lc after the group).
# passes: plain elsewhere (cargo builds are its cost, as 145's; make check-full
# runs it under the sanitizers too)
. "$(dirname "$0")/lib.sh"

CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
RUSTC=$(command -v rustc || echo "$HOME/.cargo/bin/rustc")
if ! "$CARGO" --version >/dev/null 2>&1; then
	ok "# SKIP no cargo on this host"
	finish
fi
export CARGO_TARGET_DIR=$T/target
cp -r "$ROOT/testdata/cargo-group" crate
cp crate/build.rs build.rs.orig
BFD_FLAGS="-Clinker=$SHIM $(rust_no_lld)"
cargo_() { "$CARGO" "$@" --offline -q --manifest-path crate/Cargo.toml; }
# The newest record of the bin's link in PROFILE (debug, release).
bin_record() { grep -l "\"output\": \"$CARGO_TARGET_DIR/$1/deps/cargo_group-" "$LINKSCOPE_DIR"/*.json | sort | tail -n 1; }
# whatif_ NAME BASELINE: whatif from BASELINE on the tree as it is, into NAME.{out,rc}.
whatif_() { run_capture "$1" "$LINKSCOPE" whatif "$2" --cargo "$CARGO_TARGET_DIR"; }

# --- release, GNU ld: the good link
RUSTFLAGS="$BFD_FLAGS" cargo_ build --release >rel.out 2>&1
check_eq "cargo build --release through the shim with GNU ld links" 0 "$?"
rel=$(bin_record release)
check "the bin's release link is recorded" test -n "$rel"
check_eq "... as the last record, by GNU ld" "$rel bfd" "$(last_record) $(rec "$rel" 'r["linker"]["flavor"]')"
check_eq "... the group appended after rustc's last -lc, as the seed's" "True" \
	"$(rec "$rel" 'max(i for i, a in enumerate(r["argv"]) if a == "-lc") < r["argv"].index("-Wl,--start-group")')"
run_capture check "$LINKSCOPE" check last
check_eq "check last exits 0 on the good link" 0 "$(cat check.rc)"
check_contains "... and says ok" "$(cat check.out)" "result: ok"
check_contains "... links under GNU ld's rules, its own linker" "$(cat check.out)" "links under GNU ld's rules (its linker: bfd)"
"$LINKSCOPE" check --format json last >check.json
check_eq "check --format json: ok, exit 0" "ok 0" "$(rec check.json 'r["result"] + " " + str(r["exit_status"])')"

# --- the unchanged tree: 0, in either profile
cargo_ check --release >/dev/null 2>&1
whatif_ rel-same "$rel"
check_eq "release, unchanged tree: whatif predicts 0" 0 "$(cat rel-same.rc)"
check_contains "... with no difference in the arguments" "$(cat rel-same.out)" "no difference in the arguments"
check_contains "... under GNU ld, the line's own" "$(cat rel-same.out)" "predicted: GNU ld success"
RUSTFLAGS="$BFD_FLAGS" cargo_ build >dev.out 2>&1
dev=$(bin_record debug)
check "the dev profile's link is recorded" test -n "$dev"
cargo_ check >/dev/null 2>&1
whatif_ dev-same "$dev"
check_eq "dev, unchanged tree: whatif predicts 0" 0 "$(cat dev-same.rc)"
whatif_ dir-same "$LINKSCOPE_DIR"
check_eq "the record dir as the baseline (its newest good link, dev's): 0" 0 "$(cat dir-same.rc)"

# --- archive B (libpart.a, which libanswer.a's member needs) dropped from the group
sed -i '/-l:libpart.a");$/d' crate/build.rs
check_eq "the edit drops one line of build.rs" 1 "$(diff build.rs.orig crate/build.rs | grep -c '^<')"
cargo_ check --release >/dev/null 2>&1
whatif_ rel-drop "$rel"
check_eq "release, libpart.a dropped: whatif predicts 1" 1 "$(cat rel-drop.rc)"
check_contains "... naming the symbol it leaves undefined" "$(cat rel-drop.out)" "undefined-symbol: lk_answer_part"
check_contains "... and the difference that decides" "$(cat rel-drop.out)" "removing -l:libpart.a"
RUSTFLAGS="$BFD_FLAGS" cargo_ build --release >rel-drop-build.out 2>&1
check_eq "the oracle: the real cargo build --release of that tree fails" 1 "$(($? != 0))"
check_eq "... its link recorded as failed" 1 "$(rec "$(bin_record release)" 'r["result"]["exit_status"]')"

# --- back to the tree as it was: the build script ran again since the baseline
# (its archives rewritten, their fingerprints no longer the baseline's): still 0
cp build.rs.orig crate/build.rs
cargo_ check --release >/dev/null 2>&1
whatif_ rel-back "$rel"
check_eq "release, build.rs restored after the failed build: whatif predicts 0" 0 "$(cat rel-back.rc)"

# --- a member's new undefined reference: the real build fails and leaves the baseline's
# libanswer.a rewritten with it; the tree put back, the baseline's own replay fails
# where its link succeeded, which is the rebuild's doing, not the model's: still 0
cp crate/csrc/answer.c answer.c.orig
sed -i 's|^int lk_answer_part(void);|int lk_answer_part(void);\nint lk_not_defined_anywhere(void);|; s|return lk_answer_part() \* 2;|return lk_answer_part() * 2 + lk_not_defined_anywhere();|' crate/csrc/answer.c
RUSTFLAGS="$BFD_FLAGS" cargo_ build --release >rel-undef-build.out 2>&1
check_eq "a new undefined reference in answer.c: the real release build fails" 1 "$(($? != 0))"
cp answer.c.orig crate/csrc/answer.c
cargo_ check --release >/dev/null 2>&1
whatif_ rel-rebuilt "$rel"
check_eq "answer.c put back, the baseline's archive rewritten since its link: whatif predicts 0" 0 "$(cat rel-rebuilt.rc)"
check_eq "... not from a 'model misreads' baseline" 0 "$(grep -c 'misreads' rel-rebuilt.out)"
run_capture rel-explain "$LINKSCOPE" explain "$rel"
check_contains "explain of the baseline names its archive changed since the link" "$(cat rel-explain.out)" \
	"libanswer.a' has changed since the link"

# --- aarch64
A64_STD=$("$RUSTC" --print target-libdir --target aarch64-unknown-linux-gnu 2>/dev/null)
if ls "$A64_STD"/libstd-*.rlib >/dev/null 2>&1 && [ -n "$(arch_tool aarch64 gcc)" ]; then
	a64cc=$(arch_tool aarch64 gcc)
	export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=$SHIM LINKSCOPE_LINKER=$a64cc LINKSCOPE_TEST_CC=$a64cc
	RUSTFLAGS="$(rust_no_lld)" cargo_ build --release --target aarch64-unknown-linux-gnu >a64.out 2>&1
	check_eq "aarch64: cargo build --release --target links" 0 "$?"
	run_capture a64check "$LINKSCOPE" check last
	check_eq "aarch64: check last exits 0" 0 "$(cat a64check.rc)"
	check_contains "... and says ok" "$(cat a64check.out)" "result: ok"
	unset CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER LINKSCOPE_LINKER LINKSCOPE_TEST_CC
	finish
fi
ok "# SKIP aarch64 cargo: rustup has no std for aarch64-unknown-linux-gnu (no libstd in '$A64_STD'); the same line as a plain C link"
need_arch aarch64
a64cc=$(arch_tool aarch64 gcc)
a64ar=$(arch_tool aarch64 ar)
mkdir a64 && cd a64 || exit 1
# The seed's members are built with the stack protector: __stack_chk_guard, which glibc's
# aarch64 loader defines, reached through libc.so's AS_NEEDED.
"$a64cc" -O2 -fPIC -fstack-protector-all -c "$T/crate/csrc/answer.c" -o answer.o
"$a64cc" -O2 -fPIC -fstack-protector-all -c "$T/crate/csrc/part.c" -o part.o
"$a64ar" rcs libanswer.a answer.o
"$a64ar" rcs libpart.a part.o
printf 'int lk_answer(void);\nint main(void) { return lk_answer() != 42; }\n' >main.c
"$a64cc" -O2 -c main.c -o main.o
# rustc's shape: its native list ending in -lc, then the appended group (and the seed's fix, a second -lc).
line=(-O2 main.o -nodefaultlibs -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -Wl,-O1 -L.
	-Wl,--start-group -l:libpart.a -l:libanswer.a -Wl,--end-group -lc -o app)
run_capture a64link "$SHIM" -- "$a64cc" "${line[@]}"
check_eq "aarch64 C link of the seed's shape through the shim links" 0 "$(cat "$T/a64link.rc")"
a64=$(last_record)
check_eq "... its record is an AArch64 link by GNU ld" "aarch64 bfd" \
	"$(rec "$a64" 'r["target"]["triple"].split("-")[0] + " " + r["linker"]["flavor"]')"
run_capture a64check "$LINKSCOPE" check last
check_eq "aarch64: check last exits 0" 0 "$(cat "$T/a64check.rc")"
check_contains "... and says ok" "$(cat "$T/a64check.out")" "result: ok"
printf '%s\n' "# the seed's line, aarch64" "cwd: ." "$a64cc" "${line[@]}" >same.txt
run_capture a64same "$LINKSCOPE" whatif "$a64" --argv-file same.txt
check_eq "aarch64, the unchanged line: whatif predicts 0" 0 "$(cat "$T/a64same.rc")"
printf '%s\n' "# the seed's line, aarch64" "cwd: ." "$a64cc" "${line[@]}" | grep -vx -- '-l:libpart.a' >drop.txt
run_capture a64drop "$LINKSCOPE" whatif "$a64" --argv-file drop.txt
check_eq "aarch64, libpart.a dropped from the group: whatif predicts 1" 1 "$(cat "$T/a64drop.rc")"
check_contains "... naming the symbol" "$(cat "$T/a64drop.out")" "lk_answer_part"
run_capture a64real "$a64cc" $(tail -n +3 drop.txt)
check_eq "the oracle: the real aarch64 link of that line fails" 1 "$(($(cat "$T/a64real.rc") != 0))"
# The seed's own failure: its fix, the -lc after the group, taken back.
printf '%s\n' "# the seed's line without its fix" "cwd: ." "$a64cc" "${line[@]:0:16}" -o app >nofix.txt
run_capture a64nofix "$LINKSCOPE" whatif "$a64" --argv-file nofix.txt
check_eq "aarch64, the -lc after the group dropped: whatif predicts 1" 1 "$(cat "$T/a64nofix.rc")"
check_contains "... naming the seed's symbol" "$(cat "$T/a64nofix.out")" "__stack_chk_guard"
run_capture a64nofixreal "$a64cc" $(tail -n +3 nofix.txt)
check_eq "the oracle: the real link without the fix fails" 1 "$(($(cat "$T/a64nofixreal.rc") != 0))"
finish
