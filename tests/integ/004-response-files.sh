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
finish
