"""The difftest's "unusable" class (issue #17, point 4 and 6): inputs ld
cannot use or find, and thin archives, which it reads.

One of, at random: a thin archive (members in dirs below it, found by -l
or by path, sometimes lacking a definition); an object, shared object or
archive of another machine (AArch64) by path, pulled from or not; a -l
whose -L dir has only an AArch64 libNAME, sometimes with an x86-64 one in
a later dir; LLVM bitcode (clang -flto -c); a linker script with a syntax
error, or one ld accepts; an object cut short at some length, or empty; a
-l of a near name (-lzlib, -lpthreads). The real ld is the oracle
(difftest.py compares).
"""
import os
import shutil
import subprocess

CROSS = "aarch64-linux-gnu-gcc"


def _write(d, name, text):
    os.makedirs(os.path.dirname(os.path.join(d, name)) or d, exist_ok=True)
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


def _run(d, cmd):
    r = subprocess.run(cmd, cwd=d, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(" ".join(cmd) + ": " + r.stderr)


def _units(rng, case, d, n):
    """n units f{case}_i, each calling the next (the last calls nothing); main calls the first."""
    for i in range(n):
        call = f"f{case}_{i + 1}()" if i + 1 < n else "0"
        _write(d, f"u{i}.c", f"int f{case}_{i + 1}(void);\nint f{case}_{i}(void) {{ return {call} + {i}; }}\n")
    _write(d, "main.c", f"int f{case}_0(void);\nint main(void) {{ return f{case}_0() > 100; }}\n")
    _run(d, ["cc", "-c", "main.c"] + [f"u{i}.c" for i in range(n)])


def _thin(rng, case, d):
    n = rng.randint(2, 4)
    _units(rng, case, d, n)
    os.makedirs(os.path.join(d, "lib/sub"), exist_ok=True)
    members = []
    for i in range(n):
        # some members in a dir below the archive's, as meson and ninja place them
        where = "lib/sub" if rng.random() < 0.5 else "lib"
        shutil.move(os.path.join(d, f"u{i}.o"), os.path.join(d, where, f"u{i}.o"))
        members.append(os.path.relpath(os.path.join(where, f"u{i}.o"), "lib"))
    if rng.random() < 0.25:
        members.pop(rng.randrange(len(members)))   # a definition missing: ld fails
    _run(os.path.join(d, "lib"), ["ar", "rcT", "libthin.a"] + members)
    if rng.random() < 0.3:
        # a thin archive of the thin archive: ar flattens it
        _run(d, ["ar", "rcT", "libouter.a", "lib/libthin.a"])
        return ["main.o", "libouter.a"]
    return ["main.o", "-Llib", "-lthin"] if rng.random() < 0.5 else ["main.o", "lib/libthin.a"]


def _wrong_machine(rng, case, d):
    _units(rng, case, d, 2)
    _run(d, [CROSS, "-c", "u1.c", "-o", "u1-arm.o"])
    how = rng.choice(["object", "shared", "archive-pulled", "archive-unpulled"])
    if how == "object":
        return ["main.o", "u0.o", "u1-arm.o"]
    if how == "shared":
        _run(d, [CROSS, "-shared", "-fPIC", "u1.c", "-o", "libu1-arm.so"])
        return ["main.o", "u0.o", "u1.o", "./libu1-arm.so"]
    _run(d, ["ar", "rc", "libarm.a", "u1-arm.o"])
    return ["main.o", "u0.o", "libarm.a"] if how == "archive-pulled" else ["main.o", "u0.o", "u1.o", "libarm.a"]


def _incompatible(rng, case, d):
    _units(rng, case, d, 2)
    os.makedirs(os.path.join(d, "arm"), exist_ok=True)
    os.makedirs(os.path.join(d, "x86"), exist_ok=True)
    _run(d, [CROSS, "-c", "u1.c", "-o", "arm/u1.o"])
    _run(d, ["ar", "rc", "arm/libu.a", "arm/u1.o"])
    if rng.random() < 0.5:
        _run(d, [CROSS, "-shared", "-fPIC", "u1.c", "-o", "arm/libu.so"])
    words = ["main.o", "u0.o", "-Larm"]
    if rng.random() < 0.4:
        _run(d, ["cc", "-shared", "-fPIC", "u1.c", "-o", "x86/libu.so"])
        words.append("-Lx86")
    return words + ["-lu"]


def _bitcode(rng, case, d):
    _units(rng, case, d, 2)
    _run(d, ["clang", "-flto", "-c", "u1.c", "-o", "u1-bc.o"])
    return ["main.o", "u0.o", "u1-bc.o"]


SCRIPTS = [
    ("GROUP ( u1.o )\n", True),
    ("/* GNU ld script */\nOUTPUT_FORMAT(elf64-x86-64)\nGROUP ( u1.o AS_NEEDED ( libm.so.6 ) )\n", True),
    ("FORCE_COMMON_ALLOCATION\nINPUT(u1.o)\n", True),
    ("INPUT(u1.o) SEARCH_DIR(.)\n", True),
    ("GROUP ( u1.o\n", False),
    ("GROUP ( u1.o )\nNONSENSE WORDS\n", False),
    ("INPUT(u1.o) )\n", False),
    ("GROUP u1.o\n", False),
    ("/* unterminated comment\nINPUT(u1.o)\n", False),
    ("INPUT(u1.o { u0.o })\n", False),
]


def _script(rng, case, d):
    _units(rng, case, d, 2)
    text, _ = rng.choice(SCRIPTS)
    _write(d, "libs.ld", text)
    return ["main.o", "u0.o", "libs.ld"]


def _cut(rng, case, d):
    _units(rng, case, d, 2)
    with open(os.path.join(d, "u1.o"), "rb") as f:
        data = f.read()
    size = rng.choice([0, 3, 40, 100, 300, 600, len(data) - 10])
    with open(os.path.join(d, "u1-cut.o"), "wb") as f:
        f.write(data[:max(0, size)])
    # an empty or cut object that is not needed, or one that is
    return ["main.o", "u0.o"] + (["u1.o"] if rng.random() < 0.4 else []) + ["u1-cut.o"]


def _near_name(rng, case, d):
    _write(d, "main.c", "#include <zlib.h>\n#include <pthread.h>\n"
           "int main(void) { return zlibVersion()[0] == 'x' && pthread_self() == 0; }\n")
    _run(d, ["cc", "-c", "main.c"])
    return ["main.o", rng.choice(["-lzlib", "-lz"]), rng.choice(["-lpthreads", "-lpthread"])]


def gen_unusable(rng, case, d):
    kinds = [_thin, _bitcode, _script, _cut, _near_name]
    if shutil.which(CROSS):
        kinds += [_wrong_machine, _incompatible]
    return "cc", rng.choice(kinds)(rng, case, d)
