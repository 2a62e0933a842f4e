# Every class of issue #34 this suite covers, as a real build that fails
# (make, CMake, cargo), its FIRST fix applied in the build file or the
# source as linkscope says it (the `where` of the fix: the Makefile
# variable, the target_link_libraries line, the build.rs line; a stated
# rebuild's flags in the compile flags; a stated declaration's alternative
# in the header), then rebuilt for real and linked, and the program run.
# The test prints how many classes were fixed this way:
# "fixed N of M classes", and fails unless N == M.
. "$(dirname "$0")/lib.sh"

CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")

# first FIELD-EXPR: a Python expression over f, the first fix of the first diagnostic of the last failed link.
first() {
	"$LINKSCOPE" report --format json last-failed |
		"$PY" -c 'import json,sys; r=json.load(sys.stdin); f=r["diagnostics"][0]["fixes"][0]; print(eval(sys.argv[1]))' "$1"
}

# apply_where: the first fix's `where` written into its file, as its sentence says:
# make: the variable's line replaced (a word changed), the word moved out of
# LDFLAGS and the line added, the recipe line replaced, or the line added
# after `line` (at the end when none); cmake: the line added after `line`;
# cargo: each cargo: line printed after `line` of build.rs.
apply_where() {
	"$LINKSCOPE" report --format json last-failed | "$PY" -c '
import json, sys
f = json.load(sys.stdin)["diagnostics"][0]["fixes"][0]
w = f["where"]
lines = open(w["file"]).read().split("\n")
at = w["line"] or 0
if w["system"] == "cargo":
    new = ["    println!(\"%s\");" % t for t in w["text"].split("\n")]
else:
    new = [w["text"]]
if w["system"] == "make" and w.get("moves_from"):
    word = w["text"].split(" += ")[1]
    lines[at - 1] = lines[at - 1].replace(" " + word, "")
    lines[-1:-1] = new if lines[-1] == "" else lines[len(lines):] + new
elif w["system"] == "make" and w.get("replaces"):
    lines[at - 1] = w["text"]
elif at:
    lines[at:at] = new
else:
    lines[-1:-1] = new
open(w["file"], "w").write("\n".join(lines))
'
}

classes=0
fixed=0
broke=0
# build_fails CLASS COMMAND...: the first real build, which must fail (a class whose build links already is no class here).
build_fails() {
	local class=$1
	shift
	if "$@" >"$T/b.log" 2>&1; then
		broke=0
		not_ok "$class: the real build fails first"
	else
		broke=1
		ok "$class: the real build fails first"
	fi
}
# outcome CLASS COMMAND...: the class counted; fixed when its build failed first and, the first fix applied and rebuilt, the program runs.
outcome() {
	local class=$1
	shift
	classes=$((classes + 1))
	if [ "$broke" = 1 ] && "$@" >/dev/null 2>&1; then
		fixed=$((fixed + 1))
		ok "$class: the first fix applied, the real build links and the program runs"
	else
		not_ok "$class: the first fix applied, the real build links and the program runs"
	fi
	broke=0
}

zprog='#include <zlib.h>\nint main(void) { return zlibVersion()[0] == 0; }\n'

# --- make: a library the line lacks: LDLIBS ---
mkdir m1 && cd m1 && printf "$zprog" >prog.c && printf 'CFLAGS = -O2\nprog: prog.o\n' >Makefile
build_fails "missing library (make)" make CC="$SHIM"
apply_where && make CC="$SHIM" >/dev/null 2>&1
outcome "missing library (make)" ./prog
cd "$T" || exit 1

# --- make: -lz in LDFLAGS, before the objects, under --as-needed: moved to LDLIBS ---
mkdir m2 && cd m2 && printf "$zprog" >prog.c && printf 'LDFLAGS = -Wl,--as-needed -lz\nprog: prog.o\n' >Makefile
build_fails "a library before the objects (make)" make CC="$SHIM"
apply_where && make CC="$SHIM" >/dev/null 2>&1
outcome "a library before the objects (make)" ./prog
cd "$T" || exit 1

