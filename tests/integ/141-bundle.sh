# Baselines that travel (issue #31 point 3): `linkscope bundle` puts a
# record, its kept copies and (--inputs) every input its link read in one
# file; every command takes that file as RECORD, with the originals gone.
# Hostile bundles are refused in one line naming the file, nothing written
# outside a private temporary dir. An aarch64 link's bundle is explained
# with its sysroot libraries absent from their paths (a mount namespace).
# passes: plain elsewhere san (bundles read with the originals gone, their names made
# absolute)
. "$(dirname "$0")/lib.sh"

REAL=$LK_BUILD/bin/linkscope	# the analyzer itself, where the JSON wrapper need not see
# What a report's verdict is, as the tests compare it: the outcome and each diagnostic's kind and symbol.
verdict() { "$PY" -c 'import json,sys; r=json.load(sys.stdin); print(r["predicted"]["outcome"], sorted((d["kind"], d.get("symbol") or "") for d in r["diagnostics"]))'; }
# The private dirs bundles were unpacked into, left behind (in both TMPDIRs an analysis may use).
leftovers() { find "$TMPDIR" "$T/elsewhere" -maxdepth 1 -name 'linkscope-bundle-*' 2>/dev/null | wc -l; }

# --- A failing gcc link: -lfoo found in lib/, -lnothere missing.
mkdir lib
printf 'int foo(void);\nint main(void) { return foo(); }\n' >main.c
printf 'int foo(void) { return 0; }\n' >foo.c
cc -c main.c -o main.o && cc -c foo.c -o foo.o && ar rcs lib/libfoo.a foo.o
run_capture link "$SHIM" main.o -Llib -lfoo -lnothere -o app
check_eq "the real link fails" 1 "$(cat "$T/link.rc")"
r=$(last_record)
before_text=$("$LINKSCOPE" explain "$r" | sed 1d)
before=$("$LINKSCOPE" report --format json "$r" | verdict)
check_contains "the record's verdict: -lnothere not found" "$before" "('input-not-found', '-lnothere')"

before_why=$("$LINKSCOPE" why "$r" foo)
run_capture b1 "$LINKSCOPE" bundle "$r" -o "$T/plain.lkb"
check_eq "bundle: exit 0" 0 "$(cat "$T/b1.rc")"
check_contains "bundle: its summary line" "$(cat "$T/b1.out")" "wrote '$T/plain.lkb': the record, "
run_capture b2 "$LINKSCOPE" bundle --inputs --format json "$r" -o "$T/inputs.lkb"
check_eq "bundle --inputs: exit 0" 0 "$(cat "$T/b2.rc")"
check_eq "bundle --inputs: inputs carried" True "$("$PY" -c 'import json,sys; print(json.load(sys.stdin)["inputs"] >= 5)' <"$T/b2.out")"
check_eq "the bundle is 0600" 600 "$(stat -c %a "$T/inputs.lkb")"
check_eq "recognised by content: a zstd skippable frame naming us" "linkscope-bundle/1" "$(head -c 26 "$T/inputs.lkb" | tail -c 18)"
members=$(zstd -qdc "$T/inputs.lkb" | tar tf -)
check_eq "zstd and tar read it: the manifest first, then the record" "manifest.json record.json" "$(head -n 2 <<<"$members" | xargs)"
check_eq "every other member is blobs/<sha256>" "" "$(sed 1,2d <<<"$members" | grep -vE '^blobs/[0-9a-f]{64}$')"
manifest=$(zstd -qdc "$T/inputs.lkb" | tar xOf - manifest.json)
check "the manifest matches its schema" "$PY" -c 'import json,sys,jsonschema; jsonschema.validate(json.loads(sys.argv[1]), json.load(open(sys.argv[2])))' \
	"$manifest" "$ROOT/docs/bundle-manifest.schema.json"
check_contains "the manifest names the archive -lfoo found, by its path" "$manifest" "\"path\": \"$T/lib/libfoo.a\""
check_contains "... and the system's libc.so (a script), by path and digest" "$manifest" \
	"$(sha256sum "$(cc -print-file-name=libc.so)" | cut -d' ' -f1)"
read -r libc6 _ <<<"$(libc_paths cc)"
check_contains "... and what libc.so names" "$manifest" "\"path\": \"$libc6\""
check_contains "... and the driver's start files from -###" "$manifest" "crt1.o\""
check_eq "the same record and inputs make the same bytes" 0 \
	"$("$REAL" bundle --inputs "$r" -o again.lkb >/dev/null && cmp -s again.lkb "$T/inputs.lkb"; echo $?)"

