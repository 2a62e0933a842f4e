# The GNU ld options lld and mold refuse (issue #19), each checked on the
# real GNU ld, ld.lld 14, rustc's rust-lld (a newer lld: it learnt
# --print-memory-usage and --package-metadata) and mold: the line's own
# linker's verdict agrees with its status, and a GNU ld line says which
# other linker would fail and why.
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
. "$ROOT/tests/integ/options-lib.sh"

cat >main.c <<'C'
int main(void) { return 0; }
C
cc -c main.c


# option WANT OPTION: WANT is the real status of bfd, lld 14, rust-lld, mold.
option() {
	local want=$1 opt=$2 got="" name
	name=$(echo "$opt" | tr -c 'a-z\n' _)
	for ld in bfd lld rust-lld mold; do got="$got$(linked "$name" "$ld" "$opt") "; done
	check_eq "$opt: the real linkers (bfd lld rust-lld mold)" "$want" "${got% }"
	for ld in bfd lld rust-lld mold; do
		local rc
		rc=$(cut -d' ' -f$(( $(echo "bfd lld rust-lld mold" | tr ' ' '\n' | grep -nx "$ld" | cut -d: -f1) )) <<<"$want")
		check_eq "$opt: the $ld line's verdict agrees with it" "$([ "$rc" = 0 ] && echo success || echo failure) True" "$(own "$T/$name-$ld.json")"
	done
}

option "0 1 1 0" --no-warn-execstack
option "0 1 0 1" --print-memory-usage
option "0 1 0 0" --package-metadata=x
option "0 1 1 1" -Ttext-segment=0x500000
option "0 1 1 1" --dynamic-list-data
option "0 1 1 0" --start-group,--start-group,--end-group,--end-group
option "0 0 0 0" --no-copy-dt-needed-entries

out=$("$LINKSCOPE" explain "$T/__print_memory_usage-bfd.json")
check_contains "a GNU ld line: lld 14 refuses --print-memory-usage" "$out" "lld fails: \"unknown argument '--print-memory-usage'\" (--print-memory-usage at 2): it stops before reading any input"
check_contains "and the fix, for lld, verified by lld's replay" "$out" "fix (verified by lld's replay) for lld: drop --print-memory-usage (at 2)"
check_contains "the rust-lld line links: it knows the option" "$("$LINKSCOPE" explain "$T/__print_memory_usage-rust-lld.json")" "the link succeeds under rust-lld's rules"
check_contains "the nested group: lld refuses it, mold takes it" "$("$LINKSCOPE" explain "$T/__start_group___start_group___end_group___end_group-mold.json")" \
	"cross-linker verdict: links with mold and GNU ld, fails with lld"
finish
