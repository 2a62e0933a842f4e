#!/usr/bin/python3
"""Every option GNU ld 2.40, lld 14, rust-lld and mold 1.10 accept, as C tables.

    scripts/gen-linker-options.py --capture   # runs the real linkers (once, by hand)
    scripts/gen-linker-options.py             # regenerates the C table from the captures

The sources of truth are the linkers themselves. --capture keeps, under
analyzer/model/ldopts/, each linker's --help (ld/lexsup.c's and the ELF
emulation's table, lld/ELF/Options.td, mold's cmdline.cc, as they print
them) and a probe of every option name any of them lists, run against each
linker with one and with two dashes: --help omits options a linker takes
(mold takes -plugin and --no-add-needed and lists neither) and cannot say
which dash a spelling needs (lld 14 refuses -no-relax and -require-defined,
and takes -no-pie). An enumerated value set (--build-id=, --hash-style=,
--compress-debug-sections=) is probed value by value, and with a bogus
value: a linker that only warns on one it does not know (GNU ld's
--build-id) is not strict. The build then needs no linker: the table
analyzer/model/ldopt_table.c is generated from those files and committed.
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "analyzer", "model", "ldopts")
OUT = os.path.join(ROOT, "analyzer", "model", "ldopt_table.c")


def rust_lld():
    try:
        sysroot = subprocess.run(["rustc", "--print", "sysroot"], capture_output=True,
                                 text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    path = os.path.join(sysroot, "lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld")
    return [path, "-flavor", "gnu"] if os.path.exists(path) else None


# id, C name, the command, the version it must print
LINKERS = [
    ("bfd", ["ld.bfd"]),
    ("lld14", ["ld.lld"]),
    ("lldnew", None),       # rust-lld, found at capture time
    ("mold", ["mold"]),
]

# What each linker says of an option it does not know (its own words).
UNKNOWN = re.compile(r"unrecognized option|unknown argument|unknown command line option|"
                     r"unable to disambiguate|unknown option|invalid option|is not supported|"
                     r"doesn't allow an argument")
GENERIC = re.compile(r"unrecognized option|unknown argument|unknown command line option|"
                     r"unable to disambiguate")
# A value it refuses: GNU ld "invalid hash style", lld "unknown --build-id style",
# mold "invalid --hash-style argument".
BAD_VALUE = re.compile(r"invalid|unknown|unsupported|bad ", re.I)

SPEC = re.compile(r"^(-{1,2}[A-Za-z0-9(][^\s=\[<,]*)(.*)$")


def parse_help(text, linker):
    """{name: {"value": none|req|opt, "values": [..] or None}}. No -z keyword: every
    linker takes -z, and one it does not know only warns."""
    opts = {}
    for line in text.splitlines():
        # GNU ld's PE emulations follow the ELF ones: not this target's options.
        if re.match(r"^i386pep?:", line):
            break
        m = re.match(r"^\s{1,6}(-\S.*?)(?:\s{2,}|\t|$)", line)
        if not m:
            continue
        col = m.group(1)
        for spec in re.split(r",\s+(?=-)", col):
            spec = spec.strip()
            if spec.startswith("-z "):
                continue
            if "[no-]" in spec or "[disable-]" in spec or spec.startswith("-Wl"):
                continue
            sm = SPEC.match(spec)
            if not sm:
                continue
            name, rest = sm.group(1).lstrip("-"), sm.group(2).strip()
            # A long name fills the column: "--no-copy-dt-needed-entries Do not copy ...".
            if re.match(r"[A-Z][a-z]", rest):
                rest = ""
            if not name or name[0] in "()":
                continue
            # "--build-id[=STYLE]", "--unique [=SECTION]": the value is optional, joined.
            value = "opt" if rest.startswith("[=") else "req" if rest else "none"
            values = None
            lm = re.search(r"\[(.+)\]", rest)
            if lm and re.search(r"[|,]", lm.group(1)):
                values = [value_token(v) for v in re.split(r"[|,]", lm.group(1))]
                values = [v for v in values if v]
            elif rest.startswith("=") and re.fullmatch(r"=[a-z][a-z0-9-]*", rest):
                values = [rest[1:]]     # lld's --icf=all, --icf=none: one row each
            prev = opts.get(name)
            if prev:
                if values and prev["values"] is not None:
                    prev["values"] = sorted(set(prev["values"]) | set(values))
                if prev["value"] != value:   # lld: "--build-id" and "--build-id=[...]"
                    prev["value"] = "opt" if "none" in (prev["value"], value) else "req"
                continue
            opts[name] = {"value": value, "values": values}
    return opts


def value_token(v):
    """One value of a listed set; "0x<hexstring>" and "HEXSTRING" are any hex number: "0x*"."""
    v = v.strip().lstrip("=")
    if re.fullmatch(r"0x<\w+>|HEXSTRING", v):
        return "0x*"
    return v if re.fullmatch(r"[a-z0-9-]+", v) else None


def probe_value(v):
    return "0x1234abcd" if v == "0x*" else v


def private(text):
    """The captures name no home directory (rust-lld's path)."""
    return text.replace(os.path.expanduser("~"), "~")


def run(cmd, cwd):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=20,
                           stdin=subprocess.DEVNULL, errors="replace")
    except subprocess.TimeoutExpired:
        return 1, "timeout"
    return p.returncode, p.stderr + p.stdout


