# What the analyzer runs for a record under --run-driver and
# --verify-with-linker (docs/security.md, issue #15): records altered to
# carry each option spelling gcc and clang document that runs or loads
# something, or writes where it says; none of it runs, each is named as not
# passed. Then the second wall, with a driver on PATH that tries to get out:
# it writes only its scratch dir, reaches no network (a listener on the
# loopback, nothing else), and sees none of the analyser's environment.
. "$(dirname "$0")/lib.sh"

mkdir -p tmp work evil onpath
export TMPDIR=$T/tmp
printf 'int helper();\nint main() { return helper() - 1; }\n' >work/main.cc
printf 'int helper() { return 1; }\n' >work/helper.cc
(cd work && g++ -c helper.cc && ar rcs libhelper.a helper.o && rm helper.o)
# Programs that leave a mark if anyone runs them.
for prog in evil/tool onpath/ld.evil; do
	printf '#!/bin/sh\ntouch "%s/pwned-%s"\nexit 0\n' "$T" "$(basename "$prog")" >"$prog"
	chmod +x "$prog"
done
# A specs file that makes gcc's linker evil/tool, in a dir a record can name as LIBRARY_PATH.
mkdir -p specsdir
g++ -dumpspecs | sed "s|^collect2\$|$T/evil/tool|" >specsdir/specs
marks() { find "$T" -name 'pwned*' | wc -l; }
# Each check counts its own marks.
clear_marks() { find "$T" -name 'pwned*' -delete; }

# -fmodule-mapper=|CMD: cc1plus starts CMD (split on spaces, ${IFS} for the rest: any
# shell, no '/'). In the compile's scratch dir, "cd .." is $TMPDIR: the mark lands there.
mapper='-fmodule-mapper=|sh -c cd${IFS}..;touch${IFS}pwned-mapper'
(cd work && g++ -fmodules-ts "$mapper" -c main.cc -o /dev/null 2>/dev/null)
check_eq "the payload runs under g++ itself (in its cwd's parent)" 1 "$(find "$T" -maxdepth 1 -name pwned-mapper | wc -l)"
clear_marks

# LINKSCOPE_REPORT=1 on the user's own link with that word: the user's g++ runs it (in
# work/'s parent, $T); the analyzer's compile of main.cc again must not (in $TMPDIR).
(cd work && LINKSCOPE_REPORT=1 LINKSCOPE_KEEP=0 "$SHIM" -- g++ -fmodules-ts "$mapper" \
	-L. -lhelper main.cc -o prog >/dev/null 2>&1)
check_eq "LINKSCOPE_REPORT: the user's own link ran its own word" 1 "$(find "$T" -maxdepth 1 -name pwned-mapper | wc -l)"
check_eq "LINKSCOPE_REPORT: the analyzer's compile did not" 0 "$(find "$TMPDIR" -name 'pwned*' | wc -l)"
clear_marks

# A failed link (the archive before its reference) with a source on the line and
# nothing kept: --run-driver compiles main.cc again, --verify-with-linker links the fix.
(cd work && LINKSCOPE_KEEP=0 "$SHIM" -- g++ -L. -lhelper main.cc -o prog 2>/dev/null)
base=$(last_record)

# variant NAME DRIVER LIBRARY_PATH WORD...: the base record with WORDs after the
# driver (named DRIVER; at the end with AT_END=1), LIBRARY_PATH as recorded ("" keeps
# it), into NAME.json; without its -### expansion (which did not see the WORDs), so
# that --run-driver runs -### too, unless KEEP_EXPANSION=1.
variant() {
	"$PY" - "$base" "$@" <<'PY'
import json, os, sys
base, name, driver, library_path, words = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
r = json.load(open(base))
r["driver"]["given"] = r["argv_expanded"][0] = driver
at = len(r["argv_expanded"]) if os.environ.get("AT_END") else 1
for k, w in enumerate(words):
    r["argv_expanded"].insert(at + k, w)
    r["arg_origins"].insert(at + k, {"argv_index": 0, "response_file": None})
    r["provenance"]["args"].insert(at + k, "user")
if library_path:
    r["env"]["vars"]["LIBRARY_PATH"] = library_path
if not os.environ.get("KEEP_EXPANSION"):
    r["expansion"] = None
json.dump(r, open(name + ".json", "w"))
PY
}

