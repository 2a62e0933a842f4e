"""The difftest's classes where GNU ld, lld and mold differ (issue #19),
each a generator as difftest.py's CLASSES take them: (rng, case, dir) ->
(driver, args). Run with --linkers bfd,lld,mold, every case is linked by
each real linker and each of the replay's per-linker verdicts compared.

  lazy-archives  archives before the reference (lld and mold take a member
                 from the first archive that defines a symbol, wherever it
                 stands): a member that drags an undefined symbol, or
                 defines one a later archive's member defines again;
  shlib-undef    a shared object with an undefined reference, its DT_NEEDED
                 on the line or not, used or not, --as-needed, -shared,
                 --allow-shlib-undefined, the symbol defined elsewhere or
                 nowhere (lld checks, mold does not);
  ld-options     the GNU ld options lld or mold refuse, and some all take;
  vscript-hidden a -shared link with a version script naming a tag twice or
                 not; an executable with a hidden definition a shared
                 object references (GNU ld refuses both).
"""
import os
import subprocess


def write(d, name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


def run(d, cmd):
    r = subprocess.run(cmd, cwd=d, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(" ".join(cmd) + ": " + r.stderr)


def obj(d, name, text, pic=False):
    write(d, name + ".c", text)
    run(d, ["cc", "-c"] + (["-fPIC"] if pic else []) + [name + ".c"])
    return name + ".o"


def gen_lazy_archives(rng, case, d):
    p = f"s{case}_"
    words = []
    main = obj(d, "main", f"int {p}foo(void); int {p}bar(void);\n"
               f"int main(void) {{ return {p}foo(){' + ' + p + 'bar()' if rng.random() < 0.6 else ''}; }}\n")
    kind = rng.choice(["drags", "defines-again", "clean"])
    # early: an archive before main.o whose member defines foo
    if kind == "drags":
        early = f"int {p}missing(void); int {p}foo(void) {{ return {p}missing(); }}\n"
    elif kind == "defines-again":
        early = f"int {p}foo(void) {{ return 1; }} int {p}x(void) {{ return 0; }}\n"
    else:
        early = f"int {p}foo(void) {{ return 1; }}\n"
    run(d, ["ar", "rcs", "libearly.a", obj(d, "early", early)])
    late = f"int {p}foo(void) {{ return 2; }} int {p}bar(void) {{ return 0; }}\n"
    if rng.random() < 0.3:
        late = f"int {p}bar(void) {{ return 0; }}\n"
    run(d, ["ar", "rcs", "liblate.a", obj(d, "late", late)])
    libs = ["-learly", "-llate"]
    where = rng.choice(["before", "around", "after"])
    if where == "before":
        words = ["-L."] + libs + [main]
    elif where == "around":
        words = ["-L.", libs[0], main, libs[1]]
    else:
        words = ["-L.", main] + libs
    if rng.random() < 0.2:
        words.insert(1, "-Wl,--start-group")
        words.append("-Wl,--end-group")
    return "cc", words


def gen_shlib_undef(rng, case, d):
    p = f"u{case}_"
    shared_out = rng.random() < 0.2
    obj(d, "u", f"int {p}zap(void); int {p}u(void) {{ return {p}zap(); }}\n", pic=True)
    needs = rng.random() < 0.4
    if needs:
        obj(d, "dep", f"int {p}dep(void) {{ return 0; }}\n", pic=True)
        run(d, ["cc", "-shared", "dep.o", "-o", "libdep.so", "-Wl,-soname,libdep.so"])
    run(d, ["cc", "-shared", "u.o", "-o", "libu.so", "-Wl,-soname,libu.so"] + (["-L.", "-ldep"] if needs else ["-nostdlib"]))
    uses = rng.random() < 0.6
    defines = rng.choice(["nowhere", "nowhere", "main", "lib"])
    text = f"int {p}u(void);\n"
    if defines == "main":
        text += f"int {p}zap(void) {{ return 0; }}\n"
    text += ("int main(void) { return %s; }\n" % (f"{p}u()" if uses else "0")) if not shared_out else \
        f"int {p}f(void) {{ return {p}u(); }}\n"
    main = obj(d, "main", text, pic=shared_out)
    words = (["-shared"] if shared_out else []) + [main, "-L."]
    if rng.random() < 0.35:
        words.append("-Wl,--as-needed")
    words.append("-lu")
    if needs and rng.random() < 0.6:
        words.append("-ldep")
    if defines == "lib":
        obj(d, "z", f"int {p}zap(void) {{ return 0; }}\n", pic=True)
        run(d, ["cc", "-shared", "z.o", "-o", "libz9.so"])
        words.append("-lz9")
    r = rng.random()
    if r < 0.15:
        words.append("-Wl,--allow-shlib-undefined")
    elif r < 0.25:
        words.append("-Wl,--no-allow-shlib-undefined")
    elif r < 0.3:
        words.append("-Wl,--unresolved-symbols=ignore-in-shared-libs")
    return "cc", words


LD_OPTIONS = ["--copy-dt-needed-entries", "--add-needed", "--no-warn-execstack", "--no-warn-rwx-segments",
              "--warn-rwx-segments", "--dynamic-list-data", "-Ttext-segment=0x500000", "--traditional-format",
              "--print-memory-usage", "--package-metadata=x", "--start-group,--start-group,--end-group,--end-group",
              "--warn-execstack", "--no-add-needed", "--no-copy-dt-needed-entries", "-z,separate-code",
              "--hash-style=both", "--enable-new-dtags", "--no-demangle", "--sort-common", "--no-relax"]


def gen_ld_options(rng, case, d):
    main = obj(d, "main", f"int o{case}_f(void) {{ return 0; }}\nint main(void) {{ return o{case}_f(); }}\n")
    words = [main]
    for o in rng.sample(LD_OPTIONS, rng.choice([1, 1, 2])):
        words.append("-Wl," + o)
    return "cc", words


def gen_vscript_hidden(rng, case, d):
    p = f"v{case}_"
    if rng.random() < 0.5:
        obj(d, "s", f"int {p}a(void) {{ return 0; }} int {p}b(void) {{ return 1; }}\n", pic=True)
        dup = rng.random() < 0.5
        tags = ["V1", "V1" if dup else "V2"]
        script = f"# versions\n{tags[0]} {{ global: {p}a; local: *; }};\n/* the next */ {tags[1]} {{ global: {p}b; }}" + \
            (f" {tags[0]};\n" if not dup and rng.random() < 0.5 else ";\n")
        write(d, "v.map", script)
        return "cc", ["-shared", "s.o", "-Wl,--version-script=v.map"]
    obj(d, "u", f"int {p}zap(void); int {p}u(void) {{ return {p}zap(); }}\n", pic=True)
    run(d, ["cc", "-shared", "u.o", "-o", "libu.so", "-Wl,-soname,libu.so", "-nostdlib"])
    hidden = rng.random() < 0.6
    vis = '__attribute__((visibility("hidden"))) ' if hidden else ""
    main = obj(d, "main", f"{vis}int {p}zap(void) {{ return 0; }}\nint {p}u(void);\nint main(void) {{ return {p}u(); }}\n")
    words = [main, "-L.", "-lu"]
    if rng.random() < 0.3:
        words.append("-Wl,--allow-shlib-undefined")
    return "cc", words


CLASSES = {
    "lazy-archives": gen_lazy_archives,
    "shlib-undef": gen_shlib_undef,
    "ld-options": gen_ld_options,
    "vscript-hidden": gen_vscript_hidden,
}
