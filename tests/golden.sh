#!/usr/bin/env bash
# tests/golden.sh [BASE]: the byte-identical check of a refactor (issue #8).
# Builds BASE (default: main) in a scratch worktree, then runs every
# integration test with this tree's binaries; each test's records are
# analysed by both binaries (tests/golden-compare.sh) and every difference
# is listed. Exit status 1 if any output differs.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
base=${1:-main}
work=$(mktemp -d /tmp/lk-golden.XXXXXX)
trap 'git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1; rm -rf "$work"' EXIT
git -C "$root" worktree add -q --detach "$work/base" "$base" || exit 2
make -s -C "$work/base" all >/dev/null || { echo "golden: cannot build $base" >&2; exit 2; }
make -s -C "$root" all >/dev/null || exit 2
export LK_GOLDEN_OLD=$work/base/build/bin/linkscope LK_GOLDEN_LOG=$work/diff.log
: >"$LK_GOLDEN_LOG"
for t in "$root"/tests/integ/[0-9]*.sh; do
	LK_BUILD=$root/build bash "$t" >/dev/null 2>&1
done
runs=$(wc -l <"$LK_GOLDEN_LOG.count" 2>/dev/null || echo 0)
if [ -s "$LK_GOLDEN_LOG" ]; then
	cat "$LK_GOLDEN_LOG"
	echo "golden: $(grep -c '^===' "$LK_GOLDEN_LOG") of $runs analyses differ from $base"
	exit 1
fi
echo "golden: all $runs analyses identical to $base"
