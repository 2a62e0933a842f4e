# The linker the driver really runs, as the driver finds it, identified by
# the program's own --version (issue #33 point 2): mold's documented
# -B/usr/libexec/mold holds an `ld` that is mold, and such links were
# recorded as GNU ld's, so `check` failed links that had succeeded. Each
# class is linked for real: -B DIR, COMPILER_PATH, -fuse-ld=, --ld-path=
# (clang), the default; the record names the program and its flavor, and
# `check` judges the link by the linker that made it.
# passes: plain elsewhere san (the linker the driver found on the link's PATH, not the
# analyzer's)
. "$(dirname "$0")/lib.sh"

cat >main.c <<'C'
int foo(void);
int main(void) { return foo(); }
C
cat >good.c <<'C'
int foo(void) { return 0; }
C
cc -c main.c good.c && ar rcs libgood.a good.o
# -lgood before main.o: GNU ld leaves foo undefined; lld and mold (lazy archives) link.
check_eq "GNU ld fails the archive-first line" 1 "$(cc -L. -lgood main.o -o p 2>/dev/null; echo $?)"

moldb=/usr/libexec/mold
if [ ! -x "$moldb/ld" ]; then
	moldb=$T/moldb
	mkdir "$moldb" && ln -s "$(command -v mold)" "$moldb/ld"
fi
mkdir lldb && ln -s "$(command -v ld.lld)" lldb/ld

linker_of() { rec "$(last_record)" 'r["linker"]["flavor"] + " " + str(r["linker"]["program"]) + " " + str(r["linker"]["program_source"])'; }

# case NAME WANT-FLAVOR WANT-PROGRAM WANT-SOURCE [ENV=V...] -- DRIVER-ARGS...: link through the shim
# (its status must be 0), the record's linker, and check's verdict under it.
case_of() {
	local name=$1 flavor=$2 program=$3 source=$4 envs=()
	shift 4
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	check_eq "$name: the link succeeds" 0 "$(env "${envs[@]}" "$SHIM" "$@" -o "p-$name" 2>/dev/null; echo $?)"
	check_eq "$name: the record's linker" "$flavor $program $source" "$(linker_of)"
	run_capture "check-$name" "$LINKSCOPE" check last
	check_eq "$name: check passes the link that succeeded" 0 "$(cat "$T/check-$name.rc")"
	check_contains "$name: under its own linker's rules" "$(cat "$T/check-$name.out")" "(its linker: $flavor)"
}

