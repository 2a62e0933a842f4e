#!/usr/bin/python3
"""make realtest: real projects built plainly and through the shim.

Usage: realtest.py BUILD [--redaction] [--linkers] [PROJECT...]

Each project comes from Debian's source packages (`apt-get source`) or, for
the Rust workspace, from tests/real/rust-ws built offline against Debian's
librust-*-dev crates. Each is built twice in the same directory, once
plainly and once through linkscope-cc (as CC/CXX, as CMake's linker
launcher, or as rustc's -Clinker), and the two builds must end with the
same exit status and the same output files. Then every record is analysed
with `linkscope report --replay-only --format json`, from another directory
and with another environment than the build's, and compared with what the
link really did:

  false alarm     the link succeeded, the replay says it fails
  miss            the link failed, the replay says it succeeds
  unknown         the replay cannot know (it says why)
  analyzer error  the analyzer exited non-zero or printed no report

--redaction (issue #15): both builds get secret-looking words in their flags
(REDACTION_FLAGS: a URL password in an -rpath, a --defsym of session_base
in the -Wl, word of an -l, -DUSE_AUTH=1, -DAPI_KEY=...; where the build
system takes LDFLAGS and CPPFLAGS from the environment), and the shim
writes its records with LINKSCOPE_REDACT=0,
BUILD/tests/redact-record gives each its redacted copy (RECORD.redacted.json,
what the shim writes by default), and that copy is the one analysed and
compared with the link as above. The unredacted record is analysed too, and
the two reports must say the same, but for what the redactor replaces
(the unredacted one's report is passed through redact-record too):

  redaction differs  the redacted record is analysed differently

--linkers (issue #19): every GNU ld line of the shim's build is linked
again, in its directory, its output sent to a scratch file: first as it was
recorded (a line whose status this does not reproduce, because a later step
of the build rewrote an input, is not compared), then with -fuse-ld=lld and
-fuse-ld=mold appended, and each real status is compared with the report's
`predicted.linkers.lld` and `.mold` as above (false alarm, miss, unknown).

Exit status 0 when there is no false alarm, no analyzer error, no build
difference and no redaction difference. Downloads and builds live in build-real/ (not in git); the
details of every record that did not agree go to build-real/details.txt.
"""
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.environ.get("REALTEST_OUT") or os.path.join(ROOT, "build-real")
SRC = os.path.join(ROOT, "build-real", "src")  # downloads are shared between runs
WORK = os.path.join(OUT, "work")
APT_LOCK = "/work/helpers/apt.lock"
DEB_SRC = "/etc/apt/sources.list.d/linkscope-deb-src.sources"
NEEDED_DEBS = ["dpkg-dev", "cmake", "meson", "ninja-build", "librust-syn-dev",
               "librust-quote-dev", "librust-proc-macro2-dev", "librust-cc-dev",
               "librust-libc-dev"]


def log(msg):
    print(msg, flush=True)


def apt(*args):
    """apt-get under the machine's apt lock when there is one."""
    cmd = ["apt-get", "-qq"] + list(args)
    if os.path.exists(os.path.dirname(APT_LOCK)):
        cmd = ["flock", APT_LOCK] + cmd
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def ensure_debs():
    missing = [p for p in NEEDED_DEBS
               if subprocess.run(["dpkg", "-s", p], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL).returncode]
    if not os.path.exists(DEB_SRC):
        uri, suites = "http://deb.debian.org/debian", "bookworm bookworm-updates"
        with open("/etc/apt/sources.list.d/debian.sources") as f:
            for line in f:
                if line.startswith("URIs:"):
                    uri = line.split()[1]
                    break
        with open(DEB_SRC, "w") as f:
            f.write("Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\n"
                    "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n"
                    % (uri, suites))
        apt("update")
    if missing:
        apt("install", "-y", "--no-install-recommends", *missing)


def fetch(package, dirname):
    """The unpacked source of a Debian source package, fetched once."""
    path = os.path.join(SRC, dirname)
    if not os.path.isdir(path):
        os.makedirs(SRC, exist_ok=True)
        got = subprocess.run(["apt-get", "source", "-qq", package], cwd=SRC,
                             stdout=subprocess.DEVNULL)
        if got.returncode and not unpack_orig(dirname):
            raise SystemExit(f"realtest: apt-get source {package} failed and no orig tarball of {dirname} was fetched")
    return path


