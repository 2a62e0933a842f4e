# Helpers of the tests that link one option with the real GNU ld, lld 14,
# rustc's rust-lld and mold (097, 140), sourced after lib.sh; they link
# the test's main.o.

gccld="$(rustc --print sysroot 2>/dev/null || "$HOME/.cargo/bin/rustc" --print sysroot)/lib/rustlib/$HOST_ARCH-unknown-linux-gnu/bin/gcc-ld"

# linked NAME LINKER OPTION: the real linker's status through the shim, the record kept as $T/NAME-LINKER.json.
linked() {
	local name=$1 ld=$2 opt=$3 how
	case $ld in
	rust-lld) how=(-B"$gccld" -fuse-ld=lld) ;;
	bfd) how=() ;;
	*) how=(-fuse-ld="$ld") ;;
	esac
	"$SHIM" -- cc "${how[@]}" main.o "-Wl,$opt" -o "p-$name-$ld" >/dev/null 2>&1
	echo $?
	cp "$(last_record)" "$T/$name-$ld.json"
}

# own RECORD: the replay's verdict for the record's own linker, and whether it agrees with it.
own() { "$LINKSCOPE" report --format json "$1" | "$PY" -c 'import json,sys; r=json.load(sys.stdin); f=r["linker"]["flavor"]; print(r["predicted"]["linkers"]["bfd" if f == "default" else f], r["linker"]["agrees_with_replay"])'; }
