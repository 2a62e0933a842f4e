#!/usr/bin/python3
"""Differential test: random small link scenarios, linked by the real gcc/ld
through linkscope-cc, replayed by linkscope; outcome and failing symbols
compared.

usage: difftest.py BUILD_DIR N SEED [--keep] [--case K] [--class NAME] [--jobs J] [--redaction]
                   [--linkers bfd,lld,mold] [--arch aarch64]

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
  static     -static and -static-pie with archives, sometimes --gc-sections;
  relative   every path relative to the link's cwd (a build/ subdir): -L../lib,
             -rpath-link ../deps, `.`, ../lib:../deps, -rpath, LD_LIBRARY_PATH
             and LD_RUN_PATH of the link, a relative or $ORIGIN DT_RUNPATH,
             a linker script's INPUT/GROUP/AS_NEEDED members (relative to
             the cwd, to the script, bare, -l), objects as ../build/obj/x.o;
  compile    link calls that also compile (cc -O2 prog.c [more.c] libutil.a
             libx.so -lm), the archive calling back into the sources,
             sometimes before them, through a response file, in C++ through
             g++, sometimes with LINKSCOPE_KEEP=0 (analysed with --run-driver,
             which compiles the sources again);
  reloc      relocations the output cannot take, text relocations, TLS
             mismatches (gen_reloc.py);
  deleted    inputs deleted after the link (objects, kept by the shim or
             not: more than 4, over 64 KiB, LINKSCOPE_KEEP=0; an archive, a
             shared object), after links that succeed or fail, sometimes
             with an input missing when ld ran;
  unusable   inputs ld cannot use or find, and thin archives
             (gen_unusable.py): thin archives, inputs of another machine,
             "skipping incompatible", LLVM bitcode, linker scripts with a
             syntax error or not, objects cut short or empty, -l near names.
  lazy-archives, shlib-undef, ld-options, vscript-hidden: where GNU ld,
             lld and mold differ (gen_linkers.py).
  names      links that fail or link for the near misses' and multiple
             definitions' reasons (gen_names.py): C and C++ names without
             extern "C", other parameter types, static or hidden
             definitions, sym@V2 against an old library, a missing key
             function, an uninstantiated template, main missing, -fno-common
             tentatives, a header's function included twice, the same
             symbol in two archive members both pulled; when ld fails for
             the case's reason, a near miss or cause of its kind must be in
             the report too.

--linkers bfd,lld,mold (issue #19): each case is linked again by the real
lld and mold (the same driver and words with -fuse-ld=lld, -fuse-ld=mold,
before anything is deleted), and the replay's verdict for each
(predicted.linkers of the record's report) compared with its exit status;
a case passes only when every linker named agrees (an "unknown" the GNU ld
comparison accepts is not compared). The agreement per linker and class is
printed after the classes.

-z defs, --no-undefined and --unresolved-symbols= are in shared and
undef-policy.

--arch aarch64 (issue #33 point 3g): an aarch64 draw, every tool the
cases run (cc, gcc, ar, nm, objcopy, ranlib, strip, as) the cross
toolchain's, found first on PATH as the plain names, and lld and mold as
aarch64-linux-gnu-ld.lld and -ld.mold where the cross driver's -fuse-ld=
looks for them; only the classes that need no C++ compiler and no second
machine (AARCH64_CLASSES; the cross g++ is not installed, and the unusable
and reloc classes make x86-64 and aarch64 inputs of their own) are drawn.

Every case is analysed twice: from the link's cwd, and from another
directory with another environment (LIBRARY_PATH, LD_LIBRARY_PATH,
LD_RUN_PATH and COMPILER_PATH set to a decoy dir) where decoy libraries of
the case's names sit at each relative dir: defining the symbols ld found
undefined when ld failed, nothing when it linked; the two verdicts must be
the same.

The base scenario: a handful of C units, each defining one or two functions and
calling others; units go into main's object, other objects, static archives
or shared objects (with SONAMEs and DT_NEEDED chains between them, some
with versioned symbols); a link line with those in random order, and
random --as-needed, --start-group/--end-group, --whole-archive, -Bstatic,
--copy-dt-needed-entries, weak references, a linker script standing for a
library, and -nodefaultlibs with -lc placed anywhere. The real linker is the
oracle; the linker's messages are read only to compare symbol sets.

--redaction (issue #15): the same cases, each linked with LINKSCOPE_REDACT=0
and its record redacted by the shim's own redaction (BUILD_DIR/tests/
redact-record); in 3 cases of 4 the line also gets secret-looking words
that change nothing ld does (SECRET_WORDS: a --defsym of session_base in
the -Wl, word of one of its -l, a token in a -L dir, a URL password in an
-rpath, -DAPI_KEY=..., -DUSE_AUTH=1, which every source on the line then
needs to compile). The redacted record is the one checked against ld, from
here and elsewhere; and the analysis of the unredacted one must be the same
report (outcome, diagnostics, fixes, notes), but for the secrets
themselves, which the redacted one says as [redacted].

Prints one line per case ("ok K class" or "DISAGREE ..."), the agreement
per class, and, last, "N passed, N failed" where a case passes when the
predicted outcome equals ld's and every symbol ld names (when it fails) is
among the replay's diagnostics. The outcome "unknown" passes only where
the case cannot be known (see agrees()): an input deleted after the link
with no copy kept, named in the reason; or a linker script's member ld
could not find either, which the record cannot show missing at link time.
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

from gen_reloc import gen_reloc
from gen_unusable import gen_unusable
from gen_names import gen_names
import gen_linkers


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


def gen_relative(rng, case, d):
    """Paths relative to the link's cwd (build/): -L, -rpath-link (also `.`),
    -rpath, LD_LIBRARY_PATH, a relative DT_RUNPATH, linker-script members,
    objects. The analysis runs a second time elsewhere (run_case)."""
    for sub in ("build/obj", "lib", "deps", "scripts/sub"):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    # libB.so (b_fn) lives in deps/, or in build/ itself (then `.` finds it)
    bdir = "build" if rng.random() < 0.25 else "deps"
    deep = rng.random() < 0.3   # libB.so needs libD.so in deps2/
    bcmd = ["cc", "-shared", "-fPIC", "-Wl,-soname,libB.so", "b.c", "-o", "libB.so"]
    if deep:
        os.makedirs(os.path.join(d, "deps2"), exist_ok=True)
        write(d, "deps2/dd.c", f"int d{case}(void) {{ return 4; }}\n")
        run(os.path.join(d, "deps2"), ["cc", "-shared", "-fPIC", "-Wl,-soname,libD.so", "dd.c", "-o", "libD.so"])
        bcmd += ["-L../deps2", "-lD"] + (["-Wl,-rpath,$ORIGIN/../deps2"] if rng.random() < 0.5 else [])
    write(d, f"{bdir}/b.c", (f"int d{case}(void);\nint b{case}(void) {{ return d{case}(); }}\n" if deep
                            else f"int b{case}(void) {{ return 2; }}\n"))
    run(os.path.join(d, bdir), bcmd)
    # libA (a_fn calls b_fn): a shared object with DT_NEEDED libB.so, or an archive
    write(d, "lib/a.c", f"int b{case}(void);\nint a{case}(void) {{ return b{case}() + 1; }}\n")
    a_shared = rng.random() < 0.75
    runpath = None
    if a_shared:
        cmd = ["cc", "-shared", "-fPIC", "-Wl,-soname,libA.so", "a.c", "-o", "libA.so", f"-L../{bdir}", "-lB"]
        runpath = rng.choice([None, None, f"../{bdir}", f"$ORIGIN/../{bdir}", "../nowhere"])
        if runpath:
            cmd += [f"-Wl,-rpath,{runpath}"] + (["-Wl,--disable-new-dtags"] if rng.random() < 0.3 else [])
        run(os.path.join(d, "lib"), cmd)
    else:
        run(os.path.join(d, "lib"), ["cc", "-c", "a.c"])
        run(os.path.join(d, "lib"), ["ar", "rcs", "libA.a", "a.o"])
    # libC.a (c_fn), reached through a linker script with a relative member
    write(d, "scripts/sub/c.c", f"int c{case}(void) {{ return 3; }}\n")
    run(os.path.join(d, "scripts/sub"), ["cc", "-c", "-fPIC", "c.c"])
    run(os.path.join(d, "scripts/sub"), ["ar", "rcs", "libC.a", "c.o"])
    member = rng.choice(["../scripts/sub/libC.a", "sub/libC.a", "libC.a", "-lC", "./../scripts/sub/libC.a"])
    wrap = rng.choice(["INPUT ( %s )", "GROUP ( %s )", "GROUP ( AS_NEEDED ( %s ) )"])
    write(d, "scripts/libscr.so", "/* stands for libC */\n" + wrap % member + "\n")
    uses_c = rng.random() < 0.6
    calls_b = rng.random() < 0.2
    write(d, "build/obj/main.c", (f"int a{case}(void);\nint b{case}(void);\nint c{case}(void);\n"
          f"int main(void) {{ return a{case}(){' + c%d()' % case if uses_c else ''}"
          f"{' + b%d()' % case if calls_b else ''}; }}\n"))
    run(os.path.join(d, "build/obj"), ["cc", "-c", "main.c"])
    words = [rng.choice(["obj/main.o", "./obj/main.o", "../build/obj/main.o"])]
    words += rng.choice([["-L../lib"], ["-L./../lib"], ["-L../build/../lib"], ["-Wl,-L../lib"], ["-L", "../lib"],
                         ["-Wl,--library-path=../lib"], ["-Wl,-L,../lib"]])
    words += ["-lA"]
    if uses_c or rng.random() < 0.3:
        words += [rng.choice(["-L../scripts", "-L../scripts/"]), "-lscr"]
        if rng.random() < 0.4:
            words.append("-L../scripts/sub")
    if calls_b and rng.random() < 0.5 or not a_shared:
        words.append(f"-L../{bdir}" if bdir != "build" else "-L.")
        words.append("-lB")
    # how ld finds libB.so for libA.so's DT_NEEDED
    env = {}
    here = "." if bdir == "build" else f"../{bdir}"
    way = rng.choice(["rpath-link", "rpath-link", "rpath-link", "rpath", "LD_LIBRARY_PATH", "LD_RUN_PATH",
                      "wrong", "none"])
    if way == "rpath-link":
        words.append(rng.choice([f"-Wl,-rpath-link,{here}", f"-Wl,-rpath-link={here}",
                                 f"-Wl,-rpath-link,../lib:{here}", f"-Wl,-rpath-link,./{here}"]))
    elif way == "rpath":
        words.append(f"-Wl,-rpath,{here}")
    elif way in ("LD_LIBRARY_PATH", "LD_RUN_PATH"):
        env[way] = here
    elif way == "wrong":
        words.append(rng.choice(["-Wl,-rpath-link,../lib", "-Wl,-rpath-link,.", "-Wl,-rpath-link,deps"]))
    if deep and rng.random() < 0.5:
        words.append(rng.choice(["-Wl,-rpath-link,../deps2", "-Wl,-rpath-link=./../deps2"]))
    if rng.random() < 0.25:
        words.insert(1, "-Wl,--as-needed")
    if rng.random() < 0.15:
        words.append("-Wl,--copy-dt-needed-entries")
    if rng.random() < 0.2:
        # a response file in another dir: its words are relative to the cwd, not to it
        write(d, "scripts/link.rsp", " ".join(words[1:]) + "\n")
        words = words[:1] + ["@../scripts/link.rsp"]
    if rng.random() < 0.2:
        # reached through a symbolic link, as a shell's `cd` leaves PWD: ld's `..` is the real dir's
        os.makedirs(os.path.join(d, "via/x"), exist_ok=True)
        os.symlink(os.path.join(d, "build"), os.path.join(d, "via/x/alias"))
        env["PWD"] = os.path.join(d, "via/x/alias")
        return "cc", words, {"cwd": "via/x/alias", "env": env}
    return "cc", words, {"cwd": "build", "env": env}


def gen_compile(rng, case, d):
    """Link calls that also compile: cc -O2 prog.c libutil.a libx.so -lm -o prog.
    The objects compiled from the sources define main and callbacks that
    archive members call back."""
    src_dir = rng.choice(["", "", "src/"])
    if src_dir:
        os.makedirs(os.path.join(d, src_dir), exist_ok=True)
    ncb = rng.randint(1, 3)
    defined = [rng.random() < 0.9 for _ in range(ncb)]
    second = rng.random() < 0.35   # a second source defines some callbacks
    in_second = [second and rng.random() < 0.5 for _ in range(ncb)]
    use_m = rng.random() < 0.5
    use_x = rng.random() < 0.7
    write(d, "util.h", f"int util{case}(int);\nint x{case}(int);\n" +
          "".join(f"int cb{case}_{i}(int);\n" for i in range(ncb)))
    # libutil.a: util_fn calls every callback (the source's own symbols must count)
    write(d, "util.c", '#include "util.h"\n' + f"int util{case}(int v) {{ return v" +
          "".join(f" + cb{case}_{i}(v)" for i in range(ncb)) + "; }\n")
    run(d, ["cc", "-c", "-fPIC", "util.c"])
    run(d, ["ar", "rcs", "libutil.a", "util.o"])
    write(d, "x.c", f"int x{case}(int v) {{ return v * 2; }}\n")
    run(d, ["cc", "-shared", "-fPIC", "-Wl,-soname,libx.so", "x.c", "-o", "libx.so"])
    inc = '#include "util.h"\n' if rng.random() < 0.7 else \
        f"int util{case}(int);\nint x{case}(int);\n" + "".join(f"int cb{case}_{i}(int);\n" for i in range(ncb))
    main_cbs = "".join(f"int cb{case}_{i}(int v) {{ return v + {i}; }}\n"
                       for i in range(ncb) if defined[i] and not in_second[i])
    body = f"int r = util{case}(argc)" + (f" + x{case}(argc)" if use_x else "")
    body += " + (int)sqrt((double)argc)" if use_m else ""
    hdr = "#include <math.h>\n" if use_m else ""
    # sometimes C++ through g++: the C callbacks as extern "C", libstdc++ needed
    cxx = rng.random() < 0.2
    ext, c_open, c_close = (".cpp", 'extern "C" {\n', "}\n") if cxx else (".c", "", "")
    if cxx:
        hdr += "#include <string>\n"
        body += "; r += (int)std::string(argc, 'x').size()"
    write(d, src_dir + "prog" + ext, hdr + c_open + (inc.replace('"util.h"', '"../util.h"') if src_dir else inc) +
          main_cbs + c_close + f"int main(int argc, char **argv) {{ (void)argv; {body}; return r; }}\n")
    srcs = [src_dir + "prog" + ext]
    if second:
        write(d, src_dir + "more" + ext, c_open + "".join(f"int cb{case}_{i}(int v) {{ return v - {i}; }}\n"
                                                          for i in range(ncb) if defined[i] and in_second[i]) +
              f"int more{case}(void) {{ return 0; }}\n" + c_close)
        srcs.append(src_dir + "more" + ext)
    util = rng.choice(["libutil.a", "./libutil.a", "-lutil"])
    libs = [util] + ([rng.choice(["libx.so", "-lx"])] if use_x else []) + (["-lm"] if use_m else [])
    words = [rng.choice(["-O2", "-O0", "-g -O1"])] + srcs
    words = " ".join(words).split()
    # mostly sources first; sometimes an archive before the source that needs it
    if rng.random() < 0.15:
        words = words[:1] + [util] + words[1:]
        libs.remove(util)
        libs.append("-L.")
    words += libs
    if any(w.startswith("-l") for w in words) and "-L." not in words:
        words.insert(1, "-L.")
    if rng.random() < 0.2:
        words.insert(1, rng.choice(["-ffunction-sections", "-fcommon", "-Wl,--as-needed"]))
    if rng.random() < 0.2:
        words.append("-Wl,--gc-sections")
    if rng.random() < 0.15:
        # sources and libraries through a response file: gcc passes ld its own temporary ones
        write(d, "link.rsp", " ".join(words[1:]) + "\n")
        words = words[:1] + ["@link.rsp"]
    # without the shim's copies the analyzer compiles the sources again, when asked to (--run-driver)
    if rng.random() < 0.15:
        return "g++" if cxx else "cc", words, {"env": {"LINKSCOPE_KEEP": "0"}, "report": ["--run-driver"]}
    return "g++" if cxx else "cc", words


BIG = 70000   # over the shim's 64 KiB bound for keeping a small object


def gen_deleted(rng, case, d):
    """Inputs deleted after the link (an object, an archive, a shared object),
    kept by the shim or not, after a link that succeeded or failed."""
    nobj = rng.choice([1, 1, 2, 3, 5, 6])
    big = rng.random() < 0.25
    miss = rng.random() < 0.3
    refs = []
    for i in range(nobj):
        pad = f"const char pad{case}_{i}[{BIG}] = {{ 1 }};\n" if big and i == 0 else ""
        write(d, f"o{i}.c", pad + f"int o{case}_{i}(void) {{ return {i}; }}\n")
        refs.append(f"o{case}_{i}()")
    write(d, "ar.c", f"int ar{case}(void) {{ return 7; }}\n")
    # libso.so may need libdep.so (DT_NEEDED, found through -rpath-link .): the build may delete that too
    needs_dep = rng.random() < 0.3
    write(d, "dep.c", f"int dep{case}(void) {{ return 9; }}\n")
    write(d, "so.c", (f"int dep{case}(void);\nint so{case}(void) {{ return dep{case}(); }}\n" if needs_dep
                      else f"int so{case}(void) {{ return 8; }}\n"))
    refs += [f"ar{case}()", f"so{case}()"]
    if miss:
        refs.append(f"miss{case}()")
    decls = "".join(f"int {r[:-2]}(void);\n" for r in refs)
    write(d, "main.c", decls + f"int main(void) {{ return {' + '.join(refs)}; }}\n")
    run(d, ["cc", "-c", "-fPIC", "main.c", "ar.c", "so.c"] + [f"o{i}.c" for i in range(nobj)])
    run(d, ["ar", "rcs", "libar.a", "ar.o"])
    run(d, ["cc", "-c", "-fPIC", "dep.c"])
    run(d, ["cc", "-shared", "-Wl,-soname,libdep.so", "dep.o", "-o", "libdep.so"])
    run(d, ["cc", "-shared", "-Wl,-soname,libso.so", "so.o", "-o", "libso.so"] + (["-L.", "-ldep"] if needs_dep else []))
    objs = [f"o{i}.o" for i in range(nobj)]
    ar = rng.choice(["libar.a", "-lar"])
    so = rng.choice(["libso.so", "-lso"])
    words = ["main.o"] + objs + ["-L.", ar, so] + (["-Wl,-rpath-link,."] if needs_dep else [])
    if rng.random() < 0.1:
        # an input missing at link time too: the record proves it missing
        words.insert(rng.randrange(1, len(words) + 1), rng.choice(["absent.o", "-labsent"]))
    # after the link: delete some of the inputs, or rewrite one
    files = ["main.o"] + objs + (["libar.a", "libso.so"] if rng.random() < 0.5 else []) + \
        (["libdep.so"] if needs_dep and rng.random() < 0.5 else [])
    gone = rng.sample(files, min(len(files), rng.choice([1, 1, 1, 2, 3])))
    env = {"LINKSCOPE_KEEP": "0"} if rng.random() < 0.15 else {}
    if rng.random() < 0.15:
        # or the build rewrites one after the link: another content, an old mtime
        return "cc", words, {"env": env, "rewrite": [rng.choice(["libar.a", "main.o", "o0.o"])]}
    return "cc", words, {"env": env, "delete": gone}


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
    "relative": gen_relative,
    "compile": gen_compile,
    "deleted": gen_deleted,
    "reloc": lambda rng, case, d: gen_reloc(rng, case, d, write, run),
    "unusable": gen_unusable,
    **gen_linkers.CLASSES,
    "names": lambda rng, case, d: gen_names(rng, case, d, write, run),
}
CLASS_NAMES = list(CLASSES)
AARCH64_CLASSES = ["base", "gc", "script-group", "common", "versioned", "shared", "undef-policy", "static",
                   "relative", "deleted", *gen_linkers.CLASSES]
CROSS_TOOLS = ("gcc", "ar", "nm", "objcopy", "ranlib", "strip", "as")


def cross_path(d):
    """A directory of the cross toolchain under the plain names, for the front of PATH."""
    for t in CROSS_TOOLS:
        os.symlink(f"/usr/bin/aarch64-linux-gnu-{t}", os.path.join(d, t))
    os.symlink("/usr/bin/aarch64-linux-gnu-gcc", os.path.join(d, "cc"))
    for name, prog in (("lld", "ld.lld"), ("mold", "mold")):
        if shutil.which(prog):
            os.symlink(shutil.which(prog), os.path.join(d, f"aarch64-linux-gnu-ld.{name}"))
    return d


UNDEF = re.compile(r"undefined reference to (?:symbol )?[`']([^'@`]+)")


def demangled(symbols):
    """The C++ names ld would print for mangled `symbols`."""
    mangled = sorted(x for x in symbols if x.startswith("_Z"))
    if not mangled:
        return set()
    r = subprocess.run(["c++filt"], input="\n".join(mangled) + "\n", capture_output=True, text=True)
    return set(r.stdout.splitlines())


def record_of(env):
    """The newest record in LINKSCOPE_DIR (the link's)."""
    recs = sorted(x for x in os.listdir(env["LINKSCOPE_DIR"]) if x.endswith(".json"))
    with open(os.path.join(env["LINKSCOPE_DIR"], recs[-1])) as f:
        return json.load(f)


def make_decoys(d, names, symbols, where):
    """Libraries named as the case's own, in each dir of `where`: defining
    `symbols` (the ones ld found undefined) when ld failed, nothing when it
    linked. An analysis that resolves a relative path against its own cwd,
    or takes a search dir from its own environment, finds these and flips
    its verdict."""
    defs = "".join(f"int {s}(void) {{ return 0; }}\n" for s in sorted(symbols) if re.fullmatch(r"[A-Za-z_]\w*", s))
    src = os.path.join(d, "decoy-src")
    os.makedirs(src, exist_ok=True)
    write(src, "decoy.c", defs + "int decoy_only(void) { return 0; }\n")
    run(src, ["cc", "-c", "-fPIC", "decoy.c"])
    run(src, ["ar", "rcs", "decoy.a", "decoy.o"])
    run(src, ["cc", "-shared", "decoy.o", "-o", "decoy.so"])
    for name in names:
        made = "decoy.a" if name.endswith(".a") else "decoy.so"
        for w in where:
            os.makedirs(w, exist_ok=True)
            shutil.copy(os.path.join(src, made), os.path.join(w, name))


def library_names(d, stderr):
    """The file names of the case's libraries, and those ld looked for."""
    names = set()
    for root, _, files in os.walk(d):
        names |= {f for f in files if f.startswith("lib") and (f.endswith(".a") or f.endswith(".so"))}
    names |= {f"lib{x}.so" for x in re.findall(r"cannot find -l(\S+)", stderr)}
    names |= set(re.findall(r"(lib\S+\.so\S*), needed by", stderr))
    return names


def analyse(build_dir, cwd, env, more=(), record="last"):
    """linkscope report --replay-only of the record (the last one): (json, error text)."""
    rep = sh([os.path.join(build_dir, "bin", "linkscope"), "report", "--format", "json",
              "--replay-only", *more, record], cwd, env)
    if rep.returncode:
        return None, rep.stderr.strip()
    return json.loads(rep.stdout), None


def verdict(j):
    """(outcome, the symbols of its diagnostics as ld would name them)."""
    # undefined-symbol diagnostics are grouped by cause: "symbols" holds every one of them;
    # ld names C++ symbols demangled, and a versioned reference without its version.
    syms = set(y.split("@")[0] for x in j["diagnostics"] for y in (x.get("symbols") or [x["symbol"]]))
    return j["predicted"]["outcome"], syms | demangled(syms)


def because(j):
    """The reasons of an "unknown", one string."""
    why = j["predicted"].get("unknown_because") or []
    return "; ".join(why) if isinstance(why, list) else why


def unreadable_now(why):
    """The inputs an "unknown" names as unreadable, or None if it gives any other reason."""
    paths = []
    for part in why.split("; "):
        m = re.match(r"'([^']+)'.* cannot be read now, and the record does not show it missing", part)
        if not m:
            return None
        paths.append(m.group(1))
    return paths


def agrees(j, ld_fail, ld_stderr, ld_syms, ld_missing, unkept):
    """A prediction agrees when its outcome is ld's (and, when ld failed,
    every symbol ld names is among its diagnostics). "unknown" agrees only
    when it cannot be known:
     - an input was deleted after the link and the shim kept no copy, the
       reason names it, and ld did not fail at an input missing when it ran
       (that failure is predictable whatever the deleted input held);
     - or ld failed, nothing was deleted, and each input the reason names
       as unreadable is one ld could not find either, with no fingerprint
       in the record (a linker script's member: the record cannot show it
       missing at link time)."""
    outcome, syms = verdict(j)
    if outcome != "unknown":
        return (outcome == "failure") == ld_fail and (ld_syms <= syms or ld_missing)
    why = because(j)
    if unkept:
        return not (ld_fail and ld_missing) and any(os.path.basename(p) in why for p in unkept)
    named = unreadable_now(why)
    found_not = set(os.path.basename(x) for x in re.findall(r"cannot find (\S+): No such file", ld_stderr))
    return ld_fail and bool(named) and all(os.path.basename(p) in found_not for p in named)


def names_cause(j, kind):
    """Whether a diagnostic of the report has a near miss or a multiple-definition cause of `kind`."""
    return any(kind == m["kind"] for x in j["diagnostics"]
               for m in (x.get("near_misses") or []) + ([x["cause"]] if x.get("cause") else []))


# --redaction: secrets that a record must not keep, and where they go on a line.
SECRETS = ["ghp_0123456789abcdefghijABCDEFGHIJ012345", "pa55w0rd-ci", "k3y-s3cr3t-v4lue", "0x5ec12e7"]
SECRET_WORDS = ["-L/nonexistent/ghp_0123456789abcdefghijABCDEFGHIJ012345",
                "-Wl,-rpath,https://ci:pa55w0rd-ci@example.com/lib", "-DAPI_KEY=k3y-s3cr3t-v4lue",
                "-Wl,--defsym=auth_token=0x5ec12e7", "-DSESSION_TIMEOUT=3600", "-Wl,-soname,libauth.so"]


def add_secret_words(rng, d, args):
    """The line with secret-looking words that change nothing ld does. The
    sources in d then need -DUSE_AUTH=1 (a define whose name says AUTH) to
    compile, which a link call that compiles them passes."""
    args = list(args)
    libs = [i for i, w in enumerate(args) if w.startswith("-l")]
    if libs and rng.random() < 0.8:
        i = rng.choice(libs)
        args[i] = "-Wl,--defsym,session_base=0," + args[i]
    args += rng.sample(SECRET_WORDS, rng.randint(1, len(SECRET_WORDS))) + ["-DUSE_AUTH=1"]
    for root, _, files in os.walk(d):
        for f in files:
            if f.endswith((".c", ".cpp")):
                with open(os.path.join(root, f)) as fh:
                    text = fh.read()
                write(root, f, "#if !USE_AUTH\n#error USE_AUTH\n#endif\n" + text)
    return args


def same_but_secrets(unredacted, redacted):
    """The two reports, the record's path and the analyzer's own temporary
    dirs left out and the secrets said as [redacted]: the first difference,
    or None."""
    def text(j):
        t = json.dumps({k: v for k, v in j.items() if k != "record"}, indent=1, sort_keys=True)
        t = re.sub(r"lk-(sources|verify|driver)-[A-Za-z0-9]{6}", r"lk-\1-XXXXXX", t)
        for x in SECRETS:
            t = t.replace(x, "[redacted]")
        return t.splitlines()
    a, b = text(unredacted), text(redacted)
    for x, y in zip(a, b):
        if x != y:
            return f"unredacted {x.strip()!r}, redacted {y.strip()!r}"
    return None if len(a) == len(b) else "reports of different lengths"


def elsewhere_env(base, e):
    """Another cwd's environment: decoy dirs in LIBRARY_PATH, LD_LIBRARY_PATH, LD_RUN_PATH."""
    env = {k: base[k] for k in ("PATH", "LANG", "LINKSCOPE_DIR") if k in base}
    decoy = os.path.join(e, "decoy")
    env.update(HOME=e, TMPDIR=e, LIBRARY_PATH=decoy, LD_LIBRARY_PATH=decoy, LD_RUN_PATH=decoy,
               COMPILER_PATH=os.path.join(e, "bin"))
    return env


def other_linkers(linkers, driver, args, cwd, env, out):
    """Each linker of `linkers` but GNU ld: whether the real one fails the same link."""
    fails = {}
    for name in linkers:
        if name != "bfd":
            r = sh([driver] + args + [f"-fuse-ld={name}", "-o", f"{out}.{name}"], cwd, env)
            fails[name] = r.returncode != 0
    return fails


def linkers_agree(j, fails, lres):
    """The replay's verdict for each other linker against the real one's (each counted in
    `lres`): the first disagreement, or None."""
    first = None
    for name, failed in fails.items():
        # a report before issue #19 has one verdict, "lld", for lld and mold alike
        said = j["predicted"]["linkers"][name] if "linkers" in j["predicted"] else j["predicted"].get("lld", "missing")
        if said == "unknown":
            continue
        lres[name] = (said == "failure") == failed
        if not lres[name] and not first:
            why = "; ".join(j["predicted"].get("linker_verdicts", {}).get(name, {}).get("why", []))
            first = f"{name} {'fails' if failed else 'links'}, replay says {said}{' (' + why + ')' if why else ''}"
    return first


def fixes_applied(j, driver_env, cwd, out, fres):
    """Each fix verified by replay, its edited argv run with the real tools (issue #18):
    counted in `fres` as applied, and as not fixing when the real link then fails.
    Returns the first that does not fix, or None."""
    first = None
    fixes = [f for d in j["diagnostics"] for f in d["fixes"]] + ([j["whole_fix"]] if j.get("whole_fix") else [])
    for f in fixes:
        if not f["verified"] or not f.get("argv"):
            continue
        argv = list(f["argv"])
        if "-o" in argv:
            argv[argv.index("-o") + 1] = out + ".fixed"
        else:
            argv += ["-o", out + ".fixed"]
        try:
            r = subprocess.run(argv, cwd=cwd, env=driver_env, capture_output=True, text=True, timeout=120)
            failed = r.returncode != 0
        except subprocess.TimeoutExpired:
            failed = True
        fres["applied"] = fres.get("applied", 0) + 1
        if failed:
            fres["not_fixing"] = fres.get("not_fixing", 0) + 1
            first = first or f"the fix \"{f['description']}\" (verified by replay) does not link: {' '.join(argv)}"
    return first


def run_case(build_dir, seed, case, keep, redaction=False, linkers=(), lres=None, fres=None):
    # One generator per case: any case can be replayed alone (--case K).
    rng = random.Random(seed * 1000003 + case)
    cls = CLASS_NAMES[case % len(CLASS_NAMES)]
    d = tempfile.mkdtemp(prefix=f"lk-diff-{case}-")
    try:
        driver, args, *more = CLASSES[cls](rng, case, d)
        extra = more[0] if more else {}
        cwd = os.path.join(d, extra.get("cwd", ""))
        env = dict(os.environ, LINKSCOPE_DIR=os.path.join(d, "records"), LINKSCOPE_EXPAND="always")
        for k in ("LINKSCOPE_LINKER", "LINKSCOPE_KEEP", "LINKSCOPE_REDACT", "LD_LIBRARY_PATH", "LD_RUN_PATH",
                  "LIBRARY_PATH"):
            env.pop(k, None)
        if redaction:
            # Its own generator: the case's scenario is the one without --redaction.
            more_rng = random.Random(seed * 1000003 + case + 500009)
            if more_rng.random() < 0.75:
                args = add_secret_words(more_rng, d, args)
            env["LINKSCOPE_REDACT"] = "0"
        shim = os.path.join(build_dir, "bin", "linkscope-cc")
        out = "libout.so" if "-shared" in args else "prog"
        r = sh([shim, "--", driver] + args + ["-o", out], cwd, dict(env, **extra.get("env", {})))
        ld_fail = r.returncode != 0
        fails = other_linkers(linkers, driver, args, cwd, dict(env, **extra.get("env", {})), out)
        errors = "\n".join(x for x in r.stderr.splitlines() if "warning:" not in x)
        ld_syms = set(UNDEF.findall(errors)) if ld_fail else set()
        ld_missing = "cannot find" in r.stderr or "No such file" in r.stderr
        # inputs the build deletes after the link, and whether the shim kept them
        rec = record_of(env)
        record = "last"
        if redaction:
            unredacted = os.path.join(env["LINKSCOPE_DIR"], rec["id"] + ".json")
            record = os.path.join(env["LINKSCOPE_DIR"], rec["id"] + ".redacted.json")
            t = sh([os.path.join(build_dir, "tests", "redact-record"), unredacted, record], d)
            if t.returncode:
                return cls, False, f"case {case} [{cls}]: redact-record failed: {t.stderr.strip()}", ld_fail, d, None
        kept = set(os.path.normpath(os.path.join(cwd, k["path"])) for k in rec.get("kept") or [])
        unkept = []
        for p in extra.get("delete", []):
            full = os.path.normpath(os.path.join(cwd, p))
            os.unlink(full)
            if full not in kept:
                unkept.append(full)
        for p in extra.get("rewrite", []):
            # the replay reads another file than ld did: the fingerprint shows it
            full = os.path.normpath(os.path.join(cwd, p))
            write(cwd, "other.c", "int other_than_before(void) { return 0; }\n")
            run(cwd, ["cc", "-c", "-fPIC", "other.c", "-o", "other.o"])
            os.unlink(full)
            if full.endswith(".a"):
                run(cwd, ["ar", "rcs", full, "other.o"])
            else:
                shutil.copy(os.path.join(cwd, "other.o"), full)
            os.utime(full, (946684800, 946684800))
            if full not in kept:
                unkept.append(full)
        line = f"line: (cd {extra.get('cwd', '.')}; {' '.join(f'{k}={v}' for k, v in extra.get('env', {}).items())}" \
            f"{' ' if extra.get('env') else ''}{driver} {' '.join(args)})" + \
            (f"; {'deleted' if extra.get('delete') else 'rewritten'} after: "
             f"{' '.join(extra.get('delete') or extra['rewrite'])} (not kept: {' '.join(map(os.path.basename, unkept)) or '-'})"
             if extra.get("delete") or extra.get("rewrite") else "")
        j, err = analyse(build_dir, cwd, env, extra.get("report", ()), record)
        if err:
            return cls, False, f"case {case} [{cls}]: report failed: {err}; {line}", ld_fail, d, None
        if redaction:
            ju, err = analyse(build_dir, cwd, env, extra.get("report", ()), unredacted)
            if err:
                return cls, False, f"case {case} [{cls}]: report of the unredacted record failed: {err}; {line}", ld_fail, d, None
            diff = same_but_secrets(ju, j)
            if diff:
                return cls, False, (f"case {case} [{cls}]: redaction changes the analysis: {diff}; "
                                    f"ld {'fails' if ld_fail else 'links'}; {line}"), ld_fail, d, None
        ok = agrees(j, ld_fail, r.stderr, ld_syms, ld_missing, unkept)
        here = verdict(j)
        why = (f"case {case} [{cls}]: ld {'fails' if ld_fail else 'links'} {sorted(ld_syms)}, "
               f"replay {here[0]} {sorted(here[1])}"
               f"{' (' + because(j) + ')' if here[0] == 'unknown' else ''}; {line}")
        other = linkers_agree(j, fails, lres if lres is not None else {})
        if not ok:
            return cls, False, why, ld_fail, d, here[0]
        # The fixes applied with the real tools, where the line's inputs are all still there.
        if ld_fail and not redaction and not extra.get("delete") and not extra.get("rewrite"):
            bad_fix = fixes_applied(j, dict(env, **extra.get("env", {})), cwd, out, fres if fres is not None else {})
            if bad_fix:
                return cls, False, f"case {case} [{cls}]: {bad_fix}; {line}", ld_fail, d, here[0]
        if ld_fail and extra.get("expect") and not names_cause(j, extra["expect"]):
            return cls, False, f"case {case} [{cls}]: the report does not name {extra['expect']}; {why}", ld_fail, d, here[0]
        if other:
            return cls, False, f"case {case} [{cls}]: {other}; ld {'fails' if ld_fail else 'links'}; {line}", ld_fail, d, here[0]
        # The same record analysed from another directory, in another
        # environment, with decoy libraries where a wrong search would look.
        e = os.path.join(d, "elsewhere")
        dirs = set(os.path.relpath(root, d) for root, _, files in os.walk(d)
                   if any(f.startswith("lib") for f in files))
        make_decoys(d, library_names(d, r.stderr), ld_syms if ld_fail else set(),
                    [os.path.normpath(os.path.join(e, x)) for x in dirs | {extra.get("cwd", "."), "decoy"}])
        there_cwd = os.path.normpath(os.path.join(e, extra.get("cwd", ".")))
        os.makedirs(there_cwd, exist_ok=True)
        j2, err = analyse(build_dir, there_cwd, elsewhere_env(env, e), extra.get("report", ()), record)
        if err:
            return cls, False, f"case {case} [{cls}]: report elsewhere failed: {err}; {line}", ld_fail, d, here[0]
        there = verdict(j2)
        if there != here:
            return cls, False, (f"case {case} [{cls}]: elsewhere the replay says {there[0]} {sorted(there[1])}, "
                                f"here {here[0]} {sorted(here[1])}; ld {'fails' if ld_fail else 'links'}; {line}"), ld_fail, d, here[0]
        if redaction:
            # and the number of strings redacted, for the summary
            with open(record) as f:
                return cls, True, why, ld_fail, d, here[0], len(json.load(f)["redactions"])
        return cls, True, why, ld_fail, d, here[0]
    finally:
        if not keep:
            shutil.rmtree(d, ignore_errors=True)


def run_one(job):
    lres, fres = {}, {}
    return run_case(*job, lres=lres, fres=fres), lres, fres


def main():
    build_dir = os.path.abspath(sys.argv[1])
    n = int(sys.argv[2])
    seed = int(sys.argv[3])
    keep = "--keep" in sys.argv
    redaction = "--redaction" in sys.argv
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 1
    linkers = sys.argv[sys.argv.index("--linkers") + 1].split(",") if "--linkers" in sys.argv else []
    if any(x not in ("bfd", "lld", "mold") for x in linkers):
        sys.exit(f"difftest: --linkers takes bfd, lld, mold, not {','.join(linkers)!r}")
    arch = sys.argv[sys.argv.index("--arch") + 1] if "--arch" in sys.argv else "x86_64"
    if arch not in ("x86_64", "aarch64"):
        sys.exit(f"difftest: --arch takes x86_64 or aarch64, not {arch!r}")
    if arch == "aarch64":
        global CLASS_NAMES
        CLASS_NAMES = AARCH64_CLASSES
        cross = cross_path(tempfile.mkdtemp(prefix="lk-diff-cross-"))
        import atexit
        atexit.register(shutil.rmtree, cross, True)
        os.environ["PATH"] = cross + os.pathsep + os.environ["PATH"]
    cases = list(range(n))
    if "--class" in sys.argv:
        want = sys.argv[sys.argv.index("--class") + 1]
        if want not in CLASSES:
            sys.exit(f"difftest: unknown class {want!r} (classes: {', '.join(CLASS_NAMES)})")
        cases = [c for c in cases if CLASS_NAMES[c % len(CLASS_NAMES)] == want]
    if "--case" in sys.argv:
        cases = [int(sys.argv[sys.argv.index("--case") + 1])]
    passed = failed = ld_failures = 0
    per_class = {c: [0, 0, 0, 0] for c in CLASS_NAMES}   # agreed, cases, ld failures, agreed as unknown
    work = [(build_dir, seed, case, keep, redaction, linkers) for case in cases]
    per_linker = {x: {c: [0, 0] for c in CLASS_NAMES} for x in linkers if x != "bfd"}   # agreed, compared
    if jobs > 1:
        import multiprocessing
        pool = multiprocessing.Pool(jobs)
        results = pool.imap(run_one, work)
    else:
        results = map(run_one, work)
    redacted_records = redacted_strings = 0
    applied = not_fixing = 0
    for case, ((cls, ok, why, ld_fail, d, outcome, *redacted), lres, fres) in zip(cases, results):
        applied += fres.get("applied", 0)
        not_fixing += fres.get("not_fixing", 0)
        for name, agreed in lres.items():
            per_linker[name][cls][0] += agreed
            per_linker[name][cls][1] += 1
        ld_failures += ld_fail
        per_class[cls][1] += 1
        per_class[cls][2] += ld_fail
        if ok:
            passed += 1
            per_class[cls][0] += 1
            per_class[cls][3] += outcome == "unknown"
            if redacted:
                redacted_records += redacted[0] > 0
                redacted_strings += redacted[0]
            print(f"ok {case} {cls}{' (unknown)' if outcome == 'unknown' else ''}", flush=True)
        else:
            failed += 1
            print("DISAGREE " + why + (f" (kept in {d})" if keep else ""), flush=True)
    for c in CLASS_NAMES:
        a, t, f, u = per_class[c]
        if t:
            print(f"class {c:13} {a}/{t} agree (ld failed {f}; agreed as unknown {u})")
    for name, classes in per_linker.items():
        for c in CLASS_NAMES:
            a, t = classes[c]
            if t:
                print(f"linker {name:4} class {c:13} {a}/{t} agree")
        a, t = sum(x[0] for x in classes.values()), sum(x[1] for x in classes.values())
        print(f"linker {name:4} agreement: {a}/{t} compared cases")
    print(f"agreement: {passed}/{len(cases)} cases (seed {seed}{', aarch64' if arch == 'aarch64' else ''}); the real ld failed {ld_failures} of them")
    if redaction:
        print(f"redaction: {redacted_records} of the {passed} records that agree had strings redacted "
              f"({redacted_strings} strings), each analysed the same as its unredacted record")
    print(f"fixes verified by replay, applied with the real tools: {applied}; that do not fix: {not_fixing}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not_fixing else 0


if __name__ == "__main__":
    sys.exit(main())
