# lld and mold modelled as themselves (issue #19), each line linked by the
# real GNU ld, lld and mold through the shim, and the replay's verdict of
# each linker (predicted.linkers) checked against all three and against
# the line's own linker (agrees_with_replay):
# - lazy archives: a member of the first archive on the line that defines
#   a symbol is taken, even one before the reference (-lbad main.o -lgood:
#   lld and mold fail; libfirst.a main2.o liblate.a: "duplicate symbol");
# - lld checks the undefined symbols of a shared object whose DT_NEEDED are
#   all on the line (one with none counts), used or not, --as-needed too:
#   GNU ld and lld fail `main.o -lu` (libu.so calls an undefined zap), mold
#   links; an unused --as-needed -lu links with GNU ld and mold only.
# passes: plain (a table of linker rules, each case linked by the real linkers:
# its verdicts depend on the record only; make check-full runs every pass)
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always

cat >main.c <<'C'
int foo(void);
int main(void) { return foo(); }
C
cat >bad.c <<'C'
int missing(void);
int foo(void) { return missing(); }
C
cat >good.c <<'C'
int foo(void) { return 0; }
C
cat >first.c <<'C'
int foo(void) { return 1; }
int x(void) { return 0; }
C
cat >late.c <<'C'
int foo(void) { return 2; }
int bar(void) { return 0; }
C
cat >main2.c <<'C'
int foo(void); int bar(void);
int main(void) { return foo() + bar(); }
C
cat >u.c <<'C'
int zap(void);
int u(void) { return zap(); }
C
cat >mu.c <<'C'
int u(void);
int main(void) { return u(); }
C
cat >mm.c <<'C'
int main(void) { return 0; }
C
cc -c main.c bad.c good.c first.c late.c main2.c mu.c mm.c && cc -c -fPIC u.c
ar rcs libbad.a bad.o && ar rcs libgood.a good.o && ar rcs libfirst.a first.o && ar rcs liblate.a late.o
cc -shared -nostdlib u.o -o libu.so -Wl,-soname,libu.so

. "$ROOT/tests/integ/linkers.sh"

case_of "success failure failure" order -L. -lbad main.o -lgood
out=$("$LINKSCOPE" explain "$T/order-lld.json")
check_contains "order: the lld line says lld's verdict first" "$out" "the link fails under lld's rules; the real linker (lld) failed (exit 1): the replay agrees"
check_contains "order: why lld fails" "$out" "lld fails: undefined symbol missing, referenced by member bad.o of libbad.a (at 3) (taken for foo: lld takes a member from the first archive on the line that defines a symbol, even one read before the reference)"
check_contains "order: the cross-linker verdict, its own linker first" "$out" "cross-linker verdict: links with GNU ld, fails with lld and mold"

case_of "success failure failure" dup libfirst.a main2.o liblate.a
check_contains "dup: mold's duplicate symbol" "$("$LINKSCOPE" explain "$T/dup-mold.json")" "mold fails: duplicate symbol foo, defined in member first.o of libfirst.a (at 2) and in member late.o of liblate.a (at 4)"

case_of "failure failure success" shlib mu.o -L. -lu
out=$("$LINKSCOPE" report --format json "$T/shlib-mold.json")
check_contains "shlib: why lld fails" "$(echo "$out" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["linker_verdicts"]["lld"]["why"])')" \
	"lld fails: libu.so references zap, which nothing on the line defines; lld checks this because libu.so has no DT_NEEDED, so lld takes it as complete"
check_contains "shlib: and what would make it link" "$(echo "$out" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["linker_verdicts"]["lld"]["fixes"])')" \
	"link the library that defines zap, or add -Wl,--allow-shlib-undefined"
check_eq "shlib: no false fails-with-gnu-ld fact on the mold line: GNU ld does fail" "fails-with-gnu-ld fails-with-lld" \
	"$("$LINKSCOPE" check --format json "$T/shlib-mold.json" | "$PY" -c 'import json,sys; print(*sorted(f["kind"] for f in json.load(sys.stdin)["facts"]))')"

case_of "success failure success" asneeded mm.o -L. -Wl,--as-needed -lu
case_of "success success success" allowed mu.o -L. -lu -Wl,--allow-shlib-undefined
finish
