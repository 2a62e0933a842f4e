#!/usr/bin/env bash
# The shim spawns the driver first and records while it runs (issue #20):
# what that must not change, and what the self check now catches.
#  - an input that is the link's output (-l finding the library the link
#    rewrites, by its own name or through a symlink) is fingerprinted after
#    the link, as the file the link left, never half-written;
#  - a hard link of the shim installed as cc ahead of the real one is the
#    shim too (by device and inode): skipped, where realpath's check ran it
#    again and again.
. "$(dirname "$0")/lib.sh"

write_main
printf 'int foo(void) { return 1; }\n' >foo.c
printf 'int foo(void) { return 1; }\nstatic char big[8192] = { 1 };\nchar *bar(void) { return big; }\n' >foo2.c
cc -fPIC -c foo.c -o foo.o && cc -fPIC -c foo2.c -o foo2.o || exit 1

# The records now, by name; new_record: the one written since `records_now >"$T/before"`.
# Not the last by name: names start with the wall clock, which this VM has seen step back.
records_now() { find "$LINKSCOPE_DIR" -maxdepth 1 -name '*.json' ! -name '*.report.json' 2>/dev/null | sort; }
new_record() { records_now | comm -13 "$T/before" - | tail -n 1; }

# candidate SIZE-OF: the size the newest record gives the -l's candidate named $1.
candidate_size() {
	rec "$(new_record)" "[c['size'] for i in r['inputs'] if i['kind'] == 'library' for c in i['candidates'] if c['path'].endswith('/$1')]"
}

cc -shared -o libfoo.so foo.o || exit 1
before=$(stat -c %s libfoo.so)
records_now >"$T/before"
run_capture own "$SHIM" -shared -o libfoo.so foo2.o -L. -lfoo
after=$(stat -c %s libfoo.so)
check_eq "a link whose -lfoo is its own output: links" 0 "$(cat "$T/own.rc")"
check "and rewrites it (the test means something)" test "$before" != "$after"
check_eq "the candidate's fingerprint is the file the link left" "[$after]" "$(candidate_size libfoo.so)"

cc -shared -o libfoo.so foo.o && ln -sf libfoo.so libalias.so || exit 1
before=$(stat -c %s libfoo.so)
records_now >"$T/before"
run_capture alias "$SHIM" -shared -o libfoo.so foo2.o -L. -lalias
after=$(stat -L -c %s libalias.so)
check_eq "through a symlink of another name (-lalias -> libfoo.so): links" 0 "$(cat "$T/alias.rc")"
check "and rewrites it" test "$before" != "$after"
check_eq "the symlink's fingerprint is the file the link left" "[$after]" "$(candidate_size libalias.so)"
validate "$(new_record)" >"$T/validate.out" 2>&1
check_eq "the records are valid" 0 $?

# A copy of the shim, so that its hard link is on the same file system.
mkdir -p selfbin hardbin && cp "$SHIM" selfbin/linkscope-cc && ln selfbin/linkscope-cc hardbin/cc || exit 1
before=$(record_count)
records_now >"$T/before"
PATH=$T/hardbin:$PATH run_capture hard timeout 20 selfbin/linkscope-cc main.o -o viahard
check_eq "a hard link of the shim first on PATH as cc, real cc after: links" 0 "$(cat "$T/hard.rc")"
check_eq "and records once" $((before + 1)) "$(record_count)"
check_eq "with the real cc" "/usr/bin/cc" "$(rec "$(new_record)" 'r["driver"]["resolved"]')"
PATH=$T/hardbin run_capture hardonly timeout 20 selfbin/linkscope-cc main.o -o x
check_eq "only the hard link on PATH: refused with 127" 127 "$(cat "$T/hardonly.rc")"
finish
