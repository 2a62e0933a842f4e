# AArch64's TLS models with each real linker (issue #33; the model is
# analyzer/replay/arch/aarch64_tls.c): Debian's aarch64-linux-gnu-gcc
# with -mtls-dialect=trad and desc, each line linked with GNU ld 2.40,
# ld.lld 14.0.6 and mold 1.10.1 (lld and mold found by -B, as the driver
# finds them), and linkscope's verdict for each linker, on each linker's
# own line, must be what that linker did.
# - lld knows no traditional-dialect general dynamic (TLSGD_*, what gcc
#   -mtls-dialect=trad emits for local dynamic too) nor any local-dynamic
#   TLSLD_* type: "unknown relocation", in a shared object, a PIE and an
#   executable alike; mold knows TLSGD_* but no TLSLD_* (written by hand
#   here: gcc emits none); GNU ld links them all.
# - TLS descriptors (desc, gcc's default) and initial-exec: all three.
# - local-exec in a shared object: GNU ld links it on AArch64 (and says
#   nothing), lld and mold refuse it; in an executable all three link,
#   but for GCC's -mtls-size=12 (TLSLE_ADD_TPREL_LO12), which lld does not
#   know.
# - x86-64's local-exec (R_X86_64_TPOFF32) in a shared object: all three
#   refuse it.
# The first fix each failing verdict offers is applied with the real tools.
# passes: plain san (a table of linker rules: no elsewhere pass; the one of them
# make check runs under the sanitizers, for the aarch64 relocation code)
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
. "$ROOT/tests/integ/linkers.sh"
A=aarch64-linux-gnu-gcc

cat >gd.c <<'C'
extern __thread int ext_tls;
int get(void) { return ext_tls; }
C
cat >ld.c <<'C'
static __thread int loc_tls;
int get_loc(void) { return ++loc_tls; }
C
cat >def.c <<'C'
__thread int ext_tls = 3;
C
cat >main.c <<'C'
int get(void);
int main(void) { return get() - 3; }
C
cat >le.c <<'C'
__thread int le_var = 1;
int get_le(void) { return le_var; }
C
cat >lemain.c <<'C'
int get_le(void);
int main(void) { return get_le() - 1; }
C
# Local dynamic as an assembler writes it (TLSLD_ADR_PAGE21, _ADD_LO12_NC, _ADD_DTPREL_HI12, _LO12_NC).
cat >ldasm.s <<'S'
	.text
	.globl get_loc
	.type get_loc,%function
get_loc:
	stp x29, x30, [sp, -16]!
	adrp x0, :tlsldm:loc_tls
	add x0, x0, :tlsldm_lo12_nc:loc_tls
	bl __tls_get_addr
	nop
	add x0, x0, :dtprel_hi12:loc_tls
	add x0, x0, :dtprel_lo12_nc:loc_tls
	ldr w0, [x0]
	ldp x29, x30, [sp], 16
	ret
	.section .tbss,"awT",%nobits
	.align 2
loc_tls: .zero 4
	.section .note.GNU-stack,"",%progbits
S
for d in trad desc; do
	$A -O1 -fPIC -mtls-dialect=$d -c gd.c -o gd-$d.o
	$A -O1 -fPIE -mtls-dialect=$d -c gd.c -o gdpie-$d.o
done
$A -O1 -fPIC -mtls-dialect=trad -ftls-model=local-dynamic -c ld.c -o ld-trad.o
$A -O1 -fPIC -c def.c main.c lemain.c
$A -O1 -fPIC -ftls-model=local-exec -c le.c -o le.o
$A -O2 -mtls-size=12 -ftls-model=local-exec -c le.c -o le12.o
$A -O1 -fPIC -ftls-model=initial-exec -c gd.c -o ie.o
$A -c ldasm.s -o ldasm.o
mkdir xb && ln -s "$(command -v ld.lld)" xb/ld.lld && ln -s "$(command -v mold)" xb/ld.mold

# tls_case WANT NAME WORDS...: the line linked with each real linker (WANT: "bfd lld mold" outcomes),
# and the replay of each linker's line, one verdict per linker. The reports stay as $T/NAME-LINKER.r.json.
agree=0 cases=0
tls_case() {
	local want=$1 name=$2 ld got
	shift 2
	for ld in bfd lld mold; do linked "$name" "$ld" -B"$T/xb" "$@"; done
	got="$(word "$name-bfd") $(word "$name-lld") $(word "$name-mold")"
	check_eq "$name: the real linkers (bfd lld mold)" "$want" "$got"
	read -r b l m <<<"$got"
	for ld in bfd lld mold; do
		"$LINKSCOPE" report --format json --replay-only "$T/$name-$ld.json" >"$T/$name-$ld.r.json"
		v=$("$PY" -c 'import json,sys; p=json.load(open(sys.argv[1]))["predicted"]["linkers"]; print(" ".join(k + "=" + p[k] for k in ("bfd", "lld", "mold")))' "$T/$name-$ld.r.json")
		check_eq "$name: the replay of the $ld line, one verdict per linker" "bfd=$b lld=$l mold=$m" "$v"
		cases=$((cases + 3))
		for w in "bfd=$b" "lld=$l" "mold=$m"; do case " $v " in *" $w "*) agree=$((agree + 1)) ;; esac; done
	done
}
# q NAME-LINKER EXPR: a Python expression over that line's report `r`.
q() { "$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$T/$1.r.json" "$2"; }
why() { q "$1" "'\n'.join(r['predicted']['linker_verdicts']['$2']['why'])"; }
fix() { q "$1" "r['predicted']['linker_verdicts']['$2']['fixes'][0]"; }