# analyse NAME WHAT DROPPED...: explain and report --run-driver --verify-with-linker and
# show --run-driver run nothing of it, and each DROPPED word is named as not passed (to
# the compile, in show; to the verification link, in explain). A link-only word is
# named by the link only.
analyse() {
	local name=$1 what=$2 word ex sh rp
	shift 2
	ex=$("$LINKSCOPE" explain --run-driver --verify-with-linker "$name.json" 2>&1)
	rp=$("$LINKSCOPE" report --format json --run-driver --verify-with-linker "$name.json" 2>&1)
	sh=$("$LINKSCOPE" show --run-driver "$name.json" 2>&1)
	check_eq "$what: nothing ran, nothing written" 0 "$(marks)"
	clear_marks
	check_contains "$what: the real linker checked the fix" "$ex" "the real linker with this edit: links: not passed to the driver"
	for word in "$@"; do
		check_contains "$what: the link names $word as not passed" "$ex" " $word"
		check_contains "$what: so does the JSON report" "$rp" " $word"
		case $word in
		-Wl,* | -Xlinker | -fuse-ld=* | -plugin) ;;
		*) check_contains "$what: the compile names $word as not passed" "$sh" " $word" ;;
		esac
	done
	check_contains "$what: the source was compiled again" "$sh" "'main.cc' compiled again now from the file"
}

printf -- '-B%s/evil/\n' "$T" >opts
variant mapper g++ "" -fmodules-ts "$mapper"
analyse mapper "-fmodule-mapper=|CMD" -fmodules-ts "$mapper"
variant plugin g++ "" "-fplugin=./x.so" "-fplugin=annobin" "-fpass-plugin=x.so"
analyse plugin "-fplugin=" "-fplugin=./x.so" "-fplugin=annobin" "-fpass-plugin=x.so"
variant wrapper g++ "" -wrapper "sh,-c,touch $T/pwned-wrapper"
analyse wrapper "-wrapper" -wrapper "sh,-c,touch"
variant specs g++ "" "-specs=$T/specsdir/specs" -B "$T/evil/" "-B$T/evil/"
analyse specs "-specs= and -B" "-specs=$T/specsdir/specs" -B "-B$T/evil/"
variant profile g++ "" "-fprofile-generate=$T/pwned-prof" "-fprofile-use=$T/x" -fdump-tree-all "-fdump-rtl-expand"
analyse profile "-fprofile-*= and -fdump-*" "-fprofile-generate=$T/pwned-prof" "-fprofile-use=$T/x" -fdump-tree-all -fdump-rtl-expand
AT_END=1 variant atfile g++ "" "@$T/opts"
analyse atfile "@file" "@$T/opts"
AT_END=1 variant ldplugin g++ "" -Xlinker -plugin -Xlinker "$T/evil/x.so" "-Wl,-plugin,$T/evil/x.so" \
	"-Wl,--error-handling-script=$T/evil/tool"
analyse ldplugin "-Xlinker -plugin, -Wl,-plugin, --error-handling-script" -Xlinker -plugin "-Wl,-plugin" \
	"-Wl,--error-handling-script=$T/evil/tool"
# clang runs ld.NAME from PATH for any -fuse-ld=NAME, and any path given. (The -###
# kept: the line model does not know clang's names for its temporary objects.)
KEEP_EXPANSION=1 variant fuseld clang++ "" "-fuse-ld=$T/evil/tool" -fuse-ld=evil
PATH="$T/onpath:$PATH" analyse fuseld "-fuse-ld=/abs/path and -fuse-ld=evil" "-fuse-ld=$T/evil/tool" -fuse-ld=evil
# gcc reads a "specs" file from LIBRARY_PATH's dirs: the link gets them as -L words.
KEEP_EXPANSION=1 variant libpath g++ "$T/specsdir"
out=$("$LINKSCOPE" explain --run-driver --verify-with-linker libpath.json 2>&1)
check_eq "a recorded LIBRARY_PATH with a specs file: its linker never runs" 0 "$(marks)"
clear_marks
check_contains "and the real linker checks the fix" "$out" "the real linker with this edit: links"

