# Undefined symbols that nothing on the line defines (issue #10): the
# library that does, the edit that adds it, one diagnostic per cause, each
# fix checked by the real linker with the suggested arguments appended.
. "$(dirname "$0")/lib.sh"

# field JSON EXPR: a Python expression over r (the report) and d (its diagnostics).
field() {
	"$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); d=r["diagnostics"]; v=eval(sys.argv[2]); print(" ".join(map(str, v)) if isinstance(v, tuple) else v)' "$1" "$2"
}

# relink NAME DRIVER ARGS...: the real driver, the suggested fix's args appended; passes when it links.
relink() {
	local name=$1
	shift
	if "$@" >"$T/$name.relink.out" 2>&1; then ok "$name: the real linker links with the fix"; else
		not_ok "$name: the real linker links with the fix" "$*" "$(head -n 3 "$T/$name.relink.out")"; fi
}

# --- zlib: -lz forgotten ---
cat >z.c <<'EOF'
#include <zlib.h>
int main(void) { return zlibVersion()[0] == 0 || compressBound(10) == 0; }
EOF
cc -c z.c -o z.o
run_capture z "$SHIM" z.o -o z
check_eq "zlib: ld fails" 1 "$(cat "$T/z.rc")"
json=$("$LINKSCOPE" report --format json last)
check_eq "zlib: one diagnostic for both symbols" "1 2 ['compressBound', 'zlibVersion']" \
	"$(field "$json" 'len(d), d[0]["count"], sorted(d[0]["symbols"])')"
check_eq "zlib: the provider and its Debian package" "/usr/lib/x86_64-linux-gnu/libz.so zlib1g-dev" \
	"$(field "$json" 'd[0]["provider"]["path"] + " " + d[0]["provider"]["package"]')"
check_eq "zlib: defined_in names it, not on the line" "/usr/lib/x86_64-linux-gnu/libz.so False" \
	"$(field "$json" 'd[0]["defined_in"]["path"] + " " + str(d[0]["defined_in"]["on_line"])')"
check_eq "zlib: the only fix is -lz, verified by replay" "[(['-lz'], True)]" \
	"$(field "$json" '[(f["args"], f["verified"]) for f in d[0]["fixes"]]')"
check_eq "zlib: the fix is appended (after z.o)" "4" "$(field "$json" 'd[0]["fixes"][0]["position"]')"
text=$("$LINKSCOPE" explain last)
check_contains "zlib: text names the library and package" "$text" "defined in /usr/lib/x86_64-linux-gnu/libz.so (zlib1g-dev), which is not on the line"
check_contains "zlib: text fix" "$text" "fix (verified by replay): append -lz, after $T/z.o (at 1, the last input that references them): libz.so (zlib1g-dev) defines them"
case $text in *"does not fix"*) not_ok "zlib: no fix that does not fix is offered" "$text" ;; *) ok "zlib: no fix that does not fix is offered" ;; esac
relink zlib cc z.o -o z -lz
check "zlib: the index cache is private" test "$(stat -c %a "$XDG_CACHE_HOME/linkscope")" = 700
check_eq "zlib: the cache files are 0600" "600" "$(stat -c %a "$XDG_CACHE_HOME"/linkscope/*.idx | sort -u)"

# A cache dir open to others is not used (nor written).
chmod 0777 "$XDG_CACHE_HOME/linkscope"
before=$(ls -l --time-style=+%s.%N "$XDG_CACHE_HOME/linkscope" | md5sum)
check_eq "a cache dir open to others: the same answer" "['-lz']" "$(field "$("$LINKSCOPE" report --format json last)" 'd[0]["fixes"][0]["args"]')"
check_eq "a cache dir open to others: left alone" "$before" "$(ls -l --time-style=+%s.%N "$XDG_CACHE_HOME/linkscope" | md5sum)"
chmod 0700 "$XDG_CACHE_HOME/linkscope"

