# One summary of a whole build's failed links (`report --failed`), on real
# records: two cargo builds of the crate in testdata/cargo-group where two
# binaries fail for the same cause (atexit read too late) and one test
# binary links, plus the aarch64 case of ../shared/background (DSO
# missing). The same cause is told once, with both links; the README's CI
# example is run as written.
# passes: plain elsewhere san (report --failed over a record dir, its names relative to
# the directory)
. "$(dirname "$0")/lib.sh"

CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
cp -r "$ROOT/testdata/cargo-group" crate
export RUSTFLAGS="-Clinker=$SHIM $(rust_no_lld)"
CARGO_GROUP_VARIANT=atexit-tests CARGO_TARGET_DIR=$T/t1 \
	"$CARGO" test --offline -q --no-run --no-fail-fast --manifest-path crate/Cargo.toml >/dev/null 2>&1
CARGO_GROUP_VARIANT=atexit CARGO_TARGET_DIR=$T/t2 \
	"$CARGO" build --offline -q --manifest-path crate/Cargo.toml >/dev/null 2>&1
unset RUSTFLAGS
need_arch aarch64
a64cc=$(arch_tool aarch64 gcc)
read -r _ a64loader <<<"$(libc_paths "$a64cc")"
mkdir iree && (cd iree && read -r -a line <<<"$("$ROOT/testdata/iree-case/build.sh")" &&
	"$SHIM" -- "$a64cc" "${line[@]}" -o app 2>/dev/null)
check_eq "three failed links recorded" 3 "$("$LINKSCOPE" list | grep -c ' exit:1 ')"

out=$("$LINKSCOPE" report --failed)
check_eq "report --failed exits 0" 0 $?
check_contains "the heading counts links and causes" "$out" "linkscope: 3 failed links of "
check_contains "two causes" "$out" ": 2 causes"
check_contains "atexit once, for two links" "$out" "1. undefined-symbol: atexit (2 links)"
check_eq "atexit is told once" 1 "$(grep -c 'undefined-symbol: atexit' <<<"$out")"
check_contains "the bin" "$out" "link: $T/t2/debug/deps/cargo_group-"
check_contains "the failing test binary" "$out" "link: $T/t1/debug/deps/lk_plain-"
check_eq "the test binary that links is not listed" 0 "$(grep -c 'lk_atexit-' <<<"$out")"
check_contains "each link's own referencing member" "$out" "referenced there by member answer"
check_contains "the verified fix" "$out" "fix (verified by replay): append -lc after -Wl,--end-group at "
check_contains "the aarch64 case" "$out" "2. dso-missing: __stack_chk_guard@@GLIBC_2.17 (1 link)"
check_contains "its loader" "$out" "defined in $a64loader"

"$LINKSCOPE" report --failed --format json >sum.json
j() { "$PY" -c 'import json,sys; r=json.load(open("sum.json")); print(eval(sys.argv[1]))' "$1"; }
check_eq "json: schema, failed, causes" "linkscope-summary/1 3 2" "$(j 'r["schema"] + " " + str(r["failed"]) + " " + str(len(r["causes"]))')"
check_eq "json: the causes in order" "[('undefined-symbol', 'atexit', 2), ('dso-missing', '__stack_chk_guard', 1)]" \
	"$(j '[(c["kind"], c["symbol"], len(c["links"])) for c in r["causes"]]')"
check_eq "json: the first fix verified" "True" "$(j 'r["causes"][0]["fixes"][0]["verified"]')"
"$LINKSCOPE" report --failed --format json >sum2.json
check "json: stable across runs" cmp -s sum.json sum2.json

# The README's CI example, as written (paths of the job replaced by this test's).
mkdir -p linkscope/build && ln -s "$LK_BUILD/bin" linkscope/build/bin && ln -s "$LINKSCOPE_DIR" link-records
export GITHUB_STEP_SUMMARY=$T/summary.md
steps=$(sed -n '/^### A CI job/,/^```$/p' "$ROOT/README.md" | sed -n '/name: Summarise the failed links/,/- name:/p' |
	sed -n 's/^          \(linkscope\/build\/bin\/linkscope .*\)$/\1/p')
check_eq "the README's summary step has two commands" 2 "$(grep -c . <<<"$steps")"
ann=$(bash -c "$steps")
check_eq "github: one annotation per cause" 2 "$(grep -c '^::error \(file=[^,]*,\(line=[0-9]*,\)\?\)\?title=linkscope%3A ' <<<"$ann")"
check_contains "github: the title escaped, the links named" "$ann" "title=linkscope%3A undefined-symbol%3A atexit (2 links)::"
check_contains "github: on the build.rs line the fix edits, relative to the workspace" "$ann" "::error file=crate/build.rs,line=29,title="
check_contains "github: the fix in the message" "$ann" "Fix (verified by replay): append -lc after -Wl,--end-group at"
check_eq "github: one line each (newlines escaped)" 2 "$(wc -l <<<"$ann")"
md=$(cat "$GITHUB_STEP_SUMMARY")
check_contains "markdown summary: heading" "$md" "## linkscope: 3 failed links, 2 causes"
check_contains "markdown summary: the atexit section" "$md" '### 1. `undefined-symbol: atexit` (2 links)'
check_contains "markdown summary: a fix table" "$md" "| fix | where | verified by replay |"
check_contains "markdown summary: the links table" "$md" "<details><summary>links (2)</summary>"

# --since: a time after every record leaves nothing; an age that covers them all keeps them.
check_contains "--since in the future: no failed link" "$("$LINKSCOPE" report --failed --since 2099-01-01)" "0 failed links of 0 records"
check_contains "--since 1h: all three" "$("$LINKSCOPE" report --failed --since 1h)" "3 failed links"
"$LINKSCOPE" report --failed --since yesterday-ish >/dev/null 2>err.txt
check_eq "--since with a bad time: usage error" 2 $?
check_contains "naming the value" "$(cat err.txt)" "'yesterday-ish' is not a time"
finish
