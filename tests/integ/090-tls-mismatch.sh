# TLS mismatches (issue #17, point 3), the real GNU ld the oracle: a TLS
# definition against a non-TLS reference, the reverse, in both input
# orders and from an archive member; local-exec TLS in a shared object;
# and a consistent TLS link that must stay a success.
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always

report() { "$LINKSCOPE" report --format json last >"$T/r.json"; }
q() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$T/r.json" "$1"; }
link() { "$SHIM" -- gcc "$@" >"$T/link.out" 2>&1; rc=$?; report; }
tls() { q "d['diagnostics'][0]['relocation']['tls']$1"; }

cat >tdef.c <<'C'
__thread int counter = 1;
C
cat >plainref.c <<'C'
extern int counter;
int main(void) { return counter; }
C
cat >plaindef.c <<'C'
int counter = 1;
C
cat >tlsref.c <<'C'
extern __thread int counter;
int main(void) { return counter; }
C
for f in tdef plainref plaindef tlsref; do gcc -c $f.c -o $f.o; done
ar rcs libtdef.a tdef.o

link tdef.o plainref.o -o app
check_eq "TLS definition, non-TLS reference: the real ld fails" 1 "$rc"
check_eq "... the replay predicts it" failure "$(q "d['predicted']['outcome']")"
check_eq "... kind tls-mismatch" tls-mismatch "$(q "d['diagnostics'][0]['kind']")"
check_eq "... the symbol" counter "$(q "d['diagnostics'][0]['symbol']")"
check_eq "... the TLS side: tdef.o's definition in .tdata" "$T/tdef.o definition TLS .tdata" \
	"$(q "d['diagnostics'][0]['defined_in']['path']") $(tls "['first_is']") $(tls "['first_type']") $(tls "['first_section']")"
check_eq "... the other side: plainref.o's non-TLS reference" "$T/plainref.o reference non-TLS" \
	"$(q "d['diagnostics'][0]['referenced_by']['path']") $(tls "['second_is']") $(tls "['second_type']")"
check_contains "... in ld's words" "$(q "d['diagnostics'][0]['explanation']")" \
	"counter: TLS definition in tdef.o section .tdata mismatches non-TLS reference in plainref.o"
check_contains "... the fix names the object to rebuild" "$(q "d['diagnostics'][0]['fixes']")" "rebuild $T/plainref.o"

link plainref.o tdef.o -o app
check_eq "the reference first: the real ld fails" 1 "$rc"
check_contains "... named the same way" "$(q "d['diagnostics'][0]['explanation']")" \
	"counter: TLS definition in tdef.o section .tdata mismatches non-TLS reference in plainref.o"

link plainref.o -L. -ltdef -o app
check_eq "the definition in an archive member: the real ld fails" 1 "$rc"
check_eq "... its archive as the TLS side" "$T/libtdef.a" "$(q "d['diagnostics'][0]['defined_in']['path']")"
check_contains "... its archive and member in the explanation" "$(q "d['diagnostics'][0]['explanation']")" "member tdef.o of $T/libtdef.a"

link plaindef.o tlsref.o -o app
check_eq "non-TLS definition, TLS reference: the real ld fails" 1 "$rc"
check_eq "... kind tls-mismatch" tls-mismatch "$(q "d['diagnostics'][0]['kind']")"
check_contains "... in ld's words" "$(q "d['diagnostics'][0]['explanation']")" \
	"counter: TLS reference in tlsref.o mismatches non-TLS definition in plaindef.o"
check_contains "... the fix names the TLS reference's object" "$(q "d['diagnostics'][0]['fixes']")" "rebuild $T/tlsref.o"

link tdef.o tlsref.o -o app
check_eq "TLS on both sides: the real ld links" 0 "$rc"
check_eq "... the replay predicts the success" success "$(q "d['predicted']['outcome']")"

cat >errno.c <<'C'
extern int errno;
int main(void) { return errno; }
C
gcc -c errno.c -o errno.o
link errno.o -o app
check_eq "errno declared by hand against libc.so.6's TLS errno: the real ld fails" 1 "$rc"
check_eq "... the replay predicts a tls-mismatch of errno" "tls-mismatch errno" "$(q "d['diagnostics'][0]['kind'] + ' ' + d['diagnostics'][0]['symbol']")"
check_contains "... the shared object as the TLS side" "$(q "d['diagnostics'][0]['defined_in']['path']")" "libc.so.6"

cat >le.c <<'C'
__thread int le_var;
int get_le(void) { return le_var; }
C
gcc -c -fPIC -ftls-model=local-exec le.c -o le.o
link -shared le.o -o lible.so
check_eq "local-exec TLS in a shared object: the real ld fails" 1 "$rc"
check_eq "... the replay predicts it: R_X86_64_TPOFF32 not allowed" "relocation-not-allowed R_X86_64_TPOFF32 le_var" \
	"$(q "d['diagnostics'][0]['kind'] + ' ' + d['diagnostics'][0]['relocation']['type'] + ' ' + d['diagnostics'][0]['symbol']")"
finish
