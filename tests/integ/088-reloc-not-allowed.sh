# Relocations the output cannot take (issue #17, point 1), the real GNU ld
# the oracle: position-dependent code in a PIE (R_X86_64_32 against
# .rodata, from an archive member), in a shared object (R_X86_64_PC32
# against a preemptible symbol), a text relocation (allowed by GNU ld's
# default -z notext, an error under -z text), and the links that must stay
# successes (hidden visibility, PIC code, TLS through the GOT).
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always

# report: the JSON report of the last record into $T/r.json; q EXPR: a Python expression over it (d).
report() { "$LINKSCOPE" report --format json last >"$T/r.json"; }
q() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$T/r.json" "$1"; }
diag() { q "[x for x in d['diagnostics'] if x['kind'] == 'relocation-not-allowed'][0]$1"; }
# link WHAT ARGS...: through the shim; $rc the real link's status.
link() { "$SHIM" -- gcc "$@" >"$T/link.out" 2>&1; rc=$?; report; }

cat >np.c <<'C'
const char *greeting(void) { return "hello"; }
C
cat >main.c <<'C'
const char *greeting(void);
int main(void) { return greeting()[0] == 'h' ? 0 : 1; }
C
gcc -c -fPIE main.c -o main.o
gcc -c -g -grecord-gcc-switches -fno-pic np.c -o np.o
ar rcs libnp.a np.o

# 1. a PIE (Debian's default) with a -fno-pic member
link main.o -L. -lnp -o app
check_eq "PIE: the real ld fails" 1 "$rc"
check_eq "PIE: the replay predicts the failure" failure "$(q "d['predicted']['outcome']")"
check_eq "PIE: kind relocation-not-allowed" relocation-not-allowed "$(q "d['diagnostics'][0]['kind']")"
check_eq "PIE: the relocation" R_X86_64_32 "$(diag "['relocation']['type']")"
check_eq "PIE: against the section .rodata" ".rodata section" "$(diag "['symbol'] + ' ' + d['diagnostics'][0]['relocation']['target_kind']")"
check_eq "PIE: in the member's .text" .text "$(diag "['relocation']['section']")"
check_eq "PIE: the member named" np.o "$(diag "['referenced_by']['member']")"
check_eq "PIE: its archive named" "$T/libnp.a" "$(diag "['referenced_by']['path']")"
check_eq "PIE: its position on the line" 3 "$(diag "['referenced_by']['position']")"
check_contains "PIE: how it was compiled (DW_AT_producer)" "$(diag "['relocation']['producer']")" "-fno-pic"
check_contains "PIE: ld's words" "$(diag "['explanation']")" "can not be used when making a PIE object; recompile with -fPIE"
check_eq "PIE: -no-pie, verified by replay, a workaround after the rebuild" "(True, True)" "$(diag "['fixes'][1]['verified'] and d['diagnostics'][0]['fixes'][1]['args'] == ['-no-pie'], d['diagnostics'][0]['fixes'][1]['workaround']")"
check_contains "PIE: rebuilding the member with -fPIE, stated" "$(q "[f['description'] for f in d['diagnostics'][0]['fixes'] if f.get('stated')]")" "rebuild $T/libnp.a(np.o) with -fPIE"
gcc main.o -L. -lnp -o app -no-pie
check_eq "PIE: the real ld with the fix links" 0 "$?"
"$SHIM" -- gcc main.o -L. -lnp -o app -no-pie >/dev/null 2>&1
report
check_eq "-no-pie: the replay predicts the success" success "$(q "d['predicted']['outcome']")"

# 2. a shared object: PC32 against a preemptible symbol; hidden is fine
cat >pc.c <<'C'
extern int counter;
int bump(void) { return ++counter; }
C
cat >hid.c <<'C'
__attribute__((visibility("hidden"))) int hidden_counter;
int counter;
int bump_hidden(void) { return ++hidden_counter; }
C
gcc -c -fno-pic pc.c -o pc.o
gcc -c -fno-pic hid.c -o hid.o
link -shared pc.o hid.o -o libpc.so
check_eq "shared: the real ld fails" 1 "$rc"
check_eq "shared: the replay predicts the failure" failure "$(q "d['predicted']['outcome']")"
check_eq "shared: R_X86_64_PC32 against symbol counter" "R_X86_64_PC32 counter symbol" \
	"$(diag "['relocation']['type'] + ' ' + d['diagnostics'][0]['symbol'] + ' ' + d['diagnostics'][0]['relocation']['target_kind']")"
