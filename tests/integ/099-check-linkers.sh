# `check` judges a link by its own linker (issue #19): a link rust-lld
# (rustc's default on x86_64, here through rustc's gcc-ld) makes that GNU
# ld would fail is "ok", with a portability fact, not "by-accident"; the
# linkers that must link too are named with --linkers (the seed's team: GNU
# ld on aarch64, rust-lld on x86_64). The cargo line of the same kind is in
# 026-fragility.sh.
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
gccld="$(rustc --print sysroot 2>/dev/null || "$HOME/.cargo/bin/rustc" --print sysroot)/lib/rustlib/$HOST_ARCH-unknown-linux-gnu/bin/gcc-ld"

cat >main.c <<'C'
int foo(void);
int main(void) { return foo(); }
C
cat >good.c <<'C'
int foo(void) { return 0; }
C
cat >u.c <<'C'
int zap(void);
int u(void) { return zap(); }
C
cat >mu.c <<'C'
int u(void);
int main(void) { return u(); }
C
cc -c main.c good.c mu.c && cc -c -fPIC u.c && ar rcs libgood.a good.o
cc -shared -nostdlib u.o -o libu.so -Wl,-soname,libu.so

# The archive before the reference: GNU ld fails, rust-lld links.
check_eq "rust-lld links -lgood main.o" 0 "$("$SHIM" -B"$gccld" -fuse-ld=lld -L. -lgood main.o -o p 2>/dev/null; echo $?)"
cp "$(last_record)" "$T/rl.json"
check_eq "GNU ld fails it" 1 "$(cc -L. -lgood main.o -o p 2>/dev/null; echo $?)"
run_capture plain "$LINKSCOPE" check "$T/rl.json"
check_eq "check of the rust-lld link: 0" 0 "$(cat "$T/plain.rc")"
check_contains "its own linker first" "$(cat "$T/plain.out")" "links under lld's rules (its linker: lld), fails under GNU ld's, links under mold's"
check_contains "GNU ld's failure: a portability fact" "$(cat "$T/plain.out")" "portability fails-with-gnu-ld:gnu-ld"
check_contains "the result: ok" "$(cat "$T/plain.out")" "result: ok (0 errors, 0 warnings, 0 accepted, 1 portability)"
run_capture both "$LINKSCOPE" check --linkers bfd,lld "$T/rl.json"
check_eq "check --linkers bfd,lld: 1" 1 "$(cat "$T/both.rc")"
check_contains "the fact is an error then" "$(cat "$T/both.out")" "error    fails-with-gnu-ld:gnu-ld"
check_contains "and the result says it fails" "$(cat "$T/both.out")" "result: fails"
check_eq "check --linkers lld,mold: 0" 0 "$("$LINKSCOPE" check --linkers lld,mold "$T/rl.json" >/dev/null; echo $?)"
check_eq "check --format json: the linkers required" "['bfd', 'lld'] success" \
	"$("$LINKSCOPE" check --format json --linkers gnu-ld "$T/rl.json" | "$PY" -c 'import json,sys; j=json.load(sys.stdin); print(j["required_linkers"], j["outcome"]["mold"])')"
run_capture bad "$LINKSCOPE" check --linkers bfd,gold "$T/rl.json"
check "an unknown linker is refused" test "$(cat "$T/bad.rc")" -ne 0
check_contains "naming it" "$(cat "$T/bad.err")" "--linkers: unknown linker 'gold' (bfd, lld, mold)"

# The shared object's undefined zap: mold links, GNU ld and lld fail.
check_eq "mold links main.o -lu" 0 "$("$SHIM" -fuse-ld=mold mu.o -L. -lu -o q 2>/dev/null; echo $?)"
cp "$(last_record)" "$T/mold.json"
check_eq "check of the mold link: 0" 0 "$("$LINKSCOPE" check "$T/mold.json" >/dev/null; echo $?)"
run_capture mlld "$LINKSCOPE" check --linkers lld "$T/mold.json"
check_eq "check --linkers lld of the mold link: 1" 1 "$(cat "$T/mlld.rc")"
check_contains "lld's reason" "$(cat "$T/mlld.out")" "lld fails: libu.so references zap, which nothing on the line defines; lld checks this because libu.so has no DT_NEEDED"

# A rust-lld line that fails under rust-lld fails check, whatever GNU ld does.
check_eq "rust-lld fails --no-warn-execstack" 1 "$("$SHIM" -B"$gccld" -fuse-ld=lld good.o main.o -Wl,--no-warn-execstack -o r 2>/dev/null; echo $?)"
run_capture own "$LINKSCOPE" check last
check_eq "check of it: 1" 1 "$(cat "$T/own.rc")"
check_contains "fails under its own linker" "$(cat "$T/own.out")" "fails under lld's rules (its linker: lld), links under GNU ld's"
finish
