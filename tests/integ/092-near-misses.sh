# Names that nearly match (issue #17, point 5): for an undefined symbol
# that nothing defines, what the inputs and the build tree hold that is
# almost it, each case named (near_misses[].kind), with its stated fix;
# the real linker fails on every line, and the stated fix, applied to the
# sources, links.
. "$(dirname "$0")/lib.sh"

# kinds JSON: the near-miss kinds of every diagnostic, sorted, unique.
kinds() {
	"$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); print(" ".join(sorted({n["kind"] for d in r["diagnostics"] for n in d.get("near_misses", [])})))' "$1"
}
# detail JSON KIND: the detail of the first near miss of that kind.
detail() {
	"$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); print([n["detail"] for d in r["diagnostics"] for n in d.get("near_misses", []) if n["kind"] == sys.argv[2]][0])' "$1" "$2"
}
# case NAME DRIVER ARGS...: the link through the shim must fail; $json gets the report.
case_link() {
	local name=$1
	shift
	run_capture "$name" "$SHIM" "$@"
	check_eq "$name: the real linker fails" 1 "$(cat "$T/$name.rc")"
	json=$("$LINKSCOPE" report --format json --replay-only last)
}

# --- a C++ reference to a C definition, and the reverse ---
echo 'int foo(int x) { return x; }' >foo.c
printf 'int foo(int);\nint main() { return foo(1); }\n' >usefoo.cpp
cc -c foo.c && g++ -c usefoo.cpp
case_link extern-c usefoo.o foo.o -o a
check_eq "extern-c: the kind" "extern-c" "$(kinds "$json")"
check_contains "extern-c: the C definition named" "$(detail "$json" extern-c)" "the C++ reference foo(int) is to a C function: $T/foo.o defines foo"
check_contains "extern-c: the stated fix" "$json" 'declare foo extern \"C\" in the header'
printf 'extern "C" int foo(int);\nint main() { return foo(1); }\n' >usefoo.cpp
g++ -c usefoo.cpp
check "extern-c: the stated fix links with the real linker" g++ usefoo.o foo.o -o a
printf 'int bar(int x) { return x; }\n' >bar.cpp
printf 'int bar(int);\nint main(void) { return bar(1); }\n' >usebar.c
g++ -c bar.cpp && cc -c usebar.c
case_link extern-c-reverse usebar.o bar.o -o b
check_contains "extern-c reverse: the C++ definition named" "$(detail "$json" extern-c)" "the C reference bar is to a C++ function: $T/bar.o defines bar(int), mangled as _Z3bari"

# --- other parameter types, a const method, the other std::string ABI ---
printf 'int sig(long x) { return x; }\nstruct K { int get(); };\nint K::get() { return 1; }\n' >sig.cpp
printf 'int sig(int);\nstruct K { int get() const; };\nint main() { K k; return sig(1) + k.get(); }\n' >usesig.cpp
g++ -c sig.cpp && g++ -c usesig.cpp
case_link signature usesig.o sig.o -o s
check_eq "signature: the kind" "signature" "$(kinds "$json")"
check_contains "signature: the parameters differ" "$json" "defines sig(long), the reference wants sig(int): the parameter types differ: (int) wanted, (long) defined"
check_contains "signature: the qualifiers differ" "$json" 'defines K::get(), the reference wants K::get() const: the qualifiers differ: \"const\" wanted, \"none\" defined'
printf '#include <string>\nstd::string name(std::string s) { return s; }\n' >abi.cpp
printf '#include <string>\nstd::string name(std::string);\nint main() { return name("x").size(); }\n' >useabi.cpp
g++ -D_GLIBCXX_USE_CXX11_ABI=0 -c abi.cpp && g++ -c useabi.cpp
run_capture abi "$SHIM" useabi.o abi.o -o abi -lstdc++
check_eq "cxx11-abi: the real linker fails" 1 "$(cat "$T/abi.rc")"
json=$("$LINKSCOPE" report --format json --replay-only last)
check_eq "cxx11-abi: the kind" "cxx11-abi" "$(kinds "$json")"
check_contains "cxx11-abi: the two ABIs said" "$(detail "$json" cxx11-abi)" "the reference was compiled with _GLIBCXX_USE_CXX11_ABI=1, the definition with 0"
g++ -c abi.cpp
check "cxx11-abi: the stated fix (one ABI) links with the real linker" g++ useabi.o abi.o -o abi

