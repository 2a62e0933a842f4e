"""The difftest's "names" class (issue #17): links that fail, or link, for
the reasons the near misses and multiple-definition causes explain.

One of, at random, each sometimes in the form that links: a C++ reference
to a C definition without extern "C", or the reverse; a C++ definition
with other parameter types; a static (local) definition; a hidden
definition in a shared object; a versioned reference (sym@V2) to a library
that has only V1; a missing key function (the vtable undefined); a
template defined in a .cpp and not instantiated; main missing; tentative
definitions under -fno-common (or -fcommon); a function defined in a
header included twice; the same symbol in two archive members both
pulled. The real gcc/g++/ld is the oracle (difftest.py compares); when
it fails, the report must also name the reason (a near miss's or a
multiple definition's cause kind).
"""
import os


def _expect(fails, kind):
    """The case's extras: the near miss or multiple-definition cause the
    report must name when ld fails (difftest.py's names_cause)."""
    return {"expect": kind} if fails else {}


def _c_vs_cxx(rng, case, d, write, run):
    f = f"lang{case}"
    wrap = rng.random() < 0.25     # extern "C": links
    decl = f"int {f}(int);"
    if rng.random() < 0.5:
        # C++ calls a C definition
        write(d, "def.c", f"int {f}(int x) {{ return x + 1; }}\n")
        write(d, "main.cpp", (f'extern "C" {decl}' if wrap else decl) +
              f"\nint main() {{ return {f}(1) == 0; }}\n")
        run(d, ["cc", "-c", "def.c"])
        run(d, ["g++", "-c", "main.cpp"])
    else:
        # C calls a C++ definition
        write(d, "def.cpp", ('extern "C" ' if wrap else "") + f"int {f}(int x) {{ return x + 1; }}\n")
        write(d, "main.c", f"{decl}\nint main(void) {{ return {f}(1) == 0; }}\n")
        run(d, ["g++", "-c", "def.cpp"])
        run(d, ["cc", "-c", "main.c"])
    return "g++", ["main.o", "def.o"], _expect(not wrap, "extern-c")


def _param_types(rng, case, d, write, run):
    f = f"param{case}"
    used, defined = "long", rng.choice(["int", "long", "const char *", "double"])
    write(d, "def.cpp", f"int {f}({defined}) {{ return 1; }}\n")
    write(d, "main.cpp", f"int {f}({used});\nint main() {{ return {f}(2) == 0; }}\n")
    run(d, ["g++", "-c", "def.cpp", "main.cpp"])
    return "g++", ["main.o", "def.o"], _expect(defined != used, "signature")


def _static(rng, case, d, write, run):
    f = f"local{case}"
    local = rng.random() < 0.75
    write(d, "def.c", ("static " if local else "") + f"int {f}(void) {{ return 3; }}\n"
          f"int user{case}(void) {{ return {f}(); }}\n")
    write(d, "main.c", f"int {f}(void);\nint user{case}(void);\n"
          f"int main(void) {{ return {f}() + user{case}() == 0; }}\n")
    run(d, ["cc", "-c", "def.c", "main.c"])
    words = ["main.o", "def.o"]
    if rng.random() < 0.4:
        run(d, ["ar", "rcs", "libdef.a", "def.o"])
        words = ["main.o", "-L.", "-ldef"]
    return "cc", words, _expect(local, "local")


def _hidden(rng, case, d, write, run):
    f = f"hid{case}"
    vis = "hidden" if rng.random() < 0.75 else "default"
    write(d, "lib.c", f'__attribute__((visibility("{vis}"))) int {f}(void) {{ return 4; }}\n'
          f"int pub{case}(void) {{ return {f}(); }}\n")
    write(d, "main.c", f"int {f}(void);\nint pub{case}(void);\nint main(void) {{ return {f}() + pub{case}() == 0; }}\n")
    run(d, ["cc", "-shared", "-fPIC", "-Wl,-soname,libhid.so", "lib.c", "-o", "libhid.so"])
    run(d, ["cc", "-c", "main.c"])
    return "cc", ["main.o", "-L.", "-lhid"], _expect(vis == "hidden", "not-exported")


def _old_library(rng, case, d, write, run):
    f = f"ver{case}"
    new = rng.random() < 0.3       # the library on the line has V2: links

    def library(where, v2):
        os.makedirs(os.path.join(d, where), exist_ok=True)
        write(d, "v.map", "V1 { global: *; };\n" + ("V2 { } V1;\n" if v2 else ""))
        write(d, "lib.c", f"int {f}_impl(void) {{ return 5; }}\n"
              f"__asm__(\".symver {f}_impl,{f}@@{'V2' if v2 else 'V1'}\");\n")
        run(d, ["cc", "-shared", "-fPIC", "-Wl,--version-script=v.map", "-Wl,-soname,libver.so", "lib.c",
                "-o", os.path.join(where, "libver.so")])

    library("new", True)
    library(".", new)
    if rng.random() < 0.5:
        # an object's own sym@V2 reference (.symver): only the outcome is compared
        write(d, "main.c", f"int ref(void);\n__asm__(\".symver ref,{f}@V2\");\nint main(void) {{ return ref() == 0; }}\n")
        run(d, ["cc", "-c", "main.c"])
        return "cc", ["main.o", "-L.", "-lver"]
    # a shared object built against the new library, linked with the old one
    write(d, "use.c", f"int {f}(void);\nint use{case}(void) {{ return {f}(); }}\n")
    run(d, ["cc", "-shared", "-fPIC", "-Wl,-soname,libuse.so", "use.c", "-Lnew", "-lver", "-o", "libuse.so"])
    write(d, "main.c", f"int use{case}(void);\nint main(void) {{ return use{case}() == 0; }}\n")
    run(d, ["cc", "-c", "main.c"])
    return "cc", ["main.o", "-L.", "-luse", "-lver", "-Wl,-rpath-link,."], _expect(not new, "version")


