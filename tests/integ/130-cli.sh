# The command line behaves like its peers (issue #32, points 5 and 6):
# help for every command from one table, which linkscope(1) and the bash
# completion are checked against; one-line usage errors with "did you
# mean"; RECORD as an id, a prefix or stdin; --format on every command;
# check over several records and known --accept kinds only; colour on a
# terminal only; JSON outputs valid against docs/*.schema.json; one version.
. "$(dirname "$0")/lib.sh"

REAL=$LK_BUILD/bin/linkscope	# the analyzer itself, for what the JSON wrapper need not see
MAN=$ROOT/man/linkscope.1

# --- Real links: a success, a failure (libfoo.a before its user), the fixed one.
write_main
printf 'int foo(void);\nint main(void) { return foo(); }\n' >bad.c
printf 'int foo(void) { return 0; }\n' >foo.c
cc -c bad.c -o bad.o && cc -c foo.c -o foo.o && ar rcs libfoo.a foo.o
"$SHIM" main.o -o hello
"$SHIM" -L. -lfoo bad.o -o broken 2>/dev/null
"$SHIM" bad.o -L. -lfoo -o fixed
check_eq "three records" 3 "$(record_count)"
ids=$("$REAL" list | sed 's#.*/##; s/\.json$//')
id_ok=$(sed -n 3p <<<"$ids") id_bad=$(sed -n 2p <<<"$ids") id_fixed=$(sed -n 1p <<<"$ids")

# --- One table: help, CMD --help, -h; the man page and the completion against it.
table=$("$REAL" help --table)
check_eq "help --table: exit 0" 0 $?
cmds=$(sed -n '/^formats /!s/ .*//p' <<<"$table")
check_eq "every command is in the table" "list show explain report why diff prune index check whatif bundle help" "$(xargs <<<"$cmds")"
overview=$("$REAL" help)
for c in $cmds; do
	check_contains "help lists '$c'" "$overview" "  $c "
	h1=$("$REAL" help "$c"); r1=$?
	h2=$("$REAL" "$c" --help); r2=$?
	h3=$("$REAL" "$c" -h); r3=$?
	check_eq "help $c, $c --help and $c -h: exit 0" "0 0 0" "$r1 $r2 $r3"
	check "help $c = $c --help = $c -h" test "$h1" = "$h2" -a "$h2" = "$h3"
	check_contains "help $c: its synopsis" "$h1" "usage: linkscope $c"
	for o in $(grep "^$c " <<<"$table" | cut -d' ' -f2-); do
		check_contains "help $c names $o" "$h1" "$o"
	done
done

# The man page's SYNOPSIS blocks of a command (from ".B linkscope CMD" to
# the next ".br"), roff escapes and fonts removed.
man_synopsis() {
	awk -v cmd="$1" '/^\.SH DESCRIPTION/ { exit } $0 ~ "^\\.B linkscope " cmd "( |$)" { on = 1 }
		on { print } on && /^\.br/ { on = 0 }' "$MAN" | sed 's/\\-/-/g; s/\\f[BIRP]//g; s/^\.[A-Z]* //'
}
for c in $cmds; do
	syn=$(man_synopsis "$c")
	check "man: a SYNOPSIS for '$c'" test -n "$syn"
	for o in $(grep "^$c " <<<"$table" | cut -d' ' -f2-); do
		case $o in --help | -h) continue ;; esac	# one line for all: "linkscope command --help | -h"
		check "man: '$c' lists $o" grep -qE -- "(^|[^a-z-])$o([^a-z-]|$)" <<<"$syn"
	done
	for f in $(sed -n "s/^formats $c //p" <<<"$table"); do
		if grep -q -- "--format" <<<"$(grep "^$c " <<<"$table")"; then
			check "man: '$c' lists --format $f" grep -qw -- "$f" <<<"$syn"
		fi
	done
