# Issue #20, points 2 and B: prune with the index. `linkscope prune` with no
# bound prunes to the default one; views/ entries go by age; files a
# crashed link was writing go after ten minutes; a link prunes only when
# the index says the dir is over a bound, and then in one pass down to 9/10
# of it; and nothing is lost while links and prunes run at once.
. "$(dirname "$0")/lib.sh"
unset LINKSCOPE_MAX_SIZE LINKSCOPE_MAX_AGE
idx=$LINKSCOPE_DIR/records.index

write_main
link() { "$SHIM" main.o -o prog; }
for i in 1 2 3 4; do link; done
touch -d '40 days ago' $(find "$LINKSCOPE_DIR" -maxdepth 1 -name '2*.json' -type f | sort | head -n 2)

# prune with no bound: the default one (1G, 30d), as a link would prune.
run_capture dflt "$LINKSCOPE" prune --dry-run
check_eq "prune, no bound given: exit 0" 0 "$(cat "$T/dflt.rc")"
check_contains "prune, no bound given: the default bound (30d) would remove the 2 old records" \
	"$(cat "$T/dflt.out")" "would remove 2 of 4 records"
# The variables are read by the binary itself (not through LK_ELSEWHERE's clean environment).
check_eq "LINKSCOPE_MAX_AGE=0, LINKSCOPE_MAX_SIZE=0: no bound, a usage error" 2 \
	"$(LINKSCOPE_MAX_AGE=0 LINKSCOPE_MAX_SIZE=0 "$LK_BUILD/bin/linkscope" prune >/dev/null 2>&1; echo $?)"
check_eq "--max-size 0 --max-age 0: no bound, a usage error" 2 \
	"$("$LINKSCOPE" prune --max-size 0 --max-age 0 >/dev/null 2>&1; echo $?)"
check_contains "LINKSCOPE_MAX_AGE=50d: raised, nothing goes" \
	"$(LINKSCOPE_MAX_AGE=50d "$LK_BUILD/bin/linkscope" prune)" "removed 0 of 4 records"
check_eq "and the index is rewritten with a checkpoint" 1 "$(grep -c '^c1	' "$idx")"

# Stale files of a crashed link (10 minutes), views past the age bound.
mkdir -p "$LINKSCOPE_DIR/views"
ls "$LINKSCOPE_DIR/views" >"$T/views-before"
echo x >"$LINKSCOPE_DIR/.20260101T000000.000000Z-1-00000000.json.tmp"
echo x >"$LINKSCOPE_DIR/.20260101T000000.000000Z-2-00000000.json.tmp"
echo x >"$LINKSCOPE_DIR/blobs/.tmp-1-0"
echo x >"$LINKSCOPE_DIR/views/0123456789abcdef"
echo x >"$LINKSCOPE_DIR/views/.0123456789abcdef.1.tmp"
echo x >"$LINKSCOPE_DIR/.records.index.1.tmp"
touch -d '20 minutes ago' "$LINKSCOPE_DIR/.20260101T000000.000000Z-1-00000000.json.tmp" \
	"$LINKSCOPE_DIR/blobs/.tmp-1-0" "$LINKSCOPE_DIR/views/.0123456789abcdef.1.tmp" \
	"$LINKSCOPE_DIR/.records.index.1.tmp"
touch -d '40 days ago' "$LINKSCOPE_DIR/views/0123456789abcdef"
"$LINKSCOPE" prune >"$T/stale.out"
check "a record's temporary file 20 minutes old: removed" test ! -e "$LINKSCOPE_DIR/.20260101T000000.000000Z-1-00000000.json.tmp"
check "one written just now: kept" test -e "$LINKSCOPE_DIR/.20260101T000000.000000Z-2-00000000.json.tmp"
check "a blob's temporary copy 20 minutes old: removed" test ! -e "$LINKSCOPE_DIR/blobs/.tmp-1-0"
check "a view's temporary file 20 minutes old: removed" test ! -e "$LINKSCOPE_DIR/views/.0123456789abcdef.1.tmp"
check "the index's temporary file 20 minutes old: removed" test ! -e "$LINKSCOPE_DIR/.records.index.1.tmp"
check "a view 40 days old: removed by the age bound" test ! -e "$LINKSCOPE_DIR/views/0123456789abcdef"
check_eq "the fresh views stay" "$(cat "$T/views-before")" "$(ls "$LINKSCOPE_DIR/views")"
check_eq "the old records went" 2 "$(record_count)"
rm -f "$LINKSCOPE_DIR/.20260101T000000.000000Z-2-00000000.json.tmp"

