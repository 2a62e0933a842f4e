"""The difftest's "reloc" class (issue #17): relocations the output cannot
take, text relocations, TLS mismatches, judged by the real gcc/ld.

Each case has a few C units, each compiled -fPIC, -fPIE or -fno-pic, each
with one kind of access: a string literal (R_X86_64_32 against .rodata
without PIC), the address of a global (R_X86_64_32 against a symbol), an
extern variable read (R_X86_64_PC32: a preemptible symbol in a shared
object), a hidden variable, thread-local variables (general- or
local-exec, sometimes declared without __thread where they are used: a TLS
mismatch), or an assembler text relocation (movabs: R_X86_64_64 in .text).
Units go into objects or archives; the output is a PIE (gcc's default),
-no-pie, -shared, -static or -static-pie, sometimes with -z text or -z
notext.
"""

ACCESSES = ["string", "address", "extern", "hidden", "tls", "tls-le", "textrel", "call"]


def unit_source(case, i, access, mismatch):
    """The C (or assembler) text of unit i, and its file name."""
    f = f"f{case}_{i}"
    if access == "string":
        return f"u{i}.c", f"const char *{f}(void) {{ return \"unit{i}\"; }}\n"
    if access == "address":
        return f"u{i}.c", f"int g{case}_{i};\nint *{f}(void) {{ return &g{case}_{i}; }}\n"
    if access == "extern":
        return f"u{i}.c", (f"extern int shared_var{case};\nint shared_var{case}_def_{i};\n"
                           f"int {f}(void) {{ return shared_var{case}; }}\n")
    if access == "hidden":
        return f"u{i}.c", (f"__attribute__((visibility(\"hidden\"))) int h{case}_{i} = {i};\n"
                           f"int {f}(void) {{ return h{case}_{i}; }}\n")
    if access in ("tls", "tls-le"):
        decl = f"extern int tv{case};" if mismatch else f"extern __thread int tv{case};"
        return f"u{i}.c", f"{decl}\nint {f}(void) {{ return tv{case}; }}\n"
    if access == "textrel":
        return f"u{i}.s", (f"\t.text\n\t.globl {f}\n{f}:\n\tmovabs $tr{case}_{i}, %rax\n\tret\n"
                           f"\t.data\n\t.globl tr{case}_{i}\ntr{case}_{i}:\t.long 1\n"
                           "\t.section .note.GNU-stack,\"\",@progbits\n")
    return f"u{i}.c", f"int {f}(void) {{ return {i}; }}\n"


def gen_reloc(rng, case, d, write, run):
    n = rng.randint(1, 3)
    output = rng.choice(["pie", "pie", "no-pie", "shared", "shared", "static", "static-pie"])
    words = []
    # the definitions every unit may need: shared_var (extern reads), tv (TLS)
    write(d, "defs.c", f"int shared_var{case} = 7;\n__thread int tv{case} = 3;\n")
    defs_pic = rng.choice(["-fPIC", "-fPIC", "-fno-pic"])
    run(d, ["cc", "-c", defs_pic, "defs.c"])
    calls = []
    objs = []
    for i in range(n):
        access = rng.choice(ACCESSES)
        mismatch = access.startswith("tls") and rng.random() < 0.3
        name, text = unit_source(case, i, access, mismatch)
        write(d, name, text)
        pic = rng.choice(["-fPIC", "-fPIE", "-fno-pic", "-fno-pic"])
        flags = [pic]
        if access == "tls-le":
            flags.append("-ftls-model=local-exec")
        if rng.random() < 0.3:
            flags += ["-g", "-grecord-gcc-switches"]
        run(d, ["cc", "-c"] + flags + [name, "-o", f"u{i}.o"])
        calls.append(f"(long)f{case}_{i}()")
        objs.append(f"u{i}.o")
    protos = "".join(f"long f{case}_{i}();\n" for i in range(n))
    write(d, "main.c", protos + f"int main(void) {{ return (int)({' + '.join(calls)} == 0); }}\n")
    run(d, ["cc", "-c", "-fPIE", "main.c"])
    if rng.random() < 0.4 and n > 1:
        run(d, ["ar", "rcs", "libu.a"] + objs[1:])
        inputs = [objs[0], "-L.", "-lu"]
    else:
        inputs = list(objs)
        rng.shuffle(inputs)
    if output == "shared":
        words += ["-shared"] + inputs + ["defs.o"]
    else:
        if output != "pie":
            words.append("-" + output)
        words += ["main.o"] + inputs + ["defs.o"]
    r = rng.random()
    if r < 0.25:
        words.append("-Wl,-z,text")
    elif r < 0.4:
        words.append("-Wl,-z,notext")
    return "cc", words
