#!/usr/bin/env bash
# make check-arm64: linkscope built and tested natively on aarch64, the
# architecture of the job we exist for (issue #40), on an x86_64 machine.
#
# It makes, once, a Debian 12 arm64 root under qemu-user (debootstrap, with
# qemu-aarch64 registered in binfmt_misc with the F flag, so the emulator
# works inside the chroot) and installs the build deps there with
# scripts/install-deps.sh; the root is cached outside the tree (ARM64_ROOT).
# Then, each run: brings the tree in (the files whose content changed, not
# build/), builds incrementally with DEVELOPER=1 (warnings are errors), runs
# every unit test, the seed case natively (tests/integ/020:
# /lib/ld-linux-aarch64.so.1 and the verified trailing -lc) and a fixed sample of integration suites that covers replay,
# explain, fix, report, whatif and bundle. It prints the time of each phase.
# Not part of .ci/run (emulation is slow: docs/bench.md says how slow).
#
#   scripts/check-arm64.sh [setup|run|all]     (default: all; root only)
#   ARM64_ROOT=DIR   the root's cache (default /var/cache/linkscope-arm64/root)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
root=${ARM64_ROOT:-/var/cache/linkscope-arm64/root}
phase=${1:-all}
binfmt=/proc/sys/fs/binfmt_misc

# The integration suites run, besides 020 (the seed case): what each covers.
# replay and explain: 002, 018, 020, 091; fix: 020, 105; report: 020, 016;
# whatif: 142; bundle: 141.
SAMPLE="001-gcc-link-success 002-gcc-link-failure 016-show-c-link 018-show-aarch64
020-replay-real-case 091-reloc-aarch64 105-edit-kinds 141-bundle 142-whatif-sources"

die() { echo "check-arm64: $*" >&2; exit 1; }
now() { date +%s; }

[ "$(id -u)" -eq 0 ] || die "must run as root (debootstrap, chroot, binfmt_misc)"

# register_qemu: qemu-aarch64 in binfmt_misc, with the F flag (the kernel
# opens the emulator when it is registered, so it need not exist in the root).
register_qemu() {
	local conf=/usr/lib/binfmt.d/qemu-aarch64.conf line
	[ -f "$binfmt/register" ] || mount -t binfmt_misc binfmt_misc "$binfmt" ||
		die "cannot mount binfmt_misc on $binfmt"
	if [ -f "$binfmt/qemu-aarch64" ]; then
		grep -q '^flags:.*F' "$binfmt/qemu-aarch64" ||
			die "$binfmt/qemu-aarch64 is registered without the F flag; remove it (echo -1 > $binfmt/qemu-aarch64)"
		return
	fi
	[ -f "$conf" ] || die "no $conf (apt-get install qemu-user-static)"
	line=$(grep -v '^#' "$conf" | head -n 1)
	case ${line##*:} in *F*) ;; *) line="${line}F" ;; esac
	printf '%s' "$line" >"$binfmt/register" || die "cannot register qemu-aarch64 in $binfmt"
}

# host_mirror: the Debian mirror this machine's apt uses (deb822 or one-line form).
host_mirror() {
	local m
	m=$(sed -n 's/^URIs: *\([^ ]*\/debian\)\/*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	[ -n "$m" ] || m=$(sed -n 's/^deb  *\(\[[^]]*\] *\)\{0,1\}\([^ ]*\/debian\)\/* .*/\2/p' /etc/apt/sources.list 2>/dev/null | head -n 1)
	[ -n "$m" ] || die "cannot tell the Debian mirror from /etc/apt"
	echo "$m"
}

# in_root CMD...: run CMD in the arm64 root, with /proc, /dev and a /tmp of its own.
mounted=""
mount_root() {
	local d
	for d in proc dev dev/pts sys; do
		mountpoint -q "$root/$d" && continue
		case $d in
		proc) mount -t proc proc "$root/proc" ;;
		sys) mount -t sysfs sys "$root/sys" ;;
		*) mount --bind "/$d" "$root/$d" ;;
		esac
		mounted="$root/$d $mounted"
	done
}
umount_root() {
	local d
	for d in $mounted; do umount -l "$d" 2>/dev/null || true; done
	mounted=""
}
trap umount_root EXIT
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root LANG=C.UTF-8 "$@"; }