done
check_contains "man: help for any command" "$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$MAN")" $'.BR --help | -h'
check "man: no words run together after a .BR" test -z "$(grep -nE '^\.BR [^ ]+ [^ ]*\)\. [A-Z]' "$MAN")"
if command -v man >/dev/null; then
	check "man: the rendered page runs no words together" \
		test -z "$(MANWIDTH=200 man -l "$MAN" 2>/dev/null | grep -E '\)\.[A-Z][a-z]+[a-z]{3,}[a-z]')"
fi

# The completion asks the analyzer for the table: complete a few words with it.
complete_words() {
	PATH=$LK_BUILD/bin:$PATH bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _linkscope; echo "${COMPREPLY[*]}"' \
		_ "$ROOT/completion/linkscope.bash" "$@"
}
check_eq "completion: a command" "list" "$(complete_words linkscope li)"
check_eq "completion: an option" "--accept --accept-file" "$(complete_words linkscope check --acc)"
check_eq "completion: a format" "text json markdown" "$(complete_words linkscope explain --format '')"
check_contains "completion: a record id" "$(complete_words linkscope show "${id_bad:0:20}")" "$id_bad"
# -o all: install what LK_BUILD holds, build nothing
make -s -C "$ROOT" -o all install BUILD="$LK_BUILD" DESTDIR="$T/inst" PREFIX=/usr >/dev/null 2>&1
check "make install puts the completion where bash-completion looks" \
	cmp -s "$ROOT/completion/linkscope.bash" "$T/inst/usr/share/bash-completion/completions/linkscope"

# --- One version: Makefile, --version, the man pages, the schemas, report-format.md.
ver=$(sed -n 's/^VERSION := //p' "$ROOT/Makefile")
check_eq "--version is the Makefile's VERSION" "linkscope $ver" "$("$REAL" --version)"
for m in "$ROOT"/man/*.1; do
	check_contains "$(basename "$m"): the version" "$(head -n 1 "$m")" "\"linkscope $ver\""
done
for s in "$ROOT"/docs/*.schema.json; do
	case $s in */record.schema.json) continue ;; esac
	check_eq "$(basename "$s"): the version" "$ver" "$(rec "$s" 'r["x-linkscope-version"]')"
	check_contains "$(basename "$s"): its \$id names it" "$(rec "$s" 'r["$id"]')" "linkscope:$ver:"
done
check_contains "report-format.md: the version" "$(head -n 5 "$ROOT/docs/report-format.md")" "(linkscope ${ver%.*})"
check "man: the report schema the output names" grep -q 'linkscope\\-report/2' "$MAN"

# --- Usage errors: one line, exit 2, "did you mean".
usage_err() { # DESC WANT ARGS...: exit 2 and exactly one line containing WANT
	local desc=$1 want=$2
	shift 2
	run_capture ue "$REAL" "$@"
	check_eq "$desc: exit 2" 2 "$(cat "$T/ue.rc")"
	check_eq "$desc: one line" 1 "$(wc -l <"$T/ue.err")"
	check_contains "$desc: says why" "$(cat "$T/ue.err")" "$want"
}
usage_err "a mistyped command" "unknown command 'lsit'; did you mean 'list'?" lsit
usage_err "no command near it" "unknown command 'frobnicate'; see 'linkscope help'" frobnicate
usage_err "help of a mistyped command" "unknown command 'explian'; did you mean 'explain'?" help explian
usage_err "a mistyped option" "unknown option '--jsno' for 'show'; did you mean '--json'?" show --jsno last
usage_err "another command's option" "unknown option '--failed' for 'explain'" explain --failed last
usage_err "two records to explain" "'explain' takes RECORD: 'last-failed' is one argument too many" explain last last-failed
usage_err "a format the command cannot give" "'why' gives --format text, not 'json'" why --format json last foo
usage_err "github without --failed" "--format github goes with 'report --failed'" report --format github last
usage_err "an unknown --accept kind" "unknown KIND; the kinds are incidental-dso, fails-with-gnu-ld" check --accept bogus:foo last
usage_err "--accept with no symbol" "no SYMBOL after KIND:" check --accept group-rescan: last
printf 'bogus-kind:foo\n' >accept.txt
usage_err "an unknown kind in --accept-file" "unknown KIND" check --accept-file accept.txt last
usage_err "stdin twice" "'-' (a record on stdin) can be given once" diff - -
usage_err "a flag with a value" "'--full' takes no value" show --full=yes last

