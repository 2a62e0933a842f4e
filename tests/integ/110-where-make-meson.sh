# Where a make or meson user makes the fix (issue #18, point 3): the
# Makefile variable that carries the word (a -l in LDFLAGS comes before the
# objects: move it to LDLIBS), or the meson target and its dependencies:.
# Each fix is applied as the report says and the real make / ninja links.
. "$(dirname "$0")/lib.sh"

field() {
	"$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); d=r["diagnostics"]; v=eval(sys.argv[2]); print(v)' "$1" "$2"
}
where='[f["where"] for x in d for f in x["fixes"] if f.get("where")][0]'

# apply_move MAKEFILE JSON: the word leaves the variable at the where's line, the where's text is added.
apply_move() {
	local mk=$1 json=$2 line word text
	line=$(field "$json" "$where['line']")
	word=$(field "$json" "$where['text'].split(' += ')[1]")
	text=$(field "$json" "$where['text']")
	sed -i "${line}s/ $word//" "$mk"
	printf '%s\n' "$text" >>"$mk"
}

# --- -lz in LDFLAGS under --as-needed: make's built-in rule puts it before the objects ---
mkdir zl && cd zl || exit 1
cat >prog.c <<'EOF'
#include <zlib.h>
int main(void) { return zlibVersion()[0] == 0; }
EOF
cat >Makefile <<'EOF'
CFLAGS = -O2
LDFLAGS = -Wl,--as-needed -lz
prog: prog.o
EOF
make CC="$SHIM" >"$T/make.out" 2>&1
check "LDFLAGS -lz: make's link fails" grep -q "undefined reference to .zlibVersion" "$T/make.out"
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "LDFLAGS -lz: the Makefile's LDFLAGS (line 2) to LDLIBS" \
	"make $T/zl/Makefile 2 LDLIBS LDFLAGS LDLIBS += -lz" \
	"$(field "$json" "' '.join(map(str, [$where[k] for k in ('system', 'file', 'line', 'variable', 'moves_from', 'text')]))")"
check_contains "LDFLAGS -lz: the sentence says why" "$("$LINKSCOPE" explain last-failed)" \
	"where: in $T/zl/Makefile, line 2: -lz is in LDFLAGS, which the link rule puts before the objects, where nothing needs it yet; move it to LDLIBS"
apply_move Makefile "$json"
make CC="$SHIM" >"$T/make.out" 2>&1
check_eq "LDFLAGS -lz: moved to LDLIBS, make links" 0 "$?"
check "LDFLAGS -lz: and the program runs" ./prog
cd "$T" || exit 1

# --- a static library in LDFLAGS: read before the objects, nothing pulled ---
mkdir st && cd st || exit 1
echo 'int area(int w, int h) { return w * h; }' >shapes.c
cc -c shapes.c -o shapes.o && ar rcs libshapes.a shapes.o && rm shapes.o
printf 'int area(int, int);\nint main(void) { return area(2, 3) - 6; }\n' >main.c
cat >Makefile <<'EOF'
LDFLAGS = -L. -lshapes
LDLIBS = -lm
main: main.o
EOF
make CC="$SHIM" >"$T/make.out" 2>&1
check "LDFLAGS -lshapes: make's link fails" grep -q "undefined reference to .area" "$T/make.out"
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "LDFLAGS -lshapes: the user's word, moved from LDFLAGS to LDLIBS" "1 LDFLAGS LDLIBS += -lshapes" \
	"$(field "$json" "' '.join(map(str, [$where[k] for k in ('line', 'moves_from', 'text')]))")"
apply_move Makefile "$json"
make CC="$SHIM" >"$T/make.out" 2>&1
check_eq "LDFLAGS -lshapes: moved, make links" 0 "$?"
cd "$T" || exit 1

# --- a library the Makefile lacks, with a rule that uses LIBS ---
mkdir lb && cd lb || exit 1
printf '#include <math.h>\nint main(int c, char **v) { (void)v; return (int)cos(c * 1.5) > 2; }\n' >m.c
printf 'LIBS =\nmeter: m.o\n\t$(CC) $(LDFLAGS) -o $@ m.o $(LIBS)\n' >Makefile
make CC="$SHIM" >"$T/make.out" 2>&1
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "LIBS: the Makefile's own variable for libraries" "LIBS LIBS += -lm" \
	"$(field "$json" "$where['variable'] + ' ' + $where['text']")"
printf '%s\n' "$(field "$json" "$where['text']")" >>Makefile
make CC="$SHIM" >"$T/make.out" 2>&1
check_eq "LIBS: with the line added, make links" 0 "$?"
cd "$T" || exit 1

