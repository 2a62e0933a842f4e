# The README's GitHub Actions example runs (issue #32, point 7): its steps,
# read from the README, run in order as a runner runs them (bash -e, the
# job's env, `if: failure()` only after a failed step, the others only
# while none failed) on three fixture workspaces: a build that fails before
# any link, one whose link fails, one that links. `sudo` and `git clone`
# are stand-ins (no root, no network): sudo logs what it was asked, the
# clone gives the linkscope under test; every other command is real.
. "$(dirname "$0")/lib.sh"

CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
mkdir -p fake
cat >fake/sudo <<'EOF'
#!/bin/sh
echo "$*" >>"$FAKE_LOG"
EOF
cat >fake/git <<EOF
#!/bin/sh
# git clone ... linkscope.git: the linkscope under test, already built.
[ "\$1" = clone ] || exit 2
mkdir -p linkscope/build && ln -s "$LK_BUILD/bin" linkscope/build/bin && printf 'all:\n' >linkscope/Makefile
EOF
cp "$CARGO" fake/ 2>/dev/null || ln -s "$CARGO" fake/cargo
chmod +x fake/sudo fake/git

# A workspace: a crate with the feature the example builds; main.rs is each case's.
workspace() {
	mkdir -p "$T/$1/src"
	printf '[package]\nname = "xla-%s"\nversion = "0.1.0"\nedition = "2021"\n\n[features]\nxla = []\n' "$1" >"$T/$1/Cargo.toml"
	printf '%s\n' "$2" >"$T/$1/src/main.rs"
}
workspace nolink 'fn main() { this does not compile }'
# (the test harness's binary is what cargo test links: the test calls it too)
workspace linkfails 'extern "C" { fn xla_missing_131(); }
fn call() { unsafe { xla_missing_131() } }
fn main() { call() }
#[test]
fn calls() { call() }'
workspace links 'fn main() { println!("ok"); }'

# run WORKSPACE: the README example's steps in order (readme-job.py); one line per step; the job's outcome.
run() {
	FAKE_LOG=$T/$1.sudo PATH=$T/fake:$PATH "$PY" "$ROOT/tests/integ/readme-job.py" "$ROOT/README.md" \
		"### A CI job (GitHub Actions)" - "$T/$1"
}

# 1. The build fails before any link: no record directory; every step that runs is fine but the build's.
steps=$(run nolink)
echo "$steps" >"$T/nolink.steps"
check_contains "no link: the dependencies installed" "$steps" "Install what linkscope builds with: ran 0"
check_contains "no link: linkscope built" "$steps" "Build linkscope: ran 0"
check_contains "no link: the build fails" "$steps" "Link: ran 101"
check_contains "no link: the summary step runs and is fine" "$steps" "Summarise the failed links: ran 0"
check "no link: no record directory" test ! -e "$T/nolink/link-records"
check_contains "no link: the summary says no failed link" "$(cat "$T/nolink.summary.md")" "## linkscope: 0 failed links, 0 causes"
check_eq "no link: no annotation" "" "$(grep '^::' "$T"/nolink.step4.out)"

# What the install step asks for is what linkscope builds with (scripts/install-deps.sh's list).
pkgs=$(sed -n 's/^apt-get install -y --no-install-recommends //p' "$T/nolink.sudo")
check "the install step installs packages" test -n "$pkgs"
for p in $pkgs; do
	check "the install step's $p is one install-deps.sh installs" grep -qw -- "$p" "$ROOT/scripts/install-deps.sh"
done
for p in libjansson-dev libelf-dev binutils-dev; do
	check_contains "the install step installs $p" "$pkgs" "$p"
done

# 2. The link fails: an annotation on the reference's source line, relative to the workspace.
steps=$(run linkfails)
echo "$steps" >"$T/linkfails.steps"
check_contains "link fails: the build fails" "$steps" "Link: ran 101"
check_contains "link fails: the summary step is fine" "$steps" "Summarise the failed links: ran 0"
check_contains "link fails: the check step is skipped, as after any failed step" "$steps" \
	"Check that the links do not succeed by accident: skipped"
ann=$(grep '^::error' "$T"/linkfails.step4.out)
check_contains "link fails: the annotation on main.rs, relative to the workspace" "$ann" "::error file=src/main.rs,line="
# rustc links with rust-lld: the cause as `explain` says it (issue #43, point 1).
check_contains "link fails: titled by the cause" "$ann" "title=linkscope%3A undefined-symbol%3A xla_missing_131 (1 link)::"
check_contains "link fails: the job summary has the cause" "$(cat "$T/linkfails.summary.md")" '`undefined-symbol: xla_missing_131`'
# Issue #32 point 9: every Rust line collects sections; the count alone changes nothing and is not said.
check_eq "link fails: no --gc-sections note that changes nothing" 0 "$(grep -c -- '--gc-sections' "$T/linkfails.summary.md" "$T"/linkfails.step4.out | awk -F: '{n += $2} END {print n}')"
check_eq "link fails: nor in explain" 0 "$(cd "$T/linkfails" && "$LINKSCOPE" explain --dir link-records last | grep -c -- '--gc-sections')"

# 3. It links: the summary is skipped, the check runs on every record and passes.
steps=$(run links)
echo "$steps" >"$T/links.steps"
check_contains "links: the build links" "$steps" "Link: ran 0"
check_contains "links: the summary step is skipped" "$steps" "Summarise the failed links: skipped"
check_contains "links: the check runs and passes" "$steps" "Check that the links do not succeed by accident: ran 0"
check "links: the check's verdicts are in the job summary" test -s "$T/links.summary.md"
check_eq "links: the job succeeds" "job: success" "$(tail -n 1 <<<"$steps")"
finish