def unpack_orig(dirname):
    """The upstream tarball alone, when the archive no longer has the
    package's Debian diff (pixman 0.42.2-1's .diff.gz is gone from the
    mirror): the projects are built from upstream's tree anyway."""
    version = dirname.rsplit("-", 1)
    tarballs = [n for n in os.listdir(SRC) if len(version) == 2
                and n.startswith(f"{version[0]}_{version[1]}.orig.tar.")]
    if not tarballs:
        return False
    subprocess.run(["tar", "xf", tarballs[0]], cwd=SRC, check=True)
    return os.path.isdir(os.path.join(SRC, dirname))


# ---- the projects ----
# Each: name, build system, how the shim takes part, the source, the commands.
# A command is a shell line run in the work dir; {CC} {CXX} {LAUNCH} are
# filled per run (plain: gcc, g++, nothing).

PROJECTS = [
    dict(name="zlib", system="handwritten configure + Makefile", mode="CC",
         src=("zlib", "zlib-1.2.13.dfsg"),
         cmds=["CC={CC} ./configure", "make -j2"]),
    dict(name="gzip", system="autoconf + gnulib", mode="CC",
         src=("gzip", "gzip-1.12"),
         # The autotools are not run again (the tree's timestamps are the package's).
         cmds=["./configure CC={CC} --disable-dependency-tracking",
               "make -j2 ACLOCAL=true AUTOCONF=true AUTOMAKE=true AUTOHEADER=true MAKEINFO=true"]),
    dict(name="libpng", system="autoconf + libtool (shared, static, tests)", mode="CC",
         src=("libpng1.6", "libpng1.6-1.6.39"),
         cmds=["./configure CC={CC} --disable-dependency-tracking",
               "make -j2 ACLOCAL=true AUTOCONF=true AUTOMAKE=true AUTOHEADER=true",
               # The test programs, linked against the libtool library; no test run.
               "make -j2 ACLOCAL=true AUTOCONF=true AUTOMAKE=true AUTOHEADER=true check TESTS="]),
    dict(name="bzip2", system="plain Makefile", mode="CC",
         src=("bzip2", "bzip2-1.0.8"),
         # As Debian's rules do: the PIC objects and the shared library first.
         cmds=["make -f Makefile-libbz2_so CC={CC}", "make clean", "make -j2 CC={CC}"]),
    dict(name="giflib", system="plain Makefile (compile-and-link calls)", mode="CC",
         src=("giflib", "giflib-5.2.1"),
         cmds=["make -j2 CC={CC} libgif.so libgif.a libutil.so libutil.a gif2rgb "
               "gifbuild giffix giftext giftool gifclrmp gifbg gifcolor gifecho "
               "giffilter gifhisto gifinto gifsponge gifwedge"]),
    dict(name="fribidi", system="meson", mode="CC",
         src=("fribidi", "fribidi-1.0.8"),
         cmds=["CC={CC} meson setup b -Ddocs=false", "ninja -C b -j2"]),
    # meson's static_library() is a thin archive (ar csrDT): pixman's SIMD
    # parts and the tests' libtestutils; issue #17 found 34 of its 55 good
    # links called failures before thin archives were read.
    dict(name="pixman", system="meson (thin archives)", mode="CC",
         src=("pixman", "pixman-0.42.2"),
         cmds=["CC={CC} meson setup b -Dgtk=disabled -Dlibpng=disabled -Dopenmp=disabled -Dtests=enabled",
               "ninja -C b -j2"]),
    dict(name="cjson", system="CMake, shim as CC", mode="CC",
         src=("cjson", "cjson-1.7.15"),
         cmds=["CC={CC} cmake -S . -B b -DENABLE_CJSON_TEST=ON -DENABLE_CJSON_UTILS=ON",
               "cmake --build b -j2"]),
    dict(name="jsoncpp-cxx", system="CMake, shim as CC and CXX", mode="CC",
         src=("libjsoncpp", "libjsoncpp-1.9.5"),
         cmds=["CC={CC} CXX={CXX} cmake -S . -B b -DJSONCPP_WITH_TESTS=ON "
               "-DJSONCPP_WITH_POST_BUILD_UNITTEST=OFF -DBUILD_STATIC_LIBS=ON",
               "cmake --build b -j2"]),
    dict(name="jsoncpp-launcher", system="CMake, shim as linker launcher", mode="launcher",
         src=("libjsoncpp", "libjsoncpp-1.9.5"),
         cmds=["cmake -S . -B b -DJSONCPP_WITH_TESTS=ON -DJSONCPP_WITH_POST_BUILD_UNITTEST=OFF "
               "-DBUILD_STATIC_LIBS=ON '-DCMAKE_CXX_LINKER_LAUNCHER={LAUNCH}' "
               "'-DCMAKE_C_LINKER_LAUNCHER={LAUNCH}'",
               "cmake --build b -j2"]),
    dict(name="rust-lld", system="cargo workspace, rust-lld (rustc's default)", mode="rustc",
         src=None, rustflags="",
         cmds=["cargo build --offline --workspace"]),
    dict(name="rust-gnu-ld", system="cargo workspace, GNU ld", mode="rustc",
         src=None, rustflags="-Clinker-features=-lld",
         cmds=["cargo build --offline --workspace"]),
]