# --- RECORD: a path, last, an id as list prints it, a unique prefix, stdin.
want=$("$REAL" show --json "$LINKSCOPE_DIR/$id_bad.json" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["record"])')
for r in "$id_bad" "$id_bad.json" "${id_bad%-*}" last-failed; do
	got=$("$LINKSCOPE" show --json "$r" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["record"])')
	check_eq "RECORD '$r' is the failed link's record" "$want" "$got"
done
common=$("$PY" -c 'import os,sys; print(os.path.commonprefix(sys.argv[1:]))' $ids)
run_capture amb "$REAL" show "$common"
check_eq "an ambiguous prefix: exit 1" 1 "$(cat "$T/amb.rc")"
check_contains "an ambiguous prefix: the candidates" "$(cat "$T/amb.err")" "is ambiguous in '$LINKSCOPE_DIR': "
check_contains "... every one" "$(cat "$T/amb.err")" "$id_ok"
run_capture none "$REAL" show nosuchrecord
check_eq "no such id: one line naming it" "linkscope: no record 'nosuchrecord': no such file, and no record id in '$LINKSCOPE_DIR' starts with it" "$(cat "$T/none.err")"
out_file=$("$REAL" explain "$LINKSCOPE_DIR/$id_bad.json" | sed 1d)
out_stdin=$("$REAL" explain - <"$LINKSCOPE_DIR/$id_bad.json" | sed 1d)
check_eq "RECORD '-': the same analysis from stdin" "$out_file" "$out_stdin"
check_contains "RECORD '-': named so" "$("$REAL" explain - <"$LINKSCOPE_DIR/$id_bad.json" | head -n 1)" "replay of -: the link fails"
check_eq "RECORD '-': its temporary copy is gone" "" "$(ls "$TMPDIR" | grep linkscope-stdin)"
# One rule names the temp dir (lk_temp_dir, as lk_scratch_dir): TMPDIR when absolute, else /tmp.
run_capture reltmp env TMPDIR=no-such-relative-dir "$REAL" explain - <"$LINKSCOPE_DIR/$id_bad.json"
check_eq "RECORD '-' under a relative TMPDIR: read through /tmp, as the scratch dirs are" 0 "$(cat "$T/reltmp.rc")"
check_eq "the same analysis" "$out_stdin" "$(sed 1d "$T/reltmp.out")"
run_capture empty "$REAL" show - </dev/null
check_eq "RECORD '-' empty: one line" "linkscope: cannot read a record from stdin: it is empty" "$(cat "$T/empty.err")"

# --- --format on every command; --json the same as --format json.
check_eq "show --json = show --format json" "$("$REAL" show --json last)" "$("$REAL" show --format json last)"
check_eq "explain --format json = report --format json" "$("$REAL" report --format=json last)" "$("$REAL" explain --format json last)"
check_contains "explain --format markdown" "$("$LINKSCOPE" explain --format markdown last-failed)" "#"
check_contains "report defaults to text" "$("$LINKSCOPE" report last-failed | head -n 1)" "replay of "
lj=$("$LINKSCOPE" list --format json)
check_eq "list --format json: the records, newest first" "$(xargs <<<"$ids")" \
	"$("$PY" -c 'import json,sys; print(" ".join(r["id"] for r in json.loads(sys.argv[1])["records"]))' "$lj")"

# --- why: "did you mean" for a symbol no input mentions.
check_contains "why: the nearest symbol" "$("$LINKSCOPE" why last-failed fooo)" "did you mean foo?"
check "why: none for a symbol far from every one" test -z "$("$LINKSCOPE" why last-failed zzzzzzzzqq | grep 'did you mean')"

