# The shim never runs itself: not through LINKSCOPE_LINKER, not through a
# PATH where it is installed as cc; it skips itself when a real cc follows.
. "$(dirname "$0")/lib.sh"

write_main
LINKSCOPE_LINKER=$SHIM run_capture shim "$SHIM" main.o -o x
check_eq "LINKSCOPE_LINKER=itself: refused with 127" 127 "$(cat "$T/shim.rc")"
check_contains "LINKSCOPE_LINKER=itself: says why" "$(cat "$T/shim.err")" "linkscope-cc itself"

mkdir -p shimbin
ln -s "$SHIM" shimbin/cc
PATH=$T/shimbin:$PATH run_capture shim "$SHIM" main.o -o viapath
check_eq "shim first on PATH as cc, real cc after: links" 0 "$(cat "$T/shim.rc")"
check_eq "and records" 1 "$(record_count)"
check_eq "the real cc was used" "/usr/bin/cc" "$(rec "$(last_record)" 'r["driver"]["resolved"]')"

PATH=$T/shimbin run_capture shim "$SHIM" main.o -o x
check_eq "only the shim on PATH: refused with 127" 127 "$(cat "$T/shim.rc")"
check_eq "with one clear line" "linkscope-cc: refusing to run 'cc': the only 'cc' on PATH is linkscope-cc itself (set LINKSCOPE_LINKER to the real driver)" \
	"$(cat "$T/shim.err")"

PATH=$T/shimbin:$PATH run_capture alias "$T/shimbin/cc" main.o -o viaalias
check_eq "called as a cc symlink (alias mode): links" 0 "$(cat "$T/alias.rc")"
check_eq "alias mode recorded" "alias" "$(rec "$(last_record)" 'r["mode"]')"

before=$(record_count)
LINKSCOPE_ACTIVE=1 run_capture nested "$SHIM" main.o -o nested
check_eq "LINKSCOPE_ACTIVE (nested under our own driver): forwarded" 0 "$(cat "$T/nested.rc")"
check_eq "and not recorded" "$before" "$(record_count)"
LINKSCOPE_DISABLE=1 run_capture disabled "$SHIM" main.o -o disabled
check_eq "LINKSCOPE_DISABLE=1: forwarded" 0 "$(cat "$T/disabled.rc")"
check_eq "and not recorded" "$before" "$(record_count)"
finish
