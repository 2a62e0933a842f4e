# A library given before the objects under --as-needed (a Makefile's
# LDFLAGS = -Wl,--as-needed -lz, issue #34): GNU ld drops libz.so where it
# stands, since nothing read before it needs it, and zlibVersion is then
# undefined. The story is the library on the line read too early, not a
# library "not on the line"; the first fix moves it, and its where says
# LDLIBS; applied to the Makefile for real, make links. lld and mold keep
# the library (they link), and the replay says so.
. "$(dirname "$0")/lib.sh"

mkdir mk && cd mk
printf '#include <zlib.h>\nint main(void) { return zlibVersion()[0] == 0; }\n' >app.c
printf 'LDFLAGS = -Wl,--as-needed -lz\napp: app.o\n' >Makefile
make CC="$SHIM" >"$T/make.out" 2>&1
check_eq "make fails: zlibVersion undefined" "2 1" "$? $(grep -c "undefined reference to .zlibVersion" "$T/make.out")"
json=$("$LINKSCOPE" report --format json last)
q() { "$PY" -c 'import json,sys; r=json.load(sys.stdin); d=r["diagnostics"][0]; print(eval(sys.argv[1]))' "$1" <<<"$json"; }
check_eq "one undefined symbol, defined by the libz.so on the line" "1 undefined-symbol zlibVersion libz.so True" \
	"$(q '" ".join(str(x) for x in (len(r["diagnostics"]), d["kind"], d["symbol"], d["defined_in"]["path"].rsplit("/", 1)[1], d["defined_in"]["on_line"]))')"
text=$("$LINKSCOPE" explain last)
check_contains "the story: -lz read under --as-needed before the reference" "$text" \
	"ordering: -lz at 2 (libz.so) defines it, but --as-needed (at 1) was in force there"
check "... and never that libz.so is not on the line" test -z "$(grep -F "not on the line" <<<"$text")"
check_eq "the first fix moves -lz from where it stands, verified" "True move -lz (at 2)" \
	"$(q 'str(d["fixes"][0]["verified"]) + " " + d["fixes"][0]["description"][:15]')"
check_contains "its where: LDLIBS in the Makefile" "$(q 'd["fixes"][0]["where"]')" "LDLIBS += -lz"
check_eq "lld and mold keep the library: they link" "success success" \
	"$(q 'r["predicted"]["linkers"]["lld"] + " " + r["predicted"]["linkers"]["mold"]')"
printf 'LDFLAGS = -Wl,--as-needed\nLDLIBS += -lz\napp: app.o\n' >Makefile
check "the fix applied to the Makefile: make links" make CC=cc
for ld in lld mold; do
	rm -f app
	printf 'LDFLAGS = -Wl,--as-needed -lz -fuse-ld=%s\napp: app.o\n' $ld >Makefile
	check "$ld links the Makefile as it was" make CC=cc
done
finish