# --- make: a rule of its own that never reads $(LDLIBS) ---
mkdir m3 && cd m3 && printf "$zprog" >prog.c
printf 'LDLIBS = -lm\nEXTRA =\nprog: prog.o\n\t$(CC) -o $@ $^ $(EXTRA)\n' >Makefile
build_fails "a rule without \$(LDLIBS) (make)" make CC="$SHIM"
check_eq "a rule without \$(LDLIBS): the variable its recipe reads" "EXTRA += -lz" "$(first 'f["where"]["text"]')"
apply_where && make CC="$SHIM" >/dev/null 2>&1
outcome "a rule without \$(LDLIBS) (make)" ./prog
cd "$T" || exit 1

# --- make: -llibz, the file's name for -lz: the word replaced ---
mkdir m4 && cd m4 && printf "$zprog" >prog.c && printf 'LDLIBS = -llibz\nprog: prog.o\n' >Makefile
build_fails "-llibz (make)" make CC="$SHIM"
apply_where && make CC="$SHIM" >/dev/null 2>&1
outcome "-llibz (make)" ./prog
cd "$T" || exit 1

# --- make: freestanding code with the stack protector: the stated rebuild's flags in CFLAGS ---
mkdir m5 && cd m5 || exit 1
cat >free.c <<'EOF'
void fill(char *p, int n) { for (int i = 0; i < n; i++) p[i] = (char)i; }
int entry(int n) { char buf[64]; fill(buf, n); return buf[0]; }
void _start(void) { entry(3); __asm__ volatile("mov $60, %eax\n xor %edi, %edi\n syscall"); }
EOF
printf 'CFLAGS = -O2 -fstack-protector-strong -ffreestanding\nLDFLAGS = -nostdlib -static\nfree: free.o\n' >Makefile
build_fails "stack protector, freestanding (make)" make CC="$SHIM"
check_eq "stack protector: the first fix is the stated rebuild of free.o" "rebuild $T/m5/free.o" \
	"$(first 'f["edit"]["kind"] + " " + f["edit"]["input"]')"
printf 'CFLAGS += %s\n' "$(first '" ".join(f["edit"]["words"])')" >>Makefile
make -B CC="$SHIM" >/dev/null 2>&1
outcome "stack protector, freestanding (make)" ./free
cd "$T" || exit 1

# --- make: a static constexpr member taken by reference before C++17: the -std= it names ---
mkdir m6 && cd m6 || exit 1
printf 'struct Limits { static constexpr int kMax = 5; };\n' >lim.h
printf '#include "lim.h"\n#include <algorithm>\nint main() { int x = 3; return std::max(x, Limits::kMax) - 5; }\n' >lim.cpp
printf 'CXXFLAGS = -std=c++14\nlim: lim.o\n\t$(CXX) -o $@ $^\n' >Makefile
build_fails "static constexpr member (make)" make CXX="$SHIM g++"
std=$(first 'f["description"]' | grep -o -- '-std=c++[0-9]*' | head -n 1)
check_eq "static constexpr member: the first fix names C++17" "-std=c++17" "$std"
printf 'CXXFLAGS += %s\n' "$std" >>Makefile
make -B CXX="$SHIM g++" >/dev/null 2>&1
outcome "static constexpr member (make)" ./lim
cd "$T" || exit 1

# --- make: a C99 inline function no object emits: `static inline` in the header it names ---
mkdir m7 && cd m7 || exit 1
printf 'inline int sq(int x) { return x * x; }\n' >sq.h
printf '#include "sq.h"\nint main(void) { return sq(3) - 9; }\n' >sqm.c
printf 'CFLAGS = -std=c11 -g\nsqm: sqm.o\n' >Makefile
build_fails "C99 inline (make)" make CC="$SHIM"
check_contains "C99 inline: the first fix says static inline in sq.h" "$(first 'f["description"]')" "or make it \`static inline\` in the header"
sed -i 's/^inline /static inline /' sq.h
make -B CC="$SHIM" >/dev/null 2>&1
outcome "C99 inline (make)" ./sqm
cd "$T" || exit 1

