# Issue #29, point 1: the record dir is the user's. The shim records
# nothing into a dir, blobs/ or views/ owned by another user or writable by
# others (the link runs as without it, one line on stderr), never names a
# planted blob as its kept copy, and ignores a views/ entry another user
# wrote; the analyzer uses no kept copy that is not the user's or not of
# the content its name says; LINKSCOPE_DIR_SHARED=1 lets a shared dir in,
# with its warning. Root is the user here; user nobody (65534) the other.
. "$(dirname "$0")/lib.sh"

write_main
chmod 755 "$T"	# user nobody plants below it
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
count_json() { find "$1" -maxdepth 1 -name '2*.json' 2>/dev/null | wc -l; }
# A line of the shim's own on stderr, and the rest.
shim_lines() { grep -c '^linkscope-cc:' "$1" || true; }
others() { grep -v '^linkscope-cc:' "$1" || true; }

# 1. A shared dir of another user's, sticky and open to all (a 1777 /tmp-like dir).
mkdir shared && chown 65534:65534 shared && chmod 1777 shared
run_capture direct cc main.o -o direct
run_capture sh1 env LINKSCOPE_DIR="$T/shared" "$SHIM" main.o -o x1
check_eq "another user's 1777 dir: the link's status" "$(cat "$T/direct.rc")" "$(cat "$T/sh1.rc")"
check_eq "and it linked" hello "$(./x1)"
check "and the same stdout" cmp -s "$T/direct.out" "$T/sh1.out"
check_eq "one line on stderr" 1 "$(wc -l <"$T/sh1.err")"
check_contains "which names the dir and the cause" "$(cat "$T/sh1.err")" \
	"this link is not recorded: refusing record directory '$T/shared': owned by another user (uid 65534, mode 1777); LINKSCOPE_DIR_SHARED=1 uses it anyway"
check_eq "nothing recorded there" 0 "$(count_json shared)"
check_eq "nothing made there" "" "$(ls -A shared)"
# A failed link: the driver's status and messages, and our one line.
run_capture fdirect cc missing.o -o y
run_capture fsh env LINKSCOPE_DIR="$T/shared" "$SHIM" missing.o -o y
check_eq "a failed link: the driver's status" "$(cat "$T/fdirect.rc")" "$(cat "$T/fsh.rc")"
check_eq "the driver's stderr unchanged" "$(cat "$T/fdirect.err")" "$(others "$T/fsh.err")"
check_eq "and one line of ours" 1 "$(shim_lines "$T/fsh.err")"
# Writable by its group only: refused too.
mkdir grp && chown 65534:65534 grp && chmod 2775 grp
run_capture grp env LINKSCOPE_DIR="$T/grp" "$SHIM" main.o -o x1
check_contains "another user's group-writable dir: refused" "$(cat "$T/grp.err")" \
	"refusing record directory '$T/grp': owned by another user"
check_eq "and not recorded" 0 "$(count_json grp)"

# 1b. A dir of ours open to all (1777, as a CI container's /tmp or a shared
# build dir): not ours to change. Refused with one line, its mode as it was,
# the link as without the shim; LINKSCOPE_DIR_SHARED=1 records into it as it is.
mkdir ownopen && chmod 1777 ownopen
run_capture oo env LINKSCOPE_DIR="$T/ownopen" "$SHIM" main.o -o x1o
check_eq "our own 1777 dir: the link's status" "$(cat "$T/direct.rc")" "$(cat "$T/oo.rc")"
check_eq "and it linked" hello "$(./x1o)"
check "and the same stdout" cmp -s "$T/direct.out" "$T/oo.out"
check_eq "its mode unchanged" 1777 "$(stat -c %a ownopen)"
check_eq "one line on stderr" 1 "$(wc -l <"$T/oo.err")"
check_contains "which names the dir and the cause" "$(cat "$T/oo.err")" \
	"linkscope-cc: warning: this link is not recorded: refusing record directory '$T/ownopen': writable by others (uid 0, mode 1777); LINKSCOPE_DIR_SHARED=1 uses it anyway"
check_eq "nothing recorded there" "" "$(ls -A ownopen)"
run_capture oos env LINKSCOPE_DIR="$T/ownopen" LINKSCOPE_DIR_SHARED=1 "$SHIM" main.o -o x1o
check_eq "with LINKSCOPE_DIR_SHARED=1: the link's status" 0 "$(cat "$T/oos.rc")"
check_contains "one warning line" "$(cat "$T/oos.err")" \
	"linkscope-cc: warning: using record directory '$T/ownopen' (writable by others: uid 0, mode 1777) as LINKSCOPE_DIR_SHARED=1 asks"