LK_CC=$A
tls_case "success failure success" gd-trad-shared -shared gd-trad.o
tls_case "success failure success" gd-trad-pie -pie gd-trad.o def.o main.o
# -fPIE code reads an extern __thread variable initial-exec, whatever the dialect: all three link it.
tls_case "success success success" gdpie-trad-pie -pie gdpie-trad.o def.o main.o
tls_case "success failure success" gd-trad-exe -no-pie gd-trad.o def.o main.o
tls_case "success failure success" ld-trad-shared -shared ld-trad.o
tls_case "success failure failure" ldasm-shared -shared ldasm.o
tls_case "success failure failure" ldasm-exe -no-pie ldasm.o gd-desc.o def.o main.o
tls_case "success success success" gd-desc-shared -shared gd-desc.o
tls_case "success success success" gd-desc-pie -pie gdpie-desc.o def.o main.o
tls_case "success success success" ie-shared -shared ie.o
tls_case "success failure failure" le-shared -shared le.o
tls_case "success success success" le-pie -pie le.o lemain.o
tls_case "success success success" le-exe -no-pie le.o lemain.o
# -mtls-size=12: local-exec in one ADD (R_AARCH64_TLSLE_ADD_TPREL_LO12), which lld does not know, in any output.
tls_case "success failure success" le12-exe -no-pie le12.o lemain.o
tls_case "success failure success" le12-pie -pie le12.o lemain.o

# What each failing verdict says: the relocation type and the input, from the inputs.
w=$(why gd-trad-shared-lld lld)
check_contains "lld and -mtls-dialect=trad: the relocation named" "$w" "relocation-unsupported, ext_tls (R_AARCH64_TLSGD_ADR_PAGE21), in gd-trad.o"
check_contains "... and what lld does with it" "$w" "lld does not know this TLS relocation type (\"unknown relocation\", in every output)"
check_contains "... an executable too: lld does not relax what it does not know" "$(why gd-trad-exe-lld lld)" "(R_AARCH64_TLSGD_ADD_LO12_NC), in gd-trad.o"
check_contains "local dynamic by hand: lld names TLSLD_ADR_PAGE21 in ldasm.o" "$(why ldasm-shared-lld lld)" "(R_AARCH64_TLSLD_ADR_PAGE21), in ldasm.o"
check_contains "... mold the same" "$(why ldasm-shared-mold mold)" "mold fails: relocation-unsupported, loc_tls (R_AARCH64_TLSLD_ADD_DTPREL_HI12), in ldasm.o"
check_contains "local-exec in a shared object: lld names the relocation and the input" "$(why le-shared-lld lld)" "relocation-not-allowed, le_var (R_AARCH64_TLSLE_ADD_TPREL_HI12), in le.o"
check_contains "... mold too" "$(why le-shared-mold mold)" "relocation-not-allowed, le_var (R_AARCH64_TLSLE_ADD_TPREL_LO12_NC), in le.o"
check_contains "... GNU ld links it, and the report says how" "$(q le-shared-bfd "r['notes']")" "GNU ld links the local-exec TLS accesses (R_AARCH64_TLSLE_*) of '$T/le.o' into a shared object on AArch64"

# The first fix of each, applied with the real linker.
f=$(fix gd-trad-shared-lld lld)
check_contains "lld's first fix for trad: -mtls-dialect=desc" "$f" "rebuild gd-trad.o (at 4) with -mtls-dialect=desc"
check_eq "... said once for the object's two relocations" 1 "$(q gd-trad-shared-lld "len(r['predicted']['linker_verdicts']['lld']['fixes'])")"
$A -O1 -fPIC -mtls-dialect=desc -c gd.c -o gd-rebuilt.o
$A -B"$T/xb" -fuse-ld=lld -shared gd-rebuilt.o -o fixed.so
check_eq "... rebuilt so, the real lld links the shared object" 0 "$?"
$A -O1 -fPIE -mtls-dialect=desc -c gd.c -o gdpie-rebuilt.o
$A -B"$T/xb" -fuse-ld=lld -pie gdpie-rebuilt.o def.o main.o -o fixed-pie
check_eq "... and the PIE" 0 "$?"
f=$(fix ldasm-shared-mold mold)
check_contains "mold's first fix for TLSLD_*: GNU ld" "$f" "link with GNU ld (-fuse-ld=bfd), which knows every AArch64 TLS relocation type"
check_contains "... lld's the same" "$(fix ldasm-exe-lld lld)" "link with GNU ld (-fuse-ld=bfd)"
$A -fuse-ld=bfd -no-pie ldasm.o gd-desc.o def.o main.o -o fixed-exe
check_eq "... and the real GNU ld links it" 0 "$?"
for ld in lld mold; do
	check_contains "local-exec in a shared object: $ld's first fix is another TLS model" "$(fix le-shared-$ld $ld)" "rebuild le.o (at 4) with -fPIC and without -ftls-model=local-exec"
