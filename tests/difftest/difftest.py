#!/usr/bin/python3
"""Differential test: random small link scenarios, linked by the real gcc/ld
through linkscope-cc, replayed by linkscope; outcome and failing symbols
compared.

usage: difftest.py BUILD_DIR N SEED [--keep] [--case K] [--class NAME]

Case K belongs to class CLASSES[K % len(CLASSES)] (or only NAME's cases run):
  base       the random lines below;
  gc         --gc-sections with references from sections that go (and from
             ones that stay: constructors, __start_/__stop_, SHF_GNU_RETAIN,
             -u, -E, symbols a shared object references);
  script-group  -lm and a user GROUP/AS_NEEDED script inside --start-group
             with --as-needed, archives needing them read after;
  common     -fcommon symbols and archive members defining them as data,
             another common, or a function;
  versioned  sym@VER references (.symver) against a shared object with an
             old and a default version;
  shared     -shared outputs with undefined references, -z defs,
             --no-undefined, --unresolved-symbols=, --[no-]allow-shlib-undefined;
  undef-policy  the same options on executables, with shared objects that
             have undefined references;
  cxx        C++ through g++: vtables, templates (COMDAT), exceptions,
             missing methods, sometimes --gc-sections;
  static     -static and -static-pie with archives, sometimes --gc-sections.

The base scenario: a handful of C units, each defining one or two functions and
calling others; units go into main's object, other objects, static archives
or shared objects (with SONAMEs and DT_NEEDED chains between them, some
with versioned symbols); a link line with those in random order, and
random --as-needed, --start-group/--end-group, --whole-archive, -Bstatic,
--copy-dt-needed-entries, weak references, a linker script standing for a
library, and -nodefaultlibs with -lc placed anywhere. The real linker is the
oracle; the linker's messages are read only to compare symbol sets.

Prints one line per case ("ok K class" or "DISAGREE ..."), the agreement
per class, and, last, "N passed, N failed" where a case passes when the
predicted outcome equals ld's and every symbol ld names (when it fails) is
among the replay's diagnostics.
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


# ---- the classes beyond the base scenario ----

def write(d, name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


def run(d, cmd):
    r = sh(cmd, d)
    if r.returncode:
        raise RuntimeError(" ".join(cmd) + ": " + r.stderr)


def sprinkle(rng, words, options, p):
    """Insert each option of `options` at a random place with probability p."""
    for o in options:
        if rng.random() < p:
            words.insert(rng.randrange(len(words) + 1), o)
    return words


def gen_gc(rng, case, d):
    """--gc-sections: references from functions that go, and from sections that stay."""
    n = rng.randint(2, 4)
    miss = f"miss{case}"
    flags = ["-ffunction-sections", "-fdata-sections"] if rng.random() < 0.85 else []
    fpic = ["-fPIC"]
    main_calls, main_data = [], []
    objs, ars, so_refs = [], [], []
    for i in range(n):
        lines = [f"int {miss}_{i}(void);"]
        live = f"live{case}_{i}"
        lines.append(f"int {live}(void) {{ return {'%s_%d()' % (miss, i) if rng.random() < 0.2 else '1'}; }}")
        lines.append(f"int dead{case}_{i}(void) {{ return {miss}_{i}() + {live}(); }}")
        lines.append(f"int table{case}_{i}[4] = {{ 1, 2, 3, 4 }};")
        r = rng.random()
        if r < 0.08:
            lines.append(f"__attribute__((constructor)) static void init{i}(void) {{ (void){miss}_{i}(); }}")
        elif r < 0.16:
            lines.append(f"__attribute__((used, section(\"set{case}\"))) static int (*entry{i})(void) = dead{case}_{i};")
            main_data.append(f"set{case}")
        elif r < 0.22:
            lines.append(f"__attribute__((retain, used)) static int keep{i}(void) {{ return {miss}_{i}(); }}")
        elif r < 0.30:
            lines.append(f"int cb{case}_{i}(void) {{ return {miss}_{i}(); }}")
            so_refs.append(f"cb{case}_{i}")
        write(d, f"u{i}.c", "\n".join(lines) + "\n")
        run(d, ["cc", "-c"] + flags + fpic + [f"u{i}.c"])
        use = rng.random()
        if use < 0.4:
            main_calls.append(f"{live}()")
        elif use < 0.7:
            main_calls.append(f"table{case}_{i}[1]")
        (ars if rng.random() < 0.5 else objs).append(f"u{i}.o")
    decls = [f"int live{case}_{i}(void); extern int table{case}_{i}[4];" for i in range(n)]
    for sec in sorted(set(main_data)):
        decls.append(f"extern char __start_{sec}[], __stop_{sec}[];")
        main_calls.append(f"(int)(__stop_{sec} - __start_{sec})")
    write(d, "main.c", "\n".join(decls) + f"\nint main(void) {{ return 0{''.join(' + ' + c for c in main_calls)}; }}\n")
    run(d, ["cc", "-c"] + flags + ["main.c"])
    words = ["main.o"] + objs
    if ars:
        run(d, ["ar", "rcs", "libgc.a"] + ars)
        words.append("-lgc")
    if so_refs:
        write(d, "so.c", "\n".join(f"int {x}(void);" for x in so_refs) +
              f"\nint so_entry{case}(void) {{ return 0{''.join(' + ' + x + '()' for x in so_refs)}; }}\n")
        run(d, ["cc", "-shared", "-fPIC", "-Wl,-soname,libso.so", "so.c", "-o", "libso.so"])
        words.append("-lso")
    words.append("-Wl,--gc-sections")
    if rng.random() < 0.1:
        words.append("-Wl,--no-gc-sections")
    if rng.random() < 0.15:
        words.append(f"-Wl,-u,dead{case}_{rng.randrange(n)}")
    sprinkle(rng, words, ["-Wl,-E", "-Wl,--as-needed"], 0.15)
    return "cc", ["-L."] + words


def gen_script_group(rng, case, d):
    """-lm (GROUP with AS_NEEDED) and a user script inside --start-group, with --as-needed."""
    use_m = rng.random() < 0.6
    write(d, "so.c", f"int sofn{case}(int x) {{ return x + 1; }}\n")
    run(d, ["cc", "-shared", "-fPIC", "-Wl,-soname,libsoX.so", "so.c", "-o", "libsoX.so"])
    kind = rng.choice(["GROUP ( AS_NEEDED ( libsoX.so ) )", "GROUP ( libsoX.so )", "INPUT ( libsoX.so )",
                       "INPUT ( AS_NEEDED ( libsoX.so ) )"])
    write(d, "libscr.so", f"/* stands for libsoX */\n{kind}\n")
    body = "return (int)cos((double)x) + sofn%d(x);" % case if use_m else "return sofn%d(x);" % case
    write(d, "x.c", f"#include <math.h>\nint sofn{case}(int);\nint useit{case}(int x) {{ {body} }}\n")
    write(d, "main.c", f"int useit{case}(int);\nint main(int c, char **v) {{ (void)v; return useit{case}(c); }}\n")
    run(d, ["cc", "-c", "x.c", "main.c"])
    run(d, ["ar", "rcs", "libx.a", "x.o"])
    inner = ["-lscr", "-lx"] + (["-lm"] if use_m else [])
    rng.shuffle(inner)
    if rng.random() < 0.75:
        inner = ["-Wl,--start-group"] + inner + ["-Wl,--end-group"]
    words = ["main.o"] + inner
    sprinkle(rng, words, ["-Wl,--as-needed", "-Wl,--no-as-needed"], 0.3)
    return "cc", ["-L."] + words


def gen_common(rng, case, d):
    """Common symbols and archive members that define them as data, as commons, or as functions."""
    sym = f"counter{case}"
    main_def = rng.choice([f"int {sym};", f"int {sym};", f"extern int {sym};", f"int {sym} = 1;"])
    write(d, "main.c", f"{main_def}\nint get{case}(void);\nint main(void) {{ return {sym} + get{case}(); }}\n")
    member_def = rng.choice([f"int {sym} = 5;", f"int {sym};", f"int {sym}(void) {{ return 0; }}",
                             f"__attribute__((weak)) int {sym} = 5;", f"const int {sym} = 5;"])
    tail = f"int miss{case}(void);\nint helper{case}(void) {{ return miss{case}(); }}\n" if rng.random() < 0.6 else ""
    write(d, "def.c", member_def + "\n" + tail)
    write(d, "get.c", f"int get{case}(void) {{ return 1; }}\n")
    run(d, ["cc", "-fcommon", "-c", "main.c", "def.c", "get.c"])
    run(d, ["ar", "rcs", "libdef.a", "def.o"])
    run(d, ["ar", "rcs", "libget.a", "get.o"])
    libs = ["-lget", "-ldef"]
    rng.shuffle(libs)
    words = ["main.o"] + libs
    if rng.random() < 0.2:
        words = ["-ldef", "main.o", "-lget"]
    return "cc", ["-L."] + words


def gen_versioned(rng, case, d):
    """sym@VER references against a shared object with an old and a default version."""
    write(d, "lib.c", f"int foo_old{case}(void) {{ return 1; }}\nint foo_new{case}(void) {{ return 2; }}\n"
          f"__asm__(\".symver foo_old{case},foo{case}@V1\");\n__asm__(\".symver foo_new{case},foo{case}@@V2\");\n"
          f"int bar{case}(void) {{ return 3; }}\n")
    write(d, "v.map", f"V1 {{ global: bar{case}; local: *; }};\nV2 {{ }} V1;\n")
    run(d, ["cc", "-shared", "-fPIC", "-Wl,--version-script=v.map", "-Wl,-soname,libv.so", "lib.c", "-o", "libv.so"])
    refs, lines = [], []
    for k, name in enumerate([f"foo{case}", f"bar{case}"]):
        ver = rng.choice([None, "V1", "V2", "V3"])
        if ver:
            lines.append(f"int ref{k}(void);\n__asm__(\".symver ref{k},{name}@{ver}\");")
            refs.append(f"ref{k}()")
        else:
            lines.append(f"int {name}(void);")
            refs.append(f"{name}()")
    write(d, "main.c", "\n".join(lines) + f"\nint main(void) {{ return {' + '.join(refs)}; }}\n")
    run(d, ["cc", "-c", "main.c"])
    words = ["main.o", "-lv"] if rng.random() < 0.85 else ["-lv", "main.o"]
    sprinkle(rng, words, ["-Wl,--as-needed"], 0.3)
    return "cc", ["-L."] + words


POLICY = ["-Wl,-z,defs", "-Wl,--no-undefined", "-Wl,-z,undefs", "-Wl,--allow-shlib-undefined",
          "-Wl,--no-allow-shlib-undefined", "-Wl,--unresolved-symbols=ignore-all",
          "-Wl,--unresolved-symbols=report-all", "-Wl,--unresolved-symbols=ignore-in-object-files",
          "-Wl,--unresolved-symbols=ignore-in-shared-libs", "-Wl,--warn-unresolved-symbols"]


def gen_policy(rng, case, d, shared):
    """Undefined references from objects and from shared objects, under the policy options."""
    obj_missing = rng.random() < 0.5
    so_missing = rng.random() < 0.5
    write(d, "dep.c", f"int dmiss{case}(void);\nint dep{case}(void) {{ return {'dmiss%d()' % case if so_missing else '1'}; }}\n")
    run(d, ["cc", "-shared", "-fPIC", "-Wl,-soname,libdep.so", "dep.c", "-o", "libdep.so"])
    write(d, "a.c", f"int omiss{case}(void);\nint dep{case}(void);\n"
          f"int api{case}(void) {{ return dep{case}(){' + omiss%d()' % case if obj_missing else ''}; }}\n")
    run(d, ["cc", "-c", "-fPIC", "a.c"])
    if shared:
        words = ["-shared", "a.o", "-L.", "-ldep"]
    else:
        write(d, "main.c", f"int api{case}(void);\nint main(void) {{ return api{case}(); }}\n")
        run(d, ["cc", "-c", "main.c"])
        words = ["main.o", "a.o", "-L.", "-ldep"]
    for _ in range(rng.choice([0, 1, 1, 2])):
        words.append(rng.choice(POLICY))
    if rng.random() < 0.15:
        words.append("-Wl,--gc-sections")
    return "cc", words


def gen_cxx(rng, case, d):
    """C++ through g++: vtables, templates, exceptions, missing methods, in objects, archives, shared objects."""
    hdr = f"""#include <string>
