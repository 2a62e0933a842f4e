# Issue #15, points 2 and 5: a record dir unpacked from a CI artifact keeps
# FIFOs, a cache dir may hold one or a link to /dev/zero, a library may be
# a sparse file whose .dynsym claims 2 GiB. Nothing the analyzer opens for
# reading blocks it or reads without bound: a file that is not a regular
# one is skipped or refused with one line naming it. Every command runs
# under a timeout, so a hang is a failed check, not a hung suite.
. "$(dirname "$0")/lib.sh"

write_main
run_capture good "$SHIM" main.o -o prog
check_eq "the link" 0 "$(cat "$T/good.rc")"
r=$(last_record)

# A FIFO named like a record, beside a real one.
mkfifo "$LINKSCOPE_DIR/20990101T000000.000000Z-1-fifo.json"
fifo=$LINKSCOPE_DIR/20990101T000000.000000Z-1-fifo.json

run_capture list timeout 20 "$LINKSCOPE" list
check_eq "list: does not block on a FIFO, and lists the records" 0 "$(cat "$T/list.rc")"
check_contains "list: names the FIFO it skipped" "$(cat "$T/list.err")" "skipped '$fifo': not a regular file (a FIFO)"
check_contains "list: still lists the real record" "$(cat "$T/list.out")" "$(basename "$r")"

run_capture failed timeout 20 "$LINKSCOPE" report --failed
check_eq "report --failed: does not block on a FIFO" 0 "$(cat "$T/failed.rc")"
check_contains "report --failed: names the FIFO it skipped" "$(cat "$T/failed.err")" "skipped '$fifo'"

run_capture expl timeout 20 "$LINKSCOPE" explain "$fifo"
check_eq "explain FIFO: refused (an input it cannot read)" 1 "$(cat "$T/expl.rc")"
check_contains "explain FIFO: one line naming the file and why" "$(cat "$T/expl.err")" "cannot read '$fifo': not a regular file (a FIFO)"

run_capture base timeout 20 "$LINKSCOPE" check --baseline "$fifo" "$r"
check_eq "check --baseline FIFO: refused, not blocked" 1 "$(cat "$T/base.rc")"
check_contains "check --baseline FIFO: says why" "$(cat "$T/base.err")" "not a regular file"

mkfifo accept.fifo
run_capture acc timeout 20 "$LINKSCOPE" check --accept-file accept.fifo "$r"
check "check --accept-file FIFO: refused, not blocked" test "$(cat "$T/acc.rc")" != 124
check_contains "check --accept-file FIFO: says why" "$(cat "$T/acc.err")" "accept.fifo': not a regular file"
rm -f "$fifo"

# The provider index cache: a FIFO, then a link to /dev/zero, in the place of
# a dir's cache file. The index is rebuilt, the bad file neither read nor waited on.
printf 'int zap(void) { return 0; }\n' >zap.c
mkdir lib
cc -shared -fPIC zap.c -o lib/libzap.so
run_capture idx timeout 20 "$LINKSCOPE" index --cache-dir "$T/idx" lib
check_eq "index: a fresh cache" 0 "$(cat "$T/idx.rc")"
cache=$(ls "$T"/idx/dir-*.idx)
rm -f "$cache" && mkfifo "$cache"
run_capture idxfifo timeout 20 "$LINKSCOPE" index --cache-dir "$T/idx" lib
check_eq "index: a FIFO as the cache file does not block" 0 "$(cat "$T/idxfifo.rc")"
check_contains "index: the library is read again" "$(cat "$T/idxfifo.out")" "1 libraries (1 read now"
rm -f "$cache" && ln -s /dev/zero "$cache"
run_capture idxzero /usr/bin/time -f '%M' timeout 20 "$LINKSCOPE" index --cache-dir "$T/idx" lib
check_eq "index: a link to /dev/zero as the cache file" 0 "$(cat "$T/idxzero.rc")"
check "index: /dev/zero is not read (peak RSS under 100 MB)" test "$(tail -n 1 "$T/idxzero.err")" -lt 100000

# A failed link whose analysis meets a FIFO cache: explain does not hang.
printf 'int zap(void);\nint main(void) { return zap(); }\n' >usezap.c
cc -c usezap.c -o usezap.o
run_capture bad "$SHIM" usezap.o -Llib -o usezap
check "the failed link fails" test "$(cat "$T/bad.rc")" -ne 0
export XDG_CACHE_HOME=$T/cache2
run_capture ex1 timeout 60 "$LINKSCOPE" explain "$(last_record)"
# Every dir's cache file, now there, replaced by a FIFO.
for c in "$T"/cache2/linkscope/dir-*.idx; do rm -f "$c" && mkfifo "$c"; done
run_capture ex2 timeout 60 "$LINKSCOPE" explain "$(last_record)"
check_eq "explain with every cache file a FIFO: does not block" 0 "$(cat "$T/ex2.rc")"
check_contains "explain with FIFO caches: says each is no regular file, and rebuilds it" "$(cat "$T/ex2.out")" "is not a regular file (a FIFO): rebuilt"
grep -v -e '^note: the index cache' -e '^$' "$T/ex2.out" >"$T/ex2.cut"
grep -v -e '^note: the index cache' -e '^$' "$T/ex1.out" >"$T/ex1.cut"
check "explain with FIFO caches: the same explanation otherwise" cmp -s "$T/ex1.cut" "$T/ex2.cut"
export XDG_CACHE_HOME=$T/cache

# A sparse library whose .dynsym claims 2 GiB (within the file's size, so
# no size bound catches it): indexing it is bounded in time (2 s), and it
# is no provider. On a cold file this took 7.4 s and 2 GiB before.
mkdir sparse
cp lib/libzap.so sparse/libhuge.so
"$PY" - sparse/libhuge.so <<'PY'
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28)
shentsize, shnum = struct.unpack_from('<HH', b, 0x3a)
for i in range(shnum):
    off = shoff + i * shentsize
    if struct.unpack_from('<I', b, off + 4)[0] == 11:	# SHT_DYNSYM
        struct.pack_into('<Q', b, off + 0x18, 1 << 20)
        struct.pack_into('<Q', b, off + 0x20, 24 * 89478485)
with open(p, 'wb') as f:
    f.write(b)
    f.truncate((2 << 30) + (2 << 20))
PY
# The indexer cuts a file at 2 s of its own (docs/security.md); the hang guard, 30 s, is 15 times
# that, and its 124 a failed check (issue #47: no wall time against a bound here). NEEDSWORK(#47):
# that cut is a time, so the pages read before it depend on the machine (326 MB here), not a count.
run_capture sp timeout 30 "$LINKSCOPE" index --cache-dir "$T/idx2" sparse
check_eq "index of a sparse 2 GiB .so: completes, cut by the indexer, not the hang guard" 0 "$(cat "$T/sp.rc")"
check_contains "index of a sparse 2 GiB .so: no names taken from it" "$(cat "$T/sp.out")" "0 exported names"
rm -f sparse/libhuge.so

finish