# The diff of a bundle and its own record: no difference.
d=$("$LINKSCOPE" diff "$T/inputs.lkb" "$r")
check_eq "diff bundle record: exit 0" 0 $?
check_contains "diff bundle record: the same arguments" "$d" "no difference in the arguments"
check_contains "diff bundle record: the same outcome" "$d" "both fail: no difference changes the outcome"
d=$("$LINKSCOPE" diff --format json "$T/inputs.lkb" "$r")
check_eq "diff --format json: no linker differs" "[] True" \
	"$("$PY" -c 'import json,sys; d=json.load(sys.stdin); print(d["linkers_differing"], d["a"]["linkers"] == d["b"]["linkers"])' <<<"$d")"

# GNU ld has no reproducer of its own (LINKSCOPE_REPRODUCE=1 asks lld and
# mold only): the bundle is one. It carries every file ld read, as ld's
# own --trace lists them.
LINKSCOPE_REPRODUCE=1 "$SHIM" main.o -Llib -lfoo -o ok -Wl,--trace >trace.txt
rok=$(last_record)
check_eq "GNU ld: LINKSCOPE_REPRODUCE=1 gives no reproducer" "None bfd" "$(rec "$rok" '"%s %s" % (r.get("reproducer"), r["linker"]["flavor"])')"
"$REAL" bundle --inputs "$rok" -o ok.lkb >/dev/null
check_eq "GNU ld: the bundle carries every file ld --trace says it read" "[]" "$("$PY" - ok.lkb trace.txt <<'PYEOF'
import json, os, subprocess, sys
m = json.loads(subprocess.run(["sh", "-c", 'zstd -qdc "$1" | tar xOf - manifest.json', "_", sys.argv[1]],
                              capture_output=True, check=True).stdout)
carried = {os.path.realpath(f["path"]) for f in m["files"]}
read = {os.path.realpath(l.strip()) for l in open(sys.argv[2]) if l.strip() and ": " not in l}
print(sorted(read - carried) if read else "ld --trace listed nothing")
PYEOF
)"

# The bound (2 GiB) lowered by LINKSCOPE_BUNDLE_MAX, to test it: the first file past it named.
# The bound is a byte under the host's libgcc.a, which no file before it on the
# line outweighs (a fixed 1M is past x86_64's libgcc.a but not aarch64's 330 KB).
libgcc=$(cc -print-libgcc-file-name)
below=$(($(stat -L -c %s "$libgcc") - 1))
run_capture big env LINKSCOPE_BUNDLE_MAX=$below "$REAL" bundle --inputs "$rok" -o big.lkb
check_eq "past the bound: exit 1, one line" "1 1" "$(cat "$T/big.rc") $(wc -l <"$T/big.err")"
check_contains "past the bound: names the file" "$(cat "$T/big.err")" \
	"cannot bundle '$libgcc' ($((below + 1)) bytes): a bundle carries at most $below bytes"
check_eq "past the bound: no bundle, no temporary file" "" "$(ls | grep big.lkb)"

# --- The originals gone: the objects, the archive, the record dir.
rm -rf lib main.o foo.o "$LINKSCOPE_DIR"
after=$("$LINKSCOPE" report --format json "$T/inputs.lkb" | verdict)
check_eq "report --format json of the bundle: the record's verdict" "$before" "$after"
after_text=$("$LINKSCOPE" explain "$T/inputs.lkb" | sed 1d)
check_eq "explain of the bundle: the record's explanation" "$before_text" "$after_text"
check_eq "why of the bundle: the record's answer" "$before_why" "$("$LINKSCOPE" why "$T/inputs.lkb" foo)"
check_eq "show --json of the bundle: the archive by its own path" "$T/lib/libfoo.a" \
	"$("$LINKSCOPE" show --json "$T/inputs.lkb" | "$PY" -c 'import json,sys; print([i["path"] for i in json.load(sys.stdin)["items"] if i.get("word") == "-lfoo"][0])')"
