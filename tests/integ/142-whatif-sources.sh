# whatif's readers of a build that has not linked yet (issue #31):
# --cmake BUILD_DIR (Unix Makefiles' link.txt, Ninja's build.ninja),
# --line FILE (make -n output) and --argv-file FILE. First each reader's
# line against the link CMake or make really ran (recorded through the
# shim: the same argv, the same directory); then real what-if runs: a good
# link recorded as the baseline, an edit of the tree, the objects built but
# not linked, `linkscope whatif`, then the real link: the predicted outcome
# (0 links, 1 fails) must be the real one.
. "$(dirname "$0")/lib.sh"

READ=$LK_BUILD/tests/test_whatif_sources

# rec_of OUTPUT [CWD]: the newest record of a link that wrote OUTPUT (its file name; from CWD).
rec_of() {
	"$PY" - "$LINKSCOPE_DIR" "$1" "${2:-}" <<'EOF'
import glob, json, os, sys
best = ''
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*.json'))):
    if f.endswith('.report.json'):
        continue
    try:
        r = json.load(open(f))
    except Exception:
        continue
    if os.path.basename(r.get('line', {}).get('output') or '') == sys.argv[2] and (not sys.argv[3] or r.get('cwd') == sys.argv[3]):
        best = f
print(best)
EOF
}

# same_line DESC RECORD READER_JSON: the reader's argv and directory are the record's.
same_line() {
	local got
	got=$("$PY" - "$2" "$3" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
try:
    l = json.loads(sys.argv[2])
except Exception:
    print('the reader said: ' + sys.argv[2][:300]); sys.exit()
if l['argv'] != r['argv_expanded']:
    print('argv: want %s got %s' % (r['argv_expanded'], l['argv']))
elif (l['cwd'] or r['cwd']) != r['cwd']:
    print('cwd: want %s got %s' % (r['cwd'], l['cwd']))
else:
    print('same')
EOF
)
	check_eq "$1" same "$got"
}

# ---- a CMake project: an executable linking a static library target, zlib and libm; a subdir's tool;
# a shared library; a C++ executable ----
mkdir -p cm/lib cm/app cm/tools
cat >cm/CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(wisrc C CXX)
add_library(shapes STATIC lib/shapes.c)
add_executable(app app/main.c)
target_link_libraries(app PRIVATE shapes z m)
add_subdirectory(tools)
add_library(dyn SHARED lib/shapes.c)
target_link_libraries(dyn PRIVATE m)
add_executable(cxxapp app/cxx.cpp)
target_link_libraries(cxxapp PRIVATE shapes)
EOF
printf '#include <string>\nextern "C" int area(int w, int h);\nint main() { return std::to_string(area(2, 3)) == "6" ? 0 : 1; }\n' >cm/app/cxx.cpp
cp cm/CMakeLists.txt cm.orig
echo 'int area(int w, int h) { return w * h; }' >cm/lib/shapes.c
cat >cm/app/main.c <<'EOF'
#include <math.h>
#include <zlib.h>
int area(int w, int h);
int main(int argc, char **argv) { (void)argv; return area(2, 3) == 6 && zlibVersion()[0] && cos(argc) < 2 ? 0 : 1; }
EOF
cp cm/app/main.c main.c.orig
cat >cm/tools/CMakeLists.txt <<'EOF'
add_executable(meter meter.c)
target_link_libraries(meter PRIVATE m)
EOF
printf '#include <math.h>\nint main(int c, char **v) { (void)v; return (int)cos(c * 1.5) > 2; }\n' >cm/tools/meter.c