check_eq "recorded" 1 "$(count_json ownopen)"
check_eq "its mode still unchanged" 1777 "$(stat -c %a ownopen)"
check_eq "the record private" 600 "$(stat -c %a ownopen/2*.json)"

# 2. A dir of ours whose blobs/ or views/ another user made (while it was open to all).
for sub in blobs views; do
	mkdir -p "own-$sub" && chmod 1777 "own-$sub"
	nobody mkdir -m 0777 "own-$sub/$sub"
	chmod 700 "own-$sub"	# closed since: the dir is ours and private, its subdir is not
	run_capture "$sub" env LINKSCOPE_DIR="$T/own-$sub" "$SHIM" main.o -o x2
	check_eq "$sub/ of another user: the link's status" 0 "$(cat "$T/$sub.rc")"
	check_eq "$sub/ of another user: one line on stderr" 1 "$(wc -l <"$T/$sub.err")"
	check_contains "$sub/ of another user: named" "$(cat "$T/$sub.err")" \
		"this link is not recorded: refusing record subdirectory '$T/own-$sub/$sub': owned by another user (uid 65534, mode 0777)"
	check_eq "$sub/ of another user: not recorded" 0 "$(count_json "own-$sub")"
done
# Ours but open to others, or a symlink to elsewhere: refused as well.
mkdir -p openblobs/blobs && chmod 1777 openblobs/blobs
run_capture openb env LINKSCOPE_DIR="$T/openblobs" "$SHIM" main.o -o x2
check_contains "a blobs/ of ours writable by others: refused" "$(cat "$T/openb.err")" \
	"refusing record subdirectory '$T/openblobs/blobs': writable by others (uid 0, mode 1777)"
mkdir -p linked theirs && chown 65534:65534 theirs && ln -s "$T/theirs" linked/blobs
run_capture linked env LINKSCOPE_DIR="$T/linked" "$SHIM" main.o -o x2
check_contains "a blobs/ that is a symlink to another user's dir: refused" "$(cat "$T/linked.err")" \
	"refusing record subdirectory '$T/linked/blobs': owned by another user"
check_eq "nothing written through it" "" "$(ls -A theirs)"
mkdir -p filed && : >filed/views
run_capture filed env LINKSCOPE_DIR="$T/filed" "$SHIM" main.o -o x2
check_contains "a views/ that is a file: refused" "$(cat "$T/filed.err")" \
	"refusing record subdirectory '$T/filed/views': not a directory"

# 3. A planted blob: blobs/<sha256 of conftest.c> holding other source.
printf 'int main(void) { return 0; }\n' >conftest.c
sum=$(sha256sum conftest.c | cut -d' ' -f1)
mkdir -p "$LINKSCOPE_DIR/blobs"
printf 'extern int planted(void);\nint main(void) { return planted(); }\n' >"$LINKSCOPE_DIR/blobs/$sum"
chown 65534:65534 "$LINKSCOPE_DIR/blobs/$sum" && chmod 600 "$LINKSCOPE_DIR/blobs/$sum"
run_capture plant "$SHIM" conftest.c -o conftest
check_eq "a planted blob: the link as without it" 0 "$(cat "$T/plant.rc")"
r=$(last_record)
check_eq "the record names the source's blob" "blobs/$sum" \
	"$(rec "$r" '[k["blob"] for k in r["kept"] if k["reason"] == "source"][0]')"
check_eq "which now holds the source" "$sum" "$(sha256sum <"$LINKSCOPE_DIR/blobs/$sum" | cut -d' ' -f1)"
check_eq "and is ours, private" "root 600" "$(stat -c '%U %a' "$LINKSCOPE_DIR/blobs/$sum")"
# One of ours whose content is not its name (cut short, or written by hand): replaced too.
printf 'int main(void) { return 1; }\n' >"$LINKSCOPE_DIR/blobs/$sum"
"$SHIM" conftest.c -o conftest
check_eq "a blob of ours of other content: replaced" "$sum" "$(sha256sum <"$LINKSCOPE_DIR/blobs/$sum" | cut -d' ' -f1)"
check_eq "no held names left" "" "$(find "$LINKSCOPE_DIR/blobs" -name '.*')"

# 4. A views/ entry another user wrote: a wrong view, never put in our records.
"$SHIM" main.o -o x3
entry=$(find "$LINKSCOPE_DIR/views" -type f ! -name '.*' | head -n 1)
check "the link left a view entry" test -n "$entry"
if [ -n "$entry" ]; then
	sed -i 's/--build-id/--plantedX/' "$entry"	# the same length: well-formed
	chown 65534:65534 "$entry"
	"$SHIM" main.o -o x3
	r=$(last_record)
	check_eq "another user's views/ entry: its view not in the record" 0 \
		"$(rec "$r" 'sum(w == "--plantedX" for c in r["expansion"]["commands"] for w in c)')"
	check_eq "and the entry is written anew, ours" root "$(stat -c %U "$entry")"
