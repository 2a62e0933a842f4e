# Helpers of the tests that link one line with the real GNU ld, lld and
# mold (096, 100, 150), sourced after lib.sh; LK_CC names the driver (cc).

# linked NAME LINKER WORDS...: the real linker's status through the shim; the record stays as $T/NAME-LINKER.
linked() {
	local name=$1 ld=$2
	shift 2
	"$SHIM" -- "${LK_CC:-cc}" -fuse-ld="$ld" "$@" -o "out-$name-$ld" 2>/dev/null
	echo $? >"$T/$name-$ld.rc"
	cp "$(last_record)" "$T/$name-$ld.json"
}
verdicts() { "$LINKSCOPE" report --format json --replay-only "$1" | "$PY" -c 'import json,sys; p=json.load(sys.stdin)["predicted"]["linkers"]; print(" ".join(k + "=" + p[k] for k in ("bfd", "lld", "mold")))'; }
word() { [ "$(cat "$T/$1.rc")" = 0 ] && echo success || echo failure; }

# foo_and_user: foo.o defines foo, usefoo.o's main calls it (151, 152, 155's lines are made of them).
foo_and_user() {
	printf 'int foo(void) { return 0; }\n' >foo.c
	printf 'int foo(void);\nint main(void) { return foo(); }\n' >usefoo.c
	cc -c foo.c usefoo.c
}

# case_of WANT NAME WORDS...: WANT is the real outcome of bfd, lld, mold ("success failure failure").
case_of() {
	local want=$1 name=$2
	shift 2
	for ld in bfd lld mold; do linked "$name" "$ld" "$@"; done
	check_eq "$name: the real linkers (bfd lld mold)" "$want" "$(word "$name-bfd") $(word "$name-lld") $(word "$name-mold")"
	read -r b l m <<<"$want"
	for ld in bfd lld mold; do
		check_eq "$name: the replay of the $ld line, one verdict per linker" "bfd=$b lld=$l mold=$m" "$(verdicts "$T/$name-$ld.json")"
		check_eq "$name: the $ld line's own linker agrees with its replay" "True" \
			"$("$LINKSCOPE" report --format json "$T/$name-$ld.json" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["linker"]["agrees_with_replay"])')"
	done
}
