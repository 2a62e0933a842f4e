# Where a CMake user makes the fix when the code that references the
# symbol is a library target's (issue #34, Where): target_link_libraries
# on that library, in its own CMakeLists.txt, after its existing
# target_link_libraries line; PRIVATE when no other target references the
# symbol, PUBLIC when another does; no keyword when the target's lines use
# the plain signature (CMake refuses to mix them). Each fix is applied as
# said, and the real cmake --build links (Makefiles and Ninja).
. "$(dirname "$0")/lib.sh"

field() {
	"$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); d=r["diagnostics"]; v=eval(sys.argv[2]); print(v)' "$1" "$2"
}
first='d[0]["fixes"][0]'
where="$first['where']"

# packer (a static library in packer/) calls zlib's compressBound and libm's
# sqrt; it links m, and forgets z. app links packer.
mkdir -p cm/packer cm/app
cat >cm/CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.21)
project(packs C)
add_subdirectory(packer)
add_executable(app app/main.c)
target_link_libraries(app PRIVATE
    packer)
EOF
cat >cm/packer/CMakeLists.txt <<'EOF'
add_library(packer STATIC packer.c)
target_include_directories(packer PUBLIC .)
target_link_libraries(packer PRIVATE m)
# packer's tests would go here
EOF
cat >cm/packer/packer.c <<'EOF'
#include <zlib.h>
#include <math.h>
unsigned long packer_bound(unsigned long n) { return compressBound(n) + (unsigned long)sqrt((double)n); }
EOF
cat >cm/app/main.c <<'EOF'
unsigned long packer_bound(unsigned long n);
int main(void) { return packer_bound(100) > 0 ? 0 : 1; }
EOF
cp -r cm cm.orig

# build GEN DIR TARGET: configure (once) and build through the shim; the log in $T/build.out.
build() {
	[ -f "$2/CMakeCache.txt" ] || cmake -S cm -B "$2" -G "$1" "-DCMAKE_C_LINKER_LAUNCHER=$SHIM;--" >"$T/cmake.out" 2>&1
	cmake --build "$2" --target "$3" >"$T/build.out" 2>&1
}

# --- PRIVATE: only packer's objects reference compressBound ---
build "Unix Makefiles" cmb app
check "private: app's link fails on compressBound" grep -q "undefined reference to .compressBound" "$T/build.out"
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "private: the first fix appends -lz, verified" "['-lz'] True" "$(field "$json" "str($first['args']) + ' ' + str($first['verified'])")"
check_eq "private: on the library target packer, in packer/CMakeLists.txt, after its target_link_libraries (line 3)" \
	"packer $T/cm/packer/CMakeLists.txt 3" \
	"$(field "$json" "' '.join(map(str, [$where[k] for k in ('target', 'file', 'line')]))")"
check_eq "private: PRIVATE, no other target references it" "target_link_libraries(packer PRIVATE z)" \
	"$(field "$json" "$where['text']")"
check_contains "private: the sentence says whose objects and why PRIVATE" "$("$LINKSCOPE" explain last-failed)" \
	"write target_link_libraries(packer PRIVATE z): the objects of the library target packer ("
sed -i "$(field "$json" "$where['line']")a $(field "$json" "$where['text']")" cm/packer/CMakeLists.txt
build "Unix Makefiles" cmb app
check_eq "private: with the line written, cmake --build links" 0 "$?"
check "private: app runs" cmb/app

# --- PUBLIC: app's own object calls zlibVersion too ---
rm -rf cm && cp -r cm.orig cm
cat >cm/app/main.c <<'EOF'
#include <zlib.h>
unsigned long packer_bound(unsigned long n);
int main(void) { return packer_bound(100) > 0 && zlibVersion()[0] ? 0 : 1; }
EOF
build Ninja cmn app
check "public: app's link fails (Ninja)" grep -q "undefined reference to .zlibVersion" "$T/build.out"
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "public: one diagnostic for both symbols" "1 compressBound,zlibVersion" \
	"$(field "$json" "str(len(d)) + ' ' + ','.join(sorted(d[0]['symbols']))")"
check_eq "public: on packer, PUBLIC: app references it too" \
	"$T/cm/packer/CMakeLists.txt 3 target_link_libraries(packer PUBLIC z)" \
	"$(field "$json" "' '.join(map(str, [$where[k] for k in ('file', 'line', 'text')]))")"
check_contains "public: the sentence says who else" "$("$LINKSCOPE" explain last-failed)" \
	"PUBLIC, as app references them too: the targets that link packer get it with it"
sed -i "$(field "$json" "$where['line']")a $(field "$json" "$where['text']")" cm/packer/CMakeLists.txt
build Ninja cmn app
check_eq "public: with the line written, cmake --build links" 0 "$?"
check "public: app runs" cmn/app

# --- the plain signature: no keyword, or CMake stops at configure ---
rm -rf cm cmb && cp -r cm.orig cm
sed -i 's/target_link_libraries(packer PRIVATE m)/target_link_libraries(packer m)/' cm/packer/CMakeLists.txt
build "Unix Makefiles" cmb app
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "plain: target_link_libraries(packer z), after line 3" "3 target_link_libraries(packer z)" \
	"$(field "$json" "' '.join(map(str, [$where[k] for k in ('line', 'text')]))")"
sed -i "$(field "$json" "$where['line']")a $(field "$json" "$where['text']")" cm/packer/CMakeLists.txt
build "Unix Makefiles" cmb app
check_eq "plain: with the line written, cmake --build links" 0 "$?"

# --- the executable's own reference: on app, after its two-line target_link_libraries (line 6) ---
rm -rf cm cmb && cp -r cm.orig cm
# packer no longer calls zlib; app calls adler32 itself
sed -i 's/compressBound(n) + //' cm/packer/packer.c
cat >cm/app/main.c <<'EOF'
#include <zlib.h>
unsigned long packer_bound(unsigned long n);
int main(void) { return packer_bound(100) > 0 && adler32(0, 0, 0) == 1 ? 0 : 1; }
EOF
build "Unix Makefiles" cmb app
check "exe: app's link fails on adler32" grep -q "undefined reference to .adler32" "$T/build.out"
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "exe: on app itself, after its target_link_libraries' last line (6), PRIVATE" \
	"app $T/cm/CMakeLists.txt 6 target_link_libraries(app PRIVATE z)" \
	"$(field "$json" "' '.join(map(str, [$where[k] for k in ('target', 'file', 'line', 'text')]))")"
sed -i "$(field "$json" "$where['line']")a $(field "$json" "$where['text']")" cm/CMakeLists.txt
build "Unix Makefiles" cmb app
check_eq "exe: with the line written, cmake --build links" 0 "$?"

finish
