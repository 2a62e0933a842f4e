# The README's whatif recipe runs (issue #31, point 4): its two jobs' steps,
# read from the README, in order as a runner runs them: main's link job on
# a fixture (testdata/cargo-group) bundles its good link; the artifact goes
# to a PR's check job on an edited copy of the tree in another directory
# (the first one removed: another machine's paths), which runs `cargo
# check` and `whatif --format github`. A PR whose edit breaks the link gets
# exit 1 and an ::error on build.rs; one that does not, exit 0 and a notice.
# The real `cargo build` of each PR's tree is the oracle. `git clone` and
# the artifact actions are stand-ins (no network); every other command is real.
. "$(dirname "$0")/lib.sh"

CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
mkdir -p fake artifacts
cat >fake/git <<EOF
#!/bin/sh
[ "\$1" = clone ] || exit 2
mkdir -p linkscope/build && ln -s "$LK_BUILD/bin" linkscope/build/bin && printf 'all:\n' >linkscope/Makefile
EOF
chmod +x fake/git

# run JOB WORKSPACE: the README recipe's job, its steps in order (readme-job.py), one line per step.
run() {
	ARTIFACTS=$T/artifacts PATH=$T/fake:$PATH "$PY" "$ROOT/tests/integ/readme-job.py" "$ROOT/README.md" \
		"### Predicting the link in the job that does not link: \`linkscope whatif\`" "$1" "$2"
}

unset RUSTFLAGS CARGO_TARGET_DIR
cp -r "$ROOT/testdata/cargo-group" main-tree
steps=$(run link "$T/main-tree")
echo "$steps" >main.steps
check_contains "main: the link succeeds" "$steps" "Link: ran 0"
check_contains "main: the good link is bundled" "$steps" "Bundle the good link: ran 0"
check_contains "main: and uploaded" "$steps" "uploaded"
check "the artifact is there" test -s artifacts/link-baseline.lkb
check_eq "the bundle is private (0600)" 600 "$(stat -c %a artifacts/link-baseline.lkb)"

# Two PRs, elsewhere; main's tree and records gone, as on another runner.
cp -r "$ROOT/testdata/cargo-group" pr-breaks
cp -r "$ROOT/testdata/cargo-group" pr-fine
rm -rf main-tree
sed -i 's|^    println!("cargo:rustc-link-arg{which}=-l:{answer}");|    let _ = answer;|' pr-breaks/build.rs
printf 'int lk_answer_part(void) { return 21 + 0; }\n' >pr-fine/csrc/part.c

steps=$(run check "$T/pr-breaks")
echo "$steps" >pr-breaks.steps
check_contains "PR that breaks: cargo check passes" "$steps" "Check: ran 0"
check_contains "PR that breaks: the baseline fetched" "$steps" "downloaded"
check_contains "PR that breaks: the prediction fails the step (exit 1)" "$steps" "Predict the link: ran 1"
out=$(cat "$T"/pr-breaks.step*.out)
check_contains "PR that breaks: an ::error annotation" "$out" "::error "
check_contains "PR that breaks: on the build script, relative to the workspace" "$out" "file=build.rs"
(cd pr-breaks && "$CARGO" build --release --offline -q >/dev/null 2>&1)
check_eq "PR that breaks: the real link fails" 101 "$?"

steps=$(run check "$T/pr-fine")
echo "$steps" >pr-fine.steps
check_contains "PR that does not break: the prediction passes (exit 0)" "$steps" "Predict the link: ran 0"
check_contains "PR that does not break: a notice" "$(cat "$T"/pr-fine.step*.out)" "::notice "
(cd pr-fine && "$CARGO" build --release --offline -q >/dev/null 2>&1)
check_eq "PR that does not break: the real link succeeds" 0 "$?"
finish
