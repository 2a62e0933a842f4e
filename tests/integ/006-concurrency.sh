# 64 links at once into one record directory: 64 complete, valid, distinct
# records; no temporary file left; nothing torn.
. "$(dirname "$0")/lib.sh"

write_main
pids=()
for i in $(seq 1 64); do
	"$SHIM" main.o -o "prog$i" 2>"err$i" &
	pids+=($!)
done
fails=0
for p in "${pids[@]}"; do wait "$p" || fails=$((fails + 1)); done
check_eq "all 64 links succeeded" 0 "$fails"
check_eq "64 records" 64 "$(record_count)"
check "all 64 validate against the schema" validate "$LINKSCOPE_DIR"/*.json
check_eq "64 distinct ids" 64 "$(cat "$LINKSCOPE_DIR"/*.json | grep -c '^ "id"' )"
check_eq "64 distinct outputs" 64 \
	"$(for f in "$LINKSCOPE_DIR"/*.json; do rec "$f" 'r["line"]["output"]'; done | sort -u | wc -l)"
check_eq "no temporary files left" 0 "$(find "$LINKSCOPE_DIR" -name '.*' -type f | wc -l)"
check_eq "no warnings printed" "" "$(cat err*)"
finish
