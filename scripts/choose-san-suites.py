#!/usr/bin/env python3
"""scripts/choose-san-suites.py [--jobs N] [--data FILE]: choose, by coverage,
the integration suites that `make check` runs in the sanitizer build, and
write them to tests/san-suites.txt (issue #30).

Every suite of the plain pass of tests/run.sh is run alone (LK_ONLY) in a
coverage build (gcc --coverage -O0), and gcov says which lines of
analyzer/, shim/ and common/ it ran. The sanitizer build always runs the
unit tests and the three difftests at its own, smaller sizes; to those the
integration suites (each one plain and, where it has one, `elsewhere`) are
added greedily, the most lines not yet covered per second of CPU first,
until every line that the whole plain run covers is covered under ASan
too. The others are marked `skip`.

Each of the N jobs has a coverage build of its own, build-cov-1 ... -N: a
.gcda file's path is fixed when its object is compiled, and the
`elsewhere` pass runs the analyzer under `env -i`, so GCOV_PREFIX could not
keep two suites' counts apart. A suite's counts are taken, and removed,
after it ends, before the job's next suite starts.

--data FILE: choose from the coverage of an earlier run (each run writes it
to build-cov-1/coverage.json) instead of running the suites again.
About 15 minutes with two jobs on two cores (docs/bench.md).
"""
import argparse
import datetime
import glob
import json
import os
import queue
import subprocess
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "san-suites.txt")
COVERED_DIRS = ("analyzer/", "shim/", "common/")
# tests/run.sh's difftest sizes in build-san: DIFFTEST_N / 4 and DIFFTEST_LINKERS_N / 2.
SAN_DIFFTEST_ENV = {"DIFFTEST_N": "25", "DIFFTEST_LINKERS_N": "16"}


def suites():
    """The suites as (name, LK_ONLY regex, extra env, kind): kind is `plain`
    (in the plain run only), `both` (the plain run and, always, the
    sanitizer build's), `san` (the sanitizer build's only) or `integ` (a
    candidate)."""
    out = [
        ("unit", "^unit/", {}, "both"),
        ("difftests", "^difftest", {}, "plain"),
        ("difftests at the sanitizer's sizes", "^difftest", SAN_DIFFTEST_ENV, "san"),
    ]
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "integ", "[0-9]*.sh"))):
        name = "integ/" + os.path.basename(path)[:-3]
        out.append((name, "^%s$" % name, {}, "integ"))
        with open(path, encoding="utf-8") as f:
            if '"$LINKSCOPE"' in f.read():
                out.append((name + " elsewhere", "^%s elsewhere$" % name, {}, "integ"))
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
    name, only, extra, _ = suite
    for f in gcda_files(dirname):
        os.unlink(f)
    env = dict(os.environ, LK_ONLY=only, LK_TEST_JOBS="1", **extra)
    log = os.path.join(ROOT, dirname, "suite.log")
    with open(log, "w") as out:
        p = subprocess.Popen(["bash", os.path.join(ROOT, "tests", "run.sh"), dirname],
                             cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        # wait4: the CPU time of the suite's processes alone, not the other job's.
        _, status, usage = os.wait4(p.pid, 0)
    with open(log) as f:
        last = f.read().splitlines()[-1:] or [""]
    ok = os.waitstatus_to_exitcode(status) == 0 and last[0].endswith(" passed, 0 failed")
    return covered_lines(dirname), usage.ru_utime + usage.ru_stime, ok


def measure(jobs):
    dirs = ["build-cov-%d" % (k + 1) for k in range(jobs)]
    for d in dirs:
        build(d)
    todo = queue.Queue()
    for s in suites():
        todo.put(s)
    data, lock = {}, threading.Lock()

    def worker(dirname):
        while True:
            try:
                s = todo.get_nowait()
            except queue.Empty:
                return
            lines, cpu, ok = run_one(dirname, s)
            with lock:
                data[s[0]] = {"kind": s[3], "cpu": round(cpu, 2), "passed": ok,
                              "lines": sorted(lines)}
                print("%-48s %6.1f s CPU %5d lines%s" % (s[0], cpu, len(lines),
                      "" if ok else "  FAILED"), flush=True)

    threads = [threading.Thread(target=worker, args=(d,)) for d in dirs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with open(os.path.join(ROOT, dirs[0], "coverage.json"), "w") as f:
        json.dump(data, f)
    return data


def choose(data):
    """The greedy cover: the chosen suites, in the order chosen, with the
    lines each added; and the counts of the summary."""
    plain = set().union(*(set(d["lines"]) for d in data.values() if d["kind"] != "san"))
    covered = set().union(*(set(d["lines"]) for d in data.values() if d["kind"] in ("both", "san")))
    need = plain - covered
    cands = {n: set(d["lines"]) & need for n, d in data.items() if d["kind"] == "integ"}
    chosen = []
    while need:
        best = max(cands, key=lambda n: (len(cands[n] & need) / max(data[n]["cpu"], 0.1), n))
        gain = cands[best] & need
        if not gain:
            break
        chosen.append((best, len(gain)))
        need -= gain
        del cands[best]
    return chosen, len(plain), len(plain & covered), need


def head_commit():
    res = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                         capture_output=True, text=True)
    return res.stdout.strip() or "unknown"


def write(data, chosen, n_plain, n_always):
    picked = {n for n, _ in chosen}
    integ = [n for n in data if data[n]["kind"] == "integ"]
    cpu_all = sum(data[n]["cpu"] for n in integ)
    cpu_run = sum(data[n]["cpu"] for n in picked)
    with open(OUT, "w") as f:
        f.write("# The integration suites that tests/run.sh runs in build-san: `run` or `skip`.\n")
        f.write("# Written by scripts/choose-san-suites.py (its docstring says how) at %s on %s:\n"
                % (head_commit(), datetime.date.today().isoformat()))
        f.write("# do not edit; run it again after adding suites or code. The plain run covers\n")
        f.write("# %d lines of analyzer/, shim/ and common/; the unit tests and the difftests at\n"
                % n_plain)
        f.write("# the sanitizer's sizes %d of them; the %d suites marked run the other %d.\n"
                % (n_always, len(picked), n_plain - n_always))
        f.write("# Their CPU time in the coverage build: %.0f s of the %d suites' %.0f s.\n"
                % (cpu_run, len(integ), cpu_all))
        for n in sorted(integ):
            f.write("%s %s\n" % ("run" if n in picked else "skip", n))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--data", help="coverage.json of an earlier run")
    args = ap.parse_args()
    if args.data:
        with open(args.data) as f:
            data = json.load(f)
    else:
        data = measure(args.jobs)
    failed = sorted(n for n, d in data.items() if not d["passed"])
    if failed:
        sys.exit("choose-san-suites: suites failed in the coverage build, no list written: "
                 + ", ".join(failed))
    chosen, n_plain, n_always, left = choose(data)
    for n, gain in chosen:
        print("run %-48s +%d lines, %.1f s CPU" % (n, gain, data[n]["cpu"]))
    if left:
        sys.exit("choose-san-suites: %d lines only the plain difftests cover, no list written: %s"
                 % (len(left), " ".join(sorted(left)[:20])))
    write(data, chosen, n_plain, n_always)
    print("wrote %s: %d of %d suites run" % (OUT, len(chosen),
          sum(1 for d in data.values() if d["kind"] == "integ")))


if __name__ == "__main__":
    main()
