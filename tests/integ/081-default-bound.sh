# Issue #20, point 3: the record dir is bounded by default, as ccache's
# cache is (1G and 30 days, include/linkscope/prune.h), and a user raises
# the bound or turns it off (0) with LINKSCOPE_MAX_SIZE / LINKSCOPE_MAX_AGE.
. "$(dirname "$0")/lib.sh"
unset LINKSCOPE_MAX_SIZE LINKSCOPE_MAX_AGE
export LINKSCOPE_PRUNE_EVERY=1   # every link prunes, so each check is one link

write_main
link() { "$SHIM" main.o -o prog; }
old_records() {
	for i in 1 2 3; do link; done
	touch -d '40 days ago' $(find "$LINKSCOPE_DIR" -maxdepth 1 -name '2*.json' -type f)
}

old_records
LINKSCOPE_MAX_AGE=0 link
check_eq "LINKSCOPE_MAX_AGE=0: no age bound, the old records stay" 4 "$(record_count)"
LINKSCOPE_MAX_AGE=60d link
check_eq "LINKSCOPE_MAX_AGE=60d: raised, they stay" 5 "$(record_count)"
link
check_eq "no bound set: records older than 30 days go" 3 "$(record_count)"

# A record dir over 1G (a sparse file named like a record, two days old):
# the default size bound removes it, oldest first; 0 keeps it.
big=$LINKSCOPE_DIR/20000101T000000.000000Z-1-00000000.json
truncate -s 1100M "$big"
touch -d '2 days ago' "$big"
# Put in by hand, it is in no index line: a link's prune counts what the
# index says (recounting a day later); without an index it counts the dir.
rm "$LINKSCOPE_DIR/records.index"
LINKSCOPE_MAX_SIZE=0 link
check "LINKSCOPE_MAX_SIZE=0: no size bound, 1.1G stays" test -e "$big"
LINKSCOPE_MAX_SIZE=2G link
check "LINKSCOPE_MAX_SIZE=2G: raised, 1.1G stays" test -e "$big"
link
check "no bound set: a dir over 1G loses its oldest record" test ! -e "$big"
check_eq "and keeps the others" 6 "$(record_count)"
finish
