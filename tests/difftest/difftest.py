#!/usr/bin/python3
"""Differential test: random small link scenarios, linked by the real gcc/ld
through linkscope-cc, replayed by linkscope; outcome and failing symbols
compared.

usage: difftest.py BUILD_DIR N SEED [--keep] [--case K]

Each scenario: a handful of C units, each defining one or two functions and
calling others; units go into main's object, other objects, static archives
or shared objects (with SONAMEs and DT_NEEDED chains between them, some
with versioned symbols); a link line with those in random order, and
random --as-needed, --start-group/--end-group, --whole-archive, -Bstatic,
--copy-dt-needed-entries, weak references, a linker script standing for a
library, and -nodefaultlibs with -lc placed anywhere. The real linker is the
oracle; the linker's messages are read only to compare symbol sets.

Prints one line per disagreement and, last, "N passed, N failed" where a
case passes when the predicted outcome equals ld's and every symbol ld
names is among the replay's diagnostics.
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile


def sh(cmd, cwd, env=None):
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)


class Scenario:
    def __init__(self, rng, case):
        self.rng = rng
        self.case = case
        nsym = rng.randint(4, 9)
        self.syms = [f"f{case}_{i}" for i in range(nsym)]
        nunits = rng.randint(2, min(6, nsym))
        # each symbol is defined by exactly one unit
        owners = {}
        self.units = [[] for _ in range(nunits)]
        for s in self.syms:
            u = rng.randrange(nunits)
            self.units[u].append(s)
            owners[s] = u
        self.units = [u for u in self.units if u]
        self.owner = {s: i for i, u in enumerate(self.units) for s in u}
        self.calls = {}
        for i, u in enumerate(self.units):
            others = [s for s in self.syms if self.owner[s] != i]
            self.calls[i] = rng.sample(others, min(len(others), rng.randint(0, 2)))
        self.main_calls = rng.sample(self.syms, min(len(self.syms), rng.randint(1, 3)))
        self.weak = set(s for s in self.main_calls if rng.random() < 0.15)
        self.libc_calls = rng.random() < 0.3   # main and units may call atexit / strlen
        # containers: 'obj', 'arA', 'arB', 'soX', 'soY'
        kinds = ["obj", "arA", "arB", "soX", "soY"]
        self.where = {i: rng.choice(kinds) for i in range(len(self.units))}
        self.versioned = rng.random() < 0.25   # soX gets a version script, maybe a hidden version
        self.hidden = self.versioned and rng.random() < 0.5

    def c_unit(self, i):
        out = ["#include <string.h>", "#include <stdlib.h>"]
        for s in self.calls[i]:
            out.append(f"void {s}(void);")
        for s in self.units[i]:
            body = "".join(f" {c}();" for c in self.calls[i])
            if self.libc_calls and self.rng.random() < 0.5:
                body += " (void)strlen(\"x\");"
            out.append(f"void {s}(void) {{{body} }}")
        return "\n".join(out) + "\n"

    def c_main(self):
        out = ["#include <stdlib.h>"]
        for s in self.main_calls:
            attr = " __attribute__((weak))" if s in self.weak else ""
            out.append(f"void {s}(void){attr};")
        out.append("static void bye(void) {}")
        body = ""
        for s in self.main_calls:
            body += f" if ({s}) {s}();" if s in self.weak else f" {s}();"
        if self.libc_calls:
            body += " atexit(bye);"
        out.append(f"int main(void) {{{body} return 0; }}")
        return "\n".join(out) + "\n"


def build(sc, d):
    """Compile and package; return the link arguments (without driver and -o)."""
    rng = sc.rng
    with open(os.path.join(d, "main.c"), "w") as f:
        f.write(sc.c_main())
    r = sh(["cc", "-c", "-fPIC", "main.c", "-o", "main.o"], d)
    if r.returncode:
        raise RuntimeError(r.stderr)
    groups = {"obj": [], "arA": [], "arB": [], "soX": [], "soY": []}
    for i in range(len(sc.units)):
        name = f"u{i}"
        with open(os.path.join(d, name + ".c"), "w") as f:
            f.write(sc.c_unit(i))
        r = sh(["cc", "-c", "-fPIC", name + ".c", "-o", name + ".o"], d)
        if r.returncode:
            raise RuntimeError(r.stderr)
        groups[sc.where[i]].append(name + ".o")
    items = []   # (kind, word)
    for o in groups["obj"]:
        items.append(("obj", o))
    for a in ("arA", "arB"):
        if groups[a]:
            sh(["ar", "rcs", f"lib{a}.a"] + groups[a], d)
            items.append(("ar", f"-l{a}"))
    # soY first: soX may need it (DT_NEEDED chain)
    so_made = []
    for so in ("soY", "soX"):
        if not groups[so]:
            continue
        cmd = ["cc", "-shared", f"-Wl,-soname,lib{so}.so"] + groups[so] + ["-o", f"lib{so}.so"]
        if so == "soX" and "soY" in so_made and rng.random() < 0.7:
            cmd += ["-L.", "-lsoY"]
        if so == "soX" and sc.versioned:
            with open(os.path.join(d, "v.map"), "w") as f:
                f.write("V1 { global: *; };\n")
            cmd += ["-Wl,--version-script=v.map"]
        r = sh(cmd, d)
        if r.returncode:
            raise RuntimeError(r.stderr)
        so_made.append(so)
        items.append(("so", f"-l{so}"))
    if "soX" in so_made and rng.random() < 0.15:
        # a linker script standing for the library
        with open(os.path.join(d, "libscr.so"), "w") as f:
            f.write("/* stands for libsoX */\nINPUT ( libsoX.so )\n")
        items = [(k, "-lscr" if w == "-lsoX" else w) for k, w in items]
    # drop a container sometimes: undefined references
    if len(items) > 1 and rng.random() < 0.2:
        items.pop(rng.randrange(len(items)))
    rng.shuffle(items)
    args = ["main.o"] if rng.random() < 0.8 else []
    words = [w for _, w in items]
    if not args:
        words.insert(rng.randrange(len(words) + 1), "main.o")
    # options sprinkled in
    ars = [i for i, w in enumerate(words) if w in ("-larA", "-larB")]
    if len(ars) >= 1 and rng.random() < 0.3:
        i, j = min(ars), max(ars)
        words = words[:i] + ["-Wl,--start-group"] + words[i:j + 1] + ["-Wl,--end-group"] + words[j + 1:]
    elif ars and rng.random() < 0.15:
        i = rng.choice(ars)
        words = words[:i] + ["-Wl,--whole-archive", words[i], "-Wl,--no-whole-archive"] + words[i + 1:]
    for opt in ("-Wl,--as-needed", "-Wl,--no-as-needed", "-Wl,--copy-dt-needed-entries", "-Wl,-Bstatic", "-Wl,-Bdynamic"):
        if rng.random() < 0.15:
            words.insert(rng.randrange(len(words) + 1), opt)
    if "-Wl,-Bstatic" in words and "-Wl,-Bdynamic" not in words[words.index("-Wl,-Bstatic"):]:
        words.append("-Wl,-Bdynamic")
    nodefault = rng.random() < 0.3
    if nodefault:
        words.insert(rng.randrange(len(words) + 1), "-lc")
    return args + ["-L."] + words + (["-nodefaultlibs"] if nodefault else [])


UNDEF = re.compile(r"undefined reference to (?:symbol )?[`']([^'@`]+)")


def run_case(build_dir, seed, case, keep):
    # One generator per case: any case can be replayed alone (--case K).
    rng = random.Random(seed * 1000003 + case)
    d = tempfile.mkdtemp(prefix=f"lk-diff-{case}-")
    try:
        sc = Scenario(rng, case)
        args = build(sc, d)
        env = dict(os.environ, LINKSCOPE_DIR=os.path.join(d, "records"))
        env.pop("LINKSCOPE_LINKER", None)
        shim = os.path.join(build_dir, "bin", "linkscope-cc")
        r = sh([shim] + args + ["-o", "prog"], d, env)
        ld_fail = r.returncode != 0
        ld_syms = set(UNDEF.findall(r.stderr))
        ld_missing = "cannot find" in r.stderr
        rep = sh([os.path.join(build_dir, "bin", "linkscope"), "report", "--format", "json",
                  "--replay-only", "last"], d, env)
        if rep.returncode:
            return False, f"case {case}: report failed: {rep.stderr.strip()}", ld_fail, d
        j = json.loads(rep.stdout)
        pred_fail = j["predicted"]["outcome"] == "failure"
        # undefined-symbol diagnostics are grouped by cause: "symbols" holds every one of them
        rp_syms = set(s for x in j["diagnostics"] for s in (x.get("symbols") or [x["symbol"]]))
        ok = pred_fail == ld_fail and (ld_syms <= rp_syms or ld_missing)
        why = (f"case {case}: ld {'fails' if ld_fail else 'links'} {sorted(ld_syms)}, "
               f"replay {'fails' if pred_fail else 'links'} {sorted(rp_syms)}; line: cc {' '.join(args)}")
        return ok, why, ld_fail, d
    finally:
        if not keep:
            shutil.rmtree(d, ignore_errors=True)


def main():
    build_dir = os.path.abspath(sys.argv[1])
    n = int(sys.argv[2])
    seed = int(sys.argv[3])
    keep = "--keep" in sys.argv
    cases = range(n)
    if "--case" in sys.argv:
        cases = [int(sys.argv[sys.argv.index("--case") + 1])]
        n = 1
    passed = failed = ld_failures = 0
    for case in cases:
        ok, why, ld_fail, d = run_case(build_dir, seed, case, keep)
        ld_failures += ld_fail
        if ok:
            passed += 1
            print(f"ok {case}")
        else:
            failed += 1
            print("DISAGREE " + why + (f" (kept in {d})" if keep else ""))
    print(f"agreement: {passed}/{n} cases (seed {seed}); the real ld failed {ld_failures} of them")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
