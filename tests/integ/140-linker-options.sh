# Every option each linker takes, from the linkers themselves (issue #33
# points 1 and 5): an option a linker does not know, or a value it does
# not take, is that linker's failure in its own words, with a "did you
# mean"; "-Wl,-opt,VALUE" reads VALUE as the option's, not as an input
# (a file of that name exists here: it was a false alarm). Each case is
# linked with the real GNU ld, ld.lld 14, rustc's rust-lld and mold, and
# each line's replay must say what its own linker did.
# passes: plain (a table of linker rules, each case linked by the real linkers:
# its verdicts depend on the record only; make check-full runs every pass)
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
. "$ROOT/tests/integ/options-lib.sh"

cat >main.c <<'C'
int main(void) { return 0; }
void foo(void) {}
void __wrap_foo(void) {}
C
cc -c main.c
# Files named like the options' values: read as inputs, each would stop GNU ld.
echo 'not an object' >foo
echo 'not an object' >0xfe
echo '{ global: main; local: *; };' >v.map


# option WANT OPTION: WANT is the real status of bfd, lld 14, rust-lld, mold.
option() {
	local want=$1 opt=$2 got="" name k=0
	name=$(echo "$opt" | tr -c 'a-z\n' _)
	for ld in bfd lld rust-lld mold; do got="$got$(linked "$name" "$ld" "$opt") "; done
	check_eq "$opt: the real linkers (bfd lld rust-lld mold)" "$want" "${got% }"
	for ld in bfd lld rust-lld mold; do
		k=$((k + 1))
		check_eq "$opt: the $ld line's verdict agrees with it" \
			"$([ "$(cut -d' ' -f$k <<<"$want")" = 0 ] && echo success || echo failure) True" "$(own "$T/$name-$ld.json")"
	done
}

# Options a linker refuses (the issue's cases).
option "1 0 0 0" --gdb-index
option "0 1 1 0" -no-relax
option "0 1 0 0" --compress-debug-sections=zstd
option "0 1 1 0" -build-id=sha256
option "0 1 1 0" -require-defined,main
# A separate value, read as the option's.
option "0 0 0 0" -init,foo
option "0 0 0 0" -wrap,foo
option "0 0 0 0" -version-script,v.map
option "1 1 1 0" --filler,0xfe
option "0 1 1 1" --dynamic-list-data

out=$("$LINKSCOPE" explain "$T/__gdb_index-lld.json")
check_contains "GNU ld's own words for an option it does not know" "$out" "GNU ld fails: \"unrecognized option '--gdb-index'\""
out=$("$LINKSCOPE" explain "$T/_no_relax-bfd.json")
check_contains "lld's, with its did-you-mean" "$out" "lld fails: \"unknown argument '-no-relax', did you mean '--no-relax'\""
check_contains "and the fix says it too" "$out" "for lld: drop -no-relax (at 2), or did you mean --no-relax?"
check_contains "a value lld 14 does not take" "$("$LINKSCOPE" explain "$T/__compress_debug_sections_zstd-bfd.json")" \
	"lld fails: \"unknown --compress-debug-sections value: zstd\""
check_contains "lld's did-you-mean for a misspelling" "$("$LINKSCOPE" explain "$T/__filler__xfe-mold.json")" \
	"lld fails: \"unknown argument '--filler', did you mean '--filter'\""
check_contains "mold's own words" "$("$LINKSCOPE" explain "$T/__dynamic_list_data-bfd.json")" \
	"mold fails: \"unknown command line option: --dynamic-list-data\""
check_eq "-init's value is no input: the outcome is known" "success" \
	"$("$LINKSCOPE" report --format json "$T/_init_foo-bfd.json" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["outcome"])')"
# check (point 5): an unknown outcome is unknown for every linker (it said
# three failures of a link that succeeded), exit 0; its own linker first.
LINKSCOPE_EXPAND=failure "$SHIM" -- cc main.o -o p-unknown >/dev/null 2>&1
"$LINKSCOPE" check --format json "$(last_record)" >check.json
echo $? >check.rc
check_eq "check: an unknown outcome says unknown, for every linker, and exits 0" "unknown unknown unknown unknown 0 0" \
	"$("$PY" -c 'import json; j=json.load(open("check.json")); print(j["result"], *j["outcome"].values(), j["exit_status"], open("check.rc").read().strip())')"
check_eq "check: the line's own linker is judged first" "lld mold" \
	"$("$LINKSCOPE" check --format json "$T/_no_relax-lld.json" | "$PY" -c 'import json,sys; print(next(iter(json.load(sys.stdin)["outcome"])))') $("$LINKSCOPE" check "$T/_no_relax-mold.json" | "$PY" -c 'import sys; print(sys.stdin.readline().split(" under ")[1].split("\x27")[0])')"
finish
