# report --failed keeps each failed record's analysis in the cache dir
# (analyzer/failcache.c) with what it read, and uses it again only while
# all of that is as it was: the report is the same with the cache, without
# it, after an input changed (a library added to a -L dir, an archive
# rewritten) and with a corrupt entry, which is ignored and rewritten.
. "$(dirname "$0")/lib.sh"

mkdir lib
printf 'int compute(int);\nint main(void) { return compute(1); }\n' >main.c
printf 'int compute(int x) { return x + 1; }\n' >calc.c
printf 'int missing_fn(void);\nint main(void) { return missing_fn(); }\n' >main2.c
cc -c main.c main2.c calc.c
ar rcs lib/libcalc.a calc.o
# Two failed links, two causes: the archive read before the object that needs it, and a symbol nothing defines.
"$SHIM" -Llib -lcalc main.o -o early.bin 2>/dev/null
"$SHIM" main2.o -Llib -lcalc -o missing.bin 2>/dev/null
check_eq "two failed links recorded" 2 "$("$LINKSCOPE" list | grep -c ' exit:1 ')"

# report FORMAT [CACHE]: report --failed, stdout and stderr, with the cache dir CACHE
# (default: the test's); a cache dir of its own, new each time, is the analysis without the cache.
report() {
	local cache=${2:-$T/cache}
	[ "$cache" = none ] && cache=$(mktemp -d "$T/nocache.XXXXXX")
	XDG_CACHE_HOME=$cache "$LINKSCOPE" report --failed --format "$1" 2>&1
}
entries() { find "$T/cache/linkscope/failed" -name '*.json' 2>/dev/null | sort; }

fresh_text=$(report text none)
fresh_json=$(report json none)
check_contains "the analysis names the early archive's cause" "$fresh_text" "undefined-symbol: compute"
check_contains "and the missing symbol" "$fresh_text" "undefined-symbol: missing_fn"
first=$(report text)
check_eq "the first report with the cache (entries written) is the one without" "$fresh_text" "$first"
check_eq "one entry per failed record" 2 "$(entries | wc -l)"
check_eq "entries are 0600" "600 600" "$(entries | xargs stat -c %a | tr '\n' ' ' | sed 's/ $//')"
check_eq "their dir is 0700" 700 "$(stat -c %a "$T/cache/linkscope/failed")"
check_eq "the report from the cache is the one without, as text" "$fresh_text" "$(report text)"
check_eq "and as JSON" "$fresh_json" "$(report json)"
if [ "${LK_ELSEWHERE:-0}" != 1 ]; then
	check_eq "LINKSCOPE_REPORT_CACHE=0: the same report" "$fresh_text" "$(LINKSCOPE_REPORT_CACHE=0 report text)"
fi

# The entries are what the report is made of: one changed by hand shows (and is then thrown away).
"$PY" - "$(entries)" <<'PY'
import json, sys
for path in sys.argv[1].split():
    text = open(path).read()
    end = text.index("\n}\n") + 2
    e = json.loads(text[:end])
    for p in e["parts"]:
        p["explanation"] = ["told from the cache"] + p["explanation"]
    open(path, "w").write(json.dumps(e, indent=1) + text[end:])
PY
check_contains "an entry in force is used, not the records analysed again" "$(report text)" "told from the cache"
rm -f $(entries)

# A library that defines the missing symbol appears in the -L dir: the analysis finds it now.
report text >/dev/null
printf 'int missing_fn(void) { return 0; }\n' >prov.c
cc -shared -fPIC prov.c -o lib/libmissing.so
fresh_text=$(report text none)
check_contains "without the cache, the new library is the fix" "$fresh_text" "libmissing.so"
check_eq "with the cache: the same (the -L dir was listed, and changed)" "$fresh_text" "$(report text)"

# An input rewritten after the link: the analysis says so, with or without the cache.
before=$(report text)
printf 'int compute(int x) { return x + 2; }\nint more(void) { return 3; }\n' >calc.c
cc -c calc.c && rm -f lib/libcalc.a && ar rcs lib/libcalc.a calc.o
fresh_text=$(report text none)
check "an archive rewritten: the analysis changes" test "$before" != "$fresh_text"
check_eq "an archive rewritten: the same report with the cache" "$fresh_text" "$(report text)"

# A corrupt entry is ignored and rewritten.
for e in $(entries); do printf '{"schema": "linkscope-failed-cache/1", "parts": [' >"$e"; done
check_eq "corrupt entries: the same report" "$fresh_text" "$(report text)"
check "corrupt entries: rewritten whole" "$PY" -c '
import json, sys
for p in sys.argv[1:]:
    t = open(p).read()
    json.loads(t[:t.index("\n}\n") + 2])
    assert len(t.splitlines()) > 40, p' $(entries)
check_eq "and used again" "$fresh_text" "$(report text)"
finish