shown=$("$LINKSCOPE" show "$T/inputs.lkb")
check_contains "show: -lfoo read from the bundle's copy" "$shown" "not on this machine; read from the copy in the bundle"
check_contains "show: names the bundle as the record" "$shown" "record   $T/inputs.lkb"
check_contains "show: the copy named by the archive's own path" "$shown" "-lfoo  -> $T/lib/libfoo.a  archive"
check_eq "show: no copy named by its path in the unpacked dir" "" "$(grep -E 'linkscope-bundle-|blobs/' <<<"$shown")"
check_eq "no unpacked dir is left behind" 0 "$(leftovers)"
# Another libfoo.a at the archive's path (foo gone from it): the bundle's copy is what the link read.
mkdir lib && printf 'int bar(void) { return 1; }\n' >bar.c && cc -c bar.c && ar rcs lib/libfoo.a bar.o
check_eq "another file at the path: the record's verdict still" "$before" \
	"$("$LINKSCOPE" report --format json "$T/inputs.lkb" | verdict)"
check_contains "... read from the bundle's copy, said" "$("$LINKSCOPE" show "$T/inputs.lkb")" \
	"-lfoo  -> $T/lib/libfoo.a  archive, 1 members; another file on this machine; read from the copy in the bundle"
rm -rf lib
plain=$("$LINKSCOPE" explain "$T/plain.lkb")
check_contains "without --inputs: what is gone is said, not a silent cannot-find" "$plain" \
	"'-lfoo' (lib/libfoo.a), which the link read, is absent on this machine and not in the bundle"
check_contains "... and the outcome is then unknown" "$(head -n 1 <<<"$plain")" "the outcome is unknown"
check_eq "... but not -lnothere, which the link could not find either" "" "$(grep -- "'-lnothere'.*absent" <<<"$plain")"
check_contains "a bundle on stdin" "$("$LINKSCOPE" report --format json - <"$T/inputs.lkb" | verdict)" "$before"
run_capture ck "$LINKSCOPE" check --format json --baseline "$T/inputs.lkb" "$T/inputs.lkb"
check_eq "check of a bundle against itself: the link's failure (exit 1), read without an error" "1 " "$(cat "$T/ck.rc") $(cat "$T/ck.err")"
check_contains "... its verdict: GNU ld fails it" "$(cat "$T/ck.out")" '"gnu_ld": "failure"'

# --- DT_NEEDED: libb.so, reached only through liba.so's DT_NEEDED (-rpath-link), found in the bundle.
mkdir -p na nb
printf 'int b(void) { return 2; }\n' >b.c
printf 'int b(void);\nint a(void) { return b(); }\n' >a.c
printf 'int a(void); int b(void);\nint main(void) { return a() + b(); }\n' >nm.c
cc -shared -fPIC b.c -o nb/libb.so && cc -shared -fPIC a.c -Lnb -lb -o na/liba.so && cc -c nm.c -o nm.o
run_capture nlink "$SHIM" nm.o -Lna -la -Wl,-rpath-link,nb -o nm
check_eq "the DSO-missing link fails" 1 "$(cat "$T/nlink.rc")"
rn=$(last_record)
nbefore=$("$LINKSCOPE" report --format json "$rn" | verdict)
check_contains "its verdict: b is defined only in libb.so, reached through liba.so" "$nbefore" "('dso-missing', 'b')"
"$REAL" bundle --inputs "$rn" -o "$T/needed.lkb" >/dev/null
check_contains "the bundle carries libb.so as found through DT_NEEDED" \
	"$(zstd -qdc "$T/needed.lkb" | tar xOf - manifest.json)" "\"role\": \"needed\""
rm -rf na nb nm.o "$rn"
check_eq "the bundle, liba.so and libb.so gone: the same verdict" "$nbefore" \
	"$("$LINKSCOPE" report --format json "$T/needed.lkb" | verdict)"