# ---- the second wall: a driver that tries to get out ----
# The analyzer itself, not $LINKSCOPE: PATH is what puts this driver first.
ANALYZER=$LK_BUILD/bin/linkscope
mkdir -p fakebin
"$PY" -c '
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
print(s.getsockname()[1], flush=True)
s.settimeout(60)
try:
    while True:
        c, _ = s.accept()
        open(sys.argv[1], "a").write("connected\n")
        c.close()
except OSError:
    pass
' "$T/connections" >port &
listener=$!
for _ in $(seq 100); do [ -s port ] && break; sleep 0.1; done
# It exits 1 (the run fails, and says so) if it sees the analyser's environment, a
# TMPDIR that is not its scratch dir, or cannot write there; it tries to write
# outside, to connect to the listener, and to leave a process behind.
cat >fakebin/g++ <<EOF
#!/bin/bash
echo out >"$T/pwned-wrote-\$\$" 2>/dev/null
echo out >"$T/work/pwned-wrote-\$\$" 2>/dev/null
(exec 3<>/dev/tcp/127.0.0.1/$(cat port)) 2>/dev/null
[ -z "\${LK_ANALYSER_SECRET+set}" ] && [ "\$LANG" = C ] || exit 1
case \$TMPDIR in "$T"/tmp/lk-*) ;; *) exit 1 ;; esac
echo inside >"\$TMPDIR/inside-\$\$" || exit 1
exec /usr/bin/g++ "\$@"
EOF
chmod +x fakebin/g++
# The same record, without its -### expansion: -###, the compile and the link all run.
"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); r["expansion"]=None; json.dump(r,open("walls.json","w"))' "$base"
run_capture walls env LK_ANALYSER_SECRET=1 PATH="$T/fakebin:$PATH" "$ANALYZER" explain --run-driver --verify-with-linker walls.json
run_capture wallshow env LK_ANALYSER_SECRET=1 PATH="$T/fakebin:$PATH" "$ANALYZER" show --run-driver walls.json
err="$(cat walls.err wallshow.err)"
check_contains "the driver ran: -### in the analyser's view" "$(cat wallshow.out)" "from running this machine's $T/fakebin/g++ -### now"
check_contains "the compile ran, with the environment of its own" "$(cat wallshow.out)" "'main.cc' compiled again now from the file"
check_contains "the verification link ran" "$(cat walls.out)" "the real linker with this edit: links"
case $err in
*"without Landlock"*) ok "the driver wrote nothing outside its scratch dir # SKIP no Landlock here: $err" ;;
*) check_eq "the driver wrote nothing outside its scratch dir" 0 "$(marks)" ;;
esac
kill "$listener" 2>/dev/null
wait "$listener" 2>/dev/null
case $err in
*"without a network namespace"*) ok "the driver reached no network # SKIP no network namespace here: $err" ;;
*) check "the driver reached no network" test ! -e connections ;;
esac
check_eq "and its scratch dirs are gone" 0 "$(find "$TMPDIR" -mindepth 1 -maxdepth 1 | wc -l)"

# ---- walls the kernel refuses: as in a container that forbids unshare, on a kernel
# without Landlock. The analysis goes on, and says so once.
cat >refuse.c <<'C'
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#endif
/* Run argv[1..] with unshare(2) failing EPERM and Landlock ENOSYS. */
int main(int argc, char **argv)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_unshare, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_landlock_create_ruleset, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (argc < 2 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return 125;
	execv(argv[1], argv + 1);
	return 126;
}
C
if cc refuse.c -o refuse 2>/dev/null; then
	run_capture refused ./refuse "$ANALYZER" explain --run-driver --verify-with-linker mapper.json
	check_eq "walls refused: the analysis still runs" 0 "$(cat refused.rc)"
	check_contains "and the fix is still checked" "$(cat refused.out)" "the real linker with this edit: links"
	check_eq "and it says once what the driver ran without" \
		"1 linkscope: note: the driver ran without a network namespace: EPERM; without Landlock: ENOSYS" \
		"$(grep -c 'without' refused.err) $(cat refused.err)"
else
	ok "walls refused # SKIP no seccomp filter for this architecture"
fi
finish
