# GNU ld's own side of issue #19, each line linked by the real GNU ld,
# lld 14, rustc's rust-lld and mold:
# - a version script naming a tag twice: GNU ld refuses it ("duplicate
#   version tag"), lld and mold take it; a tag named once, or a dependency
#   on an earlier tag, is fine;
# - a hidden definition a shared object references: GNU ld refuses it
#   ("hidden symbol ... is referenced by DSO"), even with
#   --allow-shlib-undefined; lld 14 and mold link; rust-lld (LLVM 22)
#   refuses it ("non-exported symbol") unless --allow-shlib-undefined or
#   another shared object in the link defines the symbol; GNU ld refuses it
#   then too (only a versioned reference, as libstdc++.so's libgcc helpers,
#   binds elsewhere: the difftest's C++ lines).
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
gccld="$(rustc --print sysroot 2>/dev/null || "$HOME/.cargo/bin/rustc" --print sysroot)/lib/rustlib/$HOST_ARCH-unknown-linux-gnu/bin/gcc-ld"

cat >s.c <<'C'
int va(void) { return 0; }
int vb(void) { return 1; }
C
cat >u.c <<'C'
int zap(void);
int u(void) { return zap(); }
C
cat >h.c <<'C'
__attribute__((visibility("hidden"))) int zap(void) { return 0; }
int u(void);
int main(void) { return u(); }
C
cat >z.c <<'C'
int zap(void) { return 1; }
C
cc -c -fPIC s.c u.c z.c && cc -c h.c
cc -shared -nostdlib u.o -o libu.so -Wl,-soname,libu.so
cc -shared -nostdlib z.o -o libz1.so -Wl,-soname,libz1.so
printf 'V1 { global: va; local: *; };\n# the same tag again\nV1 { global: vb; };\n' >dup.map
printf 'V1 { global: va; local: *; };\n/* a newer one */ V2 { global: vb; } V1;\n' >ok.map

linked() {
	local name=$1 ld=$2 how
	shift 2
	case $ld in
	rust-lld) how=(-B"$gccld" -fuse-ld=lld) ;;
	bfd) how=() ;;
	*) how=(-fuse-ld="$ld") ;;
	esac
	"$SHIM" -- cc "${how[@]}" "$@" >/dev/null 2>&1
	echo $?
	cp "$(last_record)" "$T/$name-$ld.json"
}
own() { "$LINKSCOPE" report --format json "$1" | "$PY" -c 'import json,sys; r=json.load(sys.stdin); f=r["linker"]["flavor"]; print(r["predicted"]["linkers"]["bfd" if f == "default" else f], r["linker"]["agrees_with_replay"])'; }
kinds() { "$LINKSCOPE" report --format json --replay-only "$1" | "$PY" -c 'import json,sys; print(*[d["kind"] + " " + d["symbol"] for d in json.load(sys.stdin)["diagnostics"]])'; }

# case_of WANT NAME WORDS...: WANT is the real status of bfd, lld 14, rust-lld, mold.
case_of() {
	local want=$1 name=$2 got="" i=0
	shift 2
	for ld in bfd lld rust-lld mold; do got="$got$(linked "$name" "$ld" "$@") "; done
	check_eq "$name: the real linkers (bfd lld rust-lld mold)" "$want" "${got% }"
	for ld in bfd lld rust-lld mold; do
		i=$((i + 1))
		check_eq "$name: the $ld line's verdict agrees with it" \
			"$([ "$(cut -d' ' -f$i <<<"$want")" = 0 ] && echo success || echo failure) True" "$(own "$T/$name-$ld.json")"
	done
}

case_of "1 0 0 0" duptag -shared s.o -Wl,--version-script=dup.map -o libs.so
check_eq "duptag: the diagnostic" "duplicate-version-tag V1" "$(kinds "$T/duptag-bfd.json")"
check_contains "duptag: explained" "$("$LINKSCOPE" explain "$T/duptag-bfd.json")" \
	"the version script $T/dup.map names the version tag V1 twice (counting every --version-script of the line): GNU ld refuses it; lld and mold take it"
check_contains "duptag: the lld line says GNU ld would fail" "$("$LINKSCOPE" explain "$T/duptag-lld.json")" \
	"cross-linker verdict: links with lld and mold, fails with GNU ld"
case_of "0 0 0 0" oktag -shared s.o -Wl,--version-script=ok.map -o libs.so

case_of "1 0 1 0" hidden h.o -L. -lu -o p
check_eq "hidden: the diagnostic" "hidden-symbol zap" "$(kinds "$T/hidden-bfd.json")"
out=$("$LINKSCOPE" explain "$T/hidden-bfd.json")
check_contains "hidden: who defines it" "$out" "$T/h.o at 1 defines zap with hidden visibility"
check_contains "hidden: who references it" "$out" "$T/libu.so"
check_contains "hidden: rust-lld's reason" "$("$LINKSCOPE" explain "$T/hidden-rust-lld.json")" \
	"rust-lld fails: non-exported symbol zap in h.o (at 3) is referenced by libu.so"
case_of "1 0 0 0" hidden-allowed h.o -L. -lu -Wl,--allow-shlib-undefined -o p
case_of "1 0 0 0" hidden-dso-defines h.o -L. -lu -lz1 -o p
finish
