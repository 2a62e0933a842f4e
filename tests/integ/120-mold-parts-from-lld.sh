# mold's own replay forks off the lld-rules replay where their rules part
# (analyzer/replay/mold_part.c, issue #20): it reads no input before that
# point again, and its verdict is the one a whole mold replay gives, each
# checked against the real GNU ld, lld and mold. The line: libfirst.a is
# read first; libso.so (--as-needed) needs cb, which libgc.a names, and
# no regular object binds libso.so, so mold leaves it asleep and takes no
# member for it while lld takes u.o, whose `miss` is nowhere. The two
# rules part at libso.so.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/integ/linkers.sh"

cat >u.c <<'C'
int miss(void);
int cb(void) { return miss(); }
C
echo 'int cb(void); int so_entry(void) { return cb(); }' >so.c
echo 'int first(void) { return 0; }' >first.c
echo 'int first(void); int main(void) { return first(); }' >m.c
cc -c -fPIC u.c && ar rcs libgc.a u.o
cc -c first.c && ar rcs libfirst.a first.o
cc -shared -fPIC -Wl,-soname,libso.so so.c -o libso.so
cc -c m.c
case_of "success failure success" parts -L. m.o -lfirst -lgc -Wl,--as-needed -lso

# Every process the report forks, with the files it opens. The first pid
# is the analyzer; the lld-rules replay runs in it here (GNU ld's link
# succeeded, so nothing is begun beside it), and mold's replay is the
# child that forks off it at libso.so.
# (LeakSanitizer cannot run under ptrace: off for what strace runs.)
no_lsan=ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
# LK_JSON_REAL: the analyzer itself (or LK_ELSEWHERE's exec wrapper), not
# lib.sh's JSON-validating wrapper, whose child would not be the first pid.
env "$no_lsan" strace -f -qq -e trace=openat,open -o "$T/trace" \
	"${LK_JSON_REAL:-$LINKSCOPE}" report --format json "$T/parts-bfd.json" >"$T/parts.json"
main=$(head -n 1 "$T/trace" | awk '{print $1}')
others() { awk -v main="$main" '$1 != main' "$T/trace" | grep -c "$1" || true; }
check_eq "the report under strace says what it says without" "$(verdicts "$T/parts-bfd.json")" \
	"$("$PY" -c 'import json,sys; p=json.load(open(sys.argv[1]))["predicted"]["linkers"]; print(" ".join(k + "=" + p[k] for k in ("bfd", "lld", "mold")))' "$T/parts.json")"
check_eq "mold's replay opens no input read before the rules part (libfirst.a)" 0 "$(others 'libfirst\.a')"
check_eq "... nor libgc.a, read before them too" 0 "$(others 'libgc\.a')"
check "mold's replay goes on in a process of its own after that point (it reads the C library)" \
	test "$(others 'libc\.so')" -gt 0
finish
