# A text file on the line is read as GNU ld reads it (issue #34: a text
# file that is no valid script was `unknown`). ld 2.40 lexes the whole
# file first in its script state: a character that begins no token there
# ("@", "*", "<<", a byte over 0x7f) is "file not recognized: file format
# not recognized"; '#' begins a comment to the end of the line; a plain
# name at the start of a statement must be assigned ("a=1;" and
# "plugin=1 name=..." are syntax errors). The real ld is the oracle of
# every case, and the replay must say what it says, with the same kind.
. "$(dirname "$0")/lib.sh"

write_main
# case NAME CONTENT(printf format) WANT-KIND: WANT-KIND is the diagnostic kind of a failure, or "success".
case_of() {
	local name=$1 kind=$3 real json
	printf "$2" >libplug.so
	"$SHIM" cc main.o -L. -lplug -o "out-$name" 2>"$T/$name.err"
	real=$?
	json=$("$LINKSCOPE" report --format json --replay-only "$(last_record)")
	got=$("$PY" -c 'import json,sys; r=json.load(sys.stdin); p=r["predicted"]; print(p["outcome"] if p["outcome"] != "failure" else p["outcome"] + " " + " ".join(sorted({d["kind"] for d in r["diagnostics"]})))' <<<"$json")
	if [ "$kind" = success ]; then
		check_eq "$name: ld links, and the replay says so" "0 success" "$real $got"
	else
		check_eq "$name: ld fails, and the replay says $kind" "1 failure $kind" "$real $got"
	fi
}
case_of invalid-at-line-2 'GROUP ( libc.so.6 )\n@@@\n' unrecognized-input
check_contains "the invalid character and its line are named" "$("$LINKSCOPE" explain "$(last_record)")" "with '@' at line 2"
case_of star-in-expression 'x = 1 * 2;\n' unrecognized-input
case_of shift-in-expression 'x = 1 << 2;\n' unrecognized-input
case_of high-byte 'GROUP ( libc.so.6 ) \x80\n' unrecognized-input
case_of at-in-comment 'GROUP ( libc.so.6 ) /* @@@ */\n' success
case_of hash-comment '# generated\nGROUP ( libc.so.6 ) # the C library\n' success
case_of shell-script '#!/bin/sh\necho plugin\n' script-syntax-error
case_of ini-file 'plugin=1\nname="x"\n' script-syntax-error
case_of name-without-space 'a=1;\n' script-syntax-error
case_of json '{ "a": 1,\n  "b": 2 }\n' script-syntax-error
case_of assignment 'x = 1;\nGROUP ( libc.so.6 )\n' success
finish