# --- make: a COMDAT group ld drops (another compiler's a.o): the stated rebuild, with box.o's compiler ---
mkdir m8 && cd m8 || exit 1
printf 'template <class T> struct Box { T v; Box(T x); T get() const { return v; } };\ntemplate <class T> Box<T>::Box(T x) : v(x) {}\n' >box.h
printf '#include "box.h"\ntemplate struct Box<int>;\n' >box.cpp
printf '#include "box.h"\nstruct Tagged : Box<int> { int tag; Tagged() : Box<int>(7), tag(1) {} };\nint tagged_value() { Tagged t; return t.get() + t.tag; }\n' >a.cpp
printf '#include "box.h"\nextern template struct Box<int>;\nint tagged_value();\nint main() { Box<int> b(34); return b.get() + tagged_value() == 42 ? 0 : 1; }\n' >main.cpp
# other-c++: a compiler whose constructor group holds the base constructor only (g++, then objcopy)
printf '#!/bin/sh\ng++ "$@" && objcopy --strip-symbol=_ZN3BoxIiEC1Ei a.o\n' >other-c++ && chmod +x other-c++
printf 'main: main.o a.o box.o\n\t$(CXX) -o $@ $^\na.o: a.cpp\n\t./other-c++ -c a.cpp -o a.o\n' >Makefile
build_fails "a COMDAT group ld drops (make)" make CXX="$SHIM g++"
check_contains "COMDAT: the first fix: rebuild a.o with box.o's compiler" "$(first 'f["description"]')" \
	"rebuild a.o from the same headers with the same compiler as box.o"
sed -i 's|\./other-c++|$(CXX)|' Makefile
make -B CXX="$SHIM g++" >/dev/null 2>&1
outcome "a COMDAT group ld drops (make)" ./main
cd "$T" || exit 1

# --- make: C++ objects linked by make's built-in rule, which runs $(CC): LINK.o with $(CXX) ---
cxxprog='#include <string>\nint main(int c, char **v) { return std::string(v[0]).size() > 0 && c > 0 ? 0 : 1; }\n'
mkdir m9 && cd m9 && printf "$cxxprog" >prog.cpp && printf 'prog: prog.o\n' >Makefile
build_fails "C++ through the built-in rule's C driver (make)" make CC="$SHIM" CXX="$SHIM g++"
check_eq "built-in rule: the first fix is g++, said as LINK.o" "g++ LINK.o = \$(CXX) \$(LDFLAGS) \$(TARGET_ARCH)" \
	"$(first 'f["driver"] + " " + f["where"]["text"]')"
apply_where && make CC="$SHIM" CXX="$SHIM g++" >/dev/null 2>&1
outcome "C++ through the built-in rule's C driver (make)" ./prog
cd "$T" || exit 1

# --- make: C++ objects linked by a rule of its own with $(CC): $(CXX) in its recipe ---
mkdir m10 && cd m10 && printf "$cxxprog" >prog.cpp && printf 'prog: prog.o\n\t$(CC) -o $@ $^\n' >Makefile
build_fails "C++ through a recipe's \$(CC) (make)" make CC="$SHIM" CXX="$SHIM g++"
check_eq "own rule: the recipe with \$(CXX)" "$(printf '\t$(CXX) -o $@ $^')" "$(first 'f["where"]["text"]')"
apply_where && make CC="$SHIM" CXX="$SHIM g++" >/dev/null 2>&1
outcome "C++ through a recipe's \$(CC) (make)" ./prog
cd "$T" || exit 1