check_eq "shared: only that one (the hidden one binds locally)" 1 "$(q "len(d['diagnostics'])")"
check_contains "shared: recompile with -fPIC" "$(diag "['explanation']")" "can not be used when making a shared object; recompile with -fPIC"
check_contains "shared: the rebuild stated with the object's name" "$(diag "['fixes']")" "rebuild $T/pc.o with -fPIC"
check_eq "shared: no -no-pie for a shared object" "[]" "$(q "[f for f in d['diagnostics'][0]['fixes'] if f['args']]")"
link -shared hid.o -o libhid.so
check_eq "hidden: the real ld links" 0 "$rc"
check_eq "hidden: the replay predicts the success" success "$(q "d['predicted']['outcome']")"

# 3. a text relocation: R_X86_64_64 in .text of a shared object
cat >tr.s <<'S'
	.text
	.globl addr_of_g
addr_of_g:
	movabs $g, %rax
	ret
	.data
	.globl g
g:	.long 1
	.section .note.GNU-stack,"",@progbits
S
gcc -c tr.s -o tr.o
link -shared tr.o -o libtr.so
check_eq "textrel, -z notext (GNU ld's default): the real ld links (with a warning)" 0 "$rc"
check_eq "textrel, -z notext: the replay predicts the success" success "$(q "d['predicted']['outcome']")"
check_contains "textrel, -z notext: a note says so" "$(q "d['notes']")" "text relocations"
link -shared -Wl,-z,text tr.o -o libtr.so
check_eq "textrel, -z text: the real ld fails" 1 "$rc"
check_eq "textrel, -z text: the replay predicts the failure" failure "$(q "d['predicted']['outcome']")"
check_eq "textrel, -z text: R_X86_64_64 against g" "R_X86_64_64 g" "$(diag "['relocation']['type'] + ' ' + d['diagnostics'][0]['symbol']")"

# 4. ordinary PIC code links, and is predicted to (PLT32, GOTPCRELX, TLS GD/IE, 64 in .data)
cat >pic.c <<'C'
#include <stdio.h>
__thread int tls_here = 1;
extern __thread int tls_there;
static const char *tab[] = { "a", "b" };
int ext_data;
int pic_f(int i) { printf("%s\n", tab[i & 1]); return tls_here + tls_there + ext_data; }
C
cat >pic2.c <<'C'
__thread int tls_there = 2;
int pic_f(int);
int main(void) { return pic_f(0) == 3 ? 0 : 1; }
C
gcc -c -fPIC -O2 pic.c -o pic.o
gcc -c -fPIE -O2 pic2.c -o pic2.o
link -shared pic.o -o libpic.so
check_eq "PIC shared: the real ld links" 0 "$rc"
check_eq "PIC shared: the replay predicts the success" success "$(q "d['predicted']['outcome']")"
link pic2.o pic.o -o picapp
check_eq "PIE with PIC objects: the real ld links" 0 "$rc"
check_eq "PIE with PIC objects: the replay predicts the success" success "$(q "d['predicted']['outcome']")"

# Hand-written assembly with an absolute operand in a PIE (issue #34): no
# compiler option changes it, so the fix is the instruction, RIP-relative,
# never "rebuild with -fPIE"; told apart from compiled code by its
# producer ("GNU AS" with -g) or the absence of one. The fix applied to
# the source for real links.
cat >val.s <<'S'
	.text
	.globl	getval
getval:
	movl	counter, %eax
	ret
	.data
	.globl	counter
counter:
	.long	7
S
printf 'int getval(void);\nint main(void) { return getval() == 7 ? 0 : 1; }\n' >usev.c
gcc -c usev.c -o usev.o
for g in "" -g; do
	gcc $g -c val.s -o val.o
	link usev.o val.o -o valapp
	check_eq "assembly${g:+ with $g}: the real ld fails, and the replay says so" "1 R_X86_64_32S" "$rc $(diag "['relocation']['type']")"
	check_eq "... its first fix: the instruction, RIP-relative, stated" "True True" \
		"$(diag "['fixes'][0]['stated']") $(diag "['fixes'][0]['description'].startswith('change the instruction at .text+0x3 of ')")"
	check_contains "... counter(%rip)" "$(diag "['fixes'][0]['description']")" "counter(%rip)"
	check_eq "... and no fix says -fPIE" "0" "$(diag "['fixes']" | grep -c "with -fPIE")"
done
check_contains "with -g: the assembler named" "$("$LINKSCOPE" explain last)" 'assembled by "GNU AS'
sed -i 's/movl	counter, %eax/movl	counter(%rip), %eax/' val.s
gcc -c val.s -o val.o
check "the fix applied to the assembly: ld links" gcc usev.o val.o -o valapp
finish