# --- a static definition; one a shared object does not export ---
printf 'static int hid(void) { return 1; }\nint use_hid(void) { return hid(); }\n' >st.c
printf 'int hid(void);\nint main(void) { return hid(); }\n' >usest.c
cc -c st.c && cc -c usest.c
case_link local usest.o st.o -o st
check_eq "local: the kind" "local" "$(kinds "$json")"
check_contains "local: the static definition named" "$(detail "$json" local)" "$T/st.o defines hid, but as a local symbol"
mkdir lib
printf '__attribute__((visibility("hidden"))) int inner(void) { return 1; }\nint outer(void) { return inner(); }\n' >h.c
cc -shared -fPIC h.c -o lib/libh.so
printf 'int inner(void);\nint main(void) { return inner(); }\n' >useh.c
cc -c useh.c
case_link not-exported useh.o -Llib -lh -o h
check_eq "not-exported: the kind" "not-exported" "$(kinds "$json")"
check_contains "not-exported: .symtab only" "$(detail "$json" not-exported)" "$T/lib/libh.so has inner in its .symtab only"

# --- a versioned reference to an older library ---
mkdir old new
printf 'VER_1 { global: foo; local: *; };\n' >v1.map
printf 'VER_1 { global: foo; local: *; };\nVER_2 { global: foo2; } VER_1;\n' >v2.map
echo 'int foo(void) { return 1; }' >v1.c
printf 'int foo(void) { return 1; }\nint foo2(void) { return 2; }\n' >v2.c
cc -shared -fPIC -Wl,--version-script=v1.map -Wl,-soname,libv.so.1 v1.c -o old/libv.so
cc -shared -fPIC -Wl,--version-script=v2.map -Wl,-soname,libv.so.1 v2.c -o new/libv.so
printf 'int foo(void);\nint foo2(void);\nint user(void) { return foo() + foo2(); }\n' >user.c
cc -shared -fPIC user.c -Lnew -lv -o libuser.so
printf 'int user(void);\nint main(void) { return user(); }\n' >useuser.c
cc -c useuser.c
case_link version useuser.o -L. -luser -Lold -lv -o v
check_eq "version: the kind" "version" "$(kinds "$json")"
check_contains "version: the older library said" "$(detail "$json" version)" "$T/libuser.so references foo2@VER_2, and $T/old/libv.so defines only the versions VER_1: the library on the line is older than the one $T/libuser.so was built against"
check "version: the newer library links with the real linker" cc useuser.o -L. -luser -Lnew -lv -o v

# --- vtable: the key function not defined ---
printf 'struct Shape { virtual ~Shape() {} virtual double area() const; virtual const char *name() const { return "s"; } };\nint main() { Shape s; return s.name()[0]; }\n' >vt.cpp
g++ -c vt.cpp
case_link key-function vt.o -o vt -lstdc++
check_eq "key-function: the kind" "key-function" "$(kinds "$json")"
check_contains "key-function: the class and what the inputs define" "$(detail "$json" key-function)" "vtable for Shape is emitted only in the object that defines Shape's key function"
check_contains "key-function: the members the inputs show" "$(detail "$json" key-function)" "the members of it that the inputs define: Shape::~Shape(), Shape::name() const"

# --- typeinfo missing while the key function is defined: that object was
# compiled with -fno-rtti (issue #34: it was told "the key function is not
# defined"); the stated fix, a recompile with RTTI, links ---
printf 'struct Foo { virtual ~Foo(); virtual int f() const; };\n' >foo.h
printf '#include "foo.h"\nFoo::~Foo() {}\nint Foo::f() const { return 1; }\n' >rfoo.cpp
printf '#include "foo.h"\nstruct Bar : Foo { int f() const override { return 2; } };\nint main() { Foo *p = new Bar; int r = dynamic_cast<Bar *>(p) ? 0 : 1; delete p; return r; }\n' >rmain.cpp
g++ -c -fno-rtti rfoo.cpp && g++ -c rmain.cpp
case_link no-rtti g++ rmain.o rfoo.o -o rtti
check_eq "no-rtti: the kind, not key-function" "no-rtti" "$(kinds "$json")"
check_contains "no-rtti: the object with the vtable and no typeinfo" "$(detail "$json" no-rtti)" \
	"Foo's key function is defined: $T/rfoo.o defines vtable for Foo, which is emitted with it, but no typeinfo for Foo: it was compiled with -fno-rtti"
