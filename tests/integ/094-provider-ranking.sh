# Provider ranking (issue #17, point 8): the fix is the one a person would
# make. A symbol only a package's private library (a version in its name,
# no -l name beside it) or a test library defines gets no provider; a
# public library still does; a library that defines the symbol but brings
# more new failures than it fixes is not offered.
. "$(dirname "$0")/lib.sh"

fix_args() {
	"$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); print(sorted(a for d in r["diagnostics"] for f in d["fixes"] for a in f["args"]))' "$1"
}

mkdir lib
echo 'void set_program_name(const char *n) { (void)n; }' >helpers.c
cc -shared -fPIC helpers.c -Wl,-soname,libhelpers-1.2.so -o lib/libhelpers-1.2.so
mkdir other
echo 'int check_all(void) { return 0; }' >other/unit.c
cc -c other/unit.c -o other/unit.o && ar rcs lib/libunit_test.a other/unit.o
echo 'int pub_fn(void) { return 0; }' >pub.c
cc -shared -fPIC pub.c -o lib/libpub.so
printf 'void set_program_name(const char *);\nint check_all(void);\nint pub_fn(void);\nint main(int c, char **v) { set_program_name(v[0]); return check_all() + pub_fn() + c; }\n' >t.c
cc -c t.c
run_capture private "$SHIM" t.o -Llib -o t
check_eq "private: the real linker fails" 1 "$(cat "$T/private.rc")"
json=$("$LINKSCOPE" report --format json --replay-only last)
check_eq "private: only the public library is offered" "['-lpub']" "$(fix_args "$json")"
check_contains "private: the private library is set aside, with why" "$json" "$T/lib/libhelpers-1.2.so: a package's private library (a version in its name, no -l or runtime name beside it)"
check_contains "private: the test library is set aside, with why" "$json" "$T/lib/libunit_test.a: a test or tool library"
check "private: the offered fix links the public part with the real linker" bash -c "cc t.o -Llib -lpub -lhelpers-1.2 -lunit_test -o t"

# A library defining the symbol and needing ten others that nothing defines: worse than no fix.
for i in 1 2 3 4 5 6 7 8 9 10; do echo "int dep$i(void);"; done >big.c
printf 'int wanted(void) { return dep1()+dep2()+dep3()+dep4()+dep5()+dep6()+dep7()+dep8()+dep9()+dep10(); }\n' >>big.c
cc -c big.c && ar rcs lib/libbig.a big.o
echo 'int wanted(void); int main(void) { return wanted(); }' >w.c
cc -c w.c
run_capture big "$SHIM" w.o -Llib -o w
check_eq "big: the real linker fails" 1 "$(cat "$T/big.rc")"
json=$("$LINKSCOPE" report --format json --replay-only last)
check_eq "big: -lbig (1 defined, 10 new undefined) is not offered" "[]" "$(fix_args "$json")"
check_eq "big: the real linker with -lbig still fails" 1 "$(cc w.o -Llib -lbig -o w >/dev/null 2>&1; echo $?)"

# gettext's private library, where it is installed: no "append -lgettextlib-0.21".
if [ -e /usr/lib/x86_64-linux-gnu/libgettextlib-0.21.so ]; then
	echo 'void set_program_name(const char *); int main(int c, char **v) { set_program_name(v[0]); return c; }' >g.c
	cc -c g.c
	run_capture gettext "$SHIM" g.o -o g
	json=$("$LINKSCOPE" report --format json --replay-only last)
	check_eq "gettext: no fix from libgettextlib-0.21" "[]" "$(fix_args "$json")"
	check_contains "gettext: it is named as no fix" "$json" "libgettextlib-0.21.so: a package's private library"
else
	ok "gettext: skipped, libgettextlib-0.21.so not installed"
fi
finish
