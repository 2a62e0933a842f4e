# The shim keeps records private and never hangs or slows a build (issue #7):
# 0700 dir and 0600 files whatever the umask, a /tmp fallback that must be
# ours, a self-including @file (FIFOs: tests/unit/test_shim.c) recorded and analysed in bounded
# time and memory, a bounded -### after a failed link
# and none after one ended by a signal.
. "$(dirname "$0")/lib.sh"

write_main
umask 022
chmod 755 "$T"	# user nobody works below it

# Privacy: a source is kept; everything is private although the umask is 022.
printf 'int main(void) { return 0; }\n' >prog.c
"$SHIM" prog.c -o prog
r=$(last_record)
check_eq "record dir 0700" 700 "$(stat -c %a "$LINKSCOPE_DIR")"
check_eq "record 0600" 600 "$(stat -c %a "$r")"
check_eq "blobs dir 0700" 700 "$(stat -c %a "$LINKSCOPE_DIR/blobs")"
check_eq "kept copy 0600" 600 "$(stat -c %a "$LINKSCOPE_DIR/$(rec "$r" 'r["kept"][0]["blob"]')")"
mkdir -p open && chmod 755 open
LINKSCOPE_DIR=$T/open "$SHIM" main.o -o x
check_eq "an existing record dir of ours keeps its mode (not ours to change)" 755 "$(stat -c %a open)"
check_eq "and is recorded into, the record private" 600 "$(stat -c %a open/2*.json)"
# Made by the shim, parents too: 0700 even under a umask that takes the owner's bits.
(umask 0277 && LINKSCOPE_DIR=$T/made/deep "$SHIM" main.o -o x)
check_eq "a dir the shim made is 0700 whatever the umask" "700 700" "$(echo $(stat -c %a made made/deep))"

# The /tmp fallback (no LINKSCOPE_DIR, XDG_STATE_HOME or absolute HOME), as user nobody.
fb=/tmp/linkscope-65534
# One path for the whole machine: another run of this test (the other
# build's in make check, another tree's) waits here until this one is done with it.
exec 9>/tmp/lk-integ-072-fallback.lock && flock 9
# nobody may not reach the build tree (a clone in a 0700 dir): its own copy of the shim.
cp "$SHIM" "$T/linkscope-cc" && chmod 755 "$T/linkscope-cc"
NOBODY_SHIM=$T/linkscope-cc
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups env -u LINKSCOPE_DIR -u XDG_STATE_HOME HOME=relative "$@"; }
mkdir -p nob && cp main.o nob/ && chmod -R 777 nob
rm -rf "$fb" "$T/elsewhere"
mkdir "$T/elsewhere" && chmod 777 "$T/elsewhere"
ln -s "$T/elsewhere" "$fb"
run_capture sym as_nobody sh -c "cd '$T/nob' && '$NOBODY_SHIM' main.o -o x"
check_eq "a symlink at the fallback: the link still runs" 0 "$(cat "$T/sym.rc")"
check_contains "and is refused with a warning" "$(cat "$T/sym.err")" "refusing record directory '$fb'"
check_eq "nothing written through the symlink" 0 "$(ls "$T/elsewhere" | wc -l)"
rm -f "$fb"
mkdir "$fb"	# owned by root, not by nobody
run_capture other as_nobody sh -c "cd '$T/nob' && '$NOBODY_SHIM' main.o -o x"
check_contains "a fallback owned by another user is refused" "$(cat "$T/other.err")" "refusing record directory '$fb'"
rm -rf "$fb"
run_capture fresh as_nobody sh -c "cd '$T/nob' && '$NOBODY_SHIM' main.o -o x"
check_eq "a fresh fallback: recorded without a warning" "" "$(cat "$T/fresh.err")"
check_eq "and it is ours and private" "nobody 700" "$(stat -c '%U %a' "$fb")"
rm -rf "$fb"
exec 9>&-

# A self-including @file of 1,000 arguments: gcc fails with "too many @-files"; so does
# the shim's expansion, fast, and the record stays the size of the argv.
"$PY" -c "open('self.rsp','w').write(' '.join(['@self.rsp'] * 1000))"
# Its end by itself, not by the hang guard (timeout's 124; issue #47: no wall time against a bound).
run_capture self timeout 60 "$SHIM" main.o @self.rsp -o y
check_eq "self-including @file: the driver's failure, not the hang guard's" 1 "$(cat "$T/self.rc")"
r=$(last_record)
check_contains "the error is recorded" "$(rec "$r" 'r["warnings"]')" "too many @-files (more than 2000)"
check_eq "argv_expanded is the argv" 5 "$(rec "$r" 'len(r["argv_expanded"])')"
# The analyzer reads the linker's response files too (model/line.c): 1,000 words of @self.rsp
# nested 16 deep was 1000^16 words (24 GB and counting); it stops after 2,000 files, as
# libiberty's expandargv does, and says the line is not expanded.
# (AddressSanitizer maps terabytes of shadow: under it only the time is bounded.)
vmem=1000000
grep -qa __asan_init "$LK_BUILD/bin/linkscope" && vmem=unlimited
run_capture selfrep sh -c "ulimit -v $vmem; exec timeout 60 \"\$0\" report \"\$1\"" "$LINKSCOPE" "$r"
check_eq "... its report ends, in bounded memory" 0 "$(cat "$T/selfrep.rc")"
check_contains "... and says the outcome is unknown, and why" "$(cat "$T/selfrep.out")" "more than 2000 response files"
run_capture selfshow sh -c "ulimit -v $vmem; exec timeout 60 \"\$0\" show --json --full \"\$1\"" "$LINKSCOPE" "$r"
check_eq "... so does show --json --full" 0 "$(cat "$T/selfshow.rc")"

# A driver that hangs on -### after a failed link: the shim's extra run is cut.
cat >hang-driver <<'SH'
#!/bin/sh
for a in "$@"; do [ "$a" = "-###" ] && exec sleep 120; done
echo "link failed" >&2
exit 1
SH
chmod +x hang-driver
# The shim cuts it at 10 s (LK_EXPAND_TIMEOUT_MS); the driver would sleep 120 and the hang
# guard end the shim at 100 with 124: the link's own status says the shim gave up, no clock.
run_capture hang timeout 100 "$SHIM" -- ./hang-driver main.o -o z
check_eq "hung -###: the link's own status (the shim gave up, not the hang guard)" 1 "$(cat "$T/hang.rc")"
check_contains "and says so in the record" "$(rec "$(last_record)" 'r["warnings"]')" "the driver's -### expansion could not be run"

# A link ended by a signal: no -### run afterwards.
cat >term-driver <<SH
#!/bin/sh
for a in "\$@"; do [ "\$a" = "-###" ] && touch "$T/expanded"; done
kill -TERM \$\$
SH
chmod +x term-driver
"$SHIM" -- ./term-driver main.o -o z 2>/dev/null
check "ended by a signal: no -### run" test ! -e expanded
finish