def capture():
    os.makedirs(DATA, exist_ok=True)
    cmds = {}
    version_line = {}
    for lid, cmd in LINKERS:
        cmd = cmd or rust_lld()
        if not cmd:
            sys.exit("gen-linker-options: no rust-lld: install rustc")
        cmds[lid] = cmd
        text = subprocess.run(cmd + ["--help"], capture_output=True, text=True).stdout
        version = subprocess.run(cmd + ["--version"], capture_output=True, text=True).stdout
        version_line[lid] = version.splitlines()[0]
        with open(os.path.join(DATA, lid + ".help"), "w") as f:
            f.write(private("# " + version.splitlines()[0] + "\n" + text))
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "t.c"), "w") as f:
            f.write("void _start(void) {}\nint foo(void) { return 0; }\n")
        subprocess.run(["gcc", "-c", "-fPIC", "t.c"], cwd=tmp, check=True)
        capture_hidden(cmds["mold"], tmp)
        helps = {lid: read_helps(lid) for lid in cmds}
        names = sorted(set().union(*[set(h) for h in helps.values()]) | UNLISTED)
        def probe(item):
            lid, cmd = item
            work = os.path.join(tmp, lid)
            os.makedirs(work)
            os.link(os.path.join(tmp, "t.o"), os.path.join(work, "t.o"))
            rows = []
            for name in names:
                # The value as this linker's --help gives it (else as any other's), joined
                # with '=' as -Wl, lines do: lld reads "-Ttext-segment x" as "-T" and a
                # script, and refuses "-Ttext-segment=x". One letter: "-a x".
                forms = [h[name]["value"] for h in helps.values() if name in h]
                form = helps[lid][name]["value"] if name in helps[lid] else \
                    "req" if "req" in forms else "none"
                if len(name) == 1:
                    # Whether the letter takes the next word as its value: --help does not
                    # always say (GNU ld lists "-O" bare; getopt's shortopts have "O:"). The
                    # word after it is --version: the linker prints its version unless the
                    # letter took it.
                    rc, err = run(cmd + ["-" + name, "--version"], work)
                    took = version_line[lid] not in err and not UNKNOWN.search(err)
                    rows.append(f"takes-next:-{name}\t{'yes' if took else 'no'}\t")
                    form = "req" if took else form
                for dashes in ("-", "--"):
                    word = dashes + name
                    args = [word] if form != "req" else [word, "x"] if len(name) == 1 else [word + "=x"]
                    rc, err = run(cmd + args + ["-o", "out", "t.o"], work)
                    # Any line: GNU ld warns first ("grouped short command line options are
                    # deprecated"); mold says "-be8" as "-b e8".
                    lines = err.strip().splitlines()
                    hit = [ln for ln in lines if UNKNOWN.search(ln) and name in ln.replace(" ", "")]
                    # mold reads "-Ttext-segment=x" as "-T" and a script "text-segment=x".
                    hit += [ln for ln in lines if len(name) > 1 and f"cannot open {args[0][2:]}" in ln]
                    refused = bool(hit)
                    first = hit[0] if hit else ""
                    rows.append(f"{word}\t{'refused' if refused else 'ok'}\t{first if refused else ''}")
                if len(name) == 1 and form == "req":
                    # "-lfoo", "-L/dir", "-O1": lld and mold take some letters joined ("-be8":
                    # not -b). The value is a digit: GNU ld's getopt_long_only tries a long
                    # option first, and "-ex" is a prefix of --exclude-libs and others.
                    rc, err = run(cmd + ["-" + name + "1", "-o", "out", "t.o"], work)
                    first = err.strip().splitlines()[0] if err.strip() else ""
                    rows.append(f"joined:-{name}\t{'refused' if UNKNOWN.search(first) else 'ok'}\t")
                elif len(name) > 1:
                    # A value its --help does not show (mold's --Tdata=ADDR, --dynamic-list=FILE),
                    # or none where another's --help shows one (lld's --sort-common).
                    rc, err = run(cmd + ["--" + name + "=x", "-o", "out", "t.o"], work)
                    first = err.strip().splitlines()[0] if err.strip() else ""
                    rows.append(f"valued:--{name}\t{'refused' if UNKNOWN.search(first) else 'ok'}\t")
                values = set()
                for h in helps.values():
                    values |= set(h.get(name, {}).get("values") or [])
                for v in sorted(values) + ["linkscope-bogus"]:
                    rc, err = run(cmd + [f"--{name}={probe_value(v)}", "-o", "out", "t.o"], work)
                    lines = err.strip().splitlines()
                    first = next((ln for ln in lines if BAD_VALUE.search(ln) or UNKNOWN.search(ln)), "")
                    bad = rc != 0 and bool(first)
                    rows.append(f"--{name}={v}\t{'refused' if bad else 'ok'}\t{first if bad else ''}")
            with open(os.path.join(DATA, lid + ".probe"), "w") as f:
                f.write(private("# " + " ".join(cmd[:1] + cmd[2:]) + ": each spelling and value, run with one object\n"))
                f.write(private("\n".join(rows) + "\n"))
        with concurrent.futures.ThreadPoolExecutor(len(cmds)) as pool:
            list(pool.map(probe, cmds.items()))