gens=("Unix Makefiles")
command -v ninja >/dev/null && gens+=(Ninja)
# each generator as is, and with the response files it can be told to use
# (link.txt's @objects1 and @linkLibs.rsp, written by the configure; ninja's
# @$RSP_FILE, written by ninja just before the link)
configs=("Unix Makefiles|" "Unix Makefiles|-DCMAKE_C_USE_RESPONSE_FILE_FOR_OBJECTS=ON -DCMAKE_C_USE_RESPONSE_FILE_FOR_LIBRARIES=ON -DCMAKE_CXX_USE_RESPONSE_FILE_FOR_OBJECTS=ON")
command -v ninja >/dev/null && configs+=("Ninja|" "Ninja|-DCMAKE_NINJA_FORCE_RESPONSE_FILE=ON")
nb=0
for cfg in "${configs[@]}"; do
	gen=${cfg%%|*}
	extra=${cfg#*|}
	nb=$((nb + 1))
	b=$T/b-$nb
	# shellcheck disable=SC2086 # the extra -D words, split
	cmake -S cm -B "$b" -G "$gen" "-DCMAKE_C_LINKER_LAUNCHER=$SHIM;--" "-DCMAKE_CXX_LINKER_LAUNCHER=$SHIM;--" $extra >cmake.out 2>&1
	cmake --build "$b" >build.out 2>&1
	gen="$gen${extra:+ (response files)}"
	check "$gen: the project builds through the shim" test -x "$b/app" -a -x "$b/tools/meter" -a -x "$b/cxxapp"
	app=$(rec_of app)
	meter=$(rec_of meter)
	same_line "$gen: --cmake gives a shared library's link" "$(rec_of libdyn.so)" \
		"$("$READ" --read cmake "$(rec_of libdyn.so)" "$b" 2>&1)"
	same_line "$gen: --cmake gives a C++ executable's link" "$(rec_of cxxapp)" \
		"$("$READ" --read cmake "$(rec_of cxxapp)" "$b" 2>&1)"
	same_line "$gen: --cmake gives app's link as CMake ran it (launcher left out)" "$app" \
		"$("$READ" --read cmake "$app" "$b" 2>&1)"
	same_line "$gen: --cmake gives the subdir's meter, from where it ran" "$meter" \
		"$("$READ" --read cmake "$meter" "$b" 2>&1)"
	same_line "$gen: --target meter chooses it whatever the baseline's output" "$meter" \
		"$("$READ" --read cmake "$app" "$b" meter 2>&1)"
	# a change configured, read before it links, then linked for real: the prediction is the line
	sed -i 's/target_link_libraries(app PRIVATE shapes z m)/target_link_libraries(app PRIVATE shapes z m pthread)\ntarget_link_options(app PRIVATE -Wl,--as-needed)/' cm/CMakeLists.txt
	cmake -S cm -B "$b" >cmake.out 2>&1
	predicted=$("$READ" --read cmake "$app" "$b" 2>&1)
	cmake --build "$b" >build.out 2>&1
	same_line "$gen: a reconfigured line read before the link is the one linked" "$(rec_of app)" "$predicted"
	cp cm.orig cm/CMakeLists.txt
	out=$("$READ" --read cmake "$app" "$b" nosuchtarget 2>&1)
	check_contains "$gen: an unknown --target: an error naming the build dir and the targets" "$out" \
		"'$b' has no target 'nosuchtarget' that links (targets that link: "
done
# Ninja Multi-Config: one build-<Config>.ninja per configuration; the baseline's output dir chooses
if command -v ninja >/dev/null; then
	b=$T/b-multi
	cmake -S cm -B "$b" -G "Ninja Multi-Config" "-DCMAKE_C_LINKER_LAUNCHER=$SHIM;--" "-DCMAKE_CXX_LINKER_LAUNCHER=$SHIM;--" >cmake.out 2>&1
	cmake --build "$b" --config Release >build.out 2>&1
	check "Ninja Multi-Config: Release builds through the shim" test -x "$b/Release/app"
	same_line "Ninja Multi-Config: --cmake gives Release/app's link, not Debug's" "$(rec_of app "$b")" \
		"$("$READ" --read cmake "$(rec_of app "$b")" "$b" 2>&1)"
	same_line "Ninja Multi-Config: --target app from Release/libdyn.so's baseline: Release's" "$(rec_of app "$b")" \
		"$("$READ" --read cmake "$(rec_of libdyn.so "$b")" "$b" app 2>&1)"
	"$LINKSCOPE" whatif "$(rec_of app "$b")" --cmake "$b" >multi-same.out 2>&1
	check_eq "Ninja Multi-Config, Release's tree unchanged: whatif predicts 0" 0 "$?"
fi
out=$("$READ" --read cmake "$app" "$T/cm" 2>&1)
check_contains "--cmake on a source dir: not a configured build dir" "$out" "'$T/cm' is not a configured CMake build dir"

# ---- a plain make project: app with a static library, and tools/ by recursion ----
mkdir -p mk/tools
cat >mk/Makefile <<'EOF'
LDLIBS = -lz -lm
all: app
	$(MAKE) -C tools
app: main.o libshapes.a
	$(CC) $(LDFLAGS) -o app main.o libshapes.a $(LDLIBS)
libshapes.a: shapes.o
	$(AR) rcs $@ shapes.o
EOF
cp mk/Makefile mk.orig
cat >mk/tools/Makefile <<'EOF'
tool: tool.o
	$(CC) -o tool tool.o -lm
EOF
cp cm/lib/shapes.c mk/shapes.c
cp cm/app/main.c mk/main.c
cp cm/tools/meter.c mk/tools/tool.c
make -C mk CC="$SHIM -- cc" >make.out 2>&1
check "make: the project builds through the shim (as CC=\"linkscope-cc -- cc\")" test -x mk/app -a -x mk/tools/tool
make -C mk -n -B CC="$SHIM -- cc" >n.txt 2>&1
app=$(rec_of app "$T/mk")
same_line "make: --line gives app's link from make -n -B" "$app" "$("$READ" --read make "$app" n.txt 2>&1)"
same_line "make: and tools/tool's, in its Entering directory" "$(rec_of tool)" \
	"$("$READ" --read make "$(rec_of tool)" n.txt 2>&1)"
# CC=linkscope-cc itself (the shim as the driver): the baseline's real driver
make -C mk -B CC="$SHIM" app >make.out 2>&1
make -C mk -n -B CC="$SHIM" app >n-linker.txt 2>&1
same_line "make: CC=linkscope-cc: the line with the driver the shim ran" "$(rec_of app "$T/mk")" \
	"$("$READ" --read make "$(rec_of app "$T/mk")" n-linker.txt 2>&1)"
printf 'cc -c main.c\ncc -o app main.o $(pkg-config --libs zlib)\n' >n-bad.txt
out=$("$READ" --read make "$app" n-bad.txt 2>&1)
check_contains "make: a line only a shell can read that may be the link: an error naming it" "$out" \
	"'n-bad.txt' line 2 may be the link of 'app' and cannot be read: "

# ---- argv files: the record's argv written out, one a line and as JSON ----
"$PY" - "$app" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
with open('argv.txt', 'w') as f:
    f.write('# the link of app, by hand\ncwd: %s\n' % r['cwd'])
    f.write(''.join(a + '\n' for a in r['argv_expanded']))
json.dump(r['argv_expanded'], open('argv.json', 'w'))
EOF
same_line "argv-file: one argument a line, with its cwd: line" "$app" "$("$READ" --read argv-file "$app" argv.txt 2>&1)"
same_line "argv-file: a JSON array" "$app" "$("$READ" --read argv-file "$app" argv.json 2>&1)"

# ---- what if: a good link as the baseline, an edit, the objects built but not linked, whatif, the real link ----
# try_whatif DESC WORD BASELINE SOURCE_OPTION SOURCE BUILD_COMMAND...: whatif's
# predicted exit status (from its JSON: a reader's error is no prediction)
# is the real link's, and a failure names WORD (the symbol or library).
try_whatif() {
	local desc=$1 word=$2 base=$3 opt=$4 src=$5 predicted real out
	shift 5
	out=whatif-$((n_checks + 1)).json
	"$LINKSCOPE" whatif --format json "$base" "$opt" "$src" >"$out" 2>"$out.err"
	predicted=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["predicted"]["exit_status"])' "$out" 2>/dev/null ||
		echo "no prediction: $(head -c 300 "$out.err")")
	"$@" >"real-$((n_checks + 1)).out" 2>&1
	real=$?
	[ "$real" -ne 0 ] && real=1
	echo "$desc: predicted $predicted, real $real" >>outcomes
	if [ "$predicted" = "$real" ] && { [ -z "$word" ] || grep -q -- "$word" "$out"; }; then
		ok "$desc: whatif's exit status is the real link's ($real)${word:+, for $word}"
	else
		not_ok "$desc: whatif's exit status is the real link's${word:+, for $word}" "want: $real" "got:  $predicted" \
			"$(head -c 600 "$out")"
	fi
}

