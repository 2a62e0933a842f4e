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
	local want=$1 name=$2 ld
	shift 2
	for ld in bfd lld mold; do linked "$name" "$ld" "$@"; done
	check_eq "$name: the real linkers (bfd lld mold)" "$want" "$(word "$name-bfd") $(word "$name-lld") $(word "$name-mold")"
	read -r b l m <<<"$want"
	read_answers "$name"
	for ld in bfd lld mold; do
		check_eq "$name: the replay of the $ld line, one verdict per linker" "bfd=$b lld=$l mold=$m" "${replay_of[$ld]}"
		check_eq "$name: the $ld line's own linker agrees with its replay" "True" "${agrees_of[$ld]}"
	done
}

# read_answers NAME: each linker's record of NAME ($T/NAME-LD.json) reported twice, by its replay
# alone and whole. Into replay_of[LD], what the replay of LD's line says of each linker (as
# verdicts prints it); into agrees_of[LD], whether LD's own verdict agrees with its replay
# ("True"). One Python reads the six reports, not one a report: a table suite has dozens of cases.
declare -A replay_of=() agrees_of=()
read_answers() {
	local name=$1 ld i=0 answers
	for ld in bfd lld mold; do
		"$LINKSCOPE" report --format json --replay-only "$T/$name-$ld.json" >"$T/$name-$ld.replay.out"
		"$LINKSCOPE" report --format json "$T/$name-$ld.json" >"$T/$name-$ld.report.out"
	done
	mapfile -t answers < <("$PY" -c '
import json, sys
def field(path, get):
    try:
        with open(path) as f:
            return get(json.load(f))
    except (OSError, ValueError, KeyError, TypeError) as e:
        return "unreadable %s: %r" % (path, e)
for ld in ("bfd", "lld", "mold"):
    print(field("%s-%s.replay.out" % (sys.argv[1], ld),
                lambda r: " ".join(k + "=" + r["predicted"]["linkers"][k] for k in ("bfd", "lld", "mold"))))
    print(field("%s-%s.report.out" % (sys.argv[1], ld), lambda r: r["linker"]["agrees_with_replay"]))
' "$T/$name")
	for ld in bfd lld mold; do
		replay_of[$ld]=${answers[i]:-} agrees_of[$ld]=${answers[i + 1]:-}
		i=$((i + 2))
	done
}