# --- make: a program's own _start, with the driver's start files: -nostartfiles in LDFLAGS ---
startprog='void _start(void) { __asm__ volatile("mov $60, %%eax\\n xor %%edi, %%edi\\n syscall"); }\n'
mkdir m11 && cd m11 && printf "$startprog" >s.c && printf 'CFLAGS = -O2\nLDFLAGS = -static\ns: s.o\n' >Makefile
build_fails "its own _start (make)" make CC="$SHIM"
check_eq "own _start: the first fix, -nostartfiles, with the flags" "LDFLAGS += -nostartfiles" "$(first 'f["where"]["text"]')"
apply_where && make CC="$SHIM" >/dev/null 2>&1
outcome "its own _start (make)" ./s
cd "$T" || exit 1

# --- make: an archive the build makes without an index (ar rcS): the ar command it names ---
mkdir m12 && cd m12 || exit 1
printf 'int area(int w, int h) { return w * h; }\n' >sh.c
printf 'int area(int, int);\nint main(void) { return area(2, 3) - 6; }\n' >m.c
printf 'CFLAGS = -O2\nm: m.o libshapes.a\nlibshapes.a: sh.o\n\tar rcS $@ $^\n' >Makefile
build_fails "an archive without an index (make)" make CC="$SHIM"
check_contains "archive without an index: the first fix, ar rcs where the build makes it" "$(first 'f["description"]')" \
	"make it with \`ar rcs\` (the s writes the index) where the build makes it"
sed -i 's/ar rcS/ar rcs/' Makefile
make -B CC="$SHIM" >/dev/null 2>&1
outcome "an archive without an index (make)" ./m
cd "$T" || exit 1

# --- CMake: a library target's objects need zlib: its target_link_libraries ---
mkdir -p c1/packer && cd c1 || exit 1
printf 'cmake_minimum_required(VERSION 3.21)\nproject(p C)\nadd_subdirectory(packer)\nadd_executable(app main.c)\ntarget_link_libraries(app PRIVATE packer)\n' >CMakeLists.txt
printf 'add_library(packer STATIC packer.c)\n' >packer/CMakeLists.txt
printf '#include <zlib.h>\nunsigned long packer_bound(unsigned long n) { return compressBound(n); }\n' >packer/packer.c
printf 'unsigned long packer_bound(unsigned long n);\nint main(void) { return packer_bound(10) > 0 ? 0 : 1; }\n' >main.c
cmake -S . -B b "-DCMAKE_C_LINKER_LAUNCHER=$SHIM;--" >/dev/null 2>&1
build_fails "a library target's reference (CMake)" cmake --build b
check_eq "a library target's reference: on packer" "target_link_libraries(packer PRIVATE z)" "$(first 'f["where"]["text"]')"
apply_where && cmake --build b >/dev/null 2>&1
outcome "a library target's reference (CMake)" b/app
cd "$T" || exit 1

# --- CMake: the executable's own reference: libm ---
mkdir c2 && cd c2 || exit 1
printf 'cmake_minimum_required(VERSION 3.21)\nproject(p C)\nadd_executable(meter meter.c)\n' >CMakeLists.txt
printf '#include <math.h>\nint main(int c, char **v) { (void)v; return (int)cos(c * 1.5) > 2; }\n' >meter.c
cmake -S . -B b "-DCMAKE_C_LINKER_LAUNCHER=$SHIM;--" >/dev/null 2>&1
build_fails "the executable's reference (CMake)" cmake --build b
apply_where && cmake --build b >/dev/null 2>&1
outcome "the executable's reference (CMake)" b/meter
cd "$T" || exit 1