# The edits, each on the restored tree: a library dropped, a new undefined
# reference in C, a library moved before the objects (under --as-needed),
# a library this system lacks; "none" links.
edit_c() {
	case $1 in
	new-undefined) sed -i 's/^int area(int w, int h);/int area(int w, int h);\nint lk_nowhere(void);/; s/return area(2, 3) == 6/return lk_nowhere() + area(2, 3) == 6/' "$2" ;;
	esac
}
edits=(none drop-lib new-undefined lib-first missing-lib)
# what each edit's failure names
declare -A names=([none]= [drop-lib]=zlibVersion [new-undefined]=lk_nowhere [lib-first]=zlibVersion
	[missing-lib]=lk_not_on_this_system)

for gen in "${gens[@]}"; do
	b=$T/w-${gen// /-}
	cp cm.orig cm/CMakeLists.txt
	cp main.c.orig cm/app/main.c
	cmake -S cm -B "$b" -G "$gen" "-DCMAKE_C_LINKER_LAUNCHER=$SHIM;--" >cmake.out 2>&1
	cmake --build "$b" --target app >build.out 2>&1
	base=$(rec_of app "$b")
	check "$gen: the baseline is a good link of app" test -n "$base" -a -x "$b/app"
	for e in "${edits[@]}"; do
		cp cm.orig cm/CMakeLists.txt
		cp main.c.orig cm/app/main.c
		case $e in
		drop-lib) sed -i 's/shapes z m)/shapes m)/' cm/CMakeLists.txt ;;
		lib-first) sed -i 's/shapes z m)/shapes m)\ntarget_link_options(app PRIVATE -Wl,--as-needed -lz)/' cm/CMakeLists.txt ;;
		missing-lib) sed -i 's/shapes z m)/shapes z m lk_not_on_this_system)/' cm/CMakeLists.txt ;;
		*) edit_c "$e" cm/app/main.c ;;
		esac
		cmake -S cm -B "$b" >cmake.out 2>&1
		# the objects and the library target, not the link
		if [ "$gen" = Ninja ]; then
			ninja -C "$b" shapes CMakeFiles/app.dir/app/main.c.o >objs.out 2>&1
		else
			make -C "$b" shapes app/main.o >objs.out 2>&1
		fi
		try_whatif "$gen, $e" "${names[$e]}" "$base" --cmake "$b" cmake --build "$b" --target app
	done
