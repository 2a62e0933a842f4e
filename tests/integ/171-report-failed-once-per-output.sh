# report --failed counts an output once (issue #43, point 2): the make link
# of zlibVersion failing twice (the same words, the same output, the same
# dir) is one failed link, its latest record; the plain cc link is another.
. "$(dirname "$0")/lib.sh"

if ! printf '#include <zlib.h>\n' | cc -E - >/dev/null 2>&1; then
	ok "# SKIP no zlib.h (zlib1g-dev)"
	finish
fi
printf '#include <zlib.h>\n#include <stdio.h>\nint main(void) { puts(zlibVersion()); return 0; }\n' >z.c
mkdir -p mk && cp z.c mk/m.c
"$SHIM" -o plain z.c 2>/dev/null
printf 'CC = %s\nm: m.o\n\t$(CC) -o m m.o $(LDLIBS)\n' "$SHIM" >mk/Makefile
make -C mk m >/dev/null 2>&1
make -C mk m >/dev/null 2>&1
js=$("$LINKSCOPE" report --failed --format json)
echo "$js" >summary.json
get() { "$PY" -c 'import json,sys; r=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1" <<<"$js"; }
check_eq "the make link failing twice counts once" 2 "$(get 'r["failed"]')"
check_eq "the make link's section has the Makefile where" "True" \
	"$(get 'any(f["where"] and (f["where"]["file"] or "").endswith("Makefile") for c in r["causes"] for f in c["fixes"])')"
check_eq "the two links, each once" "[2]" "$(get 'sorted(len(c["links"]) for c in r["causes"])')"
finish