# --redaction: in both builds alike, so their outputs still match.
REDACTION_FLAGS = {"LDFLAGS": "-Wl,--defsym,session_base=0,-lm -Wl,-rpath,https://ci:pa55w0rd-ci@example.com/lib",
                   "CPPFLAGS": "-DUSE_AUTH=1 -DAPI_KEY=k3y-s3cr3t-v4lue"}


def alias_dir(shim):
    """gcc, cc, g++ and c++ as names of the shim: how a wrapper is set as CC."""
    d = os.path.join(OUT, "alias-bin")
    os.makedirs(d, exist_ok=True)
    for name in ("gcc", "cc", "g++", "c++"):
        p = os.path.join(d, name)
        if not os.path.islink(p):
            os.symlink(shim, p)
    return d


def prepare_tree(project):
    work = os.path.join(WORK, project["name"])
    shutil.rmtree(work, ignore_errors=True)
    if project["src"]:
        shutil.copytree(fetch(*project["src"]), work, symlinks=True)
    else:
        shutil.copytree(os.path.join(ROOT, "tests", "real", "rust-ws"), work, symlinks=True)
    return work


def run_build(project, shim, records, redaction=False):
    """Build once; returns (exit status, seconds, log text)."""
    work = prepare_tree(project)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LINKSCOPE_")}
    env["LC_ALL"] = "C"
    # __DATE__ and __TIME__ (giflib prints them) from a fixed time, so the two builds can match.
    env["SOURCE_DATE_EPOCH"] = "1700000000"
    fill = {"CC": "gcc", "CXX": "g++", "LAUNCH": ""}
    if redaction and project["mode"] != "rustc":
        env.update(REDACTION_FLAGS)
    if shim:
        env["LINKSCOPE_DIR"] = records
        if redaction:
            env["LINKSCOPE_REDACT"] = "0"
        if project["mode"] == "CC":
            d = alias_dir(shim)
            fill = {"CC": d + "/gcc", "CXX": d + "/g++", "LAUNCH": ""}
        elif project["mode"] == "launcher":
            fill["LAUNCH"] = shim + ";--"
    if project["mode"] == "rustc":
        flags = project["rustflags"]
        if shim:
            flags = ("-Clinker=%s %s" % (shim, flags)).strip()
        env["RUSTFLAGS"] = flags
        env["CARGO_TARGET_DIR"] = os.path.join(work, "target")
    if project["mode"] == "launcher" and not shim:
        cmds = [c.replace("'-DCMAKE_CXX_LINKER_LAUNCHER={LAUNCH}' ", "")
                 .replace("'-DCMAKE_C_LINKER_LAUNCHER={LAUNCH}'", "") for c in project["cmds"]]
    else:
        cmds = project["cmds"]
    text, status, t0 = [], 0, time.time()
    for c in cmds:
        c = c.format(**fill)
        p = subprocess.run(c, shell=True, cwd=work, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        text.append("$ %s\n%s" % (c, p.stdout.decode(errors="replace")))
        status = p.returncode
        if status:
            break
    return status, time.time() - t0, "".join(text)


def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def outputs(project):
    """The ELF files and archives a build left, with their SHA-256.

    CMake's and meson's logs and caches name the compiler, so they differ by
    construction; the products are what must not.
    """
    work = os.path.join(WORK, project["name"])
    res = {}
    for dirpath, dirnames, files in os.walk(work):
        dirnames[:] = [d for d in dirnames if d not in ("CMakeFiles", "incremental", ".fingerprint")]
        for f in files:
            p = os.path.join(dirpath, f)
            if os.path.islink(p) or not (is_elf(p) or f.endswith(".a")):
                continue
            rel = os.path.relpath(p, work)
            with open(p, "rb") as fh:
                res[rel] = hashlib.sha256(fh.read()).hexdigest()
    return res


def compare_outputs(project, plain, shimmed):
    """Differences between the two builds' products, as lines."""
    diffs = []
    if project["mode"] == "rustc":
        # RUSTFLAGS is part of cargo's metadata hash, so -Clinker renames the
        # hashed dirs and changes symbol hashes: the same set of products,
        # hashes masked, is the test.
        def mask(names):
            return sorted(re.sub(r"[-_][0-9a-f]{16}", "-HASH", n) for n in names)
        plain, shimmed = ({n: "" for n in mask(plain)}, {n: "" for n in mask(shimmed)})
    for rel in sorted(set(plain) | set(shimmed)):
        if rel not in shimmed:
            diffs.append("only in the plain build: " + rel)
        elif rel not in plain:
            diffs.append("only in the shim's build: " + rel)
        elif plain[rel] != shimmed[rel]:
            diffs.append("different content: " + rel)
    return diffs


# ---- the analysis ----

def analysis_env(home):
    """Another environment than the build's: nothing of its search paths."""
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C",
            "LIBRARY_PATH": "/nonexistent/lib", "COMPILER_PATH": "/nonexistent/bin",
            "GCC_EXEC_PREFIX": "/nonexistent/gcc/"}