# --- check over several records: 1 when any fails; JSON an array.
"$LINKSCOPE" check "$id_ok" "$id_fixed" >"$T/c2.out"
check_eq "check of two good links: exit 0" 0 $?
check_eq "check of two good links: two verdicts" 2 "$(grep -c '^result: ok' "$T/c2.out")"
"$LINKSCOPE" check "$id_ok" "$id_bad" "$id_fixed" >"$T/c3.out"
check_eq "check with a failed link among them: exit 1" 1 $?
check_eq "check: one verdict each, in order" "ok fails ok" "$(sed -n 's/^result: \([a-z-]*\).*/\1/p' "$T/c3.out" | xargs)"
"$LINKSCOPE" check --json "$id_ok" "$id_bad" >"$T/c.json"
check_eq "check --json of two: an array of verdicts" "0 1" \
	"$("$PY" -c 'import json,sys; print(" ".join(str(v["exit_status"]) for v in json.load(open(sys.argv[1]))))' "$T/c.json")"
check_eq "check --accept KIND:* of a known kind is taken" 0 "$("$REAL" check --accept 'incidental-dso:*' "$id_ok" >/dev/null; echo $?)"

# --- Each command's JSON, on the real links, against its schema (and the validator can fail).
mkdir -p js
for id in "$id_ok" "$id_bad"; do
	"$REAL" report --format json "$id" >"js/report-$id.json"
	"$REAL" explain --json "$id" >"js/explain-$id.json"
	"$REAL" show --json "$id" >"js/show-$id.json"
	"$REAL" check --json "$id" >"js/check-$id.json"
done
"$REAL" check --json "$id_ok" "$id_bad" "$id_fixed" >js/check-three.json
"$REAL" diff --json "$id_bad" "$id_fixed" >js/diff.json
"$REAL" report --failed --format json >js/failed.json
"$REAL" list --json >js/list.json
check "every command's JSON output is valid against its schema" "$PY" "$ROOT/tests/validate-json.py" "$ROOT/docs" js/*.json
check_eq "each schema was used" "check diff list report show summary" \
	"$(cat js/*.json | "$PY" -c 'import json,sys
d=json.JSONDecoder(); t=sys.stdin.read(); i=0; s=set()
while i < len(t):
    while i < len(t) and t[i].isspace(): i += 1
    if i >= len(t): break
    v, i = d.raw_decode(t, i); v = v[0] if isinstance(v, list) else v
    s.add(v["schema"].split("/")[0].split("-")[1])
print(" ".join(sorted(s)))')"
"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); r["predicted"]["outcome"]="maybe"; json.dump(r,open("js-bad.json","w"))' "js/report-$id_bad.json"
check "the validator refuses a report whose outcome is not one of the schema's" \
	test "$("$PY" "$ROOT/tests/validate-json.py" "$ROOT/docs" js-bad.json)" = "js-bad.json: report.schema.json: predicted/outcome: 'maybe' is not one of ['success', 'failure', 'unknown']"

# --- Colour: on a terminal (script(1)), not with NO_COLOR, not in a pipe.
if command -v script >/dev/null; then
	for c in "list" "show last" "explain $id_bad" "report $id_bad" "check $id_bad" "why $id_bad fooo" "diff $id_bad $id_fixed"; do
		check "colour on a terminal: $c" grep -q $'\e\\[' <<<"$(script -qec "$REAL $c" /dev/null)"
		check "no colour with NO_COLOR: $c" test -z "$(NO_COLOR=1 script -qec "$REAL $c" /dev/null | grep $'\e\\[')"
		check "no colour in a pipe: $c" test -z "$("$REAL" $c | grep $'\e\\[')"
	done
else
	ok "# SKIP no script(1): no terminal for the colour checks"
fi
# The man page's EXIT STATUS gives every command's statuses (issue #43 point 7: whatif's 1 and 3 were missing).
exits=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$MAN" | tr '\n' ' ')
check_contains "man EXIT STATUS: whatif's 1" "$exits" "1 when it is predicted to fail"
check_contains "man EXIT STATUS: whatif's 3" "$exits" "3 when it cannot tell"
finish
