# What the team sees in CI (issue #32, points 1, 2, 4): real builds run
# through the shim -- a cargo workspace, a CMake project, a meson project
# and an autoconf ./configure, each with a real failure and its build
# system's probes -- then `report --failed`: the probes left out (and
# shown with --probes), a failure a later link of the same output fixed
# left out (shown with --all), each cause's annotation on the line of the
# build file its fix edits, relative to the workspace, and the Markdown
# summary rendered by cmark-gfm with every symbol, path and number intact.
# passes: plain elsewhere san (annotations relative to GITHUB_WORKSPACE, not to the
# analyzer's directory)
. "$(dirname "$0")/lib.sh"

CARGO=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
W=$T/ws
mkdir -p "$W"

# --- a cargo workspace: the crate of testdata/cargo-group, whose bin fails
# (atexit read too late, the fix at build.rs line 29), its build script
# first making cc-rs's is_flag_supported probe (flag_check in OUT_DIR) with
# a flag the linker refuses ---
cp -r "$ROOT/testdata/cargo-group" "$W/crate"
"$PY" - "$W/crate/build.rs" <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
probe = '''fn main() {
    let od = std::env::var("OUT_DIR").unwrap();
    std::fs::write(format!("{od}/flag_check.c"), "int main(void) { return 0; }\\n").unwrap();
    let _ = std::process::Command::new(std::env::var("LK_PROBE_CC").unwrap())
        .args([format!("{od}/flag_check.c"), "-Wl,--no-such-flag".to_string(), "-o".to_string(), format!("{od}/flag_check")])
        .status();
'''
assert s.count("fn main() {\n") == 1
open(p, "w").write(s.replace("fn main() {\n", probe))
EOF
(cd "$W" && LK_PROBE_CC=$SHIM RUSTFLAGS="-Clinker=$SHIM -Clinker-features=-lld" CARGO_GROUP_VARIANT=atexit \
	CARGO_TARGET_DIR=$W/target "$CARGO" build --offline -q --manifest-path crate/Cargo.toml >"$T/cargo.out" 2>&1)
check "cargo: the bin's link fails" grep -q "undefined reference to .atexit" "$T/cargo.out"

# --- a CMake project, the shim its linker launcher: its
# try_compile probes (a function that is not there) link through it; the
# target app misses -lm, the fix after add_executable (line 5) ---
mkdir -p "$W/cm"
cat >"$W/cm/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.21)
project(probed C)
include(CheckFunctionExists)
check_function_exists(lk_no_such_function_131 HAVE_NO_SUCH)
add_executable(app main.c)
EOF
printf '#include <math.h>\nint main(int c, char **v) { (void)v; return (int)cos(c * 1.5) > 2; }\n' >"$W/cm/main.c"
# The launcher reaches try_compile's projects only when passed on to them.
cmake -S "$W/cm" -B "$W/cmb" -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_LINKER_LAUNCHER=$SHIM;--" \
	-DCMAKE_TRY_COMPILE_PLATFORM_VARIABLES=CMAKE_C_LINKER_LAUNCHER >"$T/cmake.out" 2>&1
cmake --build "$W/cmb" >"$T/cmake-build.out" 2>&1
check "cmake: the probe failed" grep -q "HAVE_NO_SUCH - not found\|Looking for lk_no_such_function_131 - not found" "$T/cmake.out"
check "cmake: app's link fails" grep -q "undefined reference to .cos" "$T/cmake-build.out"

