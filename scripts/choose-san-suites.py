#!/usr/bin/env python3
"""scripts/choose-san-suites.py [--jobs N] [--budget S] [--data FILE]: choose,
by coverage, the integration suites that `make check` runs in the sanitizer
build, and write them to tests/san-suites.txt (issue #30, #47).

The candidates are the suites tests/run.sh can run in build-san: the plain
pass of each integration suite whose `# passes:` header names `san` (or
that has none); make check runs no elsewhere pass under the sanitizers.
Each is run alone (LK_ONLY) in a coverage build (gcc --coverage -O0), and
gcov says which lines of analyzer/, shim/ and common/ it ran. The sanitizer
build always runs the unit tests and the difftests at their sanitized sizes
(LK_SAN_SIZES=1); to those the candidates are added greedily, the most
lines not yet covered per second of CPU first, while their CPU time in the
coverage build stays within the budget (--budget, 100 s: make check in 15
minutes on two cores, issue #47); a suite that does not fit is passed over
for the next. The lines the candidates cover that the chosen suites, the
unit tests and the difftests leave out are counted in the list's header:
under ASan those run only in make check-full. The others are marked `skip`.

Each of the N jobs has a coverage build of its own, build-cov-1 ... -N: a
.gcda file's path is fixed when its object is compiled, so GCOV_PREFIX
could not keep two suites' counts apart. A suite's counts are taken, and
removed, after it ends, before the job's next suite starts.

A process that cannot write its counts (072 runs the shim as user nobody,
who may not write into the build tree) leaves the suite's coverage
incomplete; libgcov says so on stderr ("profiling:...:Cannot open"), which
fails such a suite (072 checks the shim's stderr), and a suite that failed
so is always run under ASan, as the unit tests are. (GCOV_ERROR_FILE, which
would take those lines off stderr, was not heeded by the static shim.)

--data FILE: choose from the coverage of an earlier run (each run writes it
to build-cov-1/coverage.json) instead of running the suites again;
--again NAME... with it runs those suites again first.
About 15 minutes with two jobs on two idle cores (docs/bench.md).
"""
import argparse
import datetime
import glob
import json
import os
import queue
import re
import subprocess
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "san-suites.txt")
COVERED_DIRS = ("analyzer/", "shim/", "common/")


def san_pass(path):
    """Whether make check runs the suite at PATH in build-san: its `# passes:`
    header (in its first 40 lines, as tests/run.sh reads it) names san, or
    it has none."""
    with open(path, encoding="utf-8") as f:
        for _, line in zip(range(40), f):
            m = re.match(r"# passes: ([a-z ]*)", line)
            if m:
                return "san" in m.group(1).split()
    return True


def suites():
    """The suites as (name, LK_ONLY regex, kind, environment): kind is
    `always` (in the plain run and the sanitizer build's) or `integ` (a
    candidate)."""
    out = [("unit", "^unit/", "always", {}),
           ("difftests", "^difftest", "always", {"LK_SAN_SIZES": "1"})]
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "integ", "[0-9]*.sh"))):
        if san_pass(path):
            name = "integ/" + os.path.basename(path)[:-3]
            out.append((name, "^%s$" % name, "integ", {}))
    return out


