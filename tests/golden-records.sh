#!/usr/bin/env bash
# tests/golden-records.sh [BASE]: are the shim's records what BASE's shim
# (default: main; a branch compares with its merge base) writes on the same links? Builds BASE in a scratch
# worktree, runs every integration test once with BASE's binaries and once
# with this tree's, keeping each test's records (lib.sh, LK_KEEP_RECORDS),
# and compares them (tests/golden-records.py): byte for byte once the
# fields that differ from run to run anyway are set aside (ids, times,
# pids, the scratch dir's name, gcc's and rustc's temporary names, the
# mtimes of files the test made); and that every record this tree wrote is
# byte for byte the text jansson writes back when it reads it (the shim's
# streaming writer, common/record_write.c: tests/tools/record-as-jansson).
# Exit status 1 if any record differs.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
base=${1:-main}
work=$(mktemp -d /tmp/lk-golden-records.XXXXXX)
trap 'git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1; rm -rf "$work"' EXIT
git -C "$root" worktree add -q --detach "$work/base" "$base" || exit 2
make -s -C "$work/base" all >/dev/null || { echo "golden-records: cannot build $base" >&2; exit 2; }
make -s -C "$root" all unit-build >/dev/null || exit 2
# GOLDEN_TESTS="023 077": only those tests.
for t in "$root"/tests/integ/[0-9]*.sh; do
	if [ -n "${GOLDEN_TESTS:-}" ] && ! grep -qw "$(basename "$t" | cut -d- -f1)" <<<"$GOLDEN_TESTS"; then
		continue
	fi
	# A test of what only this tree has (the view cache's own test) has no counterpart.
	[ -e "$work/base/tests/integ/$(basename "$t")" ] || continue
	LK_BUILD=$work/base/build LK_KEEP_RECORDS=$work/old bash "$t" >/dev/null 2>&1
	LK_BUILD=$root/build LK_KEEP_RECORDS=$work/new bash "$t" >/dev/null 2>&1
done
rc=0
/usr/bin/python3 "$root/tests/golden-records.py" "$work/old" "$work/new" "$work/base/build/bin" "$root/build/bin" || rc=1
# Byte for byte: a record is jansson's text if it reads back to itself. A test's
# hand-made records (python's json.dump) are not, with either build: the counts must agree.
for side in old new; do
	find "$work/$side" -name '*.json' -print0 | xargs -0 -r "$root/build/tests/record-as-jansson" |
		awk -v side="$side" '/^record-as-jansson: [0-9]+ of/ { same += $2; all += $4; next } { print side ": " $0 }
			END { printf "record-as-jansson (%s): %d of %d records byte for byte as jansson writes them\n", side, same, all }'
done | tee "$work/bytes.log"
[ "$(grep -c "^old: " "$work/bytes.log")" = "$(grep -c "^new: " "$work/bytes.log")" ] || rc=1
exit $rc