# --- a real autoconf configure, run with the shim as CC: its conftest
# links (AC_CHECK_LIB, AC_CHECK_FUNCS), two of them failing; then the
# Makefile it writes puts -lz in LDFLAGS, before the objects (the fix:
# line 3 of the Makefile) ---
mkdir -p "$W/ac"
cat >"$W/ac/configure.ac" <<'EOF'
AC_INIT([probed], [1.0])
AC_PROG_CC
AC_CHECK_LIB([intl], [libintl_gettext])
AC_CHECK_FUNCS([lk_strlcpy_131])
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
EOF
printf 'CC = @CC@\nCFLAGS = -g\nLDFLAGS = -Wl,--as-needed -lz\nLIBS = @LIBS@\nprog: prog.o\n' >"$W/ac/Makefile.in"
printf '#include <zlib.h>\nint main(void) { return zlibVersion()[0] == 0; }\n' >"$W/ac/prog.c"
(cd "$W/ac" && autoconf && CC=$SHIM ./configure >"$T/configure.out" 2>&1 && make >"$T/make.out" 2>&1)
check "configure: -lintl not found" grep -q "in -lintl... no" "$T/configure.out"
check "make: prog's link fails" grep -q "undefined reference to .zlibVersion" "$T/make.out"

# --- a meson project, the shim its C compiler: its sanity check and
# compiler checks (a function and a library that are not there) link
# through it in meson-private; app misses -lz, the fix at executable('app'
# (line 5); DWARF names its source BUILD/../main.c ---
mkdir -p "$W/ms"
cat >"$W/ms/meson.build" <<'EOF'
project('probed', 'c')
cc = meson.get_compiler('c')
cc.has_function('lk_nope_131')
cc.find_library('lk_nolib_131', required: false)
executable('app', 'main.c')
EOF
printf '#include <zlib.h>\nint main(void) { return compressBound(1) == 0; }\n' >"$W/ms/main.c"
(cd "$W/ms" && CC=$SHIM meson setup b >"$T/meson.out" 2>&1 && ninja -C b >"$T/ninja.out" 2>&1)
check "meson: app's link fails" grep -q "undefined reference to .compressBound" "$T/ninja.out"

# --- a C++ failure whose symbol has template arguments (issue #32 point 4) ---
mkdir -p "$W/cxx"
cat >"$W/cxx/main.cc" <<'EOF'
#include <string>
void lk_greet(const std::basic_string<char, std::char_traits<char>> &who);
int main() { lk_greet("you"); }
EOF
# A near miss: the definition takes one more argument (its demangled name said in the explanation).
cat >"$W/cxx/greet.cc" <<'EOF'
#include <string>
void lk_greet(const std::basic_string<char, std::char_traits<char>> &who, const char **how) { (void)who; (void)how; }
EOF
(cd "$W/cxx" && g++ -g -c main.cc greet.cc && "$SHIM" -- g++ main.o greet.o -o greet 2>/dev/null)

# --- a failure superseded: the same output linked again, and it links ---
mkdir -p "$W/again"
printf 'int lk_later(void);\nint main(void) { return lk_later(); }\n' >"$W/again/m.c"
(cd "$W/again" && "$SHIM" -- gcc m.c -o again 2>/dev/null)
printf 'int lk_later(void) { return 0; }\n' >"$W/again/later.c"
(cd "$W/again" && "$SHIM" -- gcc m.c later.c -o again 2>/dev/null)
check "the superseded output links now" test -x "$W/again/again"

# --- a failure whose object was rebuilt since (no link of it again): it tells nothing of the build now
# (with no copy of its inputs kept: with one, the old link is replayed as it was, and its cause stands) ---
printf 'int lk_gone_131(void);\nint main(void) { return lk_gone_131(); }\n' >"$W/again/n.c"
(cd "$W/again" && gcc -c n.c && LINKSCOPE_KEEP=0 "$SHIM" -- gcc n.o -o stale 2>/dev/null)
printf 'int lk_gone_131(void) { return 0; }\nint main(void) { return lk_gone_131(); }\n' >"$W/again/n.c"
(cd "$W/again" && gcc -c n.c)

all=$("$LINKSCOPE" list)
check "the probes were recorded as failed links" grep -q "conftest" <<<"$all"

# --- the probes and the superseded failure left out ---
cd "$W" || exit 1
out=$("$LINKSCOPE" report --failed)
check_eq "report --failed exits 0" 0 $?
echo "$out" >"$T/report.txt"
check_contains "the heading says what was left out" "$out" \
	"probes (--probes) and 1 failure superseded by a later successful link (--all) left out"
