# linkscope prune and the shim's own pruning (LINKSCOPE_MAX_SIZE,
# LINKSCOPE_MAX_AGE): oldest records first, their reports with them, a
# kept copy (blobs/) only when no remaining record names it; nothing that
# is not linkscope's, and never through a symbolic link.
. "$(dirname "$0")/lib.sh"

printf 'int main(void) { return 0; }\n' >main.c
printf 'int main(void) { return 1; }\n' >other.c
"$SHIM" main.c -o a1       # each keeps a copy of its source and its object: main.c's are shared
"$SHIM" main.c -o a2
"$SHIM" other.c -o a3
recs=($(find "$LINKSCOPE_DIR" -maxdepth 1 -name '2*.json' | sort))
check_eq "three records" 3 "${#recs[@]}"
check_eq "four blobs (two shared by two records)" 4 "$(ls "$LINKSCOPE_DIR/blobs" | wc -l)"
shared=$(rec "${recs[0]}" 'r["kept"][0]["blob"]')
own3=$(rec "${recs[2]}" 'r["kept"][0]["blob"]')
echo report >"${recs[0]%.json}.report.md"
# Ages: the first two records ten days old, the third new; blobs old enough to go.
touch -d '10 days ago' "${recs[0]}" "${recs[1]}" "${recs[0]%.json}.report.md" "$LINKSCOPE_DIR"/blobs/*
# What is not ours: a foreign file, a symlinked "record" and blob pointing outside.
mkdir outside && echo keep >outside/victim.json && echo keep >outside/victim-blob
echo mine >"$LINKSCOPE_DIR/notes.txt"
ln -s "$T/outside/victim.json" "$LINKSCOPE_DIR/20200101T000000.000000Z-1-00000000.json"
ln -s "$T/outside/victim-blob" "$LINKSCOPE_DIR/blobs/$(printf '%064d' 0)"
touch -h -d '10 days ago' "$LINKSCOPE_DIR/20200101T000000.000000Z-1-00000000.json"

out=$("$LINKSCOPE" prune --max-age 30d --dir "$LINKSCOPE_DIR")
check_contains "within the bound: nothing removed" "$out" "removed 0 of 3 records and 0 of 4 blobs"
out=$("$LINKSCOPE" prune --max-age 5d --dry-run --dir "$LINKSCOPE_DIR")
check_contains "--dry-run says what would go" "$out" "would remove 2 of 3 records"
check_eq "--dry-run removes nothing" 4 "$(record_count)"  # the symlink counted too
out=$("$LINKSCOPE" prune --max-age 5d --dir "$LINKSCOPE_DIR")
check_contains "--max-age 5d: the two old records go" "$out" "removed 2 of 3 records and 2 of 4 blobs"
check "the new record stays" test -f "${recs[2]}"
check "the old records are gone" test ! -e "${recs[0]}" -a ! -e "${recs[1]}"
check "a report goes with its record" test ! -e "${recs[0]%.json}.report.md"
check "the blob only they named is gone" test ! -e "$LINKSCOPE_DIR/$shared"
check "the blob the new record names stays" test -f "$LINKSCOPE_DIR/$own3"
check "a foreign file stays" test -f "$LINKSCOPE_DIR/notes.txt"
check "a symlinked record is neither followed nor removed" test -L "$LINKSCOPE_DIR/20200101T000000.000000Z-1-00000000.json"
check "nor a symlinked blob" test -L "$LINKSCOPE_DIR/blobs/$(printf '%064d' 0)"
check_eq "their targets are intact" "keep keep" "$(cat outside/victim.json) $(cat outside/victim-blob)"
rm "$LINKSCOPE_DIR/20200101T000000.000000Z-1-00000000.json"

# A shared blob stays while one record still names it.
"$SHIM" main.c -o a4
"$SHIM" main.c -o a5
recs=($(find "$LINKSCOPE_DIR" -maxdepth 1 -name '2*.json' -type f | sort))
touch -d '10 days ago' "${recs[0]}" "${recs[1]}" "$LINKSCOPE_DIR"/blobs/*
shared=$(rec "${recs[1]}" 'r["kept"][0]["blob"]')
"$LINKSCOPE" prune --max-age 5d --dir "$LINKSCOPE_DIR" >/dev/null
check "a blob shared with a remaining record stays" test -f "$LINKSCOPE_DIR/$shared"

# --max-size: oldest first until the directory fits; the newest always stays.
for i in 1 2 3 4 5 6; do "$SHIM" main.c -o "b$i"; done
n=$(record_count)
out=$("$LINKSCOPE" prune --max-size 1 --dir "$LINKSCOPE_DIR")
check_eq "--max-size 1: only the newest record stays" 1 "$(record_count)"
check_contains "and says so" "$out" "removed $((n - 1)) of $n records"
check_eq "bad sizes are usage errors" 2 "$("$LINKSCOPE" prune --max-size 12Q --dir "$LINKSCOPE_DIR" >/dev/null 2>&1; echo $?)"
check_eq "a bound is needed" 2 "$("$LINKSCOPE" prune --dir "$LINKSCOPE_DIR" >/dev/null 2>&1; echo $?)"

# The shim prunes on its own when a bound is set (here on every link).
for i in 1 2 3; do "$SHIM" main.c -o "c$i"; done
touch -d '10 days ago' $(find "$LINKSCOPE_DIR" -maxdepth 1 -name '2*.json' -type f)
LINKSCOPE_MAX_AGE=5d LINKSCOPE_PRUNE_EVERY=1 "$SHIM" main.c -o d1
check_eq "LINKSCOPE_MAX_AGE: the shim removed the old records" 1 "$(record_count)"
run_capture bad env LINKSCOPE_MAX_SIZE=lots "$SHIM" main.c -o d2
check_eq "a bad bound does not change the link" 0 "$(cat "$T/bad.rc")"
check_contains "and is one warning" "$(cat "$T/bad.err")" "linkscope-cc: warning: LINKSCOPE_MAX_SIZE is not a valid bound"
check_eq "the link is still recorded" 2 "$(record_count)"
finish
