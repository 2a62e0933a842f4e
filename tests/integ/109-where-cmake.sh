# Where a CMake user makes the fix (issue #18, point 3): the target whose
# CMakeFiles/TARGET.dir/link.txt (or build.ninja rule) is the failed line,
# the CMakeLists.txt that defines it, and the target_link_libraries line to
# write there. The fix is applied as the report says and the real cmake
# --build then links.
. "$(dirname "$0")/lib.sh"

field() {
	"$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); d=r["diagnostics"]; v=eval(sys.argv[2]); print(v)' "$1" "$2"
}

# app needs shapes (built by the project) and zlib; tools/meter needs libm.
mkdir -p cm/lib cm/app cm/tools
cat >cm/CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.21)
project(dropped C)
add_library(shapes STATIC lib/shapes.c)
add_executable(app app/main.c)
add_subdirectory(tools)
EOF
echo 'int area(int w, int h) { return w * h; }' >cm/lib/shapes.c
cat >cm/app/main.c <<'EOF'
#include <zlib.h>
int area(int w, int h);
int main(void) { return area(2, 3) == 6 && zlibVersion()[0] ? 0 : 1; }
EOF
cat >cm/tools/CMakeLists.txt <<'EOF'
add_executable(meter meter.c)
EOF
printf '#include <math.h>\nint main(int c, char **v) { (void)v; return (int)cos(c * 1.5) > 2; }\n' >cm/tools/meter.c

cmake -S cm -B cmb "-DCMAKE_C_LINKER_LAUNCHER=$SHIM;--" >"$T/cmake.out" 2>&1
# shapes is built (the library is there to link), app is not linked with it
cmake --build cmb --target shapes >"$T/build.out" 2>&1
cmake --build cmb --target app >"$T/build.out" 2>&1
check "app: the link fails" grep -q "undefined reference to .area" "$T/build.out"
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "app: the whole fix is the target app's, in the top CMakeLists.txt, after add_executable (line 4)" \
	"cmake app $T/cm/CMakeLists.txt 4" \
	"$(field "$json" "' '.join(map(str, [r['whole_fix']['where'][k] for k in ('system', 'target', 'file', 'line')]))")"
check_eq "app: the line to write names the project's target and zlib" "target_link_libraries(app PRIVATE shapes z)" \
	"$(field "$json" "r['whole_fix']['where']['text']")"
check_eq "app: each cause's own fix says its part" "target_link_libraries(app PRIVATE z)" \
	"$(field "$json" "[f['where']['text'] for x in d for f in x['fixes'] if f['args'] == ['-lz']][0]")"
check_contains "app: the text report says it" "$("$LINKSCOPE" explain last-failed)" \
	"where: in $T/cm/CMakeLists.txt, after line 4, which defines the target app (CMake wrote this line for it), write target_link_libraries(app PRIVATE shapes z)"

# The same project under Ninja: the target from build.ninja's link rule.
cmake -S cm -B cmn -G Ninja "-DCMAKE_C_LINKER_LAUNCHER=$SHIM;--" >>"$T/cmake.out" 2>&1
cmake --build cmn --target shapes >>"$T/build.out" 2>&1
cmake --build cmn --target app >>"$T/build.out" 2>&1
check_eq "Ninja: the same target and line" "app target_link_libraries(app PRIVATE shapes z)" \
	"$(field "$("$LINKSCOPE" report --format json last-failed)" "r['whole_fix']['where']['target'] + ' ' + r['whole_fix']['where']['text']")"

# Under Ninja every target links from the top: the subdirectory's CMakeLists.txt all the same.
cmake --build cmn --target meter >"$T/ninja.out" 2>&1
check "Ninja: meter's link fails" grep -q "undefined reference to .cos" "$T/ninja.out"
check_eq "Ninja: meter's tools/CMakeLists.txt, from the top build dir" "$T/cm/tools/CMakeLists.txt meter" \
	"$(field "$("$LINKSCOPE" report --format json last-failed)" "' '.join([f['where'] for f in d[0]['fixes'] if f.get('where')][0][k] for k in ('file', 'target'))")"
check_eq "Ninja: the record is the top dir's link" "$T/cmn" "$(rec "$(last_record)" 'r["cwd"]')"

# Applied as it says: the line written after line 4; cmake --build links and app runs.
sed -i "$(field "$json" "r['whole_fix']['where']['line']")a $(field "$json" "r['whole_fix']['where']['text']")" cm/CMakeLists.txt
cmake --build cmb --target app >"$T/build.out" 2>&1
check_eq "app: with the line written, cmake --build links" 0 "$?"
check "app: and the program runs" cmb/app

# A target of a subdirectory: its own CMakeLists.txt.
cmake --build cmb --target meter >"$T/build.out" 2>&1
check "meter: the link fails" grep -q "undefined reference to .cos" "$T/build.out"
json=$("$LINKSCOPE" report --format json last-failed)
where='[f["where"] for f in d[0]["fixes"] if f.get("where")][0]'
check_eq "meter: tools/CMakeLists.txt, line 1, the target meter, -lm" \
	"$T/cm/tools/CMakeLists.txt 1 meter target_link_libraries(meter PRIVATE m)" \
	"$(field "$json" "' '.join(map(str, [$where[k] for k in ('file', 'line', 'target', 'text')]))")"
sed -i "$(field "$json" "$where['line']")a $(field "$json" "$where['text']")" cm/tools/CMakeLists.txt
cmake --build cmb --target meter >"$T/build.out" 2>&1
check_eq "meter: with the line written, cmake --build links" 0 "$?"

# A link.txt that is not this line's (the output differs): no where.
sed -i 's/-o meter/-o other/' cmb/tools/CMakeFiles/meter.dir/link.txt
case $("$LINKSCOPE" report --format json last-failed) in
*'"where": {'*) not_ok "a link.txt of another line: no where" ;;
*) ok "a link.txt of another line: no where" ;;
esac
finish
