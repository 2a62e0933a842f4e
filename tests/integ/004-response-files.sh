# Response files as GCC reads them: quoting, escapes, nesting, a missing
# file kept literally. The shim's link behaves exactly as cc's; the record
# holds the expanded line and where each argument came from.
. "$(dirname "$0")/lib.sh"

write_main
mkdir "dir with space"
printf 'int helper(void) { return 7; }\n' >h.c
cc -c h.c -o "dir with space/h.o"
printf 'int helper(void);\nint use(void) { return helper(); }\n' >u.c
cc -c u.c -o u.o
# rustc's escaping (backslash before the space), a nested file, a quoted -o.
printf 'main.o @inner.rsp\n"-o" '\''out put'\''\n' >outer.rsp
printf 'u.o dir\\ with\\ space/h.o\n' >inner.rsp

run_capture direct cc @outer.rsp
mv "out put" direct.bin
run_capture shim "$SHIM" @outer.rsp
same_run "link through nested response files" direct shim
check "the output exists where the quoted -o said" test -x "out put"

r=$(last_record)
check "record validates" validate "$r"
check_eq "record: argv keeps the @file" "['/usr/bin/cc', '@outer.rsp']" "$(rec "$r" 'r["argv"]')"
check_eq "record: expanded argv" "['/usr/bin/cc', 'main.o', 'u.o', 'dir with space/h.o', '-o', 'out put']" \
	"$(rec "$r" 'r["argv_expanded"]')"
check_eq "record: origins (argv index, response file)" "[(0, None), (1, 0), (1, 1), (1, 1), (1, 0), (1, 0)]" \
	"$(rec "$r" '[(o["argv_index"], o["response_file"]) for o in r["arg_origins"]]')"
check_eq "record: the nested file's parent" "[None, 0]" "$(rec "$r" '[f["parent"] for f in r["response_files"]]')"
check_eq "record: both response files kept" "2" \
	"$(rec "$r" 'len([k for k in r["kept"] if k["reason"] == "response-file"])')"
check_eq "record: output from the response file" "out put" "$(rec "$r" 'r["line"]["output"]')"

run_capture direct cc main.o @missing.rsp -o x
run_capture shim "$SHIM" main.o @missing.rsp -o x
same_run "a missing response file (kept literally, as gcc does)" direct shim
r=$(last_record)
check_eq "record: the missing file is marked" "missing" "$(rec "$r" 'r["response_files"][0]["status"]')"
check_eq "record: and kept literally" "@missing.rsp" "$(rec "$r" 'r["argv_expanded"][2]')"

# gcc hands ld the user's -L options and inputs through temporary response
# files of its own when the driver had one; they are gone by the replay
# (analyzer/model/atfile.c fills them in from the driver's argv).
replay() {
	"$LINKSCOPE" report --format json --replay-only last |
		"$PY" -c 'import json,sys; r=json.load(sys.stdin); print(r["predicted"]["outcome"], sorted(d["symbol"] for d in r["diagnostics"]))'
}
mkdir lib
ar rcs lib/libuse.a u.o
printf 'int use(void);\nint main(void) { return use(); }\n' >prog.c
cc -c prog.c -o prog.o
printf 'prog.o -Llib -luse "dir with space/h.o"\n' >libs.rsp
"$SHIM" @libs.rsp -o viarsp >/dev/null 2>&1
check_eq "through a response file: -L and inputs in gcc's own gone files, the replay links" \
	"success []" "$(replay)"
printf 'prog.o -Llib -luse\n' >nohelper.rsp
"$SHIM" @nohelper.rsp -o viarsp >/dev/null 2>&1
check_eq "and fails where ld fails, on the symbol it names" "failure ['helper']" "$(replay)"
printf 'prog.c -Llib -luse "dir with space/h.o"\n' >compile.rsp
"$SHIM" -O2 @compile.rsp -o viarsp >/dev/null 2>&1
check_eq "a source in the response file: its object counts" "success []" "$(replay)"
check_eq "the shim's -### had the response files expanded: no gcc temporary file in it" "0" \
	"$(rec "$(last_record)" 'sum(w.startswith("@") for w in r["expansion"]["commands"][r["expansion"]["linker_command"]])')"
# An older record whose expansion names gcc's own temporary response files
# (now gone): filled in from the driver's argv (analyzer/model/atfile.c); a
# failure then rests on what the driver added inside them: unknown.
older() {
	"$PY" - "$(last_record)" "$1" <<'PYEOF'
import json, shlex, subprocess, sys
path, rsp = sys.argv[1], sys.argv[2]
r = json.load(open(path))
out = subprocess.run(["cc", "-###", "@" + rsp, "-o", "viarsp"], capture_output=True, text=True).stderr
words = shlex.split([x for x in out.splitlines() if x.startswith(" /")][-1])
r["expansion"]["commands"][r["expansion"]["linker_command"]] = words
json.dump(r, open(path, "w"))
print(sum(w.startswith("@/") for w in words))
PYEOF
}
"$SHIM" @libs.rsp -o viarsp >/dev/null 2>&1
check_eq "older record: the expansion names gcc's two temporary files" "2" "$(older libs.rsp)"
check_eq "older record: filled in from the driver's argv, the replay links" "success []" "$(replay)"
"$SHIM" @nohelper.rsp -o viarsp >/dev/null 2>&1
older nohelper.rsp >/dev/null
check_eq "older record that fails: unknown, the driver's words in the files are not known" "unknown True" \
	"$("$LINKSCOPE" report --format json --replay-only last | "$PY" -c 'import json,sys; r=json.load(sys.stdin)["predicted"]; print(r["outcome"], "temporary response files" in " ".join(r["unknown_because"]))')"
finish
