# A symbol the compiler or the C library's headers put into an object, not
# its source (issue #34: right diagnosis, no fix): the object's build is the
# cause, and the first fix is its rebuild, stated; applied for real, the
# link succeeds.
# - the stack protector's __stack_chk_fail in freestanding code linked with
#   -nostdlib: rebuild with -fno-stack-protector;
# - glibc 2.38's __isoc23_strtol in an archive compiled on a newer system
#   (its headers map strtol to it; this system's glibc has none): rebuild
#   the archive against this system's headers;
# - a shared object that references a runtime archive's hidden definition
#   (libc_nonshared.a's atexit, libgcov.a's __gcov_*): it was linked without
#   that runtime; relink it with it (lld and mold link the line as it is).
. "$(dirname "$0")/lib.sh"

first_fix() { "$LINKSCOPE" report --format json last | "$PY" -c 'import json,sys; d=json.load(sys.stdin)["diagnostics"][0]; f=d["fixes"][0]; print(d["symbol"], f["stated"])'; }

cat >free.c <<'C'
void fill(char *p, int n) { for (int i = 0; i < n; i++) p[i] = (char)i; }
int entry(int n) { char buf[64]; fill(buf, n); return buf[0]; }
void _start(void) { entry(3); for (;;) ; }
C
cc -O2 -fstack-protector-strong -ffreestanding -c free.c -o free.o
"$SHIM" cc -nostdlib -static free.o -o free 2>/dev/null
check_eq "freestanding code with the stack protector: ld fails" 1 "$?"
fix=$(first_fix)
check_eq "... the first fix: rebuild with -fno-stack-protector, stated" "__stack_chk_fail True" "$(cut -d' ' -f1-2 <<<"$fix")"
check_contains "... named for the object" "$("$LINKSCOPE" explain last)" "rebuild $T/free.o with -fno-stack-protector"
cc -O2 -fno-stack-protector -ffreestanding -c free.c -o free.o
check "... applied: the link succeeds" cc -nostdlib -static free.o -o free

# As glibc 2.38's <stdlib.h> compiles strtol(s, 0, 10) under C23 (this system has 2.36).
printf 'long __isoc23_strtol(const char *, char **, int);\nlong parse(const char *s) { return __isoc23_strtol(s, 0, 10); }\n' >parse-new.c
printf '#include <stdlib.h>\nlong parse(const char *s) { return strtol(s, 0, 10); }\n' >parse.c
printf 'long parse(const char *);\nint main(void) { return (int)parse("0"); }\n' >pm.c
cc -c parse-new.c -o parse.o && ar rcs libparse.a parse.o && cc -c pm.c
"$SHIM" cc pm.o -L. -lparse -o pm 2>/dev/null
check_eq "an archive built against glibc 2.38 headers: ld fails" 1 "$?"
check_eq "... the first fix: rebuild it against this system's headers, stated" "__isoc23_strtol True" "$(first_fix | cut -d' ' -f1-2)"
check_contains "... the archive member named, and why" "$("$LINKSCOPE" explain last)" \
	"rebuild $T/libparse.a(parse.o) against this system's C library headers: __isoc23_strtol is the C23 version that glibc 2.38 and later headers substitute for strtol"
cc -c parse.c -o parse.o && rm libparse.a && ar rcs libparse.a parse.o
check "... applied: the link succeeds" cc pm.o -L. -lparse -o pm
# A shared object linked with -nostdlib that calls atexit (hidden in libc_nonshared.a).
printf '#include <stdlib.h>\nstatic void bye(void) {}\nint reg(void) { return atexit(bye); }\n' >r.c
printf 'int reg(void);\nint main(void) { return reg(); }\n' >rm.c
cc -fPIC -c r.c && cc -c rm.c && cc -shared -nostdlib r.o -o libreg.so
"$SHIM" cc rm.o -L. -lreg -Wl,-rpath,"$T" -o rm 2>/dev/null
check_eq "a shared object linked without libc, calling atexit: ld fails, the replay says hidden-symbol atexit" "1 atexit" \
	"$? $("$LINKSCOPE" report --format json last | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["diagnostics"][0]["symbol"])')"
check_eq "... the first fix: relink libreg.so with the C library, stated" "True rebuild $T/libreg.so" \
	"$("$LINKSCOPE" report --format json last | "$PY" -c 'import json,sys; f=json.load(sys.stdin)["diagnostics"][0]["fixes"][0]; print(f["stated"], f["edit"]["kind"], f["edit"]["input"])')"
for ld in lld mold; do check "... $ld links the line as it is" cc -fuse-ld=$ld rm.o -L. -lreg -Wl,-rpath,"$T" -o rm; done
cc -shared r.o -o libreg.so
check "... applied: ld links" cc rm.o -L. -lreg -Wl,-rpath,"$T" -o rm

# A shared object compiled with --coverage but linked without it, in a --coverage program.
printf 'int twice(int x) { return x * 2; }\n' >g.c
printf 'int twice(int);\nint main(void) { return twice(0); }\n' >gm.c
cc -fPIC --coverage -c g.c && cc -c gm.c && cc -shared g.o -o libg.so
"$SHIM" cc --coverage gm.o -L. -lg -Wl,-rpath,"$T" -o gm 2>/dev/null
check_eq "a shared object linked without --coverage: ld fails" 1 "$?"
check_contains "... the first fix: relink it with --coverage" \
	"$("$LINKSCOPE" report --format json last | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["diagnostics"][0]["fixes"][0]["description"])')" \
	"relink $T/libg.so with --coverage"
cc -shared --coverage g.o -o libg.so
check "... applied: ld links" cc --coverage gm.o -L. -lg -Wl,-rpath,"$T" -o gm
finish