# --- A rustc link (cargo, offline): the rlibs, the build script's archives, rustc's symbols.o.
CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
if [ -x "$CARGO" ]; then
	check "cargo is installed" test -x "$CARGO"
	export LINKSCOPE_DIR=$T/records
	cp -r "$ROOT/testdata/cargo-group" crate
	export CARGO_TARGET_DIR=$T/target
	RUSTFLAGS="-Clinker=$SHIM" run_capture cargo "$CARGO" build --offline -q --manifest-path crate/Cargo.toml
	check_eq "cargo build through the shim succeeds" 0 "$(cat "$T/cargo.rc")"
	rr=$(grep -l '"output": ".*/deps/cargo_group-' "$LINKSCOPE_DIR"/*.json | head -n 1)
	check "found the binary's record" test -n "$rr"
	rbefore=$("$LINKSCOPE" report --format json "$rr" | verdict)
	check_contains "the rustc link's verdict: success" "$rbefore" "success"
	run_capture rb "$LINKSCOPE" bundle --inputs "$rr" -o "$T/rust.lkb"
	check_eq "bundle --inputs of the rustc link: exit 0" 0 "$(cat "$T/rb.rc")"
	check_contains "it carries the build script's archive" "$(zstd -qdc "$T/rust.lkb" | tar xOf - manifest.json)" "/libanswer.a\""
	rm -rf "$T/target" crate "$LINKSCOPE_DIR"
	check_eq "the rustc link's bundle, its target dir gone: the same verdict" "$rbefore" \
		"$("$LINKSCOPE" report --format json "$T/rust.lkb" | verdict)"
	check_contains "... read from the bundle's copies" "$("$LINKSCOPE" show "$T/rust.lkb")" "read from the copy in the bundle"
else
	ok "# SKIP the rustc link: no cargo"
fi

# --- Hostile bundles: one line naming the file, exit 1, nothing written outside.
# mkbundle OUT SPEC: a tar made by Python's tarfile (pax) after our magic, zstd-compressed.
mkbundle() {
	"$PY" - "$@" <<'PYEOF'
import hashlib, io, json, subprocess, sys, tarfile
out, spec = sys.argv[1], sys.argv[2]
rec = b'{"schema": "x"}'
man = json.dumps({"schema": "linkscope-bundle-manifest/1", "tool": "t", "files": [], "absent": [],
                  "record": {"member": "record.json", "sha256": hashlib.sha256(rec).hexdigest(), "size": len(rec), "id": "x"}}).encode()
buf = io.BytesIO()
t = tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT)
def add(name, data, **kw):
    i = tarfile.TarInfo(name); i.size = len(data)
    for k, v in kw.items(): setattr(i, k, v)
    t.addfile(i, io.BytesIO(data) if i.type == tarfile.REGTYPE else None)
add("manifest.json", man)
add("record.json", rec)
bad = b"not what its name says"
if spec == "dotdot": add("../x", b"escaped")
elif spec == "absolute": add(sys.argv[3], b"escaped")
elif spec == "symlink":
    i = tarfile.TarInfo("blobs/" + hashlib.sha256(b"").hexdigest()); i.type = tarfile.SYMTYPE; i.linkname = "/etc/passwd"; t.addfile(i)
elif spec == "digest": add("blobs/" + hashlib.sha256(b"other").hexdigest(), bad)
elif spec == "huge":
    i = tarfile.TarInfo("blobs/" + "a" * 64); i.size = 0; i.pax_headers = {"size": str(1 << 40)}; t.addfile(i)
t.close()
z = subprocess.run(["zstd", "-q", "-c"], input=buf.getvalue(), capture_output=True, check=True).stdout
magic = bytes([0x50, 0x2a, 0x4d, 0x18, 24, 0, 0, 0]) + b"linkscope-bundle/1" + bytes(6)
open(out, "wb").write(magic + z)
PYEOF
}
hostile() { # SPEC WANT [ARG]: explain refuses it in one line naming the file and saying WANT
	local spec=$1 want=$2 f=$T/hostile-$1.lkb
	mkbundle "$f" "$spec" "${3:-}"
	run_capture h "$LINKSCOPE" explain "$f"
	check_eq "hostile ($spec): exit 1" 1 "$(cat "$T/h.rc")"
	check_eq "hostile ($spec): one line" 1 "$(wc -l <"$T/h.err")"
	check_contains "hostile ($spec): names the file" "$(cat "$T/h.err")" "bundle '$f'"
	check_contains "hostile ($spec): says why" "$(cat "$T/h.err")" "$want"
	check_eq "hostile ($spec): its unpacked dir is removed" 0 "$(leftovers)"
}
hostile dotdot "refusing member '../x': not a name a bundle holds"
check "... nothing written beside the private dir" test ! -e "$TMPDIR/x" -a ! -e "$T/elsewhere/x"
hostile absolute "refusing member '$T/escaped'" "$T/escaped"
check "... nothing written at the absolute path" test ! -e "$T/escaped"
hostile symlink "not a regular file"
hostile digest "its content's SHA-256 is $(printf 'not what its name says' | sha256sum | cut -d' ' -f1)"
hostile huge "declares 1099511627776 bytes, more than a bundle may hold"
head -c $(($(stat -c %s "$T/inputs.lkb") / 2)) "$T/inputs.lkb" >"$T/truncated.lkb"
run_capture h "$LINKSCOPE" explain "$T/truncated.lkb"
check_eq "a truncated bundle: exit 1" 1 "$(cat "$T/h.rc")"
check_eq "a truncated bundle: one line" 1 "$(wc -l <"$T/h.err")"
check_contains "a truncated bundle: names it and says so" "$(cat "$T/h.err")" "bundle '$T/truncated.lkb': "
check_contains "... truncated" "$(cat "$T/h.err")" "truncated"
check_eq "a truncated bundle: its unpacked dir is removed" 0 "$(leftovers)"

# --- bundle's own bounds and usage. LINKSCOPE_BUNDLE_MAX lowers the bound (2 GiB) to test it.
run_capture big env LINKSCOPE_BUNDLE_MAX=1M "$REAL" explain "$T/inputs.lkb"
check_eq "reading past the bound: exit 1, one line" "1 1" "$(cat "$T/big.rc") $(wc -l <"$T/big.err")"
check_contains "reading past the bound: the member named" "$(cat "$T/big.err")" "more than a bundle may hold (1048576 in all)"
check_eq "reading past the bound: its unpacked dir is removed" 0 "$(leftovers)"
check_eq "a bound above 2 GiB is not taken" 0 "$(LINKSCOPE_BUNDLE_MAX=8G "$REAL" explain "$T/inputs.lkb" >/dev/null 2>&1; echo $?)"
run_capture u "$REAL" bundle "$T/inputs.lkb"
check_eq "bundle without -o: a usage error" "2 linkscope: 'bundle' needs -o FILE: where to write the bundle" "$(cat "$T/u.rc") $(head -n 1 "$T/u.err")"
run_capture u "$REAL" bundel
check_contains "did you mean bundle" "$(cat "$T/u.err")" "did you mean 'bundle'?"

# --- An aarch64 link, bundled with its inputs, explained with its sysroot absent.
export LINKSCOPE_DIR=$T/records-a64
mkdir a64 && cd a64 || exit 1
need_arch aarch64
a64cc=$(arch_tool aarch64 gcc)
read -r a64libc6 _ <<<"$(libc_paths "$a64cc")"
read -r -a line <<<"$("$ROOT/testdata/iree-case/build.sh")"
run_capture a64 "$SHIM" -- "$a64cc" "${line[@]}" -o app
check_eq "the aarch64 link fails (DSO missing)" 1 "$(cat "$T/a64.rc")"
ra=$(last_record)
abefore=$("$LINKSCOPE" report --format json "$ra" | verdict)
abefore_text=$("$LINKSCOPE" explain "$ra" | sed 1d)
check_contains "its verdict: dso-missing" "$abefore" "dso-missing"
"$REAL" bundle --inputs "$ra" -o "$T/a64.lkb" >/dev/null
"$REAL" bundle "$ra" -o "$T/a64-plain.lkb" >/dev/null
check_contains "the bundle carries the aarch64 libc.so.6" "$(zstd -qdc "$T/a64.lkb" | tar xOf - manifest.json)" \
	"\"path\": \"$a64libc6\""
cd "$T" && rm -rf a64 "$LINKSCOPE_DIR"
# The cross sysroot and gcc-cross hidden by empty mounts, as on a machine without them.
without_sysroot() {
	unshare -m bash -c 'mount -t tmpfs none /usr/aarch64-linux-gnu && mount -t tmpfs none /usr/lib/gcc-cross && exec "$@"' _ "$@"
}
if [ "$HOST_ARCH" = aarch64 ]; then
	ok "# skip: the aarch64 link is native here, its libc is the machine's own and cannot be hidden"
elif without_sysroot test ! -e /usr/aarch64-linux-gnu/lib/libc.so.6 2>/dev/null; then
	check_eq "aarch64 bundle, the sysroot absent: the record's verdict" "$abefore" \
		"$(without_sysroot "$LINKSCOPE" report --format json "$T/a64.lkb" | verdict)"
	check_eq "... its explanation the record's, each file named as the link named it" "$abefore_text" \
		"$(without_sysroot "$LINKSCOPE" explain "$T/a64.lkb" | sed 1d)"
	absent=$(without_sysroot "$LINKSCOPE" explain "$T/a64-plain.lkb")
	check_contains "without --inputs and the sysroot absent: the start files' absence said" "$absent" \
		"aarch64-linux-gnu/lib/../lib/crti.o', which the link read, is absent on this machine and not in the bundle"
	check_contains "... and the cross libc's" "$absent" \
		"'-lc', which the link read, is absent on this machine and not in the bundle"
else
	ok "# skip: no mount namespace here (unshare -m), the aarch64 sysroot cannot be hidden"
fi
check_eq "no unpacked dir is left behind at the end" 0 "$(leftovers)"
finish