done
cp cm.orig cm/CMakeLists.txt
cp main.c.orig cm/app/main.c

# make: the same edits on the Makefile and main.c; make -n -B's output read with --line
make -C mk -B CC="$SHIM -- cc" app >make.out 2>&1
mkbase=$(rec_of app "$T/mk")
check "make: the baseline is a good link of app" test -n "$mkbase" -a -x mk/app
for e in "${edits[@]}"; do
	cp mk.orig mk/Makefile
	cp main.c.orig mk/main.c
	case $e in
	drop-lib) sed -i 's/^LDLIBS = -lz -lm/LDLIBS = -lm/' mk/Makefile ;;
	lib-first) sed -i 's/-o app main.o libshapes.a/-o app libshapes.a main.o/' mk/Makefile ;;
	missing-lib) sed -i 's/^LDLIBS = -lz -lm/LDLIBS = -lz -lm -llk_not_on_this_system/' mk/Makefile ;;
	*) edit_c "$e" mk/main.c ;;
	esac
	make -C mk CC="$SHIM -- cc" main.o libshapes.a >objs.out 2>&1
	make -C mk -n -B CC="$SHIM -- cc" app >"n-$e.txt" 2>&1
	word=${names[$e]}
	[ "$e" = lib-first ] && word=area	# here the project's archive moves: its area goes unresolved
	try_whatif "make, $e" "$word" "$mkbase" --line "n-$e.txt" make -C mk CC="$SHIM -- cc" app
