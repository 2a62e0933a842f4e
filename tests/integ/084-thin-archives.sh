# Thin archives (issue #17, point 4): `ar rcT` archives, whose members are
# files named relative to the archive's dir, are read as ld reads them: a
# link that uses one replays as the real ld links it, nested dirs, a
# normal archive inside a thin one ("/N:ORIGIN") and a meson build's
# static_library too; a member gone since is an unknown outcome.
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always

# rep EXPR: a Python expression over the JSON report `r` of the last record.
rep() { "$LINKSCOPE" report --format json --replay-only last | "$PY" -c 'import json,sys; r=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }
# same WHAT ARGS...: the real link's outcome through the shim, and the prediction's.
same() {
	local what=$1 want
	shift
	"$SHIM" "$@" >/dev/null 2>&1
	want=$([ $? -eq 0 ] && echo success || echo failure)
	check_eq "$what: ld's outcome is $want, so is the prediction" "$want" "$(rep 'r["predicted"]["outcome"]')"
}

mkdir -p sub/deep
echo 'int g(void) { return 2; }' >sub/deep/g.c
echo 'int f(void) { return 1; }' >sub/f.c
echo 'int f(void); int g(void); int main(void) { return f() + g() - 3; }' >main.c
cc -c sub/deep/g.c -o sub/deep/g.o && cc -c sub/f.c -o sub/f.o && cc -c main.c
(cd sub && ar rcT libinner.a deep/g.o f.o)
same "a thin archive, its members in dirs below it" cc main.o sub/libinner.a -o p1
check "... and the program runs" ./p1
same "a thin archive found by -l" cc main.o -Lsub -linner -o p2
# A thin archive of a thin archive: ar flattens it, the names now relative to the outer one.
ar rcT libouter.a sub/libinner.a
same "a thin archive made of a thin archive" cc main.o libouter.a -o p3
# A normal archive inside a thin one: the member is "/N:ORIGIN", the normal archive's member at ORIGIN.
(cd sub && ar rc libfg.a f.o deep/g.o)
ar rcT libnest.a sub/libfg.a
same "a normal archive inside a thin one" cc main.o libnest.a -o p4
# What the members do not define still fails, as with ld.
echo 'int f(void) { return 1; }' >f_only.c && cc -c f_only.c && ar rcT libfonly.a f_only.o
same "a thin archive that lacks a definition" cc main.o libfonly.a -o p5
check_contains "... the missing symbol named" "$(rep '[d["symbol"] for d in r["diagnostics"]]')" "'g'"

# A member removed since the link: not a prediction, whatever the replay finds.
same "before its member goes" cc main.o sub/libinner.a -o p6
mv sub/f.o sub/f.o.away
check_eq "a thin archive's member gone since the link: outcome unknown" "unknown" "$(rep 'r["predicted"]["outcome"]')"
check_contains "... naming the member" "$(rep 'r["predicted"]["unknown_because"]')" "f.o"
mv sub/f.o.away sub/f.o

# A -fno-pic member of a thin archive in a -shared link: the relocation
# error, as for the same member of a regular archive (issue #34's
# regression: the thin member's relocations went unread). The real three
# linkers are the oracles.
echo 'int counter; int bump(void) { return ++counter; }' >g.c
echo 'int bump(void); int api(void) { return bump(); }' >s.c
cc -c -fno-pic g.c -o g.o && cc -c -fPIC s.c -o s.o
ar rcsT libnopic-thin.a g.o && ar rcs libnopic.a g.o
for kind in nopic nopic-thin; do
	for ld in bfd lld mold; do
		"$SHIM" -- cc -fuse-ld=$ld -shared s.o -L. -l$kind -o lib$kind-$ld.so 2>/dev/null
		real=$?
		verdict=$("$LINKSCOPE" report --format json --replay-only "$(last_record)" |
			"$PY" -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["linkers"][sys.argv[1]])' $ld)
		check_eq "$kind archive, -shared, $ld: the real link fails and the replay says so" "1 failure" "$real $verdict"
	done
done
check_contains "the thin member's relocation is the cause" \
	"$("$LINKSCOPE" explain "$(last_record)" 2>&1)" "relocation-not-allowed: counter"

# A meson build: its static_library is a thin archive (meson's default on Linux).
mkdir -p proj && cd proj
cat >meson.build <<'M'
project('thin', 'c')
lib = static_library('util', 'util.c', 'more/more.c')
executable('app', 'app.c', link_with: lib)
M
mkdir -p more
echo 'int util(void) { return 40; }' >util.c
echo 'int more(void) { return 2; }' >more/more.c
echo 'int util(void); int more(void); int main(void) { return util() + more() - 42; }' >app.c
if CC=$SHIM meson setup build >/dev/null 2>&1 && ninja -C build >/dev/null 2>&1; then
	check_eq "meson's static_library is a thin archive" '!<thin>' "$(head -c 7 build/libutil.a)"
	check "meson's app links and runs" ./build/app
	check_eq "the meson link replays as a success" "success" "$(rep 'r["predicted"]["outcome"]')"
	check_eq "... with nothing the replay did not read" "[]" "$(rep '[n for n in r["notes"] if "not replayed" in n]')"
else
	not_ok "meson builds the project" "$(cat build/meson-logs/meson-log.txt 2>/dev/null | tail -5)"
fi
cd "$T"
finish
