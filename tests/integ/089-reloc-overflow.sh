# Relocation overflow (issue #17, point 2), the real GNU ld the oracle:
# a 3 GiB .bss array (NOBITS: nothing on disk) between the code and a
# variable it references puts R_X86_64_PC32 past +-2 GiB ("relocation
# truncated to fit"); the other input order links; a distance within the
# estimate's margin is `unknown`, never a success; -mcmodel=medium, the
# stated fix, links with the real ld.
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always

report() { "$LINKSCOPE" report --format json last >"$T/r.json"; }
q() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$T/r.json" "$1"; }
link() { "$SHIM" -- gcc "$@" >"$T/link.out" 2>&1; rc=$?; report; }

cat >big.c <<'C'
char big[3u << 30];
C
cat >after.c <<'C'
int after;
int main(void) { return after; }
C
gcc -c big.c -o big.o
gcc -c after.c -o after.o
ar rcs libbig.a big.o

link after.o big.o -o app
check_eq "reference before the array: the real ld links" 0 "$rc"
check_eq "reference before the array: the replay predicts the success" success "$(q "d['predicted']['outcome']")"

link big.o after.o -o app
check_eq "3 GiB .bss in between: the real ld fails" 1 "$rc"
check_eq "3 GiB .bss in between: the replay predicts the failure" failure "$(q "d['predicted']['outcome']")"
check_eq "kind relocation-overflow" relocation-overflow "$(q "d['diagnostics'][0]['kind']")"
check_eq "R_X86_64_PC32 against after" "R_X86_64_PC32 after" "$(q "d['diagnostics'][0]['relocation']['type'] + ' ' + d['diagnostics'][0]['symbol']")"
check_eq "from after.o at 2" "$T/after.o 2" "$(q "d['diagnostics'][0]['referenced_by']['path'] + ' ' + str(d['diagnostics'][0]['referenced_by']['position'])")"
check_eq "its reach: 2 GiB" "$((2 << 30))" "$(q "d['diagnostics'][0]['relocation']['reach']")"
check "the distance estimated past it" test "$(q "d['diagnostics'][0]['relocation']['distance']")" -gt $((3 << 30))
check_contains "the large section in between named" "$(q "d['diagnostics'][0]['relocation']['between']")" "$T/big.o .bss (3.0 GiB)"
check_contains "fix: -mcmodel=medium for the objects, stated" "$(q "[f['description'] for f in d['diagnostics'][0]['fixes'] if f.get('stated')]")" \
	"rebuild $T/big.o (which hold the large sections) and $T/after.o with -mcmodel=medium"

link -Wl,-u,big -L. -lbig after.o -o app
check_eq "the array from an archive, pulled by -u: the real ld fails" 1 "$rc"
check_contains "the member holding it named" "$(q "d['diagnostics'][0]['relocation']['between']")" "$T/libbig.a(big.o) .bss (3.0 GiB)"

gcc -c -mcmodel=medium big.c -o big.m.o
gcc -c -mcmodel=medium after.c -o after.m.o
gcc big.m.o after.m.o -o app.m
check_eq "the stated fix, applied with the real gcc and ld, links" 0 "$?"
link big.m.o after.m.o -o app.m
check_eq "... and the replay predicts that success (.lbss after .bss)" success "$(q "d['predicted']['outcome']")"

# 2 GiB less 40 MiB: the estimate cannot tell (within 1/16 of the reach): unknown, not success
cat >near.c <<'C'
char near_big[(2u << 30) - (40u << 20)];
C
gcc -c near.c -o near.o
link near.o after.o -o app
check "near the reach: the outcome is unknown" test "$(q "d['predicted']['outcome']")" = unknown
check_contains "near the reach: with the reason" "$(q "d['predicted']['unknown_because']")" "within 1/16 of its reach"
finish
