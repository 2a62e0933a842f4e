# Names from records and builds in what CI reads (issue #41, point 1):
# every --format github writer (report --failed, whatif) and every
# Markdown writer (report, report --failed, check, whatif) is fed the same
# hostile names: a newline before a workflow command (::stop-commands::,
# ::add-mask::), a CR, '%0A' the runner would decode, '|', backquotes,
# '<' and HTML, a terminal's escapes. Nothing of them starts a command
# of its own, breaks a line or reaches a terminal as it is.
. "$(dirname "$0")/lib.sh"

REAL=$LK_BUILD/bin/linkscope
bad=$'app\n::stop-commands::x\r\n::add-mask::y%0A::error::z|`<b>x</b>\e]0;t\a\e[31m'
printf 'int foo(void);\nint main(void) { return foo(); }\n' >main.c
printf 'int main(void) { return 0; }\n' >ok.c
cc -c main.c -o main.o && cc -c ok.c -o ok.o
run_capture fail "$SHIM" main.o -o "$bad"
check_eq "a failing link whose output is the hostile name is recorded" 1 "$(cat "$T/fail.rc")"
failed=$(last_record)
"$SHIM" ok.o -o good >/dev/null 2>&1
good=$(last_record)
"$PY" -c 'import json,sys; json.dump(["cc", "ok.o", sys.argv[1] + ".o", "-o", sys.argv[1]], open("argv.json", "w"))' "$bad"
"$PY" -c 'import json,sys; json.dump(["cc", "ok.o", "-o", sys.argv[1]], open("argv-ok.json", "w"))' "$bad"

# github: each line one workflow command, none of the hostile ones.
github() {
	local name=$1
	shift
	"$REAL" "$@" --format github >"$T/$name.gh" 2>/dev/null
	check "$name: some output" test -s "$T/$name.gh"
	check_eq "$name: every line is one of our annotations" "" \
		"$(grep -av '^::\(error\|warning\|notice\) [^:]*title=linkscope' "$T/$name.gh")"
	check_eq "$name: no CR, no escape byte, no %0A the runner would decode" "" \
		"$(grep -a $'\r\\|\e\\|\a\\|%0A::' "$T/$name.gh" | grep -av '%250A')"
}
# markdown: no line of it a command, no raw HTML, no escape byte.
markdown() {
	local name=$1
	shift
	"$REAL" "$@" --format markdown >"$T/$name.md" 2>/dev/null
	check "$name: some output" test -s "$T/$name.md"
	check_eq "$name: no line starts a workflow command" "" "$(grep -a '^::' "$T/$name.md")"
	check_eq "$name: no raw HTML from the name" "" "$(grep -a '<b>' "$T/$name.md" | grep -av '`[^`]*<b>')"
	check_eq "$name: no CR or escape byte" "" "$(grep -a $'\r\\|\e\\|\a' "$T/$name.md")"
}
github "report --failed" report --failed
github "whatif (fails)" whatif "$good" --argv-file argv.json
github "whatif (links)" whatif "$good" --argv-file argv-ok.json
markdown "report" report "$failed"
markdown "report --failed" report --failed
markdown "check" check "$failed"
markdown "whatif" whatif "$good" --argv-file argv.json
finish
