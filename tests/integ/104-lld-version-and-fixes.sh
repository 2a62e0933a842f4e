# lld's rules that depend on its version, and lld's fixes tried on its
# model (issue #19): lld 14 takes a common's archive member only for an
# STB_GLOBAL definition (a weak one is left; mold takes it); lld 14 writes
# an R_X86_64_32 against a typed symbol of the executable into a PIE
# (GNU ld and mold refuse it, and so does rustc's rust-lld, LLD 22: the
# record's rust-lld line is judged by the newer lld); a shared object's
# sym@V2 reference that a library of V1 only leaves undefined; a fix of
# lld's verdict (-Wl,--allow-shlib-undefined) verified by lld's replay and
# applied with the real lld; `diff --json` says each linker's outcome of
# both lines; LLVM bitcode: lld's verdict is unknown (its symbols are not
# read). Each line linked by the real linkers.
# passes: plain (a table of linker rules, each case linked by the real linkers:
# its verdicts depend on the record only; make check-full runs every pass)
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
. "$ROOT/tests/integ/linkers.sh"
lldv() { "$LINKSCOPE" report --format json --replay-only "$1" | "$PY" -c "import json,sys; v=json.load(sys.stdin)['predicted']['linker_verdicts']['lld']; print($2)"; }

# a common and an archive member defining it weakly (and needing miss)
echo 'int counter; int get(void); int main(void) { return counter + get(); }' >cm.c
echo 'int get(void) { return 1; }' >get.c
printf '__attribute__((weak)) int counter = 5;\nint miss(void);\nint helper(void) { return miss(); }\n' >def.c
cc -c -fcommon cm.c && cc -c get.c def.c && ar rcs libget.a get.o && ar rcs libdef.a def.o
case_of "success success failure" weak-common -L. cm.o -lget -ldef
check_eq "weak-common: the lld modelled is 14" "14" "$(lldv "$T/weak-common-lld.json" "v['version']")"

# R_X86_64_32 against a typed global in a PIE
echo 'int g = 1; int *p(void) { return &g; }' >a.c
echo 'int *p(void); int main(void) { return *p() - 1; }' >pm.c
cc -c -fno-pic a.c && cc -c -fPIE pm.c
case_of "failure success failure" abs32-pie -pie pm.o a.o
case_of "failure success failure" abs32-static-pie -static-pie pm.o a.o
echo 'static int h = 1; int *p(void) { return &h; }' >la.c
cc -c -fno-pic la.c
case_of "failure failure failure" abs32-local -pie pm.o la.o
RL=$(rustc --print sysroot 2>/dev/null)/lib/rustlib/$HOST_ARCH-unknown-linux-gnu/bin/gcc-ld
if [ -x "$RL/ld.lld" ]; then
	"$SHIM" -- cc -B"$RL" -fuse-ld=lld -pie pm.o a.o -o out-rust 2>/dev/null
	check_eq "abs32-pie with rust-lld: the real rust-lld fails" 1 $?
	r=$(last_record)
	check_eq "abs32-pie with rust-lld: its replay (the newer lld) fails too" "failure" \
		"$("$LINKSCOPE" report --format json --replay-only "$r" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["linkers"]["lld"])')"
	check_eq "abs32-pie with rust-lld: the version modelled" "rust-lld (LLVM 22)" "$(lldv "$r" "v['version']")"
else
	ok "skip: no rust-lld ($RL)"
fi

# lld takes a TLS symbol's value as absolute: a PC32 (a -fno-pic C
# reference without __thread) cannot refer to it in a PIE; -no-pie links
echo '__thread int tv = 3;' >tdef.c
echo 'extern int tv; int f(void) { return tv; }' >nref.c
echo 'int f(void); int main(void) { return f() - 3; }' >tm.c
cc -c -fPIC tdef.c tm.c && cc -c -fno-pic nref.c
case_of "failure failure success" tls-pc32 tm.o nref.o tdef.o
case_of "failure success success" tls-pc32-no-pie -no-pie tm.o nref.o tdef.o

# libuse.so was built against libver.so with V2; the one on the line has V1 only
mkdir new
printf 'V1 { global: *; };\nV2 { global: *; } V1;\n' >new.map
printf 'int ver_impl(void) { return 5; }\n__asm__(".symver ver_impl,ver@@V2");\n' >newlib.c
cc -shared -fPIC -Wl,--version-script=new.map -Wl,-soname,libver.so newlib.c -o new/libver.so
echo 'int ver(void); int use(void) { return ver(); }' >use.c
cc -shared -fPIC -Wl,-soname,libuse.so use.c -Lnew -lver -o libuse.so
printf 'V1 { global: *; };\n' >old.map
printf 'int ver_impl(void) { return 5; }\n__asm__(".symver ver_impl,ver@@V1");\n' >oldlib.c
cc -shared -fPIC -Wl,--version-script=old.map -Wl,-soname,libver.so oldlib.c -o libver.so
echo 'int use(void); int main(void) { return use() == 0; }' >um.c
cc -c um.c
case_of "failure failure success" ver2 um.o -L. -luse -lver -Wl,-rpath-link,.
check_contains "ver2: why lld fails names ver@V2" "$(lldv "$T/ver2-bfd.json" "v['why']")" "libuse.so references ver@V2"

