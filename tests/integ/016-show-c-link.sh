# linkscope show on real C links recorded by the shim: what each -l became,
# what libc.so expands to, the DT_NEEDED tree, the driver's additions, and
# line-level warnings.
. "$(dirname "$0")/lib.sh"

printf 'int helper(void);\nint main(void) { return helper() - 1; }\n' >main.c
printf 'int helper(void) { return 1; }\n' >helper.c
cc -c main.c -o main.o
cc -c -fPIC helper.c -o helper.o
mkdir lib
ar rcs lib/libhelper.a helper.o
cc -shared helper.o -o lib/libhelper.so
# The host's libc as its gcc finds it: libc.so, the script's libc.so.6 and loader.
crt=$(cc -print-file-name=Scrt1.o)
libc_so=$(cc -print-file-name=libc.so)
read -r libc6 loader <<<"$(libc_paths cc)"

# A link that fails late (so the record has the -### expansion).
"$SHIM" main.o -Llib -Wl,-Bstatic -lhelper -Wl,-Bdynamic -Wl,--copy-dt-needed-entries -lnothere -o prog 2>/dev/null
out=$("$LINKSCOPE" show last)
check_eq "show exits 0" 0 $?
check_contains "the driver's additions come from the record" "$out" "driver's additions from the record's -### expansion"
check_contains "crt files are listed as the driver's" "$out" "    -  driver               as-needed                $crt  object"
check_contains "-lhelper under -Bstatic became the archive" "$out" "    4  user                 static,as-needed         -lhelper  -> $T/lib/libhelper.a  archive, 1 members"
check_contains "-Bstatic warning with its position" "$out" "-lhelper resolved to $T/lib/libhelper.a because -Bstatic is in force since -Bstatic at 3"
check_contains "the missing library, with the files tried" "$out" "-lnothere at 7 is not found"
check_contains "the driver's -lc becomes libc.so, a linker script" "$out" "-lc  -> $libc_so  linker script"
check_contains "libc.so's GROUP: libc.so.6" "$out" "$libc6  shared object, SONAME libc.so.6"
check_contains "libc.so's GROUP: libc_nonshared.a" "$out" "/usr/lib/$HOST_MULTIARCH/libc_nonshared.a  archive"
check_contains "libc.so's AS_NEEDED loader" "$out" "$loader  shared object, SONAME ${loader##*/}"
check_contains "the DT_NEEDED tree: libc.so.6 needs the loader, which is on the line" "$out" \
	"${loader##*/}  on the line ($loader in -lc's AS_NEEDED)"
check_contains "the default search dirs of GNU ld" "$out" "then: /usr/local/lib/$HOST_MULTIARCH /lib/$HOST_MULTIARCH"

json=$("$LINKSCOPE" show --json last)
check_eq "--json: the -l items and where they resolved" \
	"[('-lhelper', 4, '$T/lib/libhelper.a', ['-Bstatic']), ('-lnothere', 7, None, ['--copy-dt-needed-entries']), ('-lc', None, '$libc_so', ['--copy-dt-needed-entries'])]" \
	"$("$PY" -c 'import json,sys; d=json.load(sys.stdin); print([(i["word"], i["position"], i["path"], [s for s in i["state"] if s != "--as-needed"]) for i in d["items"] if i["kind"] == "library" and i["parent"] is None and i["word"] in ("-lhelper", "-lnothere", "-lc")])' <<<"$json")"
check_eq "--json: -lnothere lists the files tried, .so before .a in each dir" "True" \
	"$("$PY" -c 'import json,sys; d=json.load(sys.stdin); t=[i for i in d["items"] if i["word"] == "-lnothere"][0]["tried"]; print(t[0].endswith("/lib/libnothere.so") and t[1].endswith("/lib/libnothere.a"))' <<<"$json")"

check_contains "the output kind" "$out" "output   PIE executable"
check_eq "no colours when stdout is not a terminal" 0 "$(grep -c $'\033' <<<"$out")"
tty_out=$(script -qec "$LINKSCOPE show last" /dev/null)
check_contains "colours on a terminal" "$tty_out" $'\033[33m'
tty_plain=$(NO_COLOR=1 script -qec "$LINKSCOPE show last" /dev/null)
check_eq "NO_COLOR turns them off" 0 "$(grep -c $'\033' <<<"$tty_plain")"

# A successful link recorded without the driver's view (LINKSCOPE_EXPAND=failure):
# with --run-driver, show runs this machine's driver's -### itself.
LINKSCOPE_EXPAND=failure "$SHIM" main.o -Llib -lhelper -o prog2
out=$("$LINKSCOPE" show --run-driver last)
check_contains "no expansion recorded: --run-driver asks the driver now" "$out" "from running this machine's /usr/bin/cc -### now"
check_contains "-lhelper became the shared object" "$out" "-lhelper  -> $T/lib/libhelper.so  shared object"
out=$("$LINKSCOPE" show last)
check_contains "by default no driver runs: the driver's part is unknown, and said so" "$out" "note: the driver's additions (crt files, default -L dirs, -lgcc, -lc) are unknown"
check_contains "the user's own -lhelper is still resolved" "$out" "-lhelper  -> $T/lib/libhelper.so"

# --run-driver runs -### with the record's LIBRARY_PATH (unset where the record
# has none), not the analysing shell's: the link found -lhelper through it.
mkdir -p decoy decoy-lib
LINKSCOPE_EXPAND=failure LIBRARY_PATH=$T/lib "$SHIM" main.o -lhelper -o prog-lp
out=$(LIBRARY_PATH=$T/decoy "$LINKSCOPE" show --run-driver last)
check_contains "the record's LIBRARY_PATH, not ours: -lhelper found" "$out" "-lhelper  -> $T/lib/../lib/libhelper.so  shared object"
check_eq "and the decoy dir is nowhere" 0 "$(grep -c "$T/decoy" <<<"$out")"
out=$(LIBRARY_PATH=$T/decoy "$LINKSCOPE" report --format json --replay-only --run-driver last)
check_contains "so the replay agrees the link succeeds" "$out" '"outcome": "success"'
unset_lp=$(LINKSCOPE_EXPAND=failure "$SHIM" main.o -Llib -lhelper -o prog-nolp; LIBRARY_PATH=$T/decoy-lib "$LINKSCOPE" show --run-driver last)
check_eq "a LIBRARY_PATH the record lacks is unset for -###" 0 "$(grep -c decoy-lib <<<"$unset_lp")"

# A source on the line: the driver compiles it to a temporary object, which the shim catches.
"$SHIM" main.c helper.o -o prog3
out=$("$LINKSCOPE" show --dir "$LINKSCOPE_DIR" last)
check_contains "a source on the line: the driver's own object, kept" "$out" "the object the driver compiled from 'main.c' at link time, kept with the record"

# The autoconf probe: the source is deleted after the link; the object kept at link time is read.
printf 'char nosuchfunc(void);\nint main(void) { return nosuchfunc(); }\n' >conftest.c
"$SHIM" conftest.c -o conftest 2>/dev/null
rm -f conftest.c
out=$("$LINKSCOPE" show last)
check_contains "a deleted conftest.c: its object kept at link time" "$out" "the object the driver compiled from 'conftest.c' at link time, kept with the record"
check_contains "and the replay finds what the probe probed" "$("$LINKSCOPE" explain last)" "undefined-symbol: nosuchfunc"
finish