# A corrupt cache is input too: ignored, rebuilt, the same answer.
for f in "$XDG_CACHE_HOME"/linkscope/*.idx; do printf 'linkscope-provider-index 2\ndir /nope\nf x' >"$f"; done
json2=$("$LINKSCOPE" report --format json last)
check_eq "corrupt cache: the same provider" "/usr/lib/x86_64-linux-gnu/libz.so" "$(field "$json2" 'd[0]["provider"]["path"]')"
head -c 100 /dev/urandom >"$(ls "$XDG_CACHE_HOME"/linkscope/*.idx | head -n 1)"
check_eq "garbage cache: the same fix" "['-lz']" "$(field "$("$LINKSCOPE" report --format json last)" 'd[0]["fixes"][0]["args"]')"

# The package answers are remembered until dpkg's database changes; a stale or broken file is not used.
printf 'linkscope-packages 1 0\n/usr/lib/x86_64-linux-gnu/libz.so\tforged\n' >"$XDG_CACHE_HOME/linkscope/packages"
check_eq "a stale package cache is not used" "zlib1g-dev" "$(field "$("$LINKSCOPE" report --format json last)" 'd[0]["provider"]["package"]')"
head -c 300 /dev/urandom >"$XDG_CACHE_HOME/linkscope/packages"
check_eq "a broken package cache is not used" "zlib1g-dev" "$(field "$("$LINKSCOPE" report --format json last)" 'd[0]["provider"]["package"]')"

# linkscope index: the same index, ahead of time
out=$("$LINKSCOPE" index --cache-dir "$T/icache" /usr/lib/x86_64-linux-gnu)
check_contains "index: the first build reads the libraries" "$out" "from the cache)"
case $out in *"(0 read now"*) not_ok "index: first build reads" "$out" ;; *) ok "index: first build reads" ;; esac
check_contains "index: the second comes from the cache" "$("$LINKSCOPE" index --cache-dir "$T/icache" /usr/lib/x86_64-linux-gnu)" "(0 read now"

# --- libm: cos without -lm ---
printf '#include <math.h>\nint main(int c, char **v) { (void)v; return (int)cos(c * 1.5); }\n' >m.c
cc -c m.c -o mth.o
run_capture m "$SHIM" mth.o -o mth
json=$("$LINKSCOPE" report --format json last)
check_eq "libm: -lm, verified; libm.so.6 from libc6" "['-lm'] True libc6" \
	"$(field "$json" 'd[0]["fixes"][0]["args"], d[0]["fixes"][0]["verified"], d[0]["provider"]["package"]')"
check_contains "libm: the file -lm reads, and its package" "$("$LINKSCOPE" explain last)" "-lm reads /usr/lib/x86_64-linux-gnu/libm.so (libc6-dev), a linker script for libm.so.6"
relink libm cc mth.o -o mth -lm

# --- C++ linked with cc: the driver is the cause ---
cat >p.cpp <<'EOF'
#include <iostream>
#include <string>
#include <vector>
int main(int argc, char **) { std::vector<std::string> v(argc, "x"); std::cout << v.size() << std::endl; return 0; }
EOF
g++ -c p.cpp -o p.o
run_capture cxx "$SHIM" p.o -o p
check_eq "C++ with cc: ld fails" 1 "$(cat "$T/cxx.rc")"
json=$("$LINKSCOPE" report --format json last)
check_eq "C++ with cc: one diagnostic" "1" "$(field "$json" 'len(d)')"
check_eq "C++ with cc: libstdc++ provides them all" "libstdc++.so" "$(field "$json" 'd[0]["provider"]["path"].rsplit("/", 1)[1]')"
check_eq "C++ with cc: g++ as the driver, verified" "g++ True" \
	"$(field "$json" '[f["driver"] + " " + str(f["verified"]) for f in d[0]["fixes"] if f["driver"]][0]')"
check_eq "C++ with cc: or -lstdc++, verified" "['-lstdc++'] True" \
	"$(field "$json" '[(f["args"], f["verified"]) for f in d[0]["fixes"] if not f["driver"]][0]')"
text=$("$LINKSCOPE" explain last)
check_contains "C++ with cc: says the driver is the cause" "$text" "link with g++ instead of cc: the inputs are C++"
check_contains "C++ with cc: symbols demangled and counted" "$text" "symbols: std::"
relink cxx-g++ g++ p.o -o p
relink cxx-lstdc++ cc p.o -o p -lstdc++

# --- a library only present as a static archive ---
mkdir -p sdir
printf 'int st_fn(void) { return 4; }\n' >st.c
cc -c st.c -o sdir/st.o && ar rcs sdir/libonlystatic.a sdir/st.o && rm sdir/st.o
printf 'int st_fn(void);\nint main(void) { return st_fn() - 4; }\n' >us.c
cc -c us.c -o us.o
run_capture st "$SHIM" us.o -Lsdir -o us
json=$("$LINKSCOPE" report --format json last)
check_eq "static archive in a -L dir: -lonlystatic, verified" "['-lonlystatic'] True" \
	"$(field "$json" 'd[0]["fixes"][0]["args"], d[0]["fixes"][0]["verified"]')"
relink static cc us.o -Lsdir -o us -lonlystatic
# the same archive beside the inputs, with no -L: the path
cp sdir/libonlystatic.a .
run_capture st2 "$SHIM" us.o -o us
json=$("$LINKSCOPE" report --format json last)
check_eq "static archive beside the inputs: its path" "['$T/libonlystatic.a'] True" \
	"$(field "$json" 'd[0]["fixes"][0]["args"], d[0]["fixes"][0]["verified"]')"
relink static-path cc us.o -o us "$T/libonlystatic.a"

# --- a symbol defined in two libraries: ranked ---
mkdir -p other
printf 'int two_fn(void) { return 2; }\n' >two.c
cc -shared -fPIC two.c -o libnear.so
cc -shared -fPIC two.c -o other/libfar.so
printf 'int two_fn(void);\nint main(void) { return two_fn() - 2; }\n' >u2.c
cc -c u2.c -o u2.o
run_capture two "$SHIM" u2.o -Lother -o u2
json=$("$LINKSCOPE" report --format json last)
check_eq "two libraries: the one beside the inputs is chosen, the other is an alternative" \
	"$T/libnear.so ['$T/other/libfar.so']" \
	"$(field "$json" 'd[0]["provider"]["path"] + " " + str(d[0]["provider"]["alternatives"])')"
check_contains "two libraries: the reason" "$("$LINKSCOPE" explain last)" "libnear.so is chosen: it sits with the line's own inputs"
relink two cc u2.o -Lother -o u2 "$(field "$json" 'd[0]["fixes"][0]["args"][0]')"

# --- two causes: zlib and libm; each fix partial, the whole fix verified ---
printf '#include <zlib.h>\n#include <math.h>\nint main(int c, char **v) { (void)v; return zlibVersion()[0] == 0 || cos(c) > 2; }\n' >zm.c
cc -c zm.c -o zm.o
run_capture zm "$SHIM" zm.o -o zm
json=$("$LINKSCOPE" report --format json last)
check_eq "two causes: two diagnostics, each with a partial fix that says what remains" \
	"2 [(['-lz'], False, True, 1), (['-lm'], False, True, 1)]" \
	"$(field "$json" 'len(d), sorted([(f["args"], f["verified"], f["partial"], len(f["remaining"])) for x in d for f in x["fixes"]], key=lambda t: t[0], reverse=True)')"
check_eq "two causes: the whole fix, verified" "True ['-lz', '-lm']" \
	"$(field "$json" 'r["whole_fix"]["verified"], sorted(r["whole_fix"]["args"], reverse=True)')"
relink whole cc zm.o -o zm -lz -lm

# --- nothing found: where it looked ---
printf 'int nowhere_at_all(void);\nint main(void) { return nowhere_at_all(); }\n' >nf.c
cc -c nf.c -o nf.o
run_capture nf "$SHIM" nf.o -o nf
json=$("$LINKSCOPE" report --format json last)
check_eq "nothing found: no provider, no fix, the dirs searched listed" "None 0 True" \
	"$(field "$json" 'd[0]["provider"], len(d[0]["fixes"]), "/usr/lib/x86_64-linux-gnu" in d[0]["looked_in"]')"
check_contains "nothing found: text says where it looked" "$("$LINKSCOPE" explain last)" "no library defines it in the"

# --- ordering: defined_in names the definer in JSON too ---
printf 'int helper(void) { return 1; }\n' >helper.c
printf 'int helper(void);\nint main(void) { return helper() - 1; }\n' >main.c
cc -c helper.c -o helper.o && cc -c main.c -o main.o && ar rcs libhelper.a helper.o
run_capture ord "$SHIM" -L. -lhelper main.o -o prog
check_eq "ordering: defined_in names the archive on the line" "$T/libhelper.a True" \
	"$(field "$("$LINKSCOPE" report --format json last)" 'd[0]["defined_in"]["path"] + " " + str(d[0]["defined_in"]["on_line"])')"

# --- a real CMake C++ project with its target_link_libraries line dropped: the library is in the build tree ---
mkdir -p cm/lib cm/app
cat >cm/CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.21)
project(dropped CXX)
add_library(jsonish STATIC lib/value.cpp)
add_executable(app app/main.cpp)
# target_link_libraries(app PRIVATE jsonish) was dropped
EOF
cat >cm/lib/value.cpp <<'EOF'
#include <string>
namespace Json { struct Value { std::string s; Value(const char *c); std::string asString() const; };
Value::Value(const char *c) : s(c) {} std::string Value::asString() const { return s; } }
EOF
cat >cm/app/main.cpp <<'EOF'
#include <string>
namespace Json { struct Value { std::string s; Value(const char *c); std::string asString() const; }; }
int main() { Json::Value v("x"); return v.asString().size() == 1 ? 0 : 1; }
EOF
# The launcher form with "--": CMake passes the compiler as the launcher's first argument.
cmake -S cm -B cmb "-DCMAKE_CXX_LINKER_LAUNCHER=$SHIM;--" >/dev/null 2>&1
cmake --build cmb >"$T/cmake.out" 2>&1
check "CMake: the link fails" grep -q "undefined reference to .Json::Value" "$T/cmake.out"
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "CMake: one diagnostic, the library in the build tree, not the system's libjsoncpp" "1 $T/cmb/libjsonish.a" \
	"$(field "$json" 'len(d), d[0]["provider"]["path"]')"
check_eq "CMake: the fix, verified" "['$T/cmb/libjsonish.a'] True" "$(field "$json" 'd[0]["fixes"][0]["args"], d[0]["fixes"][0]["verified"]')"
check_contains "CMake: demangled Json:: names" "$("$LINKSCOPE" explain last-failed)" "Json::Value::Value(char const*)"
check_contains "CMake: why it is chosen" "$("$LINKSCOPE" explain last-failed)" "libjsonish.a is chosen: it is in the build tree around the line's inputs"
(cd cmb && relink cmake c++ CMakeFiles/app.dir/app/main.cpp.o -o app "$T/cmb/libjsonish.a")

# --- aarch64 cross link: the provider only in the aarch64 sysroot ---
printf '#include <math.h>\nint main(int c, char **v) { (void)v; return (int)sin(c * 0.5); }\n' >a64.c
aarch64-linux-gnu-gcc -c a64.c -o a64.o
run_capture a64 "$SHIM" -- aarch64-linux-gnu-gcc a64.o -o a64
check_eq "aarch64: ld fails" 1 "$(cat "$T/a64.rc")"
json=$("$LINKSCOPE" report --format json last)
check_eq "aarch64: the sysroot's libm, never the host's" "/usr/aarch64-linux-gnu/lib/libm.so libc6-dev-arm64-cross" \
	"$(field "$json" 'd[0]["provider"]["path"], d[0]["provider"]["package"]')"
check_eq "aarch64: no x86-64 alternative" "[]" \
	"$(field "$json" '[a for a in d[0]["provider"]["alternatives"] if "x86_64" in a]')"
check_eq "aarch64: -lm, verified" "['-lm'] True" "$(field "$json" 'd[0]["fixes"][0]["args"], d[0]["fixes"][0]["verified"]')"
relink a64 aarch64-linux-gnu-gcc a64.o -o a64 -lm

# --- cargo: a -sys crate's build script forgets rustc-link-lib ---
CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
cp -r "$ROOT/testdata/sys-forgets" sys
cargo_build() { "$CARGO" build --offline -q --manifest-path sys/Cargo.toml >"$T/cargo.out" 2>&1; }
SYS_VARIANT=zlib CARGO_TARGET_DIR=$T/ct1 RUSTFLAGS="-Clinker=$SHIM" cargo_build
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "cargo zlib: the rlib member of the crate references them" "True True" \
	"$(field "$json" 'd[0]["referenced_by"]["path"].endswith(".rlib"), "forgets_sys" in d[0]["referenced_by"]["member"]')"
check_eq "cargo zlib: the build-script instruction, verified" "['cargo:rustc-link-lib=z'] True" \
	"$(field "$json" 'd[0]["fixes"][0]["build_script"], d[0]["fixes"][0]["verified"]')"
check_contains "cargo zlib: the crate is named" "$("$LINKSCOPE" explain last-failed)" 'the crate forgets_sys references them: the build script of the crate that links the library (its -sys crate, when it has one) should print "cargo:rustc-link-lib=z"'
SYS_VARIANT=zlib SYS_EXTRA="$(field "$json" '";".join(d[0]["fixes"][0]["build_script"])')" CARGO_TARGET_DIR=$T/ct1 cargo_build
check "cargo zlib: cargo builds with the suggested instruction" test -x "$T/ct1/debug/forgets-sys"

SYS_VARIANT=native CARGO_TARGET_DIR=$T/ct2 RUSTFLAGS="-Clinker=$SHIM" cargo_build
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "cargo native: found in the build script's OUT_DIR" "True libsysnative.a" \
	"$(field "$json" '"/build/forgets-sys-" in d[0]["provider"]["path"], d[0]["provider"]["path"].rsplit("/", 1)[1]')"
check_eq "cargo native: link-lib=static and link-search, verified" "['cargo:rustc-link-lib=static=sysnative', 'native'] True" \
	"$(field "$json" '[d[0]["fixes"][0]["build_script"][0], d[0]["fixes"][0]["build_script"][1].split("=")[1]], d[0]["fixes"][0]["verified"]')"
SYS_VARIANT=native SYS_EXTRA="$(field "$json" '";".join(d[0]["fixes"][0]["build_script"])')" CARGO_TARGET_DIR=$T/ct2 cargo_build
check "cargo native: cargo builds with the suggested instructions" test -x "$T/ct2/debug/forgets-sys"

# The static library in a dir the linker searches anyway (LIBRARY_PATH): rustc
# finds a static= library in its own -L dirs only, so the fix needs the
# rustc-link-search line all the same (issue #34's regression).
mkdir -p "$T/syslib"
export LIBRARY_PATH=$T/syslib
SYS_VARIANT=native SYS_LIBDIR=$T/syslib CARGO_TARGET_DIR=$T/ct3 RUSTFLAGS="-Clinker=$SHIM" cargo_build
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "cargo native in a searched dir: link-lib=static and link-search, verified" \
	"['cargo:rustc-link-lib=static=sysnative', 'cargo:rustc-link-search=native=$T/syslib'] True" \
	"$(field "$json" 'd[0]["fixes"][0]["build_script"], d[0]["fixes"][0]["verified"]')"
SYS_VARIANT=native SYS_LIBDIR=$T/syslib SYS_EXTRA="$(field "$json" '";".join(d[0]["fixes"][0]["build_script"])')" \
	CARGO_TARGET_DIR=$T/ct3 cargo_build
check "cargo native in a searched dir: cargo builds with the suggested instructions" test -x "$T/ct3/debug/forgets-sys"
unset LIBRARY_PATH

finish