fi

# 5. The analyzer: kept copies that are not the user's, or not of their name's content.
cat >planted.c <<'C'
extern int planted(void);
int main(void) { return planted(); }
C
cc -c planted.c -o planted.o
printf 'int main(void) { return 0; }\n' >conftest.c
rm -rf "$LINKSCOPE_DIR" && "$SHIM" conftest.c -o conftest && rm -f conftest.c conftest
r=$(last_record)
obj=$LINKSCOPE_DIR/$(rec "$r" '[k["blob"] for k in r["kept"] if k["reason"] == "source-object"][0]')
run_capture good "$LINKSCOPE" explain "$r"
check_eq "the analysis of the record as kept: no note" "" "$(cat "$T/good.err")"
cp "$obj" obj.saved
cp planted.o "$obj"
run_capture mism "$LINKSCOPE" explain "$r"
check_contains "a kept copy that is not its name's content: named, not used" "$(cat "$T/mism.err")" \
	"linkscope: not using the copy of 'conftest.c': kept copy '$obj' does not hold what its name says"
check_eq "said once" 1 "$(wc -l <"$T/mism.err")"
check_eq "what it holds is not analysed" 0 "$(grep -c planted "$T/mism.out")"
run_capture mrep "$LINKSCOPE" report --format json "$r"
check_eq "nor reported" 0 "$(grep -c planted "$T/mrep.out")"
cp obj.saved "$obj" && chown 65534:65534 "$obj"
run_capture foreign "$LINKSCOPE" explain "$r"
check_contains "a kept copy of another user's: not used" "$(cat "$T/foreign.err")" \
	"kept copy '$obj' is owned by another user (uid 65534)"
run_capture fshared env LINKSCOPE_DIR_SHARED=1 "$LINKSCOPE" explain "$r"
check_contains "with LINKSCOPE_DIR_SHARED=1 it is used, said once" "$(cat "$T/fshared.err")" \
	"linkscope: using the kept copy '$obj' of another user (uid 65534) as LINKSCOPE_DIR_SHARED=1 asks"
check_eq "and read as without the variable" "$(cat "$T/good.out")" "$(cat "$T/fshared.out")"
chown 0:0 "$obj" && chown 65534:65534 "$LINKSCOPE_DIR/blobs"
run_capture fblobs "$LINKSCOPE" explain "$r"
check_contains "a blobs/ of another user's: no copy from it" "$(cat "$T/fblobs.err")" \
	"not using the copies kept in '$LINKSCOPE_DIR/blobs': refusing record subdirectory '$LINKSCOPE_DIR/blobs': owned by another user"
chown 0:0 "$LINKSCOPE_DIR/blobs"

# 6. LINKSCOPE_DIR_SHARED=1: the shared dir is used, with its warning, by the shim and the analyzer.
printf 'int main(void) { return 0; }\n' >conftest.c
run_capture opt env LINKSCOPE_DIR="$T/shared" LINKSCOPE_DIR_SHARED=1 "$SHIM" conftest.c -o conftest
check_eq "LINKSCOPE_DIR_SHARED=1: the link's status" 0 "$(cat "$T/opt.rc")"
check_eq "recorded" 1 "$(count_json shared)"
check_eq "one warning line" 1 "$(wc -l <"$T/opt.err")"
check_contains "which says what it allows" "$(cat "$T/opt.err")" \
	"linkscope-cc: warning: using record directory '$T/shared' (owned by another user: uid 65534, mode 1777) as LINKSCOPE_DIR_SHARED=1 asks"
check_eq "the dir is left as it was" "nobody 1777" "$(stat -c '%U %a' shared)"
rs=$(find shared -maxdepth 1 -name '2*.json')
rm -f conftest.c
run_capture sa "$LINKSCOPE" explain "$rs"
check_contains "the analyzer, without it: no kept copy from that dir" "$(cat "$T/sa.err")" \
	"not using the copies kept in '$T/shared/blobs': refusing record directory '$T/shared': owned by another user"
run_capture sb env LINKSCOPE_DIR_SHARED=1 "$LINKSCOPE" explain "$rs"
check_contains "with it: the warning" "$(cat "$T/sb.err")" \
	"linkscope: using record directory '$T/shared' (owned by another user: uid 65534, mode 1777) as LINKSCOPE_DIR_SHARED=1 asks"
check_contains "without it, the object kept there is not read" "$(cat "$T/sa.out")" "the outcome is unknown"
check_contains "with it, it is" "$(cat "$T/sb.out")" "the link succeeds"
finish