check_eq "no probe is a cause" 0 "$(grep -c 'conftest\|flag_check\|TryCompile\|CMakeTmp\|meson-private\|libintl\|lk_strlcpy_131\|lk_no_such_function_131\|lk_nope_131\|lk_nolib_131' <<<"$out")"
check_eq "the superseded failure is left out" 0 "$(grep -c 'lk_later' <<<"$out")"
check_contains "a link whose inputs changed since: one note" "$out" \
	"note: 1 failed link read inputs that have changed since it ran (a rebuild since?)"
check_eq "... not an unknown cause" 0 "$(grep -c 'unknown\|lk_gone_131\|stale' <<<"$out")"
check_contains "atexit, with its where" "$out" "where: in the build script of the crate cargo-group ($W/crate/build.rs)"
check_contains "cos, with its where" "$out" "where: in $W/cm/CMakeLists.txt"
check_contains "zlibVersion, with its where" "$out" "where: in $W/ac/Makefile, line 3"
check_contains "the reference's source line" "$out" "referenced at $W/cm/main.c:2"
with=$("$LINKSCOPE" report --failed --probes)
check_contains "--probes: the conftest link of -lintl" "$with" "libintl_gettext"
check_contains "--probes: the conftest link of AC_CHECK_FUNCS" "$with" "lk_strlcpy_131"
check_contains "--probes: CMake's try_compile" "$with" "lk_no_such_function_131"
check_contains "--probes: the build script's flag check" "$with" "flag_check"
check_contains "--probes: meson's has_function" "$with" "lk_nope_131"
check_contains "--probes: meson's find_library" "$with" "lk_nolib_131"
check_eq "--probes: no more superseded failure" 0 "$(grep -c 'lk_later' <<<"$with")"
check_contains "--all: the superseded failure" "$("$LINKSCOPE" report --failed --all)" "undefined-symbol: lk_later"

# --- annotations: file= and line= relative to the workspace, on the line the fix edits ---
ann=$(GITHUB_WORKSPACE=$W "$LINKSCOPE" report --failed --format github)
echo "$ann" >"$T/ann.txt"
check_contains "github: atexit on build.rs line 29" "$ann" \
	"::error file=crate/build.rs,line=29,title=linkscope%3A undefined-symbol%3A atexit (1 link)::"
check_contains "github: cos after add_executable (line 5)" "$ann" \
	"::error file=cm/CMakeLists.txt,line=5,title=linkscope%3A undefined-symbol%3A cos (1 link)::"
check_contains "github: zlibVersion on the Makefile's LDFLAGS line" "$ann" \
	"::error file=ac/Makefile,line=3,title=linkscope%3A undefined-symbol%3A zlibVersion (1 link)::"
check_contains "github: lk_greet on its source line (no build file to edit)" "$ann" \
	"::error file=cxx/main.cc,line=3,title=linkscope%3A undefined-symbol%3A _Z8lk_greetRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE (1 link)::"
check_contains "github: meson's compressBound at executable('app' (line 5)" "$ann" \
	"::error file=ms/meson.build,line=5,title=linkscope%3A undefined-symbol%3A compressBound (1 link)::"
check_eq "github: one error per cause, no probe" 5 "$(grep -c '^::error ' <<<"$ann")"
check_contains "github: the changed inputs, one notice" "$ann" "::notice title=linkscope%3A inputs changed since the link::1 failed link read inputs"
check_eq "github: nothing else" 6 "$(wc -l <<<"$ann")"
check_eq "github: --root gives the same" "$ann" "$(cd / && "$LINKSCOPE" report --failed --format github --root "$W")"
sub=$(GITHUB_WORKSPACE=$W/cm "$LINKSCOPE" report --failed --format github)
check_contains "github: a file outside the workspace gets no file=" "$sub" \
	"::error title=linkscope%3A undefined-symbol%3A atexit (1 link)::"
