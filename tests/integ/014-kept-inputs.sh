# Inputs that will not survive: a link call that compiles its source (the
# autoconf probe) keeps a copy, content-addressed and shared; limits hold.
. "$(dirname "$0")/lib.sh"

printf 'int main(void) { return 0; }\n' >conftest.c
"$SHIM" conftest.c -o conftest
sum=$(sha256sum conftest.c | cut -d' ' -f1)
rm -f conftest.c conftest
r=$(last_record)
check "record validates" validate "$r"
check_eq "the source was kept" "source conftest.c $sum" \
	"$(rec "$r" '" ".join([r["kept"][0]["reason"], r["kept"][0]["path"], r["kept"][0]["sha256"]])')"
check "its blob survives the deletion" test -f "$LINKSCOPE_DIR/blobs/$sum"
printf 'int main(void) { return 0; }\n' >conftest.c
"$SHIM" conftest.c -o conftest
# Two blobs: the source, and the object the driver made of it (reason source-object).
check_eq "the same content is stored once" 2 "$(find "$LINKSCOPE_DIR/blobs" -type f | wc -l)"
LINKSCOPE_KEEP=0 "$SHIM" conftest.c -o conftest
check_eq "LINKSCOPE_KEEP=0 keeps nothing" "[]" "$(rec "$(last_record)" 'r["kept"]')"
LINKSCOPE_KEEP_MAX=10 "$SHIM" conftest.c -o conftest
r=$(last_record)
check_eq "over LINKSCOPE_KEEP_MAX: not kept" "[]" "$(rec "$r" 'r["kept"]')"
check_contains "over LINKSCOPE_KEEP_MAX: the record says why" "$(rec "$r" 'r["warnings"]')" "is over the limit (LINKSCOPE_KEEP_MAX)"
finish