done

# argv files: the make project's line written out, without -lz and unchanged; the real link runs that argv
mkdir -p av
for e in none drop-lib; do
	"$PY" - "$mkbase" "$e" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
argv = [a for a in r['argv_expanded'] if not (sys.argv[2] == 'drop-lib' and a == '-lz')]
with open('av/%s.txt' % sys.argv[2], 'w') as f:
    f.write('# app without -lz\ncwd: ../mk\n' + ''.join(a + '\n' for a in argv))
EOF
	try_whatif "argv-file, $e" "${names[$e]}" "$mkbase" --argv-file "av/$e.txt" \
		sh -c 'cd mk && exec "$@"' sh $(tail -n +3 "av/$e.txt")
done

# aarch64 (natively, or the cross gcc): a -nodefaultlibs line whose trailing -lc is dropped
if [ -n "$(arch_tool aarch64 gcc)" ]; then
	mkdir a64
	printf '#include <stdio.h>\nint main(void) { puts("hi"); return 0; }\n' >a64/main.c
	printf 'app: main.o\n\t$(CC) -nodefaultlibs -o app main.o -lgcc -lc\n' >a64/Makefile
	a64cc="$SHIM -- $(arch_tool aarch64 gcc)"
	make -C a64 CC="$a64cc" >a64.out 2>&1
	a64base=$(rec_of app "$T/a64")
	check "aarch64: the baseline is a good link" test -n "$a64base" -a -e a64/app
	make -C a64 -n -B CC="$a64cc" >n-a64-same.txt 2>&1
	try_whatif "aarch64, unchanged" "" "$a64base" --line n-a64-same.txt make -C a64 -B CC="$a64cc"
	sed -i 's/ -lgcc -lc$/ -lgcc/' a64/Makefile
	make -C a64 -n -B CC="$a64cc" >n-a64.txt 2>&1
	try_whatif "aarch64, the trailing -lc dropped" puts "$a64base" --line n-a64.txt make -C a64 -B CC="$a64cc"
else
	ok "# SKIP aarch64: no aarch64-linux-gnu-gcc on this $HOST_ARCH host"
fi

# A rule that compiles and links in one call (giflib's utilities: `cc prog.c libutil.a -o prog`):
# the source's object is the one the baseline's call made (the shim keeps it), and a source
# changed since then is said, not silently read as it was.
mkdir cl
printf 'int helper(void);\nint main(void) { return helper(); }\n' >cl/prog.c
printf 'int helper(void) { return 0; }\n' >cl/util.c
printf 'prog: prog.c libutil.a\n\t$(CC) -O2 prog.c libutil.a -o prog\nlibutil.a: util.o\n\tar rcs $@ util.o\n' >cl/Makefile
make -C cl CC="$SHIM" >cl.out 2>&1
clbase=$(rec_of prog "$T/cl")
check "compile-and-link: the baseline is a good link" test -n "$clbase" -a -e cl/prog
make -C cl -n -B prog CC=cc >n-cl-same.txt 2>&1
try_whatif "compile-and-link, unchanged" "" "$clbase" --line n-cl-same.txt make -C cl -B prog CC=cc
sed -i 's/ prog.c libutil.a -o prog$/ prog.c -o prog/' cl/Makefile
make -C cl -n -B prog CC=cc >n-cl.txt 2>&1
try_whatif "compile-and-link, libutil.a dropped" helper "$clbase" --line n-cl.txt make -C cl -B prog CC=cc
touch -d '+1 minute' cl/prog.c
"$LINKSCOPE" whatif --format json "$clbase" --line n-cl-same.txt >cl-touched.json 2>&1
check_contains "compile-and-link: a source changed since the baseline is said" \
	"$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["cannot_see"])' cl-touched.json)" "'prog.c' changed since the baseline"

finish
