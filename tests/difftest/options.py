#!/usr/bin/python3
"""Differential test of option shapes (issue #33 point 6): one small link per
option of the generated linker tables (analyzer/model/ldopt_table.c: GNU ld
2.40, lld 14, mold 1.10), linked by the real GNU ld through linkscope-cc and
again by the real lld and mold, then replayed (report --replay-only).

usage: options.py BUILD_DIR [N] [SEED]   (N options; without N, every one)

Each option is spelt as its table says (two dashes where the linker takes
them, else one), with a plausible value when it takes one: a listed value,
a file it reads (created), a symbol, a number. Sample K of seed S takes the
options from (S * N) on, so successive seeds walk the whole table.

Asserted, for each linker: the real linker refused the option (its own
"unrecognized option", "unknown argument", "unknown command line option",
a value it does not take) exactly when the replay says that linker fails
on it (its verdict's why quotes the linker: `X fails: "..."`). Counted and
printed, not asserted: whether each predicted outcome is the real one (an
option's other effects, --help, -r, --oformat binary, are not modelled).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(ROOT, "analyzer", "model", "ldopt_table.c")
LINKERS = ("bfd", "lld", "mold")
TABLES = {"bfd": "bfd", "lld14": "lld", "mold": "mold"}
ROW = re.compile(r'\t\{ "([^"]+)", ([A-Z_ |0]+), LK_LDOPT_VALUE_(\w+), (\w+), (NULL|".*") \},')
VALUES = re.compile(r'static const char \*const (\w+)\[\] = \{ (.*), NULL \};')
REFUSED = re.compile(r"unrecognized option|unknown argument|unknown command line option|"
                     r"unable to disambiguate|unknown --[\w-]+( value| style| argument)?:|"
                     r"invalid --[\w-]+ (argument|value)|invalid hash style|is not supported")
# Options that end the link or change what it is (not a link then): skipped.
SKIP = {"help", "version", "v", "V", "target-help", "print-output-format", "print-sysroot",
        "r", "i", "relocatable", "Ur", "run", "chroot", "C", "directory", "R", "just-symbols",
        "plugin", "mri-script", "c", "T", "script", "default-script", "dT", "o", "output",
        "l", "library", "L", "library-path", "m", "b", "format", "A", "architecture",
        "oformat", "y", "trace-symbol", "e", "entry", "version", "fork", "no-fork",
        "reproduce", "save-temps", "lto-emit-asm"}


def read_tables():
    """[(table, name, dashes, value form, listed values)] for the three linkers' tables."""
    with open(TABLE) as f:
        text = f.read()
    lists = {m.group(1): [v.strip().strip('"') for v in m.group(2).split(",")]
             for m in VALUES.finditer(text)}
    rows, current = [], None
    for line in text.splitlines():
        m = re.match(r"static const struct lk_ldopt (\w+)_options", line)
        if m:
            current = m.group(1)
            continue
        m = ROW.match(line)
        if m and current in TABLES and m.group(1) not in SKIP and m.group(2) != "0":
            rows.append((TABLES[current], m.group(1), m.group(2), m.group(3),
                         lists.get(m.group(4), [])))
    return rows


def value_for(name, listed, d):
    """A plausible value for option `name`: a listed one, a file it reads, a symbol, a number."""
    if listed:
        return next((v for v in listed if not v.endswith("*")), "0x1234")
    if re.search(r"script|list|file|map|ordering|Map|symbols-file", name):
        path = os.path.join(d, "arg.txt")
        with open(path, "w") as f:
            f.write("{ global: main; local: *; };\n" if "version" in name or "dynamic" in name else "main\n")
        return path
    if re.search(r"^T|address|base|start|size|align|page|count|tags|threads|limit|level|jobs", name):
        return "0x100000"
    if re.search(r"sym|init|fini|wrap|undefined|defined|entry|trace|keep", name):
        return "main"
    return "x"


