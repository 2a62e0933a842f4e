# The classes of lines issue #9 names, each replayed and checked against the
# real ld's exit status: common symbols and archive members, versioned
# references, -lm's script inside a --start-group with --as-needed, the
# unresolved-symbol options in ld's order, -static's TLS.
. "$(dirname "$0")/lib.sh"
# Records carry the driver's -### view: the analyzer runs no driver unless asked.
export LINKSCOPE_EXPAND=always

outcome() { "$LINKSCOPE" explain --replay-only --run-driver last | sed -n 's/.*the link \(succeeds\|fails\) under GNU ld.*/\1/p' | head -n 1; }
# same WHAT DRIVER ARGS...: ld's outcome through the shim, and the replay's.
same() {
	local what=$1 want
	shift
	"$SHIM" -- "$@" >/dev/null 2>&1
	want=$([ $? -eq 0 ] && echo succeeds || echo fails)
	check_eq "$what: ld $want, so does the replay" "$want" "$(outcome)"
}

# Commons: a member is pulled for a common only when it defines it as data.
cat >main.c <<'C'
int counter;
int get(void);
int main(void) { return counter + get(); }
C
cat >def.c <<'C'
int counter = 5;
int other_missing(void);
int helper(void) { return other_missing(); }
C
cat >comm.c <<'C'
int counter;
int nothing_here(void);
int f2(void) { return nothing_here(); }
C
cat >fn.c <<'C'
int counter(void) { return 0; }
int missing2(void);
int g3(void) { return missing2(); }
C
echo 'int get(void) { return 1; }' >get.c
cc -fcommon -c main.c def.c comm.c fn.c get.c
ar rcs libdef.a def.o; ar rcs libcomm.a comm.o; ar rcs libfn.a fn.o; ar rcs libget.a get.o
same "a common pulls a member defining it as data" cc main.o -L. -lget -ldef -o p1
check_contains "... whose reference then fails" "$("$LINKSCOPE" explain --replay-only last)" "undefined-symbol: other_missing"
same "not one defining another common" cc main.o -L. -lget -lcomm -o p2
same "not one defining a function" cc main.o -L. -lget -lfn -o p3

# Versioned references: foo@V1 and foo@V2 bind, foo@V3 does not.
cat >lib.c <<'C'
int foo_old(void) { return 1; }
int foo_new(void) { return 2; }
__asm__(".symver foo_old,foo@V1");
__asm__(".symver foo_new,foo@@V2");
C
printf 'V1 { global: *; }; V2 { } V1;\n' >v.map
cc -shared -fPIC lib.c -Wl,--version-script=v.map -Wl,-soname,libv.so -o libv.so
for ver in V1 V2 V3; do
	printf 'int foo(void);\n__asm__(".symver foo,foo@%s");\nint main(void) { return foo(); }\n' $ver >m$ver.c
	cc -c m$ver.c
	same "a reference to foo@$ver" cc m$ver.o -L. -lv -o p$ver
done
same "foo@V1 keeps an --as-needed library" cc -Wl,--as-needed mV1.o -L. -lv -o pV1n

# -lm is GROUP(libm.so.6 AS_NEEDED(libmvec.so.1)): inside a --start-group, ld
# rescans it after libx.a's member needs cos.
echo 'double useit(double); int main(int c, char **v) { (void)v; return (int)useit(c); }' >mm.c
echo '#include <math.h>
double useit(double x) { return cos(x) + 1; }' >x.c
cc -c mm.c x.c; ar rcs libx.a x.o
same "-lm before the archive, in a group" cc mm.o -L. -Wl,--as-needed -Wl,--start-group -lm -lx -Wl,--end-group -o pg1
same "-lm before the archive, no group" cc mm.o -L. -Wl,--as-needed -lm -lx -o pg2

# The unresolved-symbol rules, in ld's order.
echo 'int missing(void); int api(void) { return missing(); }' >a.c
cc -c -fPIC a.c
same "-shared allows undefined references" cc -shared a.o -o l1.so
same "-z defs after -shared" cc -shared a.o -Wl,-z,defs -o l2.so
same "--no-undefined" cc -shared a.o -Wl,--no-undefined -o l3.so
same "-z defs then -z undefs" cc -shared a.o -Wl,-z,defs -Wl,-z,undefs -o l4.so
same "--unresolved-symbols=ignore-in-shared-libs" cc -shared a.o -Wl,--unresolved-symbols=ignore-in-shared-libs -o l5.so
echo 'int api(void); int main(void) { return api(); }' >use.c
cc -c use.c
same "an executable" cc use.o a.o -o e1
same "an executable, --unresolved-symbols=ignore-in-object-files" cc use.o a.o -Wl,--unresolved-symbols=ignore-in-object-files -o e2
same "an executable, --warn-unresolved-symbols" cc use.o a.o -Wl,--warn-unresolved-symbols -o e3
cc -shared -fPIC a.c -o liba.so -Wl,-soname,liba.so
same "a shared object's undefined reference fails an executable" cc use.o -L. -la -Wl,-rpath-link,. -o e4
same "... not with --allow-shlib-undefined" cc use.o -L. -la -Wl,--allow-shlib-undefined -o e5
same "... nor in a -shared output" cc -shared -fPIC use.c -L. -la -o l6.so
same "... unless --no-allow-shlib-undefined" cc -shared -fPIC use.c -L. -la -Wl,--no-allow-shlib-undefined -o l7.so

# -static: C++ TLS (libstdc++'s __tls_get_addr calls are relaxed away).
printf '#include <string>\nthread_local std::string s = "x";\nint main() { return (int)s.size(); }\n' >t.cpp
g++ -c t.cpp
same "-static C++ with TLS" g++ -static t.o -o ts
same "-static-pie" cc -static-pie mm.c x.c -lm -o sp1
same "-static-pie, an undefined reference" cc -static-pie use.c a.c -o sp2
finish
