# Where a reference is (issue #18, point 3, C): each relocation against an
# undefined symbol gets the file and line GNU ld prints for it ("main.c:6:
# undefined reference to `foo'"), read from the object's .debug_line
# (DWARF 2 to 5, x86-64 and AArch64, relocations applied), never from
# ld's stderr. Here, in the test only, ld's own stderr is the oracle: the
# report's lines must be ld's, reference for reference. An object without DWARF gets its section
# and offset (ld's "(.text+0x9)"), and DWARF made garbage gets no line and
# no crash.
. "$(dirname "$0")/lib.sh"

# ld's "FILE:LINE: undefined reference to `SYM'" lines, as "FILE:LINE SYM", in ld's order.
ld_lines() { sed -n "s/^\(\/usr\/bin\/ld: \)\{0,1\}\(.*:[0-9][0-9]*\): undefined reference to \`\(.*\)'$/\2 \3/p" "$1"; }
# The report's, from its text, in the same form.
text_lines() { sed -n "s/^  \(.*:[0-9][0-9]*\): undefined reference to \`\(.*\)'$/\1 \2/p" "$1"; }
# ... and from its JSON: every diagnostic's references with a line.
json_lines() {
	"$PY" -c 'import json,sys
r = json.load(open(sys.argv[1]))
for d in r["diagnostics"]:
    for x in d.get("references", []):
        if x["file"] is not None:
            print("%s:%d %s" % (x["file"], x["line"], x["symbol"]))' "$1"
}

mkdir -p sub inc
cat >inc/util.h <<'C'
extern int foo(int);
static inline int call_foo(int x) { return foo(x) * 2; }
C
cat >sub/main.c <<'C'
#include "util.h"
int bar(void);

int main(void)
{
	return call_foo(1) +
	       bar();
}
C
cat >lib.c <<'C'
int baz(int);
int used_by_main(void);

int helper(int x)
{
	return baz(x) + 1;
}
C
# DWARF 5 from a subdirectory (the file name relative to DW_AT_comp_dir), DWARF 4 for the member.
cc -g -gdwarf-5 -Iinc -c sub/main.c -o main5.o
cc -g -gdwarf-4 -O2 -ffunction-sections -c lib.c -o lib.o
cat >use.c <<'C'
int helper(int);
int bar(void) { return helper(2); }
C
cc -g -gdwarf-4 -c use.c -o use.o
ar rcs libh.a lib.o

for v in 4 5; do
	cc -g -gdwarf-$v -Iinc -c sub/main.c -o main$v.o
	run_capture link$v "$SHIM" main$v.o use.o -L. -lh -o prog$v
	check_eq "DWARF $v: the real linker fails" 1 "$(cat "$T/link$v.rc")"
	r=$(last_record)
	"$LINKSCOPE" explain --replay-only "$r" >"$T/explain$v.txt"
	"$LINKSCOPE" report --format json --replay-only "$r" >"$T/report$v.json"
	ld_lines "$T/link$v.err" | sort >"$T/ld$v"
	check_eq "DWARF $v: ld reports two references" 2 "$(wc -l <"$T/ld$v")"
	check_eq "DWARF $v: the text's lines are ld's" "$(cat "$T/ld$v")" "$(text_lines "$T/explain$v.txt" | sort)"
	check_eq "DWARF $v: the JSON's lines are ld's" "$(sed 's/ .*//' "$T/ld$v")" "$(json_lines "$T/report$v.json" | sed 's/ .*//' | sort)"
	# The reference is in a header's inline function, line 2. DWARF 4 names the header; under DWARF 5
	# GNU ld 2.40 names the unit's primary file with the header's line (bfd starts a sequence at file 0).
	where=$([ $v = 4 ] && echo inc/util.h || echo sub/main.c)
	check_contains "DWARF $v: the inline function's line, as ld says it" "$(cat "$T/explain$v.txt")" \
		"$T/$where:2: undefined reference to \`foo'"
	check_contains "DWARF $v: the declaration the reference was compiled with" "$(cat "$T/explain$v.txt")" \
		"declared at $T/inc/util.h:1 "
	check_contains "DWARF $v: the archive member's line" "$(cat "$T/ld$v")" "$T/lib.c:6 baz"
	check_contains "DWARF $v: the Markdown report has it too" "$("$LINKSCOPE" report --format markdown --replay-only "$r")" \
		"- \`\`$T/lib.c:6: undefined reference to \`baz'\`\`"
done

# AArch64 (R_AARCH64_ABS64 and ABS32 in the debug sections), and DWARF 2 and 3.
aarch64-linux-gnu-gcc -g -Iinc -c sub/main.c -o main-a64.o
aarch64-linux-gnu-gcc -g -gdwarf-4 -O2 -ffunction-sections -c lib.c -o lib-a64.o
aarch64-linux-gnu-gcc -g -c use.c -o use-a64.o
run_capture a64 "$SHIM" -- aarch64-linux-gnu-gcc main-a64.o use-a64.o lib-a64.o -o prog-a64
"$LINKSCOPE" explain --replay-only last >"$T/a64.txt"
check_eq "AArch64: ld reports two references" 2 "$(ld_lines "$T/a64.err" | wc -l)"
check_eq "AArch64: the text's lines are ld's" "$(ld_lines "$T/a64.err" | sort)" "$(text_lines "$T/a64.txt" | sort)"
for v in 2 3; do
	cc -g -gdwarf-$v -Iinc -c sub/main.c -o main$v.o
	run_capture link$v "$SHIM" main$v.o use.o -L. -lh -o prog$v
	"$LINKSCOPE" explain --replay-only last >"$T/explain$v.txt"
	check_eq "DWARF $v: ld reports two references" 2 "$(ld_lines "$T/link$v.err" | wc -l)"
	check_eq "DWARF $v: the text's lines are ld's" "$(ld_lines "$T/link$v.err" | sort)" "$(text_lines "$T/explain$v.txt" | sort)"
done

# No DWARF: the section and offset, as ld prints them.
cc -c -x c - -o nog.o <<'C'
int nowhere(void);
int main(void) { return nowhere(); }
C
run_capture nog "$SHIM" nog.o -o nog
"$LINKSCOPE" report --format json --replay-only last >"$T/nog.json"
ld_off=$(sed -n "s/.*:(\(\.text+0x[0-9a-f]*\)): undefined reference to \`nowhere'$/\1/p" "$T/nog.err")
check_eq "no DWARF: no file, and ld's section and offset" "None $ld_off" \
	"$("$PY" -c 'import json,sys; x=json.load(open(sys.argv[1]))["diagnostics"][0]["references"][0]; print(x["file"], "%s+0x%x" % (x["section"], x["offset"]))' "$T/nog.json")"

# .debug_line and .debug_info made garbage: no line, no crash.
head -c 300 /dev/urandom >junk
objcopy --update-section .debug_line=junk --update-section .debug_info=junk main5.o bad.o
run_capture bad "$SHIM" bad.o use.o -L. -lh -o bad
run_capture badx "$LINKSCOPE" explain --replay-only last
check_eq "garbage DWARF: the analysis runs" 0 "$(cat "$T/badx.rc")"
check_contains "garbage DWARF: the member's line is still read" "$(cat "$T/badx.out")" "$T/lib.c:6: undefined reference to \`baz'"
check_eq "garbage DWARF: the object's references have no line" "" "$(grep -c "main.c:" "$T/badx.out" | grep -v '^0$')"
finish
