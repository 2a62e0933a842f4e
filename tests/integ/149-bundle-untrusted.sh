# Bundles from others, round five (issue #41, points 2, 3, 8, 9): a
# manifest that names its blobs to blow the output up, one that lists a
# blob the bundle does not carry, messages that named the private dir's
# files instead of the bundle (or `-`) and its member, a member name not
# in the locale's charset, and a sparse member (its holes are not in the
# compressed stream that the bound counts). Each is refused, or read, in
# one line naming the bundle; nothing is left in TMPDIR.
. "$(dirname "$0")/lib.sh"

REAL=$LK_BUILD/bin/linkscope	# the analyzer itself, where the JSON wrapper need not see
check_not_contains() { case "$2" in *"$3"*) not_ok "$1" "found: $3" "in: ${2:0:400}" ;; *) ok "$1" ;; esac; }
leftovers() { find "$TMPDIR" "$T/elsewhere" -maxdepth 1 -name 'linkscope-bundle-*' 2>/dev/null | wc -l; }

printf 'int foo(void);\nint main(void) { return foo(); }\n' >main.c
cc -c main.c -o main.o
run_capture link "$SHIM" main.o -o app
check_eq "the real link fails (foo undefined)" 1 "$(cat "$T/link.rc")"
"$REAL" bundle "$(last_record)" -o "$T/plain.lkb" >/dev/null
rm main.o	# the bundle's copy is read

# mkbundle OUT SPEC: plain.lkb's members, changed as SPEC says, in a new bundle (pax, zstd, our magic).
mkbundle() {
	"$PY" - "$T/plain.lkb" "$@" <<'PYEOF'
import hashlib, io, json, subprocess, sys, tarfile
src, out, spec = sys.argv[1:4]
raw = subprocess.run(["zstd", "-qdc", src], capture_output=True, check=True).stdout
old = tarfile.open(fileobj=io.BytesIO(raw))
members = {m.name: old.extractfile(m).read() for m in old.getmembers()}
man = json.loads(members.pop("manifest.json"))
rec = json.loads(members.pop("record.json"))
blobs = dict(members)
kept = man["files"][0]["sha256"]
extra = []
if spec == "doubling":
    # 32 copies of main.o's blob, each named by its SHA-256 twice, and the output named by it:
    # each name put back rescanned doubled the output (2^32 times).
    rec["kept"] = []
    man["files"] += [{"path": "/x/" + kept * 2, "sha256": kept, "size": 1, "role": "input"} for _ in range(32)]
    rec_text = json.dumps(rec).replace('"app"', '"%s"' % kept).encode()
elif spec == "not-carried":
    man["files"].append({"path": "/lib/libgone.so", "sha256": "b" * 64, "size": 1, "role": "library"})
elif spec == "bad-record":
    rec_text = b'{"schema": "linkscope-record/1", "id": 7}'
elif spec == "empty":
    man = rec = None
elif spec == "non-ascii":
    extra.append(("blobs/caf\u00e9", b"y", {}))
elif spec == "sparse":
    hole = 1 << 20
    content = bytes(hole) + b"x"
    extra.append(("blobs/" + hashlib.sha256(content).hexdigest(), b"x",
                  {"GNU.sparse.size": str(len(content)), "GNU.sparse.numblocks": "1", "GNU.sparse.map": "%d,1" % hole}))
buf = io.BytesIO()
t = tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT)
def add(name, data, pax={}):
    i = tarfile.TarInfo(name); i.size = len(data); i.pax_headers = pax
    t.addfile(i, io.BytesIO(data))
if rec is not None:
    if "rec_text" not in dir():
        rec_text = json.dumps(rec).encode()
    man["record"]["sha256"] = hashlib.sha256(rec_text).hexdigest()
    man["record"]["size"] = len(rec_text)
    add("manifest.json", json.dumps(man).encode())
    add("record.json", rec_text)
    for name, data in blobs.items():
        add(name, data)
for name, data, pax in extra:
    add(name, data, pax)
t.close()
z = subprocess.run(["zstd", "-q", "-c"], input=buf.getvalue(), capture_output=True, check=True).stdout
open(out, "wb").write(bytes([0x50, 0x2a, 0x4d, 0x18, 24, 0, 0, 0]) + b"linkscope-bundle/1" + bytes(6) + z)
PYEOF
}
# refused SPEC WANT: explain refuses it, in one line naming the bundle and WANT, never the private dir.
refused() {
	local f=$T/$1.lkb
	mkbundle "$f" "$1"
	run_capture h "$REAL" explain "$f"
	check_eq "$1: exit 1, one line" "1 1" "$(cat "$T/h.rc") $(wc -l <"$T/h.err")"
	check_contains "$1: names the bundle and says why" "$(cat "$T/h.err")" "linkscope: bundle '$f': $2"
	check_not_contains "$1: not the private dir's file" "$(cat "$T/h.err")" "linkscope-bundle-"
	check_eq "$1: its unpacked dir is removed" 0 "$(leftovers)"
}

# --- 2: the names put back in one pass over the output, bounded (25 MB at N=24, out of memory at 32).
mkbundle "$T/doubling.lkb" doubling
"$REAL" show "$T/plain.lkb" >plain.out
"$REAL" show "$T/doubling.lkb" >doubling.out 2>doubling.err
check_eq "a manifest naming its blobs to double the output: shown, exit 0" 0 $?
check "... its output within twice the plain bundle's (each name put back once)" \
	test "$(stat -c %s doubling.out)" -lt $((2 * $(stat -c %s plain.out)))
check_contains "... the output named as the record names it" "$(sed -n 2p doubling.out)" \
	"output $(zstd -qdc "$T/plain.lkb" | tar xOf - manifest.json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["files"][0]["sha256"])')"

# --- 3: a blob the manifest lists and the bundle lacks, named (it was formatted after the manifest was freed).
refused not-carried "its manifest lists '/lib/libgone.so' as blobs/$(printf 'b%.0s' $(seq 64)), which it does not carry"

# --- 8: the bundle and its member named, never the private dir's files.
refused empty "it has no manifest.json"
refused bad-record "'record.json' is truncated or malformed"
run_capture s "$REAL" explain - <"$T/bad-record.lkb"
check_eq "a bundle on stdin: exit 1, one line" "1 1" "$(cat "$T/s.rc") $(wc -l <"$T/s.err")"
check_contains "... named '-'" "$(cat "$T/s.err")" "linkscope: bundle '-': 'record.json' is truncated or malformed"
check_not_contains "... not its temporary copy" "$(cat "$T/s.err")" "linkscope-stdin"
run_capture s "$REAL" explain - <"$T/not-carried.lkb"
check_contains "a bundle on stdin, its manifest refused: named '-'" "$(cat "$T/s.err")" "linkscope: bundle '-': its manifest lists"
refused non-ascii "refusing member 'blobs/caf$(printf '\303\251')': not a name a bundle holds"

# --- 9: a sparse member refused before a byte of it is written.
refused sparse "refusing member 'blobs/$({ head -c 1048576 /dev/zero; printf x; } | sha256sum | cut -d' ' -f1)': a sparse file (a bundle holds none)"
check_eq "... nothing was written to TMPDIR" "" "$(find "$TMPDIR" -type f -size +100k)"
finish