#include <vector>
#include <stdexcept>
struct Base{case} {{ virtual ~Base{case}(); virtual int f() const; int g() const; }};
template <class T> T twice(T x) {{ return x + x; }}
int helper{case}(const std::string &);
"""
    write(d, "h.hpp", hdr)
    define_dtor = rng.random() < 0.85
    define_g = rng.random() < 0.8
    write(d, "base.cpp", f'#include "h.hpp"\n' +
          (f"Base{case}::~Base{case}() {{}}\n" if define_dtor else "") +
          f"int Base{case}::f() const {{ return twice(3); }}\n" +
          (f"int Base{case}::g() const {{ return f() + 1; }}\n" if define_g else ""))
    throws = rng.random() < 0.5
    write(d, "help.cpp", f'#include "h.hpp"\nint helper{case}(const std::string &s) {{ '
          + ('if (s.empty()) throw std::runtime_error("x"); ' if throws else '')
          + 'std::vector<int> v(s.size()); return (int)v.size() + twice(1); }\n')
    calls_g = rng.random() < 0.6
    write(d, "main.cpp", f'#include "h.hpp"\nint main(int argc, char **) {{ Base{case} b; '
          f'try {{ return helper{case}(std::string(argc, \'x\')) + b.f(){" + b.g()" if calls_g else ""}; }} '
          'catch (const std::exception &) { return 2; } }\n')
    flags = ["-fPIC"] + (["-ffunction-sections", "-fdata-sections"] if rng.random() < 0.5 else [])
    run(d, ["g++", "-c"] + flags + ["base.cpp", "help.cpp", "main.cpp"])
    words = ["main.o"]
    for unit in ("base", "help"):
        where = rng.choice(["obj", "ar", "so"])
        if where == "obj":
            words.append(unit + ".o")
        elif where == "ar":
            run(d, ["ar", "rcs", f"lib{unit}.a", unit + ".o"])
            words.append(f"-l{unit}")
        else:
            run(d, ["g++", "-shared", f"-Wl,-soname,lib{unit}.so", unit + ".o", "-o", f"lib{unit}.so"])
            words.append(f"-l{unit}")
    head, rest = words[:1], words[1:]
    rng.shuffle(rest)
    words = head + rest
    sprinkle(rng, words, ["-Wl,--gc-sections", "-Wl,--as-needed"], 0.35)
    return "g++", ["-L.", "-Wl,-rpath-link,."] + words


def gen_static(rng, case, d):
    """-static and -static-pie: archives only, sometimes --gc-sections."""
    n = rng.randint(2, 4)
    for i in range(n):
        call = f"f{case}_{i + 1}()" if i + 1 < n and rng.random() < 0.7 else "0"
        miss = rng.random() < 0.2
        write(d, f"s{i}.c", f"#include <math.h>\n#include <string.h>\nint f{case}_{i + 1}(void);\nint miss{case}_{i}(void);\n"
              f"int f{case}_{i}(void) {{ return {call} + (int)strlen(\"ab\") + (int)sqrt(4.0){' + miss%d_%d()' % (case, i) if miss else ''}; }}\n")
    write(d, "main.c", f"int f{case}_0(void);\nint main(void) {{ return f{case}_0(); }}\n")
    flags = ["-ffunction-sections"] if rng.random() < 0.5 else []
    run(d, ["cc", "-c"] + flags + ["main.c"] + [f"s{i}.c" for i in range(n)])
    libs = []
    for i in range(n):
        run(d, ["ar", "rcs", f"libs{i}.a", f"s{i}.o"])
        libs.append(f"-ls{i}")
    if rng.random() < 0.4:
        rng.shuffle(libs)
    words = [rng.choice(["-static", "-static", "-static-pie"]), "main.o", "-L."] + libs
    if rng.random() < 0.5:
        words.append("-lm")
    if rng.random() < 0.4:
        words.append("-Wl,--gc-sections")
    return "cc", words


def gen_base(rng, case, d):
    return "cc", build(Scenario(rng, case), d)


CLASSES = {
    "base": gen_base,
    "gc": gen_gc,
    "script-group": gen_script_group,
    "common": gen_common,
    "versioned": gen_versioned,
    "shared": lambda rng, case, d: gen_policy(rng, case, d, True),
    "undef-policy": lambda rng, case, d: gen_policy(rng, case, d, False),
    "cxx": gen_cxx,
    "static": gen_static,
}
CLASS_NAMES = list(CLASSES)


UNDEF = re.compile(r"undefined reference to (?:symbol )?[`']([^'@`]+)")


def demangled(symbols):
    """The C++ names ld would print for mangled `symbols`."""
    mangled = sorted(x for x in symbols if x.startswith("_Z"))
    if not mangled:
        return set()
    r = subprocess.run(["c++filt"], input="\n".join(mangled) + "\n", capture_output=True, text=True)
    return set(r.stdout.splitlines())


def run_case(build_dir, seed, case, keep):
    # One generator per case: any case can be replayed alone (--case K).
    rng = random.Random(seed * 1000003 + case)
    cls = CLASS_NAMES[case % len(CLASS_NAMES)]
    d = tempfile.mkdtemp(prefix=f"lk-diff-{case}-")
    try:
        driver, args = CLASSES[cls](rng, case, d)
        env = dict(os.environ, LINKSCOPE_DIR=os.path.join(d, "records"), LINKSCOPE_EXPAND="always")
        env.pop("LINKSCOPE_LINKER", None)
        shim = os.path.join(build_dir, "bin", "linkscope-cc")
        out = "libout.so" if "-shared" in args else "prog"
        r = sh([shim, "--", driver] + args + ["-o", out], d, env)
        ld_fail = r.returncode != 0
        errors = "\n".join(x for x in r.stderr.splitlines() if "warning:" not in x)
        ld_syms = set(UNDEF.findall(errors)) if ld_fail else set()
        ld_missing = "cannot find" in r.stderr
        rep = sh([os.path.join(build_dir, "bin", "linkscope"), "report", "--format", "json",
                  "--replay-only", "last"], d, env)
        if rep.returncode:
            return cls, False, f"case {case} [{cls}]: report failed: {rep.stderr.strip()}", ld_fail, d
        j = json.loads(rep.stdout)
        pred_fail = j["predicted"]["outcome"] == "failure"
        # undefined-symbol diagnostics are grouped by cause: "symbols" holds every one of them;
        # ld names C++ symbols demangled, and a versioned reference without its version.
        rp_syms = set(y.split("@")[0] for x in j["diagnostics"] for y in (x.get("symbols") or [x["symbol"]]))
        rp_syms |= demangled(rp_syms)
        ok = pred_fail == ld_fail and (ld_syms <= rp_syms or ld_missing)
        why = (f"case {case} [{cls}]: ld {'fails' if ld_fail else 'links'} {sorted(ld_syms)}, "
               f"replay {'fails' if pred_fail else 'links'} {sorted(rp_syms)}; line: {driver} {' '.join(args)}")
        return cls, ok, why, ld_fail, d
    finally:
        if not keep:
            shutil.rmtree(d, ignore_errors=True)


def main():
    build_dir = os.path.abspath(sys.argv[1])
    n = int(sys.argv[2])
    seed = int(sys.argv[3])
    keep = "--keep" in sys.argv
    cases = list(range(n))
    if "--class" in sys.argv:
        want = sys.argv[sys.argv.index("--class") + 1]
        if want not in CLASSES:
            sys.exit(f"difftest: unknown class {want!r} (classes: {', '.join(CLASS_NAMES)})")
        cases = [c for c in cases if CLASS_NAMES[c % len(CLASS_NAMES)] == want]
    if "--case" in sys.argv:
        cases = [int(sys.argv[sys.argv.index("--case") + 1])]
    passed = failed = ld_failures = 0
    per_class = {c: [0, 0, 0] for c in CLASS_NAMES}   # agreed, cases, ld failures
    for case in cases:
        cls, ok, why, ld_fail, d = run_case(build_dir, seed, case, keep)
        ld_failures += ld_fail
        per_class[cls][1] += 1
        per_class[cls][2] += ld_fail
        if ok:
            passed += 1
            per_class[cls][0] += 1
            print(f"ok {case} {cls}")
        else:
            failed += 1
            print("DISAGREE " + why + (f" (kept in {d})" if keep else ""))
    for c in CLASS_NAMES:
        a, t, f = per_class[c]
        if t:
            print(f"class {c:13} {a}/{t} agree (ld failed {f})")
    print(f"agreement: {passed}/{len(cases)} cases (seed {seed}); the real ld failed {ld_failures} of them")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
