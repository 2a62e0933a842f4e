# Issue #20, point 2: the record dir's index (records.index,
# docs/record-format.md "The index"). The shim appends one line per record
# in one O_APPEND write; list, report --failed and `last` read the index
# against the dir's names, and give what the records give when the index is
# missing, stale (records added or removed by hand), corrupt or hostile,
# or written by many links at once.
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_MAX_SIZE=0 LINKSCOPE_MAX_AGE=0	# no prune rewrites the index here
idx=$LINKSCOPE_DIR/records.index

write_main
printf 'int f(void);\nint main(void) { return f(); }\n' >bad.c
cc -c bad.c -o bad.o
for i in 1 2 3; do "$SHIM" main.o -o "ok$i"; done
"$SHIM" bad.o -o bad1 2>/dev/null
"$SHIM" main.o -o ok4

check "the links wrote the index" test -f "$idx"
check_eq "private (0600)" 600 "$(stat -c %a "$idx")"
check_eq "one line per record" 5 "$(grep -c '^r1	' "$idx")"
check_eq "every line ends, none is longer than PIPE_BUF" "" "$(awk 'length($0) >= 4096' "$idx")"

# What the records say, read with no index at all (the reference).
"$LINKSCOPE" list >"$T/with.out" 2>"$T/with.err"
check_eq "list from the index: no message" "" "$(cat "$T/with.err")"
rm "$idx"
run_capture none "$LINKSCOPE" list
check_eq "list, index missing: exit 0" 0 "$(cat "$T/none.rc")"
check_eq "list, index missing: the same lines as from the index" "$(cat "$T/with.out")" "$(cat "$T/none.out")"
check_eq "and the index is there again, a line per record" 5 "$(grep -c '^r1	' "$idx")"
"$LINKSCOPE" list >"$T/again.out"
check_eq "list from the rebuilt index: the same lines" "$(cat "$T/with.out")" "$(cat "$T/again.out")"
check_eq "the newest record first" "$(basename "$(last_record)")" "$(head -n 1 "$T/with.out" | awk '{print $NF}' | xargs basename)"

"$LINKSCOPE" report --failed --format json >"$T/failed-with.json"
rm "$idx"
"$LINKSCOPE" report --failed --format json >"$T/failed-none.json"
check_eq "report --failed, index missing: the same summary" "$(cat "$T/failed-with.json")" "$(cat "$T/failed-none.json")"
check_eq "report --failed: one failed link of five" "1 5" \
	"$("$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["failed"], r["records"])' "$T/failed-with.json")"
check_eq "last-failed from the index: the failed link's record" "bad1" \
	"$(rec "$("$LINKSCOPE" list | awk '$2 != "ok" {print $NF}')" 'r["line"]["output"]')"

# Stale: a record copied in by hand (no line), a record removed by hand (a line too many).
newest=$(last_record)
cp "$newest" "$LINKSCOPE_DIR/20991231T000000.000000Z-1-copied.json"
oldest=$(find "$LINKSCOPE_DIR" -maxdepth 1 -name '2*.json' | sort | head -n 1)
rm "$oldest"
run_capture stale "$LINKSCOPE" list
check_contains "stale: a record the index lacks is listed" "$(cat "$T/stale.out")" "20991231T000000.000000Z-1-copied.json"
check "stale: a record gone is not listed" test "$(grep -c "$(basename "$oldest")" "$T/stale.out")" = 0
check_eq "stale: as many lines as records" "$(record_count)" "$(wc -l <"$T/stale.out")"
check_eq "stale: the index names the records, no more" "$(record_count)" "$(grep -c '^r1	' "$idx")"
check "stale: the gone record's line is dropped" test "$(grep -c "$(basename "$oldest" .json)" "$idx")" = 0
"$LINKSCOPE" list >"$T/ref.out"

# Corrupt: a bad line says the file and the line, and the records are read instead.
printf 'r1\tnot an index line\n' >>"$idx"
run_capture corrupt "$LINKSCOPE" list
check_eq "corrupt: exit 0 (the records are fine)" 0 "$(cat "$T/corrupt.rc")"
check_contains "corrupt: one line naming the file and the line" "$(cat "$T/corrupt.err")" \
	"warning: '$idx' line $(($(record_count) + 1)): not an index line; the records are read instead"
check_eq "corrupt: the lines of the records" "$(cat "$T/ref.out")" "$(cat "$T/corrupt.out")"
run_capture fixed "$LINKSCOPE" list
check_eq "corrupt: rebuilt, no message the next time" "" "$(cat "$T/fixed.err")"

# Hostile: a line that lies about a name outside the dir, a line too long, NULs.
for bad in "r1	../../etc/passwd	=	1	1	1	x	ok	-	cc	-	-" \
	"r1	$(head -c 5000 /dev/zero | tr '\0' x)	=	1	1	1	x	ok	-	cc	-	-"; do
	printf '%s\n' "$bad" >>"$idx"
	run_capture hostile "$LINKSCOPE" list
	check_contains "hostile line: said" "$(cat "$T/hostile.err")" "'$idx' line"
	check_eq "hostile line: the records' lines" "$(cat "$T/ref.out")" "$(cat "$T/hostile.out")"
done
printf 'r1\t\0\t=\n' >>"$idx"
run_capture nul "$LINKSCOPE" list
check_eq "a NUL: the records' lines" "$(cat "$T/ref.out")" "$(cat "$T/nul.out")"

# Not a regular file: a FIFO blocks neither list nor a link; a symlink is not written through.
rm "$idx"
mkfifo "$idx"
run_capture fifo timeout 20 "$LINKSCOPE" list
check_eq "a FIFO index: list does not block" 0 "$(cat "$T/fifo.rc")"
check_eq "a FIFO index: the records' lines" "$(cat "$T/ref.out")" "$(cat "$T/fifo.out")"
run_capture fifolink timeout 20 "$SHIM" main.o -o ok5
check_eq "a FIFO index: the link does not block" 0 "$(cat "$T/fifolink.rc")"
rm -f "$idx"
echo untouched >"$T/target"
ln -s "$T/target" "$idx"
"$SHIM" main.o -o ok6
check_eq "a symlinked index: its target is not written" untouched "$(cat "$T/target")"
rm -f "$idx"

# Many links at once: every line whole, one per record.
"$LINKSCOPE" list >/dev/null
for j in 1 2 3 4 5 6; do
	(for i in 1 2 3 4 5; do "$SHIM" main.o -o "p$j.$i"; done) &
done
wait
run_capture par "$LINKSCOPE" list
check_eq "parallel links: no bad line" "" "$(cat "$T/par.err")"
check_eq "parallel links: a line per record" "$(record_count)" "$(grep -c '^r1	' "$idx")"
check_eq "parallel links: each listed" "$(record_count)" "$(wc -l <"$T/par.out")"
finish
