# diff by meaning, on real records: the same build in two directories
# shows no difference; the case of ../shared/background's failing and
# fixed lines, recorded in two directories, names only the -lc; two cargo
# test binaries of one crate (one links, one fails) are decided by a
# reference in the test's own object; an x86_64 and an aarch64 record of
# the same case differ by the architecture only, and the reference that
# decides is named.
. "$(dirname "$0")/lib.sh"
# Successful links too need the driver's view of the line (crt files, default libraries).
export LINKSCOPE_EXPAND=always

# The case with absolute paths (as cargo writes them), built in two directories.
build_case() {
	mkdir -p "$1" && (cd "$1" && "$ROOT/testdata/iree-case/build.sh" >/dev/null)
	echo "$T/$1/main.o -nodefaultlibs -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -Wl,--copy-dt-needed-entries -L$T/$1 -Wl,--start-group -l:libiree_runtime_unified.a -Wl,--end-group"
}
read -r -a l1 <<<"$(build_case one)"
read -r -a l2 <<<"$(build_case two)"
(cd one && "$SHIM" -- aarch64-linux-gnu-gcc "${l1[@]}" -o app 2>/dev/null); a1=$(last_record)
(cd two && "$SHIM" -- aarch64-linux-gnu-gcc "${l2[@]}" -o app 2>/dev/null); a2=$(last_record)
(cd two && "$SHIM" -- aarch64-linux-gnu-gcc "${l2[@]}" -lc -o app 2>/dev/null); b2=$(last_record)

out=$("$LINKSCOPE" diff "$a1" "$a2")
check_contains "same build, two directories: no difference" "$out" "no difference in the arguments"
check_eq "not one argument listed" 0 "$(grep -c '^[-+] ' <<<"$out")"
check_contains "both fail: nothing decides" "$out" "both fail: no difference changes the outcome"

out=$("$LINKSCOPE" diff "$a1" "$b2")
check_eq "failing vs fixed line in another directory: one difference" 1 "$(grep -c '^[-+] ' <<<"$out")"
check_contains "the -lc" "$out" "+ B  15  user             -lc"
check_contains "and it decides" "$out" "adding -lc (B 15) makes A link"
check_eq "nothing else said to decide" 1 "$(grep -c ' makes A ' <<<"$out")"

# x86_64 and aarch64 records of the same case.
mkdir x86 && (cd x86 && gcc -c -fPIC -fstack-protector-all "$ROOT/testdata/iree-case/call.c" -o call.o &&
	ar rcs libiree_runtime_unified.a call.o && gcc -c -fPIC "$ROOT/testdata/iree-case/main.c" -o main.o)
read -r -a lx <<<"$(echo "${l1[*]}" | sed "s|$T/one|$T/x86|g")"
(cd x86 && "$SHIM" -- gcc "${lx[@]}" -o app 2>/dev/null); x=$(last_record)
out=$("$LINKSCOPE" diff "$x" "$a1")
check_contains "x86_64 vs aarch64: the drivers" "$out" "driver: A gcc, B aarch64-linux-gnu-gcc"
check_contains "no argument differs by meaning" "$out" "no difference in the arguments"
check_contains "x86_64 links, aarch64 fails" "$out" "B $a1
  fails under GNU ld's rules"
check_contains "the deciding reference: only aarch64's call.o references the guard" "$out" \
	"B's member call.o of libiree_runtime_unified.a at 13 references __stack_chk_guard; A's does not"

# Two cargo test binaries of one crate: tests/lk_atexit.rs links, tests/lk_plain.rs fails.
CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
cp -r "$ROOT/testdata/cargo-group" crate
# One at a time: cargo stops starting links after the first failure.
for t in lk_atexit lk_plain; do
	CARGO_GROUP_VARIANT=atexit-tests CARGO_TARGET_DIR=$T/t1 RUSTFLAGS="-Clinker=$SHIM -Clinker-features=-lld" \
		"$CARGO" test --offline -q --no-run --test $t --manifest-path crate/Cargo.toml >/dev/null 2>&1
done
plain=$(grep -l '"output": "[^"]*lk_plain-' "$LINKSCOPE_DIR"/2*.json)
atexit=$(grep -l '"output": "[^"]*lk_atexit-' "$LINKSCOPE_DIR"/2*.json)
check_eq "lk_plain failed, lk_atexit linked" "1 0" "$(rec "$plain" 'r["result"]["exit_status"]') $(rec "$atexit" 'r["result"]["exit_status"]')"
out=$("$LINKSCOPE" diff "$plain" "$atexit")
check_contains "the tests' own objects differ" "$out" "rustc-object"
check_contains "past the argv: the deciding reference" "$out" "what the inputs reference and define decides (A fails, B links):"
check_contains "B's test object references atexit before -lc" "$out" "B's lk_atexit-"
check_contains "named, with what follows in A" "$out" "references atexit before member atexit.oS of libc_nonshared.a (in -lc's GROUP at"
check_contains "checked by replay" "$out" "checked: B without that reference fails the same way (replayed)"

# The same cargo build in two directories.
for d in d1 d2; do
	mkdir $d && cp -r "$ROOT/testdata/cargo-group" $d/crate
	(cd $d && CARGO_GROUP_VARIANT=tls CARGO_TARGET_DIR=$T/$d/target RUSTFLAGS="-Clinker=$SHIM -Clinker-features=-lld" \
		"$CARGO" build --offline -q --manifest-path crate/Cargo.toml >/dev/null 2>&1)
done
c1=$(grep -l '"output": "[^"]*/d1/target/debug/deps/cargo_group-' "$LINKSCOPE_DIR"/2*.json)
c2=$(grep -l '"output": "[^"]*/d2/target/debug/deps/cargo_group-' "$LINKSCOPE_DIR"/2*.json)
out=$("$LINKSCOPE" diff "$c1" "$c2")
check_contains "cargo, two directories: no difference" "$out" "no difference in the arguments"
check_eq "no driver difference either" 0 "$(grep -c "driver's own additions" <<<"$out")"
finish