setup() {
	local t0 mirror
	t0=$(now)
	command -v debootstrap >/dev/null && [ -f /usr/lib/binfmt.d/qemu-aarch64.conf ] || {
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			qemu-user-static debootstrap >/dev/null
	}
	register_qemu
	if [ ! -f "$root/.linkscope-base" ]; then
		mirror=$(host_mirror)
		rm -rf "$root"
		mkdir -p "$root"
		echo "check-arm64: debootstrap bookworm arm64 into $root"
		nice debootstrap --arch=arm64 --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
			die "debootstrap failed; see $root.debootstrap.log"
		touch "$root/.linkscope-base"
	fi
	mount_root
	cp "$src/scripts/install-deps.sh" "$root/root/install-deps.sh"
	in_root nice sh /root/install-deps.sh || die "install-deps.sh failed in the arm64 root"
	umount_root
	echo "check-arm64: setup took $(($(now) - t0)) s"
}

# sync_tree DIR: DIR holds the tree's files as they are now (tracked and new,
# not ignored; build/ stays out). Only a file whose content differs is copied,
# and a file the tree no longer has is removed (the Makefile builds every
# *.c it finds), so an unchanged file keeps its old mtime and make rebuilds
# only what the changes touch: a checkout's fresh mtimes would otherwise
# cost the whole emulated build again.
sync_tree() {
	local dir=$1 f list
	mkdir -p "$dir"
	list=$(mktemp)
	(cd "$src" && git ls-files -z --cached --others --exclude-standard) >"$list"
	while IFS= read -r -d '' f; do
		[ -e "$src/$f" ] || continue
		cmp -s "$src/$f" "$dir/$f" && continue
		mkdir -p "$dir/$(dirname "$f")"
		rm -f "$dir/$f"
		cp -P "$src/$f" "$dir/$f"
	done <"$list"
	(cd "$dir" && find . -path ./build -prune -o \( -type f -o -type l \) -printf '%P\0') |
		while IFS= read -r -d '' f; do
			grep -qzFx -- "$f" "$list" || rm -f "$dir/$f"
		done
	rm -f "$list"
}

run() {
	local t0 t1 tree fails=0 s
	t0=$(now)
	register_qemu
	[ -f "$root/.linkscope-base" ] || die "no arm64 root at $root: run '$0 setup' first"
	[ "$(in_root uname -m)" = aarch64 ] || die "the root at $root does not run as aarch64"
	tree=$root/src/linkscope
	sync_tree "$tree"
	mount_root
	in_root sh -c 'cd /src/linkscope && nice make -j"$(nproc)" DEVELOPER=1 all unit-build' ||
		die "the build failed natively on aarch64"
	t1=$(now)
	echo "check-arm64: build took $((t1 - t0)) s"
	in_root sh -c "cd /src/linkscope && LK_ONLY='^(unit/|integ/($(echo $SAMPLE | tr ' ' '|'))$)' \
		nice bash tests/run.sh build" | tee "$root/src/check-arm64.log" || fails=1
	grep -q ' 0 failed' "$root/src/check-arm64.log" || fails=1
	echo "check-arm64: tests took $(($(now) - t1)) s, all $(($(now) - t0)) s"
	umount_root
	[ $fails = 0 ] || die "FAILED natively on aarch64 (log: $root/src/check-arm64.log)"
	echo "check-arm64: passed"
}

case $phase in
setup) setup ;;
run) run ;;
all) setup; run ;;
*) die "usage: $0 [setup|run|all]" ;;
esac