def records_of(d):
    return sorted(os.path.join(d, f) for f in os.listdir(d)
                  if f.endswith(".json") and not f.endswith((".report.json", ".redacted.json")))


def redacted(tool, src, dst):
    """redact-record SRC DST: the shim's redaction of the JSON object SRC."""
    p = subprocess.run([tool, src, dst], stderr=subprocess.PIPE)
    if p.returncode:
        raise RuntimeError(p.stderr.decode(errors="replace").strip())
    with open(dst) as f:
        return json.load(f)


def redaction_difference(tool, unredacted, report):
    """How the report of the redacted record differs from the redaction of
    the unredacted one's (the record's path and the analyzer's temporary
    dirs left out), or None."""
    def text(j):
        t = json.dumps({k: v for k, v in j.items() if k not in ("record", "redactions")},
                       indent=1, sort_keys=True)
        return re.sub(r"lk-(sources|verify)-[A-Za-z0-9]{6}", r"lk-\1-XXXXXX", t).splitlines()
    tmp = os.path.join(OUT, "unredacted.report.json")
    with open(tmp, "w") as f:
        json.dump(unredacted, f)
    a, b = text(redacted(tool, tmp, tmp)), text(report)
    for x, y in zip(a, b):
        if x != y:
            return "unredacted %r, redacted %r" % (x.strip(), y.strip())
    return None if len(a) == len(b) else "reports of different lengths"