# Names no --help lists that a linker's source does (each probed like the rest):
# GNU ld's ld/lexsup.c keeps --add-needed as a NO_HELP synonym of
# --copy-dt-needed-entries (the old build-script workaround), and takes it.
UNLISTED = {"add-needed"}


MISSING = re.compile(r"argument missing|requires an argument|missing argument|expected argument|"
                     r"needs an argument")


def capture_hidden(cmd, tmp):
    """The options mold takes and its --help leaves out (--filler, --no-gdb-index):
    each word of its binary that looks like an option name, probed with two
    dashes; one that wants an argument says so when given none."""
    listed = parse_help(read_help("mold"), "mold")
    binary = os.path.realpath(subprocess.run(["sh", "-c", "command -v " + cmd[0]], capture_output=True,
                                             text=True).stdout.strip())
    words = subprocess.run(["strings", "-n", "3", binary], capture_output=True, text=True,
                           errors="replace").stdout.split()
    rows = []
    for name in sorted(set(w for w in words if re.fullmatch(r"[a-z][a-z0-9-]{2,40}", w)) - set(listed)):
        rc, err = run(cmd + ["t.o", "-o", "out", "--" + name], tmp)
        first = err.strip().splitlines()[0] if err.strip() else ""
        if UNKNOWN.search(first):
            continue
        rows.append(f"{name}\t{'req' if MISSING.search(first) else 'none'}")
    with open(os.path.join(DATA, "mold.hidden"), "w") as f:
        f.write("# the options mold 1.10 takes that its --help does not list, and whether each takes a value\n")
        f.write("\n".join(rows) + "\n")


def read_helps(lid):
    """The options of a linker's --help, and for mold those it takes unlisted."""
    opts = parse_help(read_help(lid), lid)
    hidden = os.path.join(DATA, lid + ".hidden")
    if os.path.exists(hidden):
        with open(hidden) as f:
            for line in f:
                if not line.startswith("#"):
                    name, value = line.split()
                    opts.setdefault(name, {"value": value, "values": None})
    return opts


def read_help(lid):
    with open(os.path.join(DATA, lid + ".help")) as f:
        return f.read()


