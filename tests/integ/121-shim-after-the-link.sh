#!/usr/bin/env bash
# What the shim does after the link, made smaller (issue #20): the index is
# opened while the link runs, and a content kept before (the same small
# object linked again) is held by a hard link of its blob, not copied
# again, so the held name's removal after the link frees nothing. What
# that must not break (docs/record-format.md, "Pruning while links run"):
#  - a prune that removes the blob's name while the link runs: the blob is
#    back after it, with its content;
#  - no held name and no temp copy stays; every record has its index line.
. "$(dirname "$0")/lib.sh"

write_main
sum=$(sha256sum main.o | cut -d' ' -f1)
blobs=$LINKSCOPE_DIR/blobs

# A driver that waits for this link's held name, says what it sees (the
# held name's inode against the blob's, the temp copies, whether its
# parent, the shim, has the index open), removes the blob's name if asked
# (as a prune's tombstone would), then links.
cat >driver.sh <<'SH'
#!/bin/sh
i=0
while [ $i -lt 500 ]; do
	for f in "$BLOBS"/.held-*; do
		if [ -e "$f" ]; then
			same=different
			[ "$(stat -c %i "$f")" = "$(stat -c %i "$BLOBS/$SUM" 2>/dev/null)" ] && same=same
			tmps=$(find "$BLOBS" -name '.tmp-*' | wc -l)
			# The shim opens the index while the link runs, once the held
			# copy is checked: wait for it (up to 2 s), as the link would.
			index=closed j=0
			while [ $index = closed ] && [ $j -lt 200 ]; do
				for fd in /proc/$PPID/fd/*; do
					case $(readlink "$fd") in */records.index) index=open ;; esac
				done
				[ $index = open ] || sleep 0.01
				j=$((j + 1))
			done
			echo "$same $tmps $index" >"$PROBE"
			[ -n "$REMOVE" ] && rm -f "$BLOBS/$SUM"
			if [ -n "$REWRITE" ]; then
				cp "$LINKSCOPE_DIR/records.index" "$LINKSCOPE_DIR/.rewrite"
				mv "$LINKSCOPE_DIR/.rewrite" "$LINKSCOPE_DIR/records.index"
			fi
			exec cc "$@"
		fi
	done
	sleep 0.01
	i=$((i + 1))
done
echo none >"$PROBE"
exec cc "$@"
SH
chmod +x driver.sh
export BLOBS=$blobs SUM=$sum

PROBE=$T/first.probe LINKSCOPE_LINKER=$T/driver.sh run_capture first "$SHIM" main.o -o first
check_eq "a first link of main.o: links" 0 "$(cat "$T/first.rc")"
check_eq "its copy is new: a held copy of its own while the link runs, the index open" \
	"same 0 open" "$(cat "$T/first.probe")"
check_eq "kept" "blobs/$sum" "$(rec "$(last_record)" 'r["kept"][0]["blob"]')"

PROBE=$T/again.probe LINKSCOPE_LINKER=$T/driver.sh run_capture again "$SHIM" main.o -o again
check_eq "the same main.o linked again: links" 0 "$(cat "$T/again.rc")"
check_eq "its blob is held by a hard link, not copied again" "same 0 open" "$(cat "$T/again.probe")"
check_eq "with no warning" "" "$(cat "$T/again.err")"
check_eq "after it: one blob, no held name, no temp copy" "$sum" "$(ls -A "$blobs")"
check_eq "the blob has one name" 1 "$(stat -c %h "$blobs/$sum")"

PROBE=$T/pruned.probe REMOVE=1 LINKSCOPE_LINKER=$T/driver.sh run_capture pruned "$SHIM" main.o -o pruned
check_eq "its blob's name removed while the link runs: links" 0 "$(cat "$T/pruned.rc")"
check_eq "the name was there, held by a hard link" "same 0 open" "$(cat "$T/pruned.probe")"
check_eq "after it the blob is back, and only it" "$sum" "$(ls -A "$blobs")"
check_eq "with its content" "$sum" "$(sha256sum "$blobs/$sum" | cut -d' ' -f1)"

# As a prune rewrites the index: a new file renamed over the one the shim opened.
PROBE=$T/rewritten.probe REWRITE=1 LINKSCOPE_LINKER=$T/driver.sh run_capture rewritten "$SHIM" main.o -o rewritten
check_eq "the index renamed over while the link runs: links" 0 "$(cat "$T/rewritten.rc")"
check_eq "four records" 4 "$(record_count)"
check_eq "each with its line in the index there now" 4 "$(grep -c '^r1' "$LINKSCOPE_DIR/records.index")"
"$LINKSCOPE" list >"$T/list.out" 2>&1
check_eq "list shows them, as linked" "first again pruned rewritten" "$(awk '{print $5}' "$T/list.out" | tac | xargs)"
finish
