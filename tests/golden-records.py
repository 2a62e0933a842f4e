#!/usr/bin/python3
"""golden-records.py OLD NEW OLD_BIN NEW_BIN: compare the records two
builds' shims wrote on the same tests (tests/golden-records.sh). OLD/TEST
and NEW/TEST each hold a test's records and the name of its scratch dir
(`scratch`); OLD_BIN and NEW_BIN are the two builds' bin dirs.

Set aside, as they differ from one run to the next whatever the build:
the id (and the pid and random part in it, wherever it appears), the
times, the caller's pid, the scratch dir's name, the build's own bin dir,
gcc's temporary names (DIR/ccXXXXXX.SUFFIX), the shim's private TMPDIR
(lk-objs-XXXXXX), rustc's temporary dirs (rustcXXXXXX), cargo's hashes
(of the scratch dir's paths: -0123456789abcdef, and the codegen units
named after them), the SHA-256 of kept copies (objects rustc wrote with
those paths in them; the path, size and reason stay compared) and the
mtimes of the files the test made. Everything else must be equal, byte
for byte once written back in one canonical form. A test's records are
compared as a multiset (parallel links finish in any order)."""
import difflib
import json
import os
import re
import sys

PER_RUN = [
    (re.compile(r"/cc[A-Za-z0-9]{6}(?=\.|$)"), "/ccXXXXXX"),
    (re.compile(r"/rustc[A-Za-z0-9]{6}(?=/|$)"), "/rustcXXXXXX"),
    (re.compile(r"/lk-objs-[A-Za-z0-9]{6}"), "/lk-objs-XXXXXX"),
    # meson's compiler checks run in a fresh tempfile.mkdtemp() dir each time.
    (re.compile(r"/meson-private/tmp[A-Za-z0-9_]{8}(?=/|$)"), "/meson-private/tmpXXXXXXXX"),
    (re.compile(r"-[0-9a-f]{16}\b"), "-HASH"),
    (re.compile(r"\.[a-z0-9]{20,}\.[a-z0-9]{5,8}\.rcgu\.o"), ".CGU.rcgu.o"),
]


def scrub(node, subst):
    if isinstance(node, str):
        for old, new in subst:
            node = node.replace(old, new)
        for pattern, new in PER_RUN:
            node = pattern.sub(new, node)
        return node
    if isinstance(node, list):
        return [scrub(x, subst) for x in node]
    if isinstance(node, dict):
        return {k: scrub(v, subst) for k, v in node.items()}
    return node


def mtimes_out(node):
    if isinstance(node, dict):
        return {k: (0 if k == "mtime_ns" else mtimes_out(v)) for k, v in node.items()}
    if isinstance(node, list):
        return [mtimes_out(x) for x in node]
    return node


def normal(path, scratch, bindir):
    with open(path) as f:
        r = json.load(f)
    subst = [(r["id"], "<id>"), (scratch, "<T>"), (bindir, "<BIN>")]
    r["time"] = "<time>"
    for k in r.get("kept") or []:
        k["sha256"] = k["blob"] = "<sha256>"
    if isinstance(r.get("caller"), dict) and "pid" in r["caller"]:
        r["caller"]["pid"] = 0
    return json.dumps(mtimes_out(scrub(r, subst)), indent=1, sort_keys=False)


RECORD_NAME = re.compile(r"^[0-9]{8}T[0-9]{6}\.[0-9]{6}Z-[0-9]+-[0-9a-f]{8}\.json$")


def records(top, bindir):
    out = {}
    for test in sorted(os.listdir(top)):
        d = os.path.join(top, test)
        scratch = open(os.path.join(d, "scratch")).read().strip()
        recs = []
        for root, _, files in os.walk(d):
            # Records only: an analysis cached under the test's dir (cache/linkscope/failed/<sha256>.json)
            # is picked by lib.sh's '2*.json' when its hash starts with a 2.
            recs += [normal(os.path.join(root, f), scratch, bindir) for f in files if RECORD_NAME.match(f)]
        out[test] = sorted(recs)
    return out


def main():
    old, new = records(sys.argv[1], sys.argv[3]), records(sys.argv[2], sys.argv[4])
    bad = 0
    total = 0
    for test in sorted(set(old) | set(new)):
        a, b = old.get(test, []), new.get(test, [])
        total += len(a)
        if len(a) != len(b):
            print(f"=== {test}: {len(a)} records before, {len(b)} now")
            bad += 1
            continue
        for x, y in zip(a, b):
            if x != y:
                bad += 1
                print(f"=== {test}: a record differs")
                print("".join(list(difflib.unified_diff(x.splitlines(True), y.splitlines(True), "before", "now"))[:60]))
    print(f"golden-records: {total} records over {len(old)} tests; {bad} differ")
    sys.exit(1 if bad else 0)


main()