def words(name, dashes, form, listed, d):
    """The -Wl, word for one option as its table spells it."""
    spell = ("--" if "TWO" in dashes else "-") + name
    if form == "NONE":
        return spell
    v = value_for(name, listed, d)
    return f"{spell}={v}" if form == "OPT" or len(name) > 1 and "TWO" in dashes else f"{spell},{v}"


def main():
    build = os.path.abspath(sys.argv[1])
    rows = read_tables()
    n = int(sys.argv[2]) if len(sys.argv) > 2 else len(rows)
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    start = (seed * n) % len(rows)
    sample = [rows[(start + k) % len(rows)] for k in range(min(n, len(rows)))]
    top = tempfile.mkdtemp(prefix="lk-optdiff.")
    env = dict(os.environ, LINKSCOPE_DIR=os.path.join(top, "records"), XDG_CACHE_HOME=os.path.join(top, "cache"),
               TMPDIR=os.path.join(top, "tmp"), LINKSCOPE_EXPAND="always")
    for k in ("LINKSCOPE_LINKER", "LINKSCOPE_DISABLE", "LINKSCOPE_ACTIVE", "LINKSCOPE_KEEP"):
        env.pop(k, None)
    os.makedirs(env["TMPDIR"])
    bad, agree, total = 0, {l: 0 for l in LINKERS}, 0
    for i, (table, name, dashes, form, listed) in enumerate(sample, 1):
        d = os.path.join(top, str(i))
        os.makedirs(d)
        with open(os.path.join(d, "main.c"), "w") as f:
            f.write("int main(void) { return 0; }\n")
        subprocess.run(["cc", "-c", "main.c"], cwd=d, check=True)
        wl = "-Wl," + words(name, dashes, form, listed, d)
        real = {}
        for l in LINKERS:
            how = [] if l == "bfd" else [f"-fuse-ld={l}"]
            cmd = ([os.path.join(build, "bin", "linkscope-cc"), "--"] if l == "bfd" else []) + \
                ["cc"] + how + ["main.o", wl, "-o", f"out-{l}"]
            r = subprocess.run(cmd, cwd=d, env=env, capture_output=True, text=True, errors="replace",
                               timeout=120)
            # mold reads "-Tldata-segment" as "-T" and a script "ldata-segment" it cannot open.
            misread = len(name) > 1 and f"cannot open {('-' + name)[2:]}" in r.stderr
            real[l] = (r.returncode == 0, bool(REFUSED.search(r.stderr)) or misread)
        recs = sorted(x for x in os.listdir(env["LINKSCOPE_DIR"]) if x.endswith(".json")
                      and not x.endswith(".report.json"))
        r = subprocess.run([os.path.join(build, "bin", "linkscope"), "report", "--format", "json", "--replay-only",
                            os.path.join(env["LINKSCOPE_DIR"], recs[-1])], cwd=d, env=env,
                           capture_output=True, text=True, timeout=300)
        try:
            pred = json.loads(r.stdout)["predicted"]
        except (ValueError, KeyError):
            print(f"not ok {i} - {wl} ({table}): no report: {r.stderr.strip()[:200]}")
            bad += 1
            continue
        total += 1
        wrong = []
        for l in LINKERS:
            verdict = pred["linker_verdicts"][l]
            said = any(re.search(r'fails: "', w) for w in verdict.get("why") or [])
            if said != real[l][1]:
                wrong.append(f"{l}: the real one {'refused' if real[l][1] else 'took'} it, the replay "
                             f"{'says it refuses it' if said else 'does not'}")
            agree[l] += pred["linkers"][l] == ("success" if real[l][0] else "failure")
        print(f"{'not ok' if wrong else 'ok'} {i} - {wl} ({table}'s table): refused by "
              f"{','.join(l for l in LINKERS if real[l][1]) or 'none'}" + ("; " + "; ".join(wrong) if wrong else ""))
        bad += bool(wrong)
    print(f"# options {len(sample)} (from {start} of {len(rows)}), refusals wrong on {bad}; outcome agrees: " +
          ", ".join(f"{l} {agree[l]}/{total}" for l in LINKERS))
    shutil.rmtree(top, ignore_errors=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
