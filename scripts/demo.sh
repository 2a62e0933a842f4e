#!/usr/bin/env bash
# make demo: the main job on a bundled example. A real cargo build of
# testdata/cargo-group (variant atexit) with linkscope-cc as the linker,
# once with GNU ld, where the link fails the way the case in
# ../shared/background fails, and once with rustc's default rust-lld, where
# it links. Then what the records say about the two lines.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
shim=$build/bin/linkscope-cc
cargo=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")

t=$(mktemp -d /tmp/lk-demo.XXXXXX)
trap 'rm -rf "$t"' EXIT
export LINKSCOPE_DIR=$t/records CARGO_GROUP_VARIANT=atexit
cp -r "$root/testdata/cargo-group" "$t/crate"

echo "== cargo build with GNU ld (-Clinker-features=-lld), linker = linkscope-cc"
CARGO_TARGET_DIR=$t/target-bfd RUSTFLAGS="-Clinker=$shim -Clinker-features=-lld" \
	"$cargo" build --offline -q --manifest-path "$t/crate/Cargo.toml" 2>&1 | grep -E "undefined reference|ld returned" | sed 's/^ */   /'
echo "== cargo build with rustc's default rust-lld"
CARGO_TARGET_DIR=$t/target-lld RUSTFLAGS="-Clinker=$shim" \
	"$cargo" build --offline -q --manifest-path "$t/crate/Cargo.toml" && echo "   linked; runs: $("$t/target-lld/debug/cargo-group")"

echo "== linkscope list"
"$build/bin/linkscope" list | sed 's/^/   /'

# NEEDSWORK(#3): `linkscope show` will print this annotated line itself.
echo "== what the records hold about the two binary links"
for r in $(grep -l '"output": ".*/deps/cargo_group-' "$LINKSCOPE_DIR"/*.json | sort); do
	/usr/bin/python3 - "$r" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a, p, line = r["argv_expanded"], r["provenance"]["args"], r["line"]
res = r["result"]
print(f"   {sys.argv[1].rsplit('/', 1)[1]}: exit {res['exit_status']}, linker {r['linker']['flavor']}"
      f" ({r['linker']['program'] or r['linker']['print_prog_name']})")
for i in line["lc"]:
    print(f"     -lc at position {i} ({p[i]})")
for g in line["groups"]:
    print(f"     group {g['start']}..{g['end']} ({p[g['start']]}): {[c['text'] for c in g['contents']]}")
la = r["provenance"]["link_args"]
print(f"     appended from cargo:rustc-link-arg (read from rustc's command line): positions {la['start']}..{la['end'] - 1}")
if r["stderr"]["text"]:
    print("     the linker said: " + [l for l in r["stderr"]["text"].splitlines() if "undefined" in l][0].strip())
if r["expansion"]:
    e = r["expansion"]
    print(f"     the driver's own ld line (-###) has {len(e['commands'][e['linker_command']])} arguments")
PY
done
echo "== (the records were written to a temporary directory, removed now)"