def analyse(linkscope, record, elsewhere):
    t0 = time.time()
    p = subprocess.run([linkscope, "report", "--replay-only", "--format", "json", record],
                       cwd=elsewhere, env=analysis_env(elsewhere),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    dt = time.time() - t0
    try:
        report = json.loads(p.stdout) if p.returncode == 0 else None
    except ValueError:
        report = None
    return p.returncode, report, p.stderr.decode(errors="replace"), dt


def output_to(argv, out):
    """argv with its -o sent to `out`: a re-link must not touch the build's files."""
    res, skip = [], False
    for a in argv:
        if skip:
            res.append(out)
            skip = False
        elif a == "-o":
            res.append(a)
            skip = True
        elif a.startswith("-o") and len(a) > 2:
            res.append("-o" + out)
        else:
            res.append(a)
    return res


def relink(rec, scratch, flavor):
    """The recorded line run again where it ran: exit status 0 or not.
    flavor None: as recorded; else -fuse-ld=FLAVOR appended (the last wins)."""
    argv = output_to(rec.get("argv_expanded") or rec["argv"], os.path.join(scratch, "a.out"))
    if flavor:
        argv.append("-fuse-ld=" + flavor)
    try:
        p = subprocess.run(argv, cwd=rec["cwd"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    except OSError:
        return None  # its dir (a configure test's) is gone
    return p.returncode == 0


def other_linkers(rec, report, scratch, count, details):
    """--linkers: lld's and mold's verdicts against the real lld and mold on a GNU ld line."""
    if (report.get("linker") or {}).get("flavor") != "bfd":
        return
    ok = rec["result"]["exit_status"] == 0
    again = relink(rec, scratch, None)
    if again is None or again != ok:
        count["relink_differs"] += 1
        return
    for flavor in ("lld", "mold"):
        outcome = (report["predicted"].get("linkers") or {}).get(flavor, "unknown")
        real = relink(rec, scratch, flavor)
        if outcome == "unknown":
            c = "unknown"
        elif real:
            c = "agree" if outcome == "success" else "false-alarm"
        else:
            c = "agree" if outcome == "failure" else "miss"
        count[flavor + "_" + c] += 1
        if c not in ("agree", "unknown"):
            details.append("%s %s (the real %s %s)\n%s" % (flavor.upper(), c.upper(), flavor,
                           "links it" if real else "fails", describe(rec, report, "")))


def classify(rec, report):
    ok = rec["result"]["exit_status"] == 0
    outcome = report["predicted"]["outcome"]
    if outcome == "unknown":
        return "unknown"
    if ok:
        return "agree" if outcome == "success" else "false-alarm"
    return "agree" if outcome == "failure" else "miss"


def describe(rec, report, err):
    lines = ["record: %s" % rec["_path"], "cwd: %s" % rec.get("cwd"),
             "argv: %s" % " ".join(rec.get("argv_expanded") or rec.get("argv") or [])[:600],
             "exit status: %s" % rec["result"]["exit_status"]]
    if report:
        lines.append("predicted: %s" % report["predicted"]["outcome"])
        for d in report.get("diagnostics", [])[:5]:
            lines.append("  %s %s (ref by %s)" % (d.get("kind"), d.get("symbol") or d.get("path", ""),
                                                   (d.get("referenced_by") or {}).get("path")))
        for n in (report.get("notes") or [])[:5]:
            lines.append("  note: %s" % n)
    if err.strip():
        lines.append("stderr: " + err.strip()[:600])
    return "\n".join(lines)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    redaction = "--redaction" in sys.argv[2:]
    linkers = "--linkers" in sys.argv[2:]
    wanted = set(a for a in sys.argv[2:] if a not in ("--redaction", "--linkers"))
    build = os.path.join(ROOT, build)
    shim = os.path.join(build, "bin", "linkscope-cc")
    linkscope = os.path.join(build, "bin", "linkscope")
    tool = os.path.join(build, "tests", "redact-record")
    if not os.access(linkscope, os.X_OK) or not os.access(shim, os.X_OK):
        sys.exit("realtest: %s: no linkscope and linkscope-cc in bin/ (build it first: make all)" % build)
    ensure_debs()
    os.makedirs(OUT, exist_ok=True)
    elsewhere = os.path.join(OUT, "elsewhere")
    os.makedirs(elsewhere, exist_ok=True)
    rows, details, times, bad = [], [], [], 0
    for project in PROJECTS:
        if wanted and project["name"] not in wanted:
            continue
        name = project["name"]
        records = os.path.join(OUT, "records", name)
        shutil.rmtree(records, ignore_errors=True)
        st_plain, t_plain, log_plain = run_build(project, None, records, redaction)
        out_plain = outputs(project)
        st_shim, t_shim, log_shim = run_build(project, shim, records, redaction)
        out_shim = outputs(project)
        with open(os.path.join(OUT, name + ".log"), "w") as f:
            f.write("== plain\n" + log_plain + "\n== shim\n" + log_shim)
        diffs = compare_outputs(project, out_plain, out_shim)
        if st_plain != st_shim:
            diffs.insert(0, "exit status: plain %d, shim %d" % (st_plain, st_shim))
        if st_plain != 0:
            diffs.insert(0, "the plain build failed (%d): see build-real/%s.log" % (st_plain, name))
        count = dict(links=0, ok=0, failed=0, agree=0, unknown=0, miss=0, alarm=0, errors=0,
                     redacted=0, redacted_strings=0, redaction_differs=0, relink_differs=0)
        for flavor in ("lld", "mold"):
            for c in ("agree", "unknown", "miss", "false-alarm"):
                count[flavor + "_" + c] = 0
        scratch = os.path.join(OUT, "relink")
        os.makedirs(scratch, exist_ok=True)
        recs = records_of(records) if os.path.isdir(records) else []
        for path in recs:
            with open(path) as f:
                rec = json.load(f)
            rec["_path"] = path
            count["links"] += 1
            count["ok" if rec["result"]["exit_status"] == 0 else "failed"] += 1
            analysed = path
            if redaction:
                # What the shim writes by default is the record analysed and compared with the link.
                analysed = path[:-len(".json")] + ".redacted.json"
                n = len(redacted(tool, path, analysed)["redactions"])
                count["redacted"] += n > 0
                count["redacted_strings"] += n
            status, report, err, dt = analyse(linkscope, analysed, elsewhere)
            times.append(dt)
            if report is None:
                count["errors"] += 1
                details.append("ANALYZER ERROR (%d)\n%s" % (status, describe(rec, None, err)))
                continue
            if redaction:
                status, unredacted, err, _ = analyse(linkscope, path, elsewhere)
                diff = (redaction_difference(tool, unredacted, report) if unredacted
                        else "the analysis of the unredacted record failed (%d)" % status)
                if diff:
                    count["redaction_differs"] += 1
                    details.append("REDACTION DIFFERS: %s\n%s" % (diff, describe(rec, report, err)))
            if linkers:
                other_linkers(rec, report, scratch, count, details)
            c = classify(rec, report)
            count[{"agree": "agree", "unknown": "unknown", "miss": "miss",
                   "false-alarm": "alarm"}[c]] += 1
            if c != "agree":
                details.append("%s\n%s" % (c.upper(), describe(rec, report, err)))
        bad += count["alarm"] + count["errors"] + count["redaction_differs"] + len(diffs)
        bad += sum(count[f + "_false-alarm"] + count[f + "_miss"] for f in ("lld", "mold"))
        rows.append((project, count, t_plain, t_shim, diffs))
        log("%-17s %-44s links %3d (ok %3d, failed %3d)  agree %3d  unknown %3d  miss %3d  "
            "false alarms %d  analyzer errors %d  build %s (plain %.1f s, shim %.1f s)%s"
            % (name, project["system"], count["links"], count["ok"], count["failed"],
               count["agree"], count["unknown"], count["miss"], count["alarm"],
               count["errors"], "same" if not diffs else "DIFFERS", t_plain, t_shim,
               "  redacted %d records (%d strings), redaction differs %d"
               % (count["redacted"], count["redacted_strings"], count["redaction_differs"])
               if redaction else ""))
        if linkers:
            log("    %s; not compared (the line as recorded no longer ends as it did: its inputs are gone or changed): %d"
                % ("; ".join("%s agree %d unknown %d miss %d false alarms %d"
                             % (f, count[f + "_agree"], count[f + "_unknown"], count[f + "_miss"],
                                count[f + "_false-alarm"]) for f in ("lld", "mold")),
                   count["relink_differs"]))
        for d in diffs:
            log("    " + d)
    total = {k: sum(r[1][k] for r in rows) for k in rows[0][1]} if rows else {}
    with open(os.path.join(OUT, "details.txt"), "w") as f:
        f.write("\n\n".join(details) + "\n")
    if times:
        log("total: %d projects, %d links (%d succeeded), agree %d, unknown %d, miss %d, "
            "false alarms %d, analyzer errors %d; analyzer time per record: median %.3f s, "
            "max %.3f s" % (len(rows), total["links"], total["ok"], total["agree"],
                            total["unknown"], total["miss"], total["alarm"], total["errors"],
                            statistics.median(times), max(times)))
        if redaction:
            log("redaction: %d records had strings redacted (%d strings); the analysis differs "
                "from the unredacted record's for %d" % (total["redacted"], total["redacted_strings"],
                                                         total["redaction_differs"]))
    log("details: build-real/details.txt")
    log("realtest: %s" % ("PASS" if bad == 0 else "FAIL"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
