# lld's and mold's verdicts taken from GNU ld's replay (issue #20,
# replay/lazy_answer.c) where it read what the lld-rules replay would, and
# the lld-rules replay run where it would not. Each line links with GNU
# ld, and each case is one of lazy_answer.c's rules, checked against the
# real three linkers:
#   backref:  libx.a main.o liby.a, both define f; lld takes x.o from the
#             first archive (its g is defined nowhere) after main.o's
#             reference: a fetch from an archive read earlier;
#   dropref:  libd.so dropped by --as-needed references h, which z.o of a
#             later archive defines (its k is defined nowhere): lld keeps
#             libd.so and takes z.o for it (mold, which loads libd.so for no
#             regular reference, does not, and links);
#   dropdef:  libu.so needs v from libd.so, on the line under --as-needed:
#             GNU ld drops it there and loads it for libu.so's DT_NEEDED, lld
#             keeps it where it stands (its definitions count);
#   needed:   libu.so needs v from libe.so, which only libd.so's DT_NEEDED
#             names: GNU ld loads it after the line, lld does not, and
#             checks libu.so (its DT_NEEDED all on the line): v undefined;
#   droproot: --gc-sections, and libr.so, dropped by --as-needed, references
#             cb, whose section calls gone (defined nowhere): GNU ld collects
#             that section, lld keeps it (a shared object references cb).
. "$(dirname "$0")/lib.sh"
export LINKSCOPE_EXPAND=always
. "$ROOT/tests/integ/linkers.sh"

printf 'int g(void);\nint f(void) { return g(); }\n' >x.c
printf 'int f(void) { return 0; }\n' >y.c
printf 'int f(void);\nint main(void) { return f(); }\n' >main.c
cc -c x.c y.c main.c
mkdir x y
ar rcs x/libx.a x.o
ar rcs y/liby.a y.o
case_of "success failure failure" backref x/libx.a main.o y/liby.a

printf 'int h(void);\nint dfun(void) { return h(); }\n' >d.c
printf 'int k(void);\nint h(void) { return k(); }\n' >z.c
printf 'int main(void) { return 0; }\n' >plain.c
cc -shared -fPIC d.c -o libd.so
cc -c z.c plain.c
ar rcs libz.a z.o
# mold links this line: libd.so, loaded by no regular reference, takes no
# member for its reference (mold.c, its --as-needed); lld takes z.o and fails.
case_of "success failure success" dropref plain.o -Wl,--as-needed ./libd.so -Wl,--no-as-needed libz.a
check_contains "dropref: why lld fails: the member it takes for libd.so's reference" \
	"$("$LINKSCOPE" report --format json "$T/dropref-bfd.json" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["predicted"]["linker_verdicts"]["lld"]["why"])')" \
	"lld fails: undefined symbol k, referenced by member z.o of libz.a"

mkdir dd uu
printf 'int v(void) { return 3; }\n' >v.c
printf 'int v(void);\nint ufun(void) { return v(); }\n' >u.c
printf 'int ufun(void);\nint main(void) { return ufun() - 3; }\n' >umain.c
cc -shared -fPIC v.c -Wl,-soname,libvd.so -o dd/libvd.so
cc -shared -fPIC u.c -Ldd -lvd -Wl,-soname,libu.so -o uu/libu.so
cc -c umain.c
case_of "success success success" dropdef umain.o uu/libu.so -Wl,--as-needed dd/libvd.so -Wl,--no-as-needed -Wl,-rpath-link,dd

mkdir ee nn
printf 'int other(void) { return 0; }\n' >n.c
cc -shared -fPIC v.c -Wl,-soname,libve.so -o ee/libve.so
cc -shared -fPIC n.c -Wl,--no-as-needed -Lee -lve -Wl,-soname,libn.so -o nn/libn.so
cc -shared -fPIC u.c -Wl,--no-as-needed -Lnn -ln -Wl,-soname,libu.so -o nn/libu.so
case_of "success failure success" needed umain.o nn/libu.so nn/libn.so -Wl,-rpath-link,ee

printf 'int cb(void);\nint rfun(void) { return cb(); }\n' >r.c
printf 'int gone(void);\nint cb(void) { return gone(); }\nint main(void) { return 0; }\n' >rmain.c
cc -shared -fPIC r.c -o libr.so
cc -ffunction-sections -c rmain.c
for ld in bfd lld; do linked droproot "$ld" rmain.o -Wl,--as-needed ./libr.so -Wl,--no-as-needed -Wl,--gc-sections; done
check_eq "droproot: the real linkers (bfd lld)" "success failure" "$(word droproot-bfd) $(word droproot-lld)"
for ld in bfd lld; do
	check_contains "droproot: the replay of the $ld line (bfd, lld)" "$(verdicts "$T/droproot-$ld.json")" "bfd=success lld=failure"
done
finish
