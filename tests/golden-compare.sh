#!/usr/bin/env bash
# golden-compare.sh SCRATCH: the byte-identical check of a no-behaviour-change
# refactor (issue #8). Called by tests/integ/lib.sh before a test's scratch dir
# is removed, when LK_GOLDEN_OLD names the linkscope binary of the base commit:
# every analysis command is run on every record the test left, by the old and
# by the new binary, in the same dir and environment, and any difference in
# stdout, stderr or exit status is appended to LK_GOLDEN_LOG.
set -u
scratch=$1
old=$LK_GOLDEN_OLD
new=${LK_GOLDEN_NEW:?}
log=${LK_GOLDEN_LOG:-/tmp/lk-golden.log}
test_name=${LK_GOLDEN_TEST:-?}
# The old binary's caches (the provider index) are its own: their format is
# the binary's private state, which may change between the two commits.
old_cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}-golden-old
mkdir -p -m 700 "$old_cache"

run_both() {
	local what=$1 o n
	shift
	o=$(XDG_CACHE_HOME=$old_cache "$old" "$@" 2>&1; echo "rc=$?")
	n=$("$new" "$@" 2>&1; echo "rc=$?")
	# The binary's own path appears in usage lines; it is not behaviour.
	o=${o//$old/linkscope}
	n=${n//$new/linkscope}
	if [ "$o" != "$n" ]; then
		{
			echo "=== $test_name: $what: $*"
			diff <(printf '%s\n' "$o") <(printf '%s\n' "$n") | head -40
		} >>"$log"
	fi
	echo "$test_name $what" >>"$log.count"
}

[ -d "$scratch/records" ] || exit 0
for r in "$scratch"/records/*.json; do
	[ -f "$r" ] || continue
	case $r in *.report.json) continue ;; esac
	run_both show show "$r"
	run_both show-json show --json --full "$r"
	run_both explain explain --replay-only "$r"
	for f in json markdown text; do
		run_both "report-$f" report --format "$f" --replay-only "$r"
	done
	run_both check check --format json "$r"
done
run_both list list --dir "$scratch/records"
run_both failed report --failed --format json --dir "$scratch/records"
exit 0