# lld checks libz.so's undefined zap (its DT_NEEDED are all on the line); the fix is tried
echo 'int zap(void); int z(void) { return zap(); }' >z.c
echo 'int z(void); int main(void) { return z(); }' >zm.c
cc -shared -fPIC -Wl,-soname,libz1.so z.c -o libz1.so && cc -c zm.c
case_of "failure failure success" shlib-undef zm.o -L. -lz1 -Wl,-rpath-link,.
check_eq "shlib-undef: lld's fix is verified by lld's replay" "[True]" "$(lldv "$T/shlib-undef-mold.json" "v['fixes_verified']")"
check_contains "shlib-undef: the fix, said" "$(lldv "$T/shlib-undef-mold.json" "v['fixes']")" "add -Wl,--allow-shlib-undefined"
check_contains "shlib-undef: the text says it is verified" "$("$LINKSCOPE" explain --replay-only "$T/shlib-undef-mold.json")" \
	"fix (verified by lld's replay) for lld: link the library that defines zap, or add -Wl,--allow-shlib-undefined"
"$SHIM" -- cc -fuse-ld=lld zm.o -L. -lz1 -Wl,-rpath-link,. -Wl,--allow-shlib-undefined -o out-fixed 2>/dev/null
check_eq "shlib-undef: the real lld links with the fix" 0 $?
cp "$(last_record)" "$T/fixed.json"
j=$("$LINKSCOPE" diff --json "$T/shlib-undef-lld.json" "$T/fixed.json")
check_eq "diff --json: each linker's outcome of both lines and which differ" \
	"failure success ['bfd', 'lld'] lld=14" \
	"$(echo "$j" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(d["a"]["linkers"]["lld"], d["b"]["linkers"]["lld"], d["linkers_differing"], "lld=" + d["a"]["versions"]["lld"])')"
check_contains "diff: the text says each linker's outcome" "$("$LINKSCOPE" diff "$T/shlib-undef-lld.json" "$T/fixed.json")" \
	"per linker (A, B): GNU ld fails, links; lld fails, links; mold links, links"

# LLVM bitcode on the line: GNU ld (no LLVM plugin) fails; lld links it
# itself, and the replay does not read bitcode: lld's verdict is unknown
echo 'int bc(void) { return 0; }' >bc.c
echo 'int bc(void); int main(void) { return bc(); }' >bm.c
clang -flto -c bc.c -o bc.o && cc -c bm.c
"$SHIM" -- cc bm.o bc.o -o out-bc 2>/dev/null
check_eq "bitcode: the real GNU ld fails" 1 $?
r=$(last_record)
check_eq "bitcode: GNU ld's verdict failure, lld's unknown, with the reason" "failure unknown True" \
	"$("$LINKSCOPE" report --format json --replay-only "$r" | "$PY" -c 'import json,sys; p=json.load(sys.stdin)["predicted"]; print(p["linkers"]["bfd"], p["linkers"]["lld"], "bitcode" in p["linker_verdicts"]["lld"]["unknown_because"])')"
"$SHIM" -- cc -fuse-ld=lld bm.o bc.o -o out-bc-lld 2>/dev/null
check_eq "bitcode: the real lld links it" 0 $?
# A text relocation in hand-written assembly in a shared object (issue #34:
# lld's refusal, no fix): GNU ld and mold make a DT_TEXTREL, lld refuses
# it under its -z text default; the fix -Wl,-z,notext, verified by lld's
# model, links with the real lld.
printf '\t.text\n\t.globl getval\ngetval:\n\tmovabsq $counter, %%rax\n\tmovl (%%rax), %%eax\n\tret\n\t.data\n\t.globl counter\ncounter:\n\t.long 7\n' >tr.s
cc -c tr.s -o tr.o
case_of "success failure success" textrel -shared tr.o
check_eq "textrel: lld's fix, -z notext, verified by lld's model" "True True" \
	"$(lldv "$T/textrel-lld.json" "'-z,notext' in v['fixes'][0], v['fixes_verified'][0]")"
check "textrel: applied, the real lld links" cc -fuse-ld=lld -shared tr.o -Wl,-z,notext -o libtr.so
finish
