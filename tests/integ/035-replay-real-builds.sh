# What real builds do to a record after the link (issue #9): paths relative
# to the link's directory, inputs deleted or rewritten afterwards, sources
# compiled by the link call. The real ld decides each link; the replay must
# never say "fails" for a link that succeeded: it says "unknown", and why,
# when it cannot know. tests/run.sh runs this again from another directory
# in another environment (LK_ELSEWHERE).
. "$(dirname "$0")/lib.sh"

j() { "$PY" -c 'import json,sys; r=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }
# outcome RECORD: the replay's predicted outcome, the analysis run from /.
outcome() { (cd / && "$LINKSCOPE" report --replay-only --format json "$1") | j 'r["predicted"]["outcome"]'; }

mkdir -p sub
printf 'int a_value(void) { return 42; }\n' >a.c
printf 'int a_value(void);\nint b_value(void) { return a_value() + 1; }\n' >b.c
printf 'int b_value(void);\nint main(void) { return b_value() == 43 ? 0 : 1; }\n' >main.c
gcc -fPIC -shared -o sub/liba.so a.c
gcc -fPIC -shared -o sub/libb.so b.c -Lsub -la
gcc -c main.c -o main.o

# 1. A relative -rpath-link: ld finds libb.so's DT_NEEDED liba.so in sub/ of its own cwd.
run_capture rl "$SHIM" main.o -Lsub -lb -Wl,-rpath-link,sub -o prog1
check_eq "relative -rpath-link: the real ld links" 0 "$(cat "$T/rl.rc")"
r1=$(last_record)
check_eq "relative -rpath-link: success, analysed from /" "success" "$(outcome "$r1")"
cp sub/liba.so sub/libb.so .
run_capture rldot "$SHIM" main.o -L. -lb -Wl,-rpath-link,. -o prog2
check_eq "-rpath-link .: the real ld links" 0 "$(cat "$T/rldot.rc")"
check_eq "-rpath-link .: success, analysed from /" "success" "$(outcome "$(last_record)")"
rm liba.so libb.so
# Without the -rpath-link, ld cannot find liba.so: the same verdict from anywhere.
run_capture norl "$SHIM" main.o -Lsub -lb -o prog3
check_eq "no -rpath-link: the real ld fails" 1 "$(cat "$T/norl.rc")"
report=$( (cd / && "$LINKSCOPE" report --replay-only --format json last) )
check_eq "no -rpath-link: failure, analysed from /" "failure" "$(j 'r["predicted"]["outcome"]' <<<"$report")"
check_eq "no -rpath-link: a_value is undefined" "['undefined-symbol:a_value']" \
	"$(j '[d["kind"] + ":" + d["symbol"] for d in r["diagnostics"]]' <<<"$report")"

# 2. A probe's object deleted after the link: kept (small-object), so replayable.
printf 'int main(void) { return 0; }\n' >probe.c
gcc -c probe.c -o probe.o
run_capture probe "$SHIM" probe.o -o probe
rp=$(last_record)
check_eq "probe: its small object was kept" "small-object" "$(rec "$rp" '[k["reason"] for k in r["kept"]][0]')"
rm probe.o
check_eq "probe deleted: success, from the kept copy" "success" "$(outcome "$rp")"
# Rewritten after the link instead (no main now, an old mtime): the copy is what ld read.
printf 'int not_main(void) { return 0; }\n' >probe.c
gcc -c probe.c -o probe.o
touch -d '2000-01-01' probe.o
check_eq "probe rewritten: success, from the kept copy" "success" "$(outcome "$rp")"
printf 'int main(void) { return 0; }\n' >probe.c
rm probe.o

# 3. The same without copies: unknown, naming the absolute path, never "fails".
gcc -c probe.c -o probe.o
LINKSCOPE_KEEP=0 "$SHIM" probe.o -o probe
rp=$(last_record)
rm probe.o
report=$( (cd / && "$LINKSCOPE" report --replay-only --format json "$rp") )
check_eq "gone, not kept: unknown" "unknown" "$(j 'r["predicted"]["outcome"]' <<<"$report")"
check_contains "gone, not kept: the reason names the absolute path" \
	"$(j 'r["predicted"]["unknown_because"]' <<<"$report")" "'$T/probe.o' cannot be read now"
check_eq "gone, not kept: no fix is offered" "0" "$(j 'sum(len(d["fixes"]) for d in r["diagnostics"])' <<<"$report")"
text=$( (cd / && "$LINKSCOPE" explain --replay-only "$rp") )
check_contains "explain says unknown too" "$text" "the outcome is unknown"

# 4. An input missing when ld ran: the record proves it, so "fails" stands.
run_capture gone "$SHIM" nothere.o -o never
check_eq "missing at link time: the real ld fails" 1 "$(cat "$T/gone.rc")"
check_eq "missing at link time: failure" "failure" "$(outcome "$(last_record)")"

# 4b. A -l that ld's own search cannot find (-Bstatic, only a .so there): proven, "fails" stands.
run_capture bstatic "$SHIM" main.o -Lsub -Wl,-Bstatic -lb -Wl,-Bdynamic -o never
check_eq "-Bstatic -lb with only libb.so: the real ld fails" 1 "$(cat "$T/bstatic.rc")"
check_eq "-Bstatic -lb with only libb.so: failure" "failure" "$(outcome "$(last_record)")"
# A -l whose library was there when ld ran and is gone now: unknown.
mkdir -p gone
cp sub/liba.so gone/
printf 'int a_value(void);\nint main(void) { return a_value() - 42; }\n' >usea.c
gcc -c usea.c
"$SHIM" usea.o -Lgone -la -o usea
rg=$(last_record)
rm -r gone
check_eq "a -l gone since the link: unknown" "unknown" "$(outcome "$rg")"

# A DT_NEEDED library deleted after a link that succeeded: ld's search for
# it leaves no fingerprint, so unknown, never "fails"; not found by a link
# that failed, the failure stands.
mkdir -p dep
cp sub/liba.so sub/libb.so dep/
run_capture dep "$SHIM" main.o -Ldep -lb -Wl,-rpath-link,dep -o prog3
check_eq "a DT_NEEDED library through -rpath-link: the real ld links" 0 "$(cat "$T/dep.rc")"
rn=$(last_record)
rm dep/liba.so
report=$( (cd / && "$LINKSCOPE" report --replay-only --format json "$rn") )
check_eq "a DT_NEEDED library gone since the link: unknown" "unknown" "$(j 'r["predicted"]["outcome"]' <<<"$report")"
check_contains "and it says which" "$(j 'r["predicted"]["unknown_because"]' <<<"$report")" "'liba.so', needed by"
run_capture nodep "$SHIM" main.o -Ldep -lb -o never
check_eq "a DT_NEEDED library ld cannot find: the real ld fails" 1 "$(cat "$T/nodep.rc")"
check_eq "a DT_NEEDED library ld cannot find: failure" "failure" "$(outcome "$(last_record)")"

# 5. An archive rewritten after the link: the replay would read another file.
printf 'int util(void) { return 0; }\n' >util.c
printf 'int util(void);\nint main(void) { return util(); }\n' >use.c
gcc -c util.c use.c
ar rcs libutil.a util.o
"$SHIM" use.o -L. -lutil -o use
ru=$(last_record)
printf 'int other(void) { return 0; }\n' >util.c
gcc -c util.c
rm libutil.a
ar rcs libutil.a util.o
touch -d '2000-01-01' libutil.a
report=$( (cd / && "$LINKSCOPE" report --replay-only --format json "$ru") )
check_eq "archive rewritten since the link: unknown" "unknown" "$(j 'r["predicted"]["outcome"]' <<<"$report")"
check_contains "archive rewritten: said so" "$(j 'r["predicted"]["unknown_because"]' <<<"$report")" "has changed since the link"

# 6. A link call that also compiles: the source's main counts.
printf 'int helper(void) { return 0; }\n' >helper.c
printf 'int helper(void);\nint main(void) { return helper(); }\n' >prog.c
gcc -c helper.c
ar rcs libhelper.a helper.o
run_capture cl "$SHIM" -O2 prog.c libhelper.a -lm -o prog
check_eq "compile-and-link: the real ld links" 0 "$(cat "$T/cl.rc")"
rc=$(last_record)
o=$(outcome "$rc")
check_eq "compile-and-link: success" "success" "$o"
check_eq "compile-and-link: the driver's own object caught and kept" "source-object" \
	"$(rec "$rc" '[k["reason"] for k in r["kept"] if k["path"] == "prog.c"][-1]')"
check_eq "compile-and-link: its private TMPDIR is gone" "" "$(find "$TMPDIR" -maxdepth 1 -name 'lk-objs-*')"
# The source gone: the object kept at link time still gives main, nothing is compiled.
mv prog.c prog.c.away
text=$( (cd / && "$LINKSCOPE" show "$rc") )
check_contains "compile-and-link, source gone: read from the object kept at link time" "$text" \
	"the object the driver compiled from 'prog.c' at link time, kept with the record"
check_eq "compile-and-link, source gone: still success" "success" "$(outcome "$rc")"
# A record without that object (an older shim's), named by a relative path
# from its own directory: the source is compiled again from the kept copy
# (or, where the analyzer compiles nothing, the outcome is unknown); the
# blobs are found from the link's cwd too. Never "fails".
"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); r["kept"]=[k for k in r["kept"] if k["reason"]!="source-object"]; json.dump(r,open(sys.argv[2],"w"))' \
	"$rc" "$LINKSCOPE_DIR/older.json"
o=$(cd "$LINKSCOPE_DIR" && "$LINKSCOPE" report --replay-only --format json older.json | j 'r["predicted"]["outcome"]')
case $o in success | unknown) ok "older record by a relative path: no false failure ($o)" ;;
*) not_ok "older record by a relative path: no false failure" "got: $o" ;; esac
rm "$LINKSCOPE_DIR/older.json"
mv prog.c.away prog.c
# Same outputs with and without the shim: only the temporary names moved.
gcc -O2 prog.c libhelper.a -lm -o prog.plain
check "compile-and-link: the same executable as without the shim" cmp -s prog prog.plain
# Its source gone and not kept: unknown, naming the source.
LINKSCOPE_KEEP=0 "$SHIM" -O2 prog.c libhelper.a -lm -o prog
rc=$(last_record)
mv prog.c prog.c.away
report=$( (cd / && "$LINKSCOPE" report --replay-only --format json "$rc") )
mv prog.c.away prog.c
check_eq "compile-and-link, source gone: unknown" "unknown" "$(j 'r["predicted"]["outcome"]' <<<"$report")"
check_contains "compile-and-link, source gone: names the source" \
	"$(j 'r["predicted"]["unknown_because"]' <<<"$report")" "compiled from 'prog.c'"
finish
