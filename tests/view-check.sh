#!/usr/bin/env bash
# tests/view-check.sh LOG: the verdict over a run of links made with
# LINKSCOPE_VIEW_CHECK=LOG (tests/run.sh sets it for the integration tests
# and the difftest): every view the cache gave equals the fresh -### taken
# beside it ("reuse verified"; a "MISMATCH" line is a difference, whose
# record also has a warning), and every template learnt gave the link's own
# fresh view ("learn ok"; "learn negative" is a profile the model does not
# cover, taken fresh ever after: exact, not fast). Prints the counts.
set -u
log=$1
n_bad=0
count() { grep -c -- "^$1" "$log" 2>/dev/null || true; }
verdict() {
	if [ "$2" = ok ]; then echo "ok - $1"; else echo "not ok - $1"; n_bad=$((n_bad + 1)); fi
}
mism=$(count MISMATCH)
[ "$mism" -eq 0 ] && r=ok || r=bad
verdict "no reused view differs from a fresh -### ($mism mismatches)" "$r"
grep '^MISMATCH' "$log" 2>/dev/null | head -n 20 | sed 's/^/#   /'
reused=$(count 'reuse verified')
[ "$reused" -gt 0 ] && r=ok || r=bad
verdict "views reused and verified: $reused" "$r"
learnt=$(count 'learn ok')
[ "$learnt" -gt 0 ] && r=ok || r=bad
verdict "templates learnt, each giving its link's fresh view: $learnt" "$r"
echo "# taken fresh by design: $(count fresh); profiles not covered: $(count 'learn negative')"
grep -E '^(fresh|learn negative)' "$log" 2>/dev/null | sort | uniq -c | sort -rn | sed 's/^/#   /'
exit $((n_bad > 0))