# --- the rule's own words choose the variable (issue #34), whatever else
# the Makefile defines or another rule reads; each applied, make links ---
# own_case NAME MAKEFILE WANT-VARIABLE: the where's variable and text, then the line written after it (or at the end).
own_case() {
	cd "$T" && rm -rf "oc-$1" && mkdir "oc-$1" && cd "oc-$1" || exit 1
	printf '#include <zlib.h>\nint main(void) { return zlibVersion()[0] == 0; }\n' >prog.c
	printf '%b' "$2" >Makefile
	make CC="$SHIM" >"$T/oc.out" 2>&1
	check "$1: make's link fails" grep -q "undefined reference to .zlibVersion" "$T/oc.out"
	json=$("$LINKSCOPE" report --format json last-failed)
	check_eq "$1: the variable the link rule reads" "$3 $3 += -lz" "$(field "$json" "$where['variable'] + ' ' + $where['text']")"
	line=$(field "$json" "$where['line']")
	if [ "$line" != None ]; then
		sed -i "${line}a $(field "$json" "$where['text']")" Makefile
	else
		printf '%s\n' "$(field "$json" "$where['text']")" >>Makefile
	fi
	make CC="$SHIM" >"$T/oc.out" 2>&1
	check_eq "$1: with the line written, make links" 0 "$?"
	check "$1: and the program runs" ./prog
	cd "$T" || exit 1
}
own_case "LDLIBS defined, the rule reads EXTRA" \
	'LDLIBS = -lm\nOBJS = prog.o\nEXTRA =\nprog: $(OBJS)\n\t$(CC) -o $@ $(OBJS) $(EXTRA)\nother: other.o\n' EXTRA
own_case "built-in rule, another rule reads LIBS" \
	'LIBS = -lm\nprog: prog.o\nother: other.o\n\t$(CC) -o $@ $^ $(LIBS)\n' LDLIBS
own_case "target from a variable, the recipe continued" \
	'BIN = prog\n$(BIN): prog.o\n\t$(CC) -o $@ $^ \\\n\t\t$(TOOL_LIBS) -lm\n' TOOL_LIBS
own_case "a pattern rule" \
	'%: %.o\n\t$(CC) $(LDFLAGS) -o $@ $< $(PLIBS)\nprog: prog.o\n' PLIBS

# --- meson: the target's dependencies: ---
mkdir -p ms/src && cd ms || exit 1
cat >src/meson.build <<'EOF'
project('mz', 'c')
executable('app', 'main.c')
EOF
printf '#include <zlib.h>\nint main(void) { return zlibVersion()[0] == 0; }\n' >src/main.c
CC=$SHIM meson setup b src >"$T/meson.out" 2>&1
ninja -C b >"$T/ninja.out" 2>&1
check "meson: the link fails" grep -q "undefined reference to .zlibVersion" "$T/ninja.out"
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "meson: the target app of src/meson.build, line 2" "meson app $T/ms/src/meson.build 2" \
	"$(field "$json" "' '.join(map(str, [$where[k] for k in ('system', 'target', 'file', 'line')]))")"
check_eq "meson: its dependencies:" "dependencies: [meson.get_compiler('c').find_library('z')]" "$(field "$json" "$where['text']")"
sed -i "2s/'main.c')/'main.c', $(field "$json" "$where['text']"))/" src/meson.build
ninja -C b >"$T/ninja.out" 2>&1
check_eq "meson: with the keyword given, ninja links" 0 "$?"
check "meson: and the program runs" b/app
cd "$T" || exit 1

# --- a Makefile that does not build this output: no where ---
mkdir other && cd other || exit 1
printf 'all:\n\techo nothing\n' >Makefile
printf 'int area(int, int);\nint main(void) { return area(1, 1); }\n' >u.c
cc -c u.c -o u.o
"$SHIM" u.o -o unrelated 2>/dev/null
case $("$LINKSCOPE" report --format json last) in
*'"where": {'*) not_ok "a Makefile that does not name the output: no where" ;;
*) ok "a Makefile that does not name the output: no where" ;;
esac
# --- a rule of its own whose recipe never says $(LDLIBS) (issue #34): the
# variable its recipe names after the objects, or the recipe line itself ---
cd "$T" && mkdir own && cd own || exit 1
printf '#include <zlib.h>\nint main(void) { return zlibVersion()[0] == 0; }\n' >prog.c
printf 'MYLIBS = -lm\nprog: prog.o\n\t$(CC) $(LDFLAGS) -o $@ $^ $(MYLIBS)\n' >Makefile
make CC="$SHIM" >"$T/own.out" 2>&1
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "own rule: MYLIBS, the variable its recipe names after the objects" "MYLIBS MYLIBS += -lz 1" \
	"$(field "$json" "' '.join(map(str, [$where[k] for k in ('variable', 'text', 'line')]))")"
printf 'MYLIBS = -lm\nMYLIBS += -lz\nprog: prog.o\n\t$(CC) $(LDFLAGS) -o $@ $^ $(MYLIBS)\n' >Makefile
check "own rule: the fix applied, make links" make CC=cc
rm -f prog prog.o
printf 'prog: prog.o\n\t$(CC) -o $@ $^\n' >Makefile
make CC="$SHIM" >"$T/own2.out" 2>&1
json=$("$LINKSCOPE" report --format json last-failed)
check_eq "own rule naming no variable: the recipe line, -lz at its end" "2 True" \
	"$(field "$json" "' '.join(map(str, [$where['line'], $where['text'].endswith('-lz')]))")"
printf 'prog: prog.o\n\t$(CC) -o $@ $^ -lz\n' >Makefile
check "own rule naming no variable: the fix applied, make links" make CC=cc
finish