# --- CMake: a C program linking a prebuilt C++ archive: the C++ driver (LINKER_LANGUAGE CXX) ---
mkdir c3 && cd c3 || exit 1
printf '#include <string>\nextern "C" int name_len(const char *s) { return (int)std::string(s).size(); }\n' >n.cpp
g++ -c n.cpp -o n.o && ar rcs libnames.a n.o
printf 'cmake_minimum_required(VERSION 3.21)\nproject(p C CXX)\nadd_library(names STATIC IMPORTED)\nset_target_properties(names PROPERTIES IMPORTED_LOCATION ${CMAKE_SOURCE_DIR}/libnames.a)\nadd_executable(app main.c)\ntarget_link_libraries(app PRIVATE names)\n' >CMakeLists.txt
printf 'int name_len(const char *s);\nint main(void) { return name_len("linkscope") == 9 ? 0 : 1; }\n' >main.c
cmake -S . -B b "-DCMAKE_C_LINKER_LAUNCHER=$SHIM;--" >/dev/null 2>&1
build_fails "C++ through the C driver (CMake)" cmake --build b
check_eq "C++ through the C driver: the driver, said as CMake's linker language" \
	"set_target_properties(app PROPERTIES LINKER_LANGUAGE CXX)" "$(first 'f["where"]["text"]')"
apply_where && cmake --build b >/dev/null 2>&1
outcome "C++ through the C driver (CMake)" b/app
cd "$T" || exit 1

# --- CMake: a program's own _start: target_link_options ---
mkdir c4 && cd c4 && printf "$startprog" >s.c || exit 1
printf 'cmake_minimum_required(VERSION 3.21)\nproject(p C)\nadd_executable(s s.c)\ntarget_link_options(s PRIVATE -static)\n' >CMakeLists.txt
cmake -S . -B b "-DCMAKE_C_LINKER_LAUNCHER=$SHIM;--" >/dev/null 2>&1
build_fails "its own _start (CMake)" cmake --build b
check_eq "own _start (CMake): target_link_options" "target_link_options(s PRIVATE -nostartfiles)" "$(first 'f["where"]["text"]')"
apply_where && cmake --build b >/dev/null 2>&1
outcome "its own _start (CMake)" b/s
cd "$T" || exit 1

# --- cargo: a bin crate's own build.rs compiles C with the cc crate and forgets -lz ---
CC_CRATE=$(ls -d /usr/share/cargo/registry/cc-1.* 2>/dev/null | head -n 1)
if [ -x "$CARGO" ] && [ -n "$CC_CRATE" ]; then
	mkdir -p r1/.cargo r1/zapp/src r1/zapp/csrc && cd r1 || exit 1
	printf '[source.crates-io]\nreplace-with = "debian"\n[source.debian]\ndirectory = "/usr/share/cargo/registry"\n' >.cargo/config.toml
	printf '[workspace]\nmembers = ["zapp"]\nresolver = "2"\n' >Cargo.toml
	printf '[package]\nname = "zapp"\nversion = "0.1.0"\nedition = "2021"\n[build-dependencies]\ncc = "1"\n' >zapp/Cargo.toml
	printf '#include <zlib.h>\nunsigned long zapp_bound(unsigned long n) { return compressBound(n); }\n' >zapp/csrc/bound.c
	printf 'fn main() {\n    cc::Build::new().file("csrc/bound.c").compile("zbound");\n}\n' >zapp/build.rs
	printf 'extern "C" { fn zapp_bound(n: std::os::raw::c_ulong) -> std::os::raw::c_ulong; }\nfn main() { std::process::exit(if unsafe { zapp_bound(1) } > 0 { 0 } else { 1 }); }\n' >zapp/src/main.rs
	build_fails "a bin crate's build.rs (cargo)" env RUSTFLAGS="-Clinker=$SHIM" CARGO_TARGET_DIR="$T/rt" "$CARGO" build --offline -q
	apply_where && RUSTFLAGS="-Clinker=$SHIM" CARGO_TARGET_DIR=$T/rt "$CARGO" build --offline -q >/dev/null 2>&1
	outcome "a bin crate's build.rs (cargo)" "$T/rt/debug/zapp"
	cd "$T" || exit 1
else
	ok "# SKIP the cargo class: no cargo, or no cc crate in /usr/share/cargo/registry"
fi

echo "# fixed $fixed of $classes classes"
check_eq "fixed $fixed of $classes classes" "$classes" "$fixed"
finish
