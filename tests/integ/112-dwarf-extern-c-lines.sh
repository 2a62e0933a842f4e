# The line to change (issue #18, point 3, C and C++): a C++ call to a C
# function declared without extern "C" names, besides ld's own line of
# the reference (the oracle here, in the test only: ld's stderr), the C
# definition's line (its declarator's, DW_AT_decl_line of its DIE, through
# DW_AT_specification for C++; the oracle: the line the test wrote it on)
# and the header line the C++ code was compiled with
# (DW_AT_decl_file/decl_line), which is where extern "C" goes; that edit,
# made there and rebuilt, links with the real linker. The reverse (a C
# call to a C++ definition) names the C caller's declaration; a static
# definition names itself. DWARF 4 and 5, a declaration inside a namespace.
. "$(dirname "$0")/lib.sh"

ld_lines() { sed -n "s/^\(\/usr\/bin\/ld: \)\{0,1\}\(.*:[0-9][0-9]*\): undefined reference to \`\(.*\)'$/\2 \3/p" "$1"; }
text_lines() { sed -n "s/^  \(.*:[0-9][0-9]*\): undefined reference to \`\(.*\)'$/\1 \2/p" "$1"; }
# "kind file:line fix_at" of the diagnostics' near misses, and the diagnostics' declared_at.
near() {
	"$PY" -c 'import json,sys
r = json.load(open(sys.argv[1]))
for d in r["diagnostics"]:
    for n in d["near_misses"]:
        fa = n["fix_at"]
        print(n["kind"], "%s:%s" % (n["file"], n["line"]), "%s:%s" % (fa["file"], fa["line"]) if fa else None)' "$1" | sort -u
}
declared() {
	"$PY" -c 'import json,sys
r = json.load(open(sys.argv[1]))
print(" ".join("%s:%d" % (d["declared_at"]["file"], d["declared_at"]["line"]) for d in r["diagnostics"] if d.get("declared_at")))' "$1"
}
# FILE:LINE of the first line of FILE that holds TEXT: where the test wrote a declarator.
line_of() { echo "$T/$1:$(grep -n -F -m1 "$2" "$1" | cut -d: -f1)"; }

cat >foo.h <<'C'
/* The C library's header: no extern "C" for C++ callers. */
int foo(int x);
C
cat >foo.c <<'C'
#include "foo.h"

int foo(int x)
{
	return x + 1;
}
C
cat >use.cpp <<'C'
#include "foo.h"

int main()
{
	return foo(3) - 4;
}
C
cc -g -gdwarf-4 -c foo.c -o foo.o
ar rcs libfoo.a foo.o
want_def=$(line_of foo.c 'int foo(int x)')
check_eq "the test's own line of foo's declarator" "$T/foo.c:3" "$want_def"

for v in 4 5; do
	g++ -g -gdwarf-$v -c use.cpp -o use$v.o
	run_capture cxx$v "$SHIM" use$v.o -L. -lfoo -o prog$v
	check_eq "C++ caller, DWARF $v: the real linker fails" 1 "$(cat "$T/cxx$v.rc")"
	r=$(last_record)
	"$LINKSCOPE" explain --replay-only "$r" >"$T/cxx$v.txt"
	"$LINKSCOPE" report --format json --replay-only "$r" >"$T/cxx$v.json"
	check_eq "C++ caller, DWARF $v: the reference's line is ld's" "$(ld_lines "$T/cxx$v.err")" "$(text_lines "$T/cxx$v.txt")"
	check_eq "C++ caller, DWARF $v: extern-c, the C definition's line, the header's line to change" \
		"extern-c $want_def $T/foo.h:2" "$(near "$T/cxx$v.json" | grep "^extern-c $T/foo.c" | head -1)"
	check_contains "C++ caller, DWARF $v: the text says the line to change" "$(cat "$T/cxx$v.txt")" \
		"  - $T/foo.h:2: the line to change: declare foo extern \"C\""
done

# The edit made where it says, rebuilt: the real linker links.
sed -i '2s/.*/#ifdef __cplusplus\nextern "C"\n#endif\nint foo(int x);/' foo.h
g++ -g -c use.cpp -o use.o
check "the extern \"C\" edit at foo.h:2, rebuilt, links with the real linker" cc use.o -L. -lfoo -o prog

# The reverse: a C call to a C++ definition; the C caller's declaration is the line to change.
cat >bar.h <<'C'
int helper(void);
int bar(int x);
C
cat >bar.cpp <<'C'
#include "bar.h"
int bar(int x) { return x * 2; }
C
cat >main.c <<'C'
#include "bar.h"
int main(void)
{
	return bar(2) - 4;
}
C
g++ -g -c bar.cpp -o bar.o
cc -g -gdwarf-5 -c main.c -o main.o
run_capture rev "$SHIM" main.o bar.o -o rev
"$LINKSCOPE" explain --replay-only last >"$T/rev.txt"
"$LINKSCOPE" report --format json --replay-only last >"$T/rev.json"
check_eq "C caller: the reference's line is ld's" "$(ld_lines "$T/rev.err")" "$(text_lines "$T/rev.txt")"
check_eq "C caller: extern-c, the C++ definition's line, the C caller's declaration" \
	"extern-c $(line_of bar.cpp 'int bar(int x)') $T/bar.h:2" "$(near "$T/rev.json" | grep '^extern-c')"

# A static definition: its line is the one to change.
cat >st.c <<'C'
int st_user(void);

static int st_fn(int x)
{
	return x - 1;
}
int st_user(void) { return st_fn(1); }
C
printf 'int st_fn(int);\nint st_user(void);\nint main(void) { return st_fn(1) + st_user(); }\n' >stm.c
cc -g -c st.c -o st.o
cc -g -c stm.c -o stm.o
run_capture st "$SHIM" stm.o st.o -o st
"$LINKSCOPE" report --format json --replay-only last >"$T/st.json"
check_eq "static definition: local, its line, and the line to change" "local $(line_of st.c 'static int st_fn') $(line_of st.c 'static int st_fn')" \
	"$(near "$T/st.json" | grep '^local')"

# A declaration inside a namespace, defined nowhere: where the caller declared it.
cat >ns.h <<'C'
namespace util {
int twice(int);

int half(int);
}
C
printf '#include "ns.h"\nint main() { return util::half(4); }\n' >ns.cpp
g++ -g -c ns.cpp -o ns.o
run_capture ns "$SHIM" ns.o -o ns
"$LINKSCOPE" report --format json --replay-only last >"$T/ns.json"
check_eq "namespace: the declaration's line" "$T/ns.h:4" "$(declared "$T/ns.json")"
check_eq "namespace: the reference's line is ld's" "$(ld_lines "$T/ns.err" | sed 's/ .*//')" \
	"$("$PY" -c 'import json,sys; print(*["%s:%d" % (x["file"], x["line"]) for d in json.load(open(sys.argv[1]))["diagnostics"] for x in d["references"]])' "$T/ns.json")"
finish
