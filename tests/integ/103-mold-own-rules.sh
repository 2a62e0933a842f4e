# mold's own rules where they are not lld's (issue #19, the difftest's
# disagreements): mold loads an --as-needed shared object only when a
# regular reference binds it, so its undefined symbols take no archive
# member before (libso.so's cb under --gc-sections, and without it);
# mold reads every member of an archive and stops at one of another
# machine; lld and mold read fewer linker-script commands than GNU ld
# (FORCE_COMMON_ALLOCATION: both refuse; SEARCH_DIR: mold refuses);
# lld takes an STT_NOTYPE reference to a TLS symbol, mold checks no TLS
# type. Each line linked by the real three linkers, each replay judged
# against all three.
# passes: plain (a table of linker rules, each case linked by the real linkers:
# its verdicts depend on the record only; make check-full runs every pass)
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
. "$ROOT/tests/integ/linkers.sh"

# --as-needed (gcc's default here, and said on the line): libso.so needs cb,
# which the member of libgc.a defines, which needs miss (nowhere).
cat >u.c <<'C'
int miss(void);
int cb(void) { return miss(); }
int live(void) { return 1; }
C
echo 'int cb(void); int so_entry(void) { return cb(); }' >so.c
echo 'int live(void); int main(void) { return live() - 1; }' >m.c
cc -c -fPIC -ffunction-sections u.c && ar rcs libgc.a u.o
cc -shared -fPIC -Wl,-soname,libso.so so.c -o libso.so
cc -c m.c
case_of "success failure success" asleep-gc -L. m.o -lgc -Wl,--as-needed -lso -Wl,--gc-sections
echo 'int main(void) { return 0; }' >plain.c
cc -c plain.c
case_of "success failure success" asleep -L. plain.o -lgc -Wl,--as-needed -lso
# a reference to so_entry wakes libso.so: now mold takes the member too
echo 'int so_entry(void); int main(void) { return so_entry(); }' >w.c
cc -c w.c
case_of "failure failure failure" awake -L. w.o -lgc -Wl,--as-needed -lso

# an archive of another machine that no one needs
echo 'int arm_only(void) { return 0; }' >arm.c
aarch64-linux-gnu-gcc -c arm.c -o arm.o && ar rcs libarm.a arm.o
case_of "success success failure" foreign plain.o libarm.a
check_contains "foreign: why mold fails names the archive and its machine" \
	"$("$LINKSCOPE" report --format json "$T/foreign-bfd.json" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["linker_verdicts"]["mold"]["why"])')" \
	"mold fails: libarm.a (at 3) holds objects for AArch64"

# linker-script commands
echo 'int in_script(void) { return 0; }' >s.c
echo 'int in_script(void); int main(void) { return in_script(); }' >sm.c
cc -c s.c sm.c
printf 'FORCE_COMMON_ALLOCATION\nINPUT(s.o)\n' >force.ld
printf 'INPUT(s.o) SEARCH_DIR(.)\n' >search.ld
printf 'OUTPUT_FORMAT(elf64-x86-64)\nGROUP ( s.o )\n' >group.ld
case_of "success failure failure" script-force sm.o force.ld
check_contains "script-force: why lld fails names the command" \
	"$("$LINKSCOPE" report --format json "$T/script-force-bfd.json" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["linker_verdicts"]["lld"]["why"])')" \
	"uses FORCE_COMMON_ALLOCATION, which lld does not know"
case_of "success success failure" script-search sm.o search.ld
case_of "success success success" script-group sm.o group.ld

# TLS: a C reference without __thread (STT_NOTYPE) to a TLS definition
echo '__thread int tv = 3;' >tdef.c
echo 'extern int tv; int f(void) { return tv; }' >nref.c
echo 'extern __thread int tv; int f(void) { return tv; }' >tref.c
echo 'int tv = 3;' >odef.c
echo 'int f(void); int main(void) { return f() - 3; }' >tm.c
for x in tdef nref tref odef tm; do cc -c -fPIC $x.c; done
case_of "failure success success" tls-notype tm.o nref.o tdef.o
case_of "failure failure success" tls-typed tm.o tref.o odef.o
finish