def _key_function(rng, case, d, write, run):
    k = f"Key{case}"
    defined = rng.random() < 0.3
    write(d, "k.hpp", f"struct {k} {{ virtual ~{k}() {{}} virtual int key() const; int other() const {{ return 1; }} }};\n")
    write(d, "k.cpp", '#include "k.hpp"\n' + (f"int {k}::key() const {{ return 6; }}\n" if defined else "")
          + f"int make{case}() {{ {k} x; return x.other(); }}\n")
    write(d, "main.cpp", f'#include "k.hpp"\nint make{case}();\nint main() {{ {k} *p = new {k}; '
          f"int r = p->other() + make{case}(); delete p; return r == 0; }}\n")
    run(d, ["g++", "-c", "k.cpp", "main.cpp"])
    return "g++", ["main.o", "k.o"], _expect(not defined, "key-function")


def _template(rng, case, d, write, run):
    t = f"twice{case}"
    instantiated = rng.random() < 0.3
    write(d, "t.hpp", f"template <class T> T {t}(T x);\n")
    write(d, "t.cpp", f'#include "t.hpp"\ntemplate <class T> T {t}(T x) {{ return x + x; }}\n'
          + (f"template int {t}<int>(int);\n" if instantiated else f"int use{case}() {{ return {t}(2L); }}\n"))
    write(d, "main.cpp", f'#include "t.hpp"\nint main() {{ return {t}(3) == 0; }}\n')
    run(d, ["g++", "-c", "t.cpp", "main.cpp"])
    return "g++", ["main.o", "t.o"], _expect(not instantiated, "template")


def _no_main(rng, case, d, write, run):
    has_main = rng.random() < 0.3
    write(d, "u.c", f"int work{case}(void) {{ return 7; }}\n")
    write(d, "main.c", f"int work{case}(void);\nint main(void) {{ return work{case}() == 0; }}\n")
    run(d, ["cc", "-c", "u.c", "main.c"])
    return "cc", (["main.o"] if has_main else []) + ["u.o"], _expect(not has_main, "main")


def _tentative(rng, case, d, write, run):
    g = f"tent{case}"
    common = rng.choice(["-fno-common", "-fno-common", "-fcommon"])
    write(d, "a.c", f"int {g};\nint get{case}(void) {{ return {g}; }}\n")
    initialised = rng.random() < 0.3       # in .data: not a tentative of both
    write(d, "main.c", (f"int {g} = 1;\n" if initialised else f"int {g};\n")
          + f"int get{case}(void);\nint main(void) {{ return get{case}() + {g} == 0; }}\n")
    run(d, ["cc", "-c", common, "a.c", "main.c"])
    return "cc", ["main.o", "a.o"], _expect(not initialised, "tentative-definition")


def _header_twice(rng, case, d, write, run):
    f = f"inhdr{case}"
    storage = rng.choice(["", "", "static inline ", "static "])
    write(d, "h.h", f"{storage}int {f}(void) {{ return 8; }}\n")
    write(d, "a.c", f'#include "h.h"\nint other{case}(void) {{ return {f}(); }}\n')
    write(d, "main.c", f'#include "h.h"\nint other{case}(void);\nint main(void) {{ return {f}() + other{case}() == 0; }}\n')
    run(d, ["cc", "-c", "a.c", "main.c"])
    return "cc", ["main.o", "a.o"], _expect(not storage, "function-in-header")


def _two_members(rng, case, d, write, run):
    f = f"dup{case}"
    write(d, "m1.c", f"int {f}(void) {{ return 1; }}\nint first{case}(void) {{ return 2; }}\n")
    write(d, "m2.c", f"int {f}(void) {{ return 3; }}\nint second{case}(void) {{ return 4; }}\n")
    both = rng.random() < 0.7      # only m1 pulled: links
    write(d, "main.c", f"int first{case}(void);\nint second{case}(void);\nint main(void) {{ return first{case}()"
          + (f" + second{case}()" if both else "") + " == 0; }\n")
    run(d, ["cc", "-c", "m1.c", "m2.c", "main.c"])
    run(d, ["ar", "rcs", "libdup.a", "m1.o", "m2.o"])
    return "cc", ["main.o", "-L.", "-ldup"], _expect(both, "archive-members")


KINDS = [_c_vs_cxx, _param_types, _static, _hidden, _old_library, _key_function,
         _template, _no_main, _tentative, _header_twice, _two_members]


def gen_names(rng, case, d, write, run):
    return rng.choice(KINDS)(rng, case, d, write, run)
