# report --failed's cache is bounded as ccache bounds its cache
# (analyzer/failcache.c trim): an entry's mtime is its last use; a report
# that wrote an entry removes those unused for 30 days, then the least
# recently used while the entries hold more than 64 MiB, and temporary
# files an analysis left a day ago. So the entries of pruned records
# (never used again) go. Other files there are not touched.
. "$(dirname "$0")/lib.sh"

printf 'int missing_fn(void);\nint main(void) { return missing_fn(); }\n' >main.c
cc -c main.c
"$SHIM" main.o -o missing.bin 2>/dev/null
check_eq "a failed link recorded" 1 "$("$LINKSCOPE" list | grep -c ' exit:1 ')"

failed=$T/cache/linkscope/failed
report() { XDG_CACHE_HOME=$T/cache "$LINKSCOPE" report --failed --format text 2>&1; }
# fake N DAYS-AGO [SIZE]: an entry name of ours, last used DAYS-AGO days ago.
fake() {
	local name
	name=$(printf '%064x.json' "$1")
	truncate -s "${3:-100}" "$failed/$name"
	touch -d "@$(($(date +%s) - $2 * 86400))" "$failed/$name"
	echo "$failed/$name"
}
real_entry() { find "$failed" -name '????????????????????????????????????????????????????????????????.json' -newer "$T/mark" | head -n 1; }

first=$(report)
check_contains "the report explains the link" "$first" "undefined-symbol: missing_fn"
entry=$(find "$failed" -name '*.json' | head -n 1)
check_eq "its entry is kept" 1 "$(find "$failed" -name '*.json' | wc -l)"

# Used: its mtime is moved to now; a report that writes nothing trims nothing.
touch -d "@$(($(date +%s) - 20 * 86400))" "$entry"
old=$(fake 1 40)
check_eq "a report from the cache says the same" "$first" "$(report)"
check_eq "the entry used is marked used now" 1 "$(find "$entry" -mmin -5 | wc -l)"
check_eq "a report that wrote no entry removes nothing" yes "$([ -e "$old" ] && echo yes)"

# A report that writes an entry (the record's inputs changed) trims.
printf 'int other(void) { return 0; }\n' >more.c && cc -c more.c
"$SHIM" main.o more.o -o missing2.bin 2>/dev/null
recent=$(fake 2 29)
keep_other=$failed/README
echo "not ours" >"$keep_other"
touch -d "@$(($(date +%s) - 90 * 86400))" "$keep_other"
stale_tmp=$failed/.$(printf '%064x' 3).4242.tmp
fresh_tmp=$failed/.$(printf '%064x' 4).4243.tmp
: >"$stale_tmp" && touch -d "@$(($(date +%s) - 2 * 86400))" "$stale_tmp"
: >"$fresh_tmp"
report >/dev/null
check_eq "an entry unused for 40 days is removed" no "$([ -e "$old" ] && echo yes || echo no)"
check_eq "one used 29 days ago stays" yes "$([ -e "$recent" ] && echo yes || echo no)"
check_eq "the entry used a moment ago stays" yes "$([ -e "$entry" ] && echo yes || echo no)"
check_eq "a temporary file left two days ago is removed" no "$([ -e "$stale_tmp" ] && echo yes || echo no)"
check_eq "one being written now stays" yes "$([ -e "$fresh_tmp" ] && echo yes || echo no)"
check_eq "a file that is not ours stays" yes "$([ -e "$keep_other" ] && echo yes || echo no)"

# Over 64 MiB: the least recently used go first, down to the bound.
# 70 entries of 1 MiB, used 70 hours ago (entry 10) to an hour ago (entry 79): none past the age.
for i in $(seq 10 79); do
	f=$(fake "$i" 0 1M)
	touch -d "@$(($(date +%s) - (80 - i) * 3600))" "$f"
done
printf 'int third(void) { return 0; }\n' >third.c && cc -c third.c
"$SHIM" main.o third.o -o missing3.bin 2>/dev/null
touch "$T/mark"
report >/dev/null
sum=$(find "$failed" -name '*.json' -printf '%s\n' | awk '{ s += $1 } END { print s }')
check_eq "the entries hold at most 64 MiB after the report" yes "$([ "$sum" -le $((64 << 20)) ] && echo yes || echo no)"
check_eq "the least recently used is removed" no "$([ -e "$failed/$(printf '%064x.json' 10)" ] && echo yes || echo no)"
check_eq "the most recently used fake stays" yes "$([ -e "$failed/$(printf '%064x.json' 79)" ] && echo yes || echo no)"
check_eq "the entry just written stays" 1 "$(real_entry | wc -l)"
check_eq "entries removed: only as many as the bound asks (7 of the 70 MiB)" 63 \
	"$(find "$failed" -name '*.json' -size 1048576c | wc -l)"
check_eq "after the trim the report is the same as without the cache" \
	"$(XDG_CACHE_HOME=$T/nocache "$LINKSCOPE" report --failed --format text 2>&1)" "$(report)"
finish