done
$A -O1 -fPIC -c le.c -o le-gd.o
for ld in lld mold; do
	$A -B"$T/xb" -fuse-ld=$ld -shared le-gd.o -o fixed-$ld.so
	check_eq "... rebuilt with -fPIC alone, the real $ld links it" 0 "$?"
done

# rustc's rust-lld (LLVM 22), as ld.lld in a -B dir: the same TLS types as lld 14 (the model has one table for both).
rlld=$(rustc --print sysroot 2>/dev/null)/lib/rustlib/$HOST_ARCH-unknown-linux-gnu/bin/rust-lld
if [ -x "$rlld" ]; then
	mkdir xr && ln -s "$rlld" xr/ld.lld
	# -B relative: the version is read from the link's directory, not the analyzer's (the elsewhere pass's).
	"$SHIM" -- $A -Bxr -fuse-ld=lld -shared gd-trad.o -o out-rust.so 2>/dev/null
	check_eq "rust-lld refuses -mtls-dialect=trad too" 1 "$?"
	cp "$(last_record)" "$T/rust-lld.json"
	"$LINKSCOPE" report --format json --replay-only "$T/rust-lld.json" >"$T/rust-lld.r.json"
	check_eq "... its verdict says so, as rust-lld's" "failure rust-lld (LLVM 22)" \
		"$(q rust-lld "r['predicted']['linker_verdicts']['lld']['outcome'] + ' ' + r['predicted']['linker_verdicts']['lld']['version']")"
	check_contains "... naming the relocation and the input" "$(why rust-lld lld)" "rust-lld fails: relocation-unsupported, ext_tls (R_AARCH64_TLSGD_ADR_PAGE21), in gd-trad.o"
	"$SHIM" -- $A -B"$T/xr" -fuse-ld=lld -shared gd-rebuilt.o -o out-rust.so 2>/dev/null
	check_eq "... and links the object rebuilt -mtls-dialect=desc" 0 "$?"
fi

f=$(fix le12-exe-lld lld)
check_contains "lld's first fix for -mtls-size=12: GCC's default size" "$f" "rebuild le12.o (at 4) with -mtls-size=24 (GCC's default)"
$A -O2 -mtls-size=24 -ftls-model=local-exec -c le.c -o le24.o
$A -B"$T/xb" -fuse-ld=lld -no-pie le24.o lemain.o -o fixed-le24
check_eq "... rebuilt so, the real lld links it" 0 "$?"

# x86-64: R_X86_64_TPOFF32 in a shared object, refused by all three.
LK_CC=cc
cc -O1 -fPIC -ftls-model=local-exec -c le.c -o le86.o
tls_case "failure failure failure" x86-le-shared -shared le86.o
check_contains "x86-64: GNU ld's diagnostic names the relocation and the input" \
	"$(q x86-le-shared-bfd "r['diagnostics'][0]['kind'] + ' ' + r['diagnostics'][0]['relocation']['type']")" \
	"relocation-not-allowed R_X86_64_TPOFF32"
check_contains "... lld's verdict too" "$(why x86-le-shared-lld lld)" "relocation-not-allowed, le_var (R_X86_64_TPOFF32), in le86.o"
check_contains "... and lld's first fix another TLS model (-z notext would not do)" "$(fix x86-le-shared-lld lld)" "rebuild le86.o (at"
check_contains "... GNU ld's first fix is the TLS model, not -fPIC alone (the object is -fPIC)" \
	"$("$LINKSCOPE" report --format json "$T/x86-le-shared-bfd.json" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["diagnostics"][0]["fixes"][0]["description"])')" \
	"with -fPIC and without -ftls-model=local-exec"
cc -O1 -fPIC -c le.c -o le86-gd.o
for ld in bfd lld mold; do
	cc -fuse-ld=$ld -shared le86-gd.o -o fixed86-$ld.so
	check_eq "... rebuilt with -fPIC alone, the real $ld links it" 0 "$?"
done

check_eq "every linker's verdict on every line equals the real linker's outcome ($agree of $cases)" "$cases" "$agree"
echo "# aarch64 TLS: $agree of $cases verdicts agree with the real linkers"
finish