check_eq "no-rtti: the first fix, stated: rfoo.o recompiled with RTTI" "True rebuild $T/rfoo.o" \
	"$("$PY" -c 'import json,sys; f=json.loads(sys.argv[1])["diagnostics"][0]["fixes"][0]; print(f["stated"], f["edit"]["kind"], f["edit"]["input"])' "$json")"
g++ -c rfoo.cpp
check "no-rtti: the stated fix applied links with the real linker" g++ rmain.o rfoo.o -o rtti

# --- a static constexpr member taken by reference before C++17 (issue #34:
# right diagnosis, no fix): its out-of-class definition, or C++17 ---
printf 'struct Limits { static constexpr int kMax = 5; };\n' >lim.h
printf '#include "lim.h"\n#include <algorithm>\nint main() { int x = 3; return std::max(x, Limits::kMax) - 5; }\n' >lim.cpp
g++ -std=c++14 -c lim.cpp
case_link static-member g++ lim.o -o lim
check_eq "static-member: the kind" "static-member" "$(kinds "$json")"
check_contains "static-member: the stated fix names the definition and C++17" \
	"$("$PY" -c 'import json,sys; print(json.loads(sys.argv[1])["diagnostics"][0]["fixes"][0]["description"])' "$json")" \
	"define Limits::kMax in one .cpp (\`constexpr TYPE Limits::kMax;\`"
printf '#include "lim.h"\nconstexpr int Limits::kMax;\n' >limdef.cpp
g++ -std=c++14 -c limdef.cpp
check "static-member: the definition applied links with the real linker" g++ lim.o limdef.o -o lim
g++ -std=c++17 -c lim.cpp
check "static-member: C++17 applied links with the real linker" g++ lim.o -o lim

# --- a C99 inline function no object emits (issue #34: right diagnosis, no
# fix): the referencing object's DWARF defines it, its ELF leaves it
# undefined; the stated fix, an extern inline declaration in one .c, links ---
printf 'inline int sq(int x) { return x * x; }\n' >sq.h
printf '#include "sq.h"\nint main(void) { return sq(3) - 9; }\n' >sqm.c
cc -std=c11 -g -c sqm.c
case_link inline-definition cc sqm.o -o sq
check_eq "inline-definition: the kind" "inline-definition" "$(kinds "$json")"
check_contains "inline-definition: where it is defined, and why no object emits it" "$(detail "$json" inline-definition)" \
	"sq is defined at $T/sq.h:1 in the objects that call it, and none of them emits it"
check_eq "inline-definition: the first fix, stated" "True declaration" \
	"$("$PY" -c 'import json,sys; f=json.loads(sys.argv[1])["diagnostics"][0]["fixes"][0]; print(f["stated"], f["edit"]["kind"])' "$json")"
printf '#include "sq.h"\nextern inline int sq(int x);\n' >sq.c
cc -std=c11 -g -c sq.c
check "inline-definition: the extern inline declaration applied links with the real linker" cc sqm.o sq.o -o sq

# --- a template defined in a .cpp, instantiated there for another type ---
printf 'template <class T> T add(T a, T b) { return a + b; }\ntemplate double add<double>(double, double);\n' >tpl.cpp
printf 'template <class T> T add(T a, T b);\nint main() { return add(1, 2); }\n' >usetpl.cpp
g++ -c tpl.cpp && g++ -c usetpl.cpp
case_link template usetpl.o tpl.o -o tpl
check_eq "template: the kind" "template" "$(kinds "$json")"
check_contains "template: the other instantiation named" "$(detail "$json" template)" "$T/tpl.o defines double add<double>(double, double), another instantiation of the template add; int add<int>(int, int) is instantiated nowhere"
printf 'template <class T> T add(T a, T b) { return a + b; }\ntemplate double add<double>(double, double);\ntemplate int add<int>(int, int);\n' >tpl.cpp
g++ -c tpl.cpp
check "template: the stated fix (an explicit instantiation) links with the real linker" g++ usetpl.o tpl.o -o tpl

# Every near miss is a stated fix (issue #34: every diagnosis ends in an edit), never a verified one.
check_eq "the near miss's fix is stated, and none is claimed verified" "declaration []" \
	"$("$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); fs=[f for d in r["diagnostics"] for f in d["fixes"]]; print(fs[0]["edit"]["kind"], [f for f in fs if f["verified"] or not f["stated"]])' "$json")"
finish
