# LINKSCOPE_REPRODUCE=1 (issue #32, point 8): lld's and mold's
# reproducers alike land beside the record (RECORD_DIR/ID.repro.tar), none
# in the build dir; the record names it by its absolute path, and `show`
# names it.
. "$(dirname "$0")/lib.sh"

printf 'int f(void);\nint main(void) { return f(); }\n' >m.c
printf 'int f(void) { return 0; }\n' >f.c
gcc -c m.c f.c
for ld in lld mold; do
	mkdir "build-$ld"
	(cd "build-$ld" && LINKSCOPE_REPRODUCE=1 "$SHIM" -- gcc -fuse-ld=$ld ../m.o ../f.o -o app 2>"$T/$ld.err")
	check "$ld: the link succeeds" test -x "build-$ld/app"
	r=$(last_record)
	check_eq "$ld: no reproducer left in the build dir" "" "$(cd "build-$ld" && ls | grep repro)"
	check_eq "$ld: the record names the one beside it, by its absolute path" "${r%.json}.repro.tar" \
		"$(rec "$r" 'r["reproducer"]')"
	check_contains "$ld: it is there, a tar with the response file" "$(tar tf "${r%.json}.repro.tar")" "response.txt"
	check_contains "$ld: show names it" "$("$LINKSCOPE" show "$r")" "repro    ${r%.json}.repro.tar"
	check_eq "$ld: show --json too" "${r%.json}.repro.tar" "$("$LINKSCOPE" show --json "$r" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["reproducer"])')"
done
# A failed link: the reproducer is what one sends upstream.
(LINKSCOPE_REPRODUCE=1 "$SHIM" -- gcc -fuse-ld=mold m.o -o broken 2>/dev/null)
r=$(last_record)
check "mold, a failed link: its reproducer beside the record" test -s "${r%.json}.repro.tar"
check "mold, a failed link: none in the build dir" test ! -e broken.repro.tar
finish