def build(dirname):
    subprocess.run(["make", "-s", "-j2", "BUILD=" + dirname, "CFLAGS=--coverage -O0",
                    "LDFLAGS=--coverage", "all", "unit-build"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)


def gcda_files(dirname):
    return glob.glob(os.path.join(ROOT, dirname, "obj", "**", "*.gcda"), recursive=True)


def covered_lines(dirname):
    """The lines of COVERED_DIRS that the counts in DIRNAME say ran, as "file:line"."""
    files = gcda_files(dirname)
    if not files:
        return set()
    res = subprocess.run(["gcov", "--json-format", "--stdout"] + files, cwd=ROOT,
                         check=True, capture_output=True, text=True)
    lines = set()
    for doc in res.stdout.splitlines():
        for f in json.loads(doc)["files"]:
            if f["file"].startswith(COVERED_DIRS):
                lines.update("%s:%d" % (f["file"], l["line_number"])
                             for l in f["lines"] if l["count"] > 0)
    return lines


def run_one(dirname, suite):
    """Run one suite in build DIRNAME: its covered lines, CPU seconds, and
    whether it passed."""
    only = suite[1]
    for f in gcda_files(dirname):
        os.unlink(f)
    env = dict(os.environ, LK_ONLY=only, LK_TEST_JOBS="1", **suite[3])
    log = os.path.join(ROOT, dirname, "suite.log")
    with open(log, "w") as out:
        p = subprocess.Popen(["bash", os.path.join(ROOT, "tests", "run.sh"), dirname],
                             cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        # wait4: the CPU time of the suite's processes alone, not the other job's.
        _, status, usage = os.wait4(p.pid, 0)
    with open(log) as f:
        text = f.read()
    last = text.splitlines()[-1:] or [""]
    ok = os.waitstatus_to_exitcode(status) == 0 and last[0].endswith(" passed, 0 failed")
    # run.sh prints a failed suite's log: counts lost there are the failure.
    complete = "profiling:" not in text
    return covered_lines(dirname), usage.ru_utime + usage.ru_stime, ok or not complete, complete


def measure(jobs, todo_suites, data):
    """Run TODO_SUITES on JOBS coverage builds, their coverage into DATA."""
    dirs = ["build-cov-%d" % (k + 1) for k in range(jobs)]
    for d in dirs:
        build(d)
    todo = queue.Queue()
    for s in todo_suites:
        todo.put(s)
    lock = threading.Lock()

    def worker(dirname):
        while True:
            try:
                s = todo.get_nowait()
            except queue.Empty:
                return
            lines, cpu, ok, complete = run_one(dirname, s)
            kind = s[2] if complete or s[2] != "integ" else "unmeasured"
            with lock:
                data[s[0]] = {"kind": kind, "cpu": round(cpu, 2), "passed": ok,
                              "lines": sorted(lines)}
                print("%-48s %6.1f s CPU %5d lines%s%s" % (s[0], cpu, len(lines),
                      "" if ok else "  FAILED", "" if complete else "  (counts lost)"), flush=True)

    threads = [threading.Thread(target=worker, args=(d,)) for d in dirs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with open(os.path.join(ROOT, dirs[0], "coverage.json"), "w") as f:
        json.dump(data, f)


def choose(data, budget):
    """The greedy cover within BUDGET CPU seconds: the chosen suites, in the
    order chosen, with the lines each added; and the counts of the summary."""
    plain = set().union(*(set(d["lines"]) for d in data.values()))
    always = ("always", "unmeasured")
    covered = set().union(*(set(d["lines"]) for d in data.values() if d["kind"] in always))
    need = plain - covered
    cands = {n: set(d["lines"]) & need for n, d in data.items() if d["kind"] == "integ"}
    chosen, spent = [], 0.0
    while need and cands:
        best = max(cands, key=lambda n: (len(cands[n] & need) / max(data[n]["cpu"], 0.1), n))
        gain = cands.pop(best) & need
        if not gain:
            break
        if spent + data[best]["cpu"] > budget:
            continue
        chosen.append((best, len(gain)))
        spent += data[best]["cpu"]
        need -= gain
    return chosen, len(plain), len(plain & covered), need


def head_commit():
    res = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                         capture_output=True, text=True)
    return res.stdout.strip() or "unknown"


def write(data, chosen, n_plain, n_always, left, budget):
    picked = {n for n, _ in chosen} | {n for n in data if data[n]["kind"] == "unmeasured"}
    integ = [n for n in data if data[n]["kind"] in ("integ", "unmeasured")]
    cpu_all = sum(data[n]["cpu"] for n in integ)
    cpu_run = sum(data[n]["cpu"] for n in picked)
    with open(OUT, "w") as f:
        f.write("# The integration suites that tests/run.sh runs in build-san: `run` or `skip`.\n")
        f.write("# Written by scripts/choose-san-suites.py (its docstring says how) at %s on %s:\n"
                % (head_commit(), datetime.date.today().isoformat()))
        f.write("# do not edit; run it again after adding suites or code. The candidates cover\n")
        f.write("# %d lines of analyzer/, shim/ and common/; the unit tests, the difftests and\n"
                % n_plain)
        f.write("# the suites whose counts were lost (always run) %d of them; the other %d\n"
                % (n_always, len(chosen)))
        f.write("# suites marked run %d more, in %.0f s of CPU in the coverage build (the\n"
                % (n_plain - n_always - len(left), cpu_run))
        f.write("# budget: %.0f s, of the %d suites' %.0f s). %d lines run under ASan only in\n"
                % (budget, len(integ), cpu_all, len(left)))
        f.write("# make check-full.\n")
        for n in sorted(integ):
            f.write("%s %s\n" % ("run" if n in picked else "skip", n))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--budget", type=float, default=100.0,
                    help="CPU seconds in the coverage build for the suites chosen")
    ap.add_argument("--data", help="coverage.json of an earlier run")
    ap.add_argument("--again", nargs="*", default=[], help="with --data: suites to run again")
    args = ap.parse_args()
    all_suites = suites()
    unknown = set(args.again) - {s[0] for s in all_suites}
    if unknown:
        sys.exit("choose-san-suites: no suite %s" % ", ".join(sorted(unknown)))
    data = {}
    if args.data:
        with open(args.data) as f:
            old = json.load(f)
        # The suites there are now, as they are run now: one renamed or
        # removed since is no candidate.
        data = {s[0]: dict(old[s[0]], kind=s[2] if old[s[0]]["kind"] != "unmeasured" else "unmeasured")
                for s in all_suites if s[0] in old}
        todo = [s for s in all_suites if s[0] in args.again or s[0] not in data]
    else:
        todo = all_suites
    if todo:
        measure(args.jobs, todo, data)
    failed = sorted(n for n, d in data.items() if not d["passed"])
    if failed:
        sys.exit("choose-san-suites: suites failed in the coverage build, no list written: "
                 + ", ".join(failed))
    chosen, n_plain, n_always, left = choose(data, args.budget)
    for n, gain in chosen:
        print("run %-48s +%d lines, %.1f s CPU" % (n, gain, data[n]["cpu"]))
    if left:
        print("%d lines run under ASan only in make check-full, the first: %s"
              % (len(left), " ".join(sorted(left)[:20])))
    write(data, chosen, n_plain, n_always, left, args.budget)
    print("wrote %s: %d of %d suites run" % (OUT, len(chosen) + sum(
          1 for d in data.values() if d["kind"] == "unmeasured"),
          sum(1 for d in data.values() if d["kind"] in ("integ", "unmeasured"))))


if __name__ == "__main__":
    main()