# A link prunes only when the index says so: within the bound (by its
# checkpoint), the dir is not listed (a stale temporary file stays).
export LINKSCOPE_PRUNE_EVERY=1
echo x >"$LINKSCOPE_DIR/.20260101T000000.000000Z-3-00000000.json.tmp"
touch -d '20 minutes ago' "$LINKSCOPE_DIR/.20260101T000000.000000Z-3-00000000.json.tmp"
link
check "within the bound, a pruning link does not list the dir" \
	test -e "$LINKSCOPE_DIR/.20260101T000000.000000Z-3-00000000.json.tmp"
# Over it by the index's count: one pass down to 9/10 of the bound.
for i in $(seq 12); do link; done
size=$(( $(du -b --apparent-size -c "$LINKSCOPE_DIR"/2*.json "$LINKSCOPE_DIR"/blobs/* | tail -n 1 | cut -f1) ))
bound=$(( size * 3 / 4 ))
LINKSCOPE_MAX_SIZE=$bound link
check "over the bound, the link pruned the dir" \
	test ! -e "$LINKSCOPE_DIR/.20260101T000000.000000Z-3-00000000.json.tmp"
after=$(( $(du -b --apparent-size -c "$LINKSCOPE_DIR"/2*.json "$LINKSCOPE_DIR"/blobs/* | tail -n 1 | cut -f1) ))
check "in one pass, down to 9/10 of the bound ($after <= $bound * 9/10)" test "$after" -le $(( bound * 9 / 10 ))
n=$(record_count)
LINKSCOPE_MAX_SIZE=$bound link
check_eq "the next link: within the bound again, nothing removed" $((n + 1)) "$(record_count)"

# Links and prunes at once: no record is lost to the index, and the index
# agrees with the records once rebuilt.
rm -rf "$LINKSCOPE_DIR"
link
export LINKSCOPE_MAX_SIZE=60k
for j in 1 2 3 4; do
	(for i in 1 2 3 4 5 6; do link; done) &
done
(for i in 1 2 3 4 5; do "$LINKSCOPE" prune --max-size 60k >/dev/null; done) &
wait
unset LINKSCOPE_MAX_SIZE
run_capture conc "$LINKSCOPE" list
check_eq "links and prunes at once: no bad line" "" "$(cat "$T/conc.err")"
check_eq "every record there is listed" \
	"$(find "$LINKSCOPE_DIR" -maxdepth 1 -name '2*.json' -printf '%f\n' | sort)" \
	"$(awk '{print $NF}' "$T/conc.out" | xargs -n1 basename | sort)"
check_eq "the index names every record, no more" \
	"$(find "$LINKSCOPE_DIR" -maxdepth 1 -name '2*.json' -printf '%f\n' | sed 's/\.json$//' | sort)" \
	"$(awk -F'\t' '$1 == "r1" {print $2}' "$idx" | sort -u)"
rm "$idx"
"$LINKSCOPE" list >"$T/rebuilt.out"
check_eq "rebuilt from the records: the same list" "$(cat "$T/conc.out")" "$(cat "$T/rebuilt.out")"
check_eq "no record names a blob that is gone" "" "$("$PY" - "$LINKSCOPE_DIR" <<'PY'
import glob, json, os, sys
d = sys.argv[1]
for f in sorted(glob.glob(os.path.join(d, "2*.json"))):
    for k in json.load(open(f)).get("kept") or []:
        if not os.path.isfile(os.path.join(d, k["blob"])):
            print(os.path.basename(f), k["blob"])
PY
)"
finish
