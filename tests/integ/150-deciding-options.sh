# The options that decide a link beyond its symbols, each linked with the
# real GNU ld 2.40, lld 14 and mold 1.10 (issue #33 point 3a; the model is
# analyzer/replay/decide.c): the replay's verdict for every linker must be
# what each real linker did, on each linker's own line.
# - --noinhibit-exec: GNU ld writes the output and exits 0 after an
#   undefined reference or a multiple definition, not after a relocation
#   a PIE cannot take; lld spares undefined symbols and relocations, not a
#   duplicate symbol; mold spares every error, not a missing library.
# - --fatal-warnings with the warnings each linker gives: --warn-common's
#   "multiple common" (all three), a .gnu.warning section (an object's, or
#   glibc's for gets) and an x86 object without .note.GNU-stack (GNU ld
#   only; none on aarch64).
#   --warn-unresolved-symbols: each linker's warning of an undefined
#   symbol (none without one, none under --unresolved-symbols=ignore-all).
# - -z cet-report=error (=warning under --fatal-warnings): crt1.o has no
#   IBT and SHSTK properties, so all three fail.
# - a non-PIE executable's copy relocation: refused by all three under
#   -z nocopyreloc and against a shared object's protected data; code
#   compiled -fPIC reads both through the GOT and links.
# - -N (--omagic) turns shared objects off for what follows, in all three
#   (-lgcc_s is then not found); GNU ld defines no __ehdr_start under -N,
#   which static glibc needs.
# passes: plain (a table of linker rules, each case linked by the real linkers:
# its verdicts depend on the record only; make check-full runs every pass)
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
. "$ROOT/tests/integ/linkers.sh"

cat >main.c <<'C'
int main(void) { return 0; }
C
cat >undef.c <<'C'
extern void nope(void);
int main(void) { nope(); return 0; }
C
cat >dup.c <<'C'
int x = 1;
int main(void) { return 0; }
C
echo 'int x = 2;' >dup2.c
cat >abs.c <<'C'
int g;
int main(void) { return (int)(long)&g; }
C
cat >com1.c <<'C'
int c;
int main(void) { return c; }
C
echo 'int c;' >com2.c
cat >warn.c <<'C'
void old(void) {}
static const char w[] __attribute__((used, section(".gnu.warning.old"))) = "old is old";
C
cat >usew.c <<'C'
void old(void);
int main(void) { old(); return 0; }
C
cat >data.c <<'C'
int shared_data = 3;
__attribute__((visibility("protected"))) int prot = 4;
C
cat >usedata.c <<'C'
extern int shared_data;
int main(void) { return shared_data; }
C
cat >useprot.c <<'C'
extern int prot;
int main(void) { return prot; }
C
printf '.text\n.globl main\nmain: xor %%eax, %%eax\nret\n' >nostack.s
cat >gets.c <<'C'
char *gets(char *);
int main(void) { char b[8]; gets(b); return 0; }
C
cc -c main.c undef.c dup.c dup2.c warn.c usew.c
cc -c -w gets.c
cc -fno-pic -c abs.c
cc -fcommon -c com1.c com2.c
as nostack.s -o nostack.o
printf '.text\n.globl f\nf: movabs $g, %%rax\nret\n.data\n.globl g\ng: .quad 0\n.section .note.GNU-stack,"",@progbits\n' >textrel.s
as textrel.s -o textrel.o
cc -fPIC -shared data.c -o libdata.so
cc -fno-pic -c usedata.c useprot.c
cc -fPIC -c usedata.c -o usedata-pic.o
cc -fPIC -c useprot.c -o useprot-pic.o

