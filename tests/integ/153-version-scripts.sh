# Version scripts as each linker parses them (issue #33 point 3d; the
# model is analyzer/replay/version_dialects.c): GNU ld's syntax errors
# (labels out of its order, patterns before a label, an empty script, a
# dependency not defined before, an anonymous node beside others), lld's
# (an anonymous node not alone, two dependencies, an empty script), mold's
# leniency (it takes all but a missing ';' between patterns, an extern
# block without its ';' and two dependencies); a versioned definition
# whose node no script defines ("version node not found": all fail); and
# the undefined-version check: rust-lld's default, lld 14's and GNU ld's
# only under --no-undefined-version (mold only warns). Each line is linked by GNU ld, lld 14, rustc's
# rust-lld and mold; the replay of each line must give every linker's
# real outcome.
# passes: plain (a table of linker rules, each case linked by the real linkers:
# its verdicts depend on the record only; make check-full runs every pass)
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
. "$ROOT/tests/integ/options-lib.sh"

cat >lib.c <<'C'
int foo(void) { return 1; }
int bar(void) { return 2; }
C
cat >svlib.c <<'C'
__asm__(".symver foo_impl, foo@@V9");
int foo_impl(void) { return 1; }
C
cc -fPIC -c lib.c svlib.c
printf 'V1 { global: foo local: *; };\n' >syntax.map
: >empty.map
printf 'V1 { global: foo; bar; local: *; };\n' >ok.map
printf 'V1 { global: foo; nosuch; local: *; };\n' >undefver.map
printf 'V1 { global: foo; local: *; global: bar; };\n' >order.map
printf 'V1 { foo; } V0;\n' >baddep.map
printf '{ foo; };\nV2 { bar; };\n' >anon2.map
printf 'V1 { foo };\n' >nosemi.map
printf 'V0 {bar;};\nV1 { foo; } V0;\nV2 {}; V3 { } V1 V2;\n' >twodeps.map
printf 'V1 { foo; local: *; };\n' >patlabel.map
printf 'V1 { global: ; };\n' >labelsemi.map
printf 'V1 { extern "C++" { foo*; }; };\n' >ext.map
printf 'V1 { extern "C++" { "foo()"; }; };\n' >extname.map
printf 'V1 { extern "C++" { foo*; } };\n' >ext2.map
printf '# a comment\nV9 { global: foo; /* here */ };\n' >v9.map

# script WANT NAME INPUT WORDS...: WANT is the real status of bfd, lld 14, rust-lld, mold (0 links).
script() {
	local want=$1 name=$2 got="" k=0 how
	shift 2
	for ld in bfd lld rust-lld mold; do
		case $ld in
		rust-lld) how=(-B"$gccld" -fuse-ld=lld) ;;
		bfd) how=() ;;
		*) how=(-fuse-ld="$ld") ;;
		esac
		"$SHIM" -- cc "${how[@]}" -shared "$@" -o "p-$name-$ld.so" >/dev/null 2>&1
		got="$got$? "
		cp "$(last_record)" "$T/$name-$ld.json"
	done
	check_eq "$name: the real linkers (bfd lld rust-lld mold)" "$want" "${got% }"
	for ld in bfd lld rust-lld mold; do
		k=$((k + 1))
		check_eq "$name: the $ld line's verdict agrees with it" \
			"$([ "$(cut -d' ' -f$k <<<"$want")" = 0 ] && echo success || echo failure) True" "$(own "$T/$name-$ld.json")"
	done
	# GNU ld's line: the verdicts of GNU ld, lld 14 and mold.
	check_eq "$name: GNU ld's line, each linker's verdict" \
		"$(for k in 1 2 4; do [ "$(cut -d' ' -f$k <<<"$want")" = 0 ] && echo -n "success " || echo -n "failure "; done)" \
		"$("$LINKSCOPE" report --format json "$T/$name-bfd.json" | "$PY" -c 'import json,sys; p=json.load(sys.stdin)["predicted"]["linkers"]; print(p["bfd"], p["lld"], p["mold"], end=" ")')"
}

script "1 1 1 1" syntax lib.o -Wl,--version-script=syntax.map
script "1 1 1 0" empty lib.o -Wl,--version-script=empty.map
script "0 0 0 0" ok lib.o -Wl,--version-script=ok.map
script "0 0 1 0" undefined-version lib.o -Wl,--version-script=undefver.map
script "1 1 1 0" undefined-version-said lib.o -Wl,--version-script=undefver.map,--no-undefined-version
script "0 0 0 0" undefined-version-allowed lib.o -Wl,--version-script=undefver.map,--undefined-version
script "1 0 0 0" label-order lib.o -Wl,--version-script=order.map
script "1 0 0 0" missing-dependency lib.o -Wl,--version-script=baddep.map
script "1 1 1 0" anonymous-and-named lib.o -Wl,--version-script=anon2.map
script "1 1 1 0" no-last-semicolon lib.o -Wl,--version-script=nosemi.map
script "0 1 1 1" two-dependencies lib.o -Wl,--version-script=twodeps.map
script "1 0 0 0" pattern-then-label lib.o -Wl,--version-script=patlabel.map
script "1 1 1 0" empty-label lib.o -Wl,--version-script=labelsemi.map
script "0 0 0 0" extern-cxx lib.o -Wl,--version-script=ext.map
script "1 1 1 1" extern-no-semicolon lib.o -Wl,--version-script=ext2.map
script "1 1 1 1" version-node-not-found svlib.o
script "0 0 0 0" version-node-found svlib.o -Wl,--version-script=v9.map

# A C++ name without wildcards: rust-lld checks it demangled, which the replay does not: unknown, named.
"$SHIM" -- cc -B"$gccld" -fuse-ld=lld -shared lib.o -Wl,--version-script=extname.map -o p-extname.so >/dev/null 2>&1
check_eq "rust-lld refuses a C++ name no symbol demangles to" 1 $?
check_eq "and its verdict is unknown, naming the name" "unknown: lld: whether a symbol demangles to the version script's C++ name 'foo()' is not read (--no-undefined-version)" \
	"$("$LINKSCOPE" report --format json "$(last_record)" | "$PY" -c 'import json,sys; p=json.load(sys.stdin)["predicted"]; print(p["outcome"] + ": " + p["unknown_because"][0])')"
out=$("$LINKSCOPE" explain "$T/missing-dependency-lld.json")
check_contains "GNU ld's refusal, named" "$out" "GNU ld fails: it refuses the version script: 'baddep.map' line 1: unable to find version dependency \`V0'"
finish