case_of B-mold mold "$moldb/ld" "-B dir" -- -B"$moldb" -L. -lgood main.o
check_contains "B-mold: the program's version line" "$(rec "$(last_record)" 'r["linker"]["version"]')" "mold "
check_eq "B-mold: identified by the program" "--version" "$(rec "$(last_record)" 'r["linker"]["identified_by"]')"
check "B-mold: the record is valid against the schema" validate "$(last_record)"
case_of B-lld lld "$T/lldb/ld" "-B dir" -- -B"$T/lldb/" -L. -lgood main.o
case_of COMPILER_PATH mold "$moldb/ld" "-print-prog-name" COMPILER_PATH="$moldb" -- -L. -lgood main.o
# GCC_EXEC_PREFIX: gcc's own dirs under another prefix (its files linked there), whose ld is mold.
gccdir=$(dirname "$(cc -print-libgcc-file-name)")
gep=$T/gep/$(cc -dumpmachine)/$(cc -dumpversion)
mkdir -p "$gep" && ln -s "$gccdir"/* "$gep"/ && ln -sf "$(command -v mold)" "$gep/ld"
case_of GCC_EXEC_PREFIX mold "$gep/ld" "-print-prog-name" GCC_EXEC_PREFIX="$T/gep/" -- -L. -lgood main.o
case_of fuse-lld lld "$(command -v ld.lld)" "PATH" -- -fuse-ld=lld -L. -lgood main.o
case_of default bfd "$(command -v ld)" "PATH" -- -L. main.o -lgood
check_contains "default: GNU ld's version line" "$(rec "$(last_record)" 'r["linker"]["version"]')" "GNU ld"
if command -v clang >/dev/null; then
	case_of clang-ld-path mold "$moldb/ld" "-fuse-ld path" LINKSCOPE_LINKER=clang -- --ld-path="$moldb/ld" -L. -lgood main.o
	case_of clang-B lld "$T/lldb/ld" "-B dir" LINKSCOPE_LINKER=clang -- -B"$T/lldb" -L. -lgood main.o
else
	ok "# SKIP clang is not installed"
fi

# A record of the shim before (no linker.version, flavor "default" for the -B dir's ld):
# the analyzer tells mold by the path's real name on this machine, never running it.
"$SHIM" -B"$moldb" -L. -lgood main.o -o p-old
"$PY" - "$(last_record)" "$LINKSCOPE_DIR/old.json" <<'P'
import json, sys
r = json.load(open(sys.argv[1]))
for k in ("version", "identified_by"):
    del r["linker"][k]
r["linker"]["flavor"] = "default"
json.dump(r, open(sys.argv[2], "w"))
P
chmod 600 "$LINKSCOPE_DIR/old.json"
run_capture old "$LINKSCOPE" check "$LINKSCOPE_DIR/old.json"
check_eq "an old record of a -B mold link: check passes" 0 "$(cat "$T/old.rc")"
check_contains "under mold's rules" "$(cat "$T/old.out")" "(its linker: mold)"
check_contains "and show says why" "$("$LINKSCOPE" show "$LINKSCOPE_DIR/old.json")" "on this machine it is mold"
rm "$LINKSCOPE_DIR/old.json"

# The identity is cached in the record dir: the program is asked once, not per link.
mkdir wrap
cat >wrap/ld <<EOF
#!/bin/sh
[ "\$1" = --version ] && echo asked >>"$T/asked"
exec "$(command -v mold)" "\$@"
EOF
chmod +x wrap/ld
for i in 1 2 3; do "$SHIM" -Bwrap/ -L. -lgood main.o -o "pw$i"; done
check_eq "a wrapper that runs mold is mold" "mold" "$(rec "$(last_record)" 'r["linker"]["flavor"]')"
check_eq "three links ask its --version once" 1 "$(wc -l <"$T/asked")"
touch wrap/ld
"$SHIM" -Bwrap/ -L. -lgood main.o -o pw4
check_eq "a program changed since is asked again" 2 "$(wc -l <"$T/asked")"

# A program whose --version names none of the linkers: the flavor stays the one the line asks for.
mkdir odd
cat >odd/ld <<EOF
#!/bin/sh
[ "\$1" = --version ] && { echo "some wrapper 1.0"; exit 0; }
exec "$(command -v ld)" "\$@"
EOF
chmod +x odd/ld
"$SHIM" -Bodd/ -L. main.o -lgood -o po
check_eq "an unknown program: the flavor asked for, its version kept" "default some wrapper 1.0 None" \
	"$(rec "$(last_record)" 'r["linker"]["flavor"] + " " + r["linker"]["version"] + " " + str(r["linker"]["identified_by"])')"

# A --version that hangs (killed at the shim's 5 s): no answer is cached as the answers are,
# so the next link does not wait for it again. Counted by the fake's own marker, not by the clock.
mkdir hang
cat >hang/ld <<EOF
#!/bin/sh
if [ "\$1" = --version ]; then echo asked >>"$T/hang-asked"; exec sleep 30; fi
exec "$(command -v ld)" "\$@"
EOF
chmod +x hang/ld
for i in 1 2; do
	check_eq "a hanging --version, link $i: links" 0 "$("$SHIM" -Bhang/ -L. main.o -lgood -o "ph$i"; echo $?)"
done
check_eq "its --version is asked once over two links" 1 "$(wc -l <"$T/hang-asked")"
check_eq "and the record names no version" None "$(rec "$(last_record)" 'str(r["linker"]["version"])')"

# Only the linker the link ran is asked, after it ran (issue #41 point 6). A fake ld that
# notes every run of it: a compile that fails, or a driver that rejects its line, runs no linker.
mkdir fake
cat >fake/ld <<EOF
#!/bin/sh
echo "\$*" >>"$T/fake-ran"
exec "$(command -v ld)" "\$@"
EOF
chmod +x fake/ld
printf 'int main(void) { return undeclared; }\n' >broken.c
check_eq "a failed compile: the driver's status" "$(cc -Bfake/ broken.c -o pb 2>/dev/null; echo $?)" \
	"$("$SHIM" -Bfake/ broken.c -o pb 2>/dev/null; echo $?)"
check_eq "a failed compile runs no linker program" absent "$(test -e fake-ran && cat fake-ran || echo absent)"
check_eq "a rejected line: the driver's status" "$(cc -Bfake/ --no-such-option main.o -o pb 2>/dev/null; echo $?)" \
	"$("$SHIM" -Bfake/ --no-such-option main.o -o pb 2>/dev/null; echo $?)"
check_eq "a rejected line runs no linker program" absent "$(test -e fake-ran && cat fake-ran || echo absent)"
check_eq "a link that fails in the linker: fails" 1 "$("$SHIM" -Bfake/ main.o -o pb 2>/dev/null; echo $?)"
check_eq "the linker ran, then its --version was asked" "link --version" \
	"$(awk '{print ($1 == "--version" ? "--version" : "link")}' fake-ran | tr '\n' ' ' | sed 's/ $//')"
check_contains "and identified" "$(rec "$(last_record)" 'r["linker"]["version"]')" "GNU ld"
# A relative GCC_EXEC_PREFIX: collect2 runs the ld under it from the link's cwd; the record names that one.
check_eq "GCC_EXEC_PREFIX=gep/ (relative): links" 0 \
	"$(GCC_EXEC_PREFIX=gep/ "$SHIM" -L. -lgood main.o -o p-rel 2>/dev/null; echo $?)"
check_eq "the record's linker is the one under it" "mold gep/$(cc -dumpmachine)/$(cc -dumpversion)/ld -print-prog-name" "$(linker_of)"
finish