case_of "success success success" ni-undef undef.o -Wl,--noinhibit-exec
case_of "success failure success" ni-dup dup.o dup2.o -Wl,--noinhibit-exec
case_of "failure success success" ni-abs abs.o -pie -Wl,--noinhibit-exec
case_of "failure failure failure" nf -lnosuch main.o -Wl,--noinhibit-exec
case_of "failure failure failure" fw-common com1.o com2.o -Wl,--warn-common,--fatal-warnings
case_of "success success success" common com1.o com2.o -Wl,--warn-common
case_of "failure success success" fw-gnu-warning usew.o warn.o -Wl,--fatal-warnings
case_of "success success success" gnu-warning usew.o warn.o
case_of "failure success success" fw-gets gets.o -Wl,--fatal-warnings
case_of "failure success success" fw-stack nostack.o -Wl,--fatal-warnings
case_of "success success success" fw-stack-said nostack.o -Wl,-z,noexecstack,--fatal-warnings
case_of "success success success" fw-stack-undone nostack.o -Wl,--fatal-warnings,--no-fatal-warnings
case_of "success success success" fw main.o -Wl,--fatal-warnings
case_of "failure failure success" fw-textrel textrel.o -shared -Wl,--fatal-warnings
case_of "success success success" fw-textrel-said textrel.o -shared -Wl,-z,notext,--fatal-warnings
case_of "failure failure failure" fw-unresolved undef.o -Wl,--warn-unresolved-symbols,--fatal-warnings
case_of "success success success" wunresolved undef.o -Wl,--warn-unresolved-symbols
case_of "success success success" fw-unresolved-none main.o -Wl,--warn-unresolved-symbols,--fatal-warnings
case_of "success success success" fw-unresolved-ignored undef.o -Wl,--unresolved-symbols=ignore-all,--fatal-warnings
case_of "failure failure failure" cet main.o -Wl,-z,cet-report=error
case_of "failure failure failure" cet-warning main.o -Wl,-z,cet-report=warning,--fatal-warnings
case_of "success success success" cet-warned main.o -Wl,-z,cet-report=warning
case_of "failure failure failure" nocopyreloc usedata.o -no-pie -L. -ldata -Wl,-z,nocopyreloc
case_of "success success success" copyreloc usedata.o -no-pie -L. -ldata
case_of "success success success" nocopyreloc-pic usedata-pic.o -no-pie -L. -ldata -Wl,-z,nocopyreloc
case_of "failure failure failure" copy-protected useprot.o -no-pie -L. -ldata
case_of "success success success" protected-pic useprot-pic.o -no-pie -L. -ldata
case_of "failure failure failure" omagic main.o -Wl,--omagic
case_of "success success success" omagic-dynamic-after main.o -Wl,-N,-Bdynamic -no-pie -nostartfiles -e main -nostdlib
case_of "failure success success" omagic-static main.o -static -Wl,-N

out=$("$LINKSCOPE" explain "$T/fw-stack-lld.json")
check_contains "GNU ld's warning made an error, said" "$out" "GNU ld fails: --fatal-warnings makes its warning an error: 'nostack.o' has no .note.GNU-stack section"
out=$("$LINKSCOPE" explain "$T/cet-bfd.json")
check_contains "cet-report names the input without the properties" "$out" "GNU ld fails: -z cet-report=error, and 'Scrt1.o' has no IBT and SHSTK properties"

# aarch64 (the cross toolchain; lld and mold found by -B, as the driver finds them): GNU ld gives no
# executable-stack warning there; --noinhibit-exec spares an undefined symbol as on x86-64.
mkdir xb && ln -s "$(command -v ld.lld)" xb/ld.lld && ln -s "$(command -v mold)" xb/ld.mold
printf '.text\n.globl main\nmain: mov x0, 0\nret\n' >a64.s
aarch64-linux-gnu-as a64.s -o a64.o
LK_CC=aarch64-linux-gnu-gcc case_of "success success success" a64-fw-stack -B"$T/xb" a64.o -Wl,--fatal-warnings
aarch64-linux-gnu-gcc -c undef.c -o undef-a64.o
LK_CC=aarch64-linux-gnu-gcc case_of "success success success" a64-ni-undef -B"$T/xb" undef-a64.o -Wl,--noinhibit-exec
mkdir a64 && aarch64-linux-gnu-gcc -fPIC -shared data.c -o a64/libdata.so
aarch64-linux-gnu-gcc -fno-pic -c useprot.c -o useprot-a64.o
aarch64-linux-gnu-gcc -fno-pic -c usedata.c -o usedata-a64.o
LK_CC=aarch64-linux-gnu-gcc case_of "failure failure failure" a64-copy-protected -B"$T/xb" useprot-a64.o -no-pie -La64 -ldata
LK_CC=aarch64-linux-gnu-gcc case_of "failure failure failure" a64-nocopyreloc -B"$T/xb" usedata-a64.o -no-pie -La64 -ldata -Wl,-z,nocopyreloc
LK_CC=aarch64-linux-gnu-gcc case_of "success success success" a64-copyreloc -B"$T/xb" usedata-a64.o -no-pie -La64 -ldata
finish
