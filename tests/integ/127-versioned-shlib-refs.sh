# A shared object's versioned reference binds the library that has that
# version, whatever binds the unversioned name first (issue #34's
# regression; the real case: libXdmcp's arc4random_buf@LIBBSD_0.2 against
# libc's arc4random_buf@@GLIBC_2.36). liba.so defines foo@@A_1; libx.so
# needs libb.so.0 and references foo@B_2; libb.so.0, found by -rpath-link,
# defines foo@@B_2 (or, in old/, foo@@B_1 only: then GNU ld says
# "undefined reference to `foo@B_2'"). The real GNU ld, lld and mold are
# the oracles.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/integ/linkers.sh"

echo 'int foo(void) { return 1; }' >a.c
echo 'int foo(void) { return 2; }' >b.c
printf 'int foo(void);\nint x(void) { return foo(); }\n' >x.c
printf 'int x(void);\nint main(void) { return x(); }\n' >m.c
echo 'A_1 { global: foo; local: *; };' >a.map
echo 'B_2 { global: foo; local: *; };' >b.map
mkdir old
echo 'B_1 { global: foo; local: *; };' >old/b.map
cc -shared -fPIC a.c -Wl,--version-script=a.map -o liba.so
cc -shared -fPIC b.c -Wl,--version-script=b.map -Wl,-soname,libb.so.0 -o libb.so.0
cc -shared -fPIC b.c -Wl,--version-script=old/b.map -Wl,-soname,libb.so.0 -o old/libb.so.0
cc -shared -fPIC x.c -L. -l:libb.so.0 -o libx.so
cc -c m.c

case_of "success success success" x-before-a m.o -L. -lx -la -Wl,-rpath-link,.
case_of "success success success" a-before-x m.o -L. -la -lx -Wl,-rpath-link,.
case_of "success success success" b-on-the-line m.o -L. -lx -la -l:libb.so.0 -Wl,-rpath-link,.
case_of "success success success" as-needed m.o -L. -lx -Wl,--as-needed -la -l:libb.so.0 -Wl,-rpath-link,.
# The negative control: the library found has other versions of foo only.
case_of "failure success success" older-libb m.o -L. -lx -la -Wl,-rpath-link,old
check_contains "older libb: GNU ld's replay names foo@B_2 as ld does" \
	"$("$LINKSCOPE" explain "$T/older-libb-bfd.json" 2>&1)" "foo@B_2"
finish