check_contains "github: the CMake one relative to its own root" "$sub" "::error file=CMakeLists.txt,line=5,"
check "github: stable" test "$ann" = "$(GITHUB_WORKSPACE=$W "$LINKSCOPE" report --failed --format github)"

# --- the Markdown summary, rendered by GitHub's renderer ---
if command -v cmark-gfm >/dev/null; then
	"$LINKSCOPE" report --failed --format markdown >"$T/summary.md"
	"$LINKSCOPE" report --failed --format json >"$T/summary.json"
	greet=$(grep -l '"output": *"greet"' "$LINKSCOPE_DIR"/2*.json | grep -v report | head -n 1)
	"$LINKSCOPE" report --format json "$greet" >"$T/greet.json"
	"$LINKSCOPE" report --format markdown "$greet" >"$T/greet.md"
	# Each string the summary's JSON holds must be in the rendered page's text, as written.
	survives=$("$PY" - "$T/summary.md" "$T/summary.json" "$T/greet.md" "$T/greet.json" <<'EOF'
import html, json, re, subprocess, sys

# GitHub lets <details> and <summary> through and drops other raw HTML:
# rendered with --unsafe, any other tag is text the page would lose.
TAGS = {"p", "h2", "h3", "ul", "li", "code", "strong", "em", "table", "thead", "tbody", "tr", "th", "td",
        "details", "summary", "a", "br"}

def rendered(md):
    out = subprocess.run(["cmark-gfm", "--unsafe", "-e", "table", "-e", "autolink", "-e", "strikethrough", md],
                         capture_output=True, text=True, check=True).stdout
    for t in sorted(set(re.findall(r"</?([A-Za-z][^\s/>]*)", out)) - TAGS):
        print("raw HTML <%s> in %s" % (t, md))
    text = html.unescape(re.sub(r"<[^>]*>", "", out))
    return re.sub(r"\s+", " ", text)

def flat(s):
    return re.sub(r"\s+", " ", s)

bad = 0
page = rendered(sys.argv[1])
s = json.load(open(sys.argv[2]))
want = [s["dir"], str(s["records"]), str(s["failed"])]
for c in s["causes"]:
    if c["kind"] == "inputs-changed":   # one note, by count
        continue
    want += [c["kind"], c["symbol"] or "", c["defined_in"] or "", c["referenced_by"] or ""] + c["explanation"]
    want += [f["description"] for f in c["fixes"]] + [f["where"]["sentence"] for f in c["fixes"] if f.get("where")]
    if c.get("referenced_at"):
        want.append("%s:%d" % (c["referenced_at"]["file"], c["referenced_at"]["line"]))
    want += [l["output"] for l in c["links"]] + [l["record"] for l in c["links"]] + [str(len(c["links"]))]
page2 = rendered(sys.argv[3])
r = json.load(open(sys.argv[4]))
want2 = []
for d in r["diagnostics"]:
    want2 += [d["symbol"]] + d.get("explanation", []) + [f["description"] for f in d["fixes"]]
    want2 += [x["text"] if isinstance(x, dict) and "text" in x else "" for x in d.get("references", [])]
want2 += r.get("notes", [])
for p, ws in ((page, want), (page2, want2)):
    for w in ws:
        if w and flat(w) not in p:
            print("lost:", w)
            bad += 1
print("lost %d" % bad)
EOF
)
	echo "$survives" >"$T/survives.txt"
	check_eq "markdown: every string of the summary and of the C++ report survives cmark-gfm" "lost 0" "$survives"
	check "markdown: the C++ name with its template arguments survives" grep -q "std::char_traits<char>" <(cmark-gfm "$T/greet.md" | "$PY" -c 'import html,sys; print(html.unescape(sys.stdin.read()))')
else
	not_ok "markdown: cmark-gfm is not installed (scripts/install-deps.sh)"
fi

finish