def read_probe(lid):
    rows = {}
    with open(os.path.join(DATA, lid + ".probe")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            word, verdict, msg = (line.rstrip("\n").split("\t") + ["", ""])[:3]
            rows[word] = verdict in ("ok", "yes")
            if "did you mean" in msg:
                rows["hint:" + word] = True
            # The linker's own words when they are not its unknown-option message.
            said = re.sub(r"^[\w.-]+: (error: |fatal: )?", "", msg).replace("=x", "=VALUE")
            if verdict == "refused" and not GENERIC.search(said) and word.lstrip("-")[1:] in said:
                rows["said:" + word] = said
    return rows


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def generate():
    helps = {lid: read_helps(lid) for lid, _ in LINKERS}
    union = {}
    for h in helps.values():
        for name, o in h.items():
            u = union.setdefault(name, {"value": o["value"], "values": set()})
            if u["value"] == "none":
                u["value"] = o["value"]
            u["values"] |= set(o["values"] or [])
    for name in UNLISTED:
        union.setdefault(name, {"value": "none", "values": set()})
    versions = {lid: read_help(lid).splitlines()[0][2:] for lid, _ in LINKERS}
    out = ["/*",
           " * generated by scripts/gen-linker-options.py from analyzer/model/ldopts/",
           " * (each linker's --help, and a probe of each spelling and value against",
           " * the real linker); do not edit.",
           " *"]
    out += [f" * {lid}: {versions[lid]}" for lid, _ in LINKERS]
    out += [" */", '#include "ldopt.h"', ""]
    for lid, _ in LINKERS:
        probe = read_probe(lid)
        rows = []
        for name in sorted(union):
            one, two = probe.get("-" + name), probe.get("--" + name)
            values = sorted(v for v in union[name]["values"] if probe.get(f"--{name}={v}"))
            said = probe.get("said:--" + name) or probe.get("said:-" + name)
            # Not a one-letter one: mold refuses "-R FILE", not "-R DIR" (an rpath).
            if not one and not two and not values and said and len(name) > 1:
                # Known and refused in words of its own (lld: "-Ttext-segment is not
                # supported. Use --image-base ..."): not "-T" with "text-segment".
                rows.append(f"\t{{ {c_str(name)}, 0, LK_LDOPT_VALUE_NONE, NULL, {c_str(said)} }},")
                continue
            if not one and not two and not values:
                continue
            # lld's --icf: only "--icf=all" and the like; the word alone is refused.
            two = two or not one
            own = helps[lid].get(name)
            form = (own or union[name])["value"]
            if len(name) == 1 and "takes-next:-" + name in probe:
                form = "req" if probe["takes-next:-" + name] else "none" if form == "req" else form
            if form != "req" and "valued:--" + name in probe:
                form = "opt" if probe["valued:--" + name] or values else "none"
            elif values and form == "none":
                form = "opt"
            strict = values and probe.get(f"--{name}=linkscope-bogus") is False
            vname = "NULL"
            if strict:
                vname = f"{lid}_{re.sub(r'[^A-Za-z0-9]', '_', name)}_values"
                out.append(f"static const char *const {vname}[] = {{ " +
                           ", ".join(c_str(v) for v in values) + ", NULL };")
            # lld's refusal of the other spelling says "did you mean" (of -no-relax, not of -require-defined).
            hint = probe.get("hint:-" + name) or probe.get("hint:--" + name)
            dashes = " | ".join(d for d, ok in (("LK_LDOPT_ONE_DASH", one), ("LK_LDOPT_TWO_DASHES", two),
                                                ("LK_LDOPT_HINTED", hint),
                                                ("LK_LDOPT_JOINED", probe.get("joined:-" + name))) if ok)
            rows.append(f"\t{{ {c_str(name)}, {dashes}, LK_LDOPT_VALUE_{form.upper()}, {vname}, NULL }},")
        out.append(f"static const struct lk_ldopt {lid}_options[] = {{")
        out += rows
        out.append("};")
        out.append("")
    out.append("const struct lk_ldopt_table lk_ldopt_tables[LK_LDOPT_TABLES] = {")
    for lid, _ in LINKERS:
        out.append(f"\t{{ {c_str(versions[lid])}, {lid}_options, "
                   f"sizeof({lid}_options) / sizeof({lid}_options[0]) }},")
    out.append("};")
    with open(OUT, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    if "--capture" in sys.argv[1:]:
        capture()
    generate()
