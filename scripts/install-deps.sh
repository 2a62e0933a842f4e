#!/bin/sh
# Install the Debian packages that building and testing linkscope need, and
# only those that are missing. As root: apt-get. Otherwise: print the exact
# command and fail, so nothing half-works.
set -eu

PACKAGES="gcc g++ make pkg-config binutils libjansson-dev libcmocka-dev libelf-dev \
binutils-dev libarchive-dev libzstd-dev python3 python3-jsonschema cmake clang libclang-rt-14-dev \
zlib1g-dev zstd strace lld mold meson ninja-build cmark-gfm autoconf"
# The other architecture's cross toolchain: the tests link for both x86_64 and
# aarch64, the host's natively (a cross gcc for the host itself makes no sense).
case $(dpkg --print-architecture) in
amd64) PACKAGES="$PACKAGES gcc-aarch64-linux-gnu libc6-dev-arm64-cross" ;;
arm64) PACKAGES="$PACKAGES gcc-x86-64-linux-gnu libc6-dev-amd64-cross" ;;
esac
# cmark-gfm: GitHub's Markdown renderer, which tests/integ/131 renders the reports with;
# autoconf: 131 runs a real configure through the shim.
# zstd: the CLI, which tests/integ/141 and 149 read and make bundles with (zstd | tar),
# as a user would; the build links libzstd only.
# lld and mold: the tests link with the real ones too (issue #19).
# `install-deps.sh bench`: also what make bench needs (a real 160-archive line).
[ "${1:-}" = bench ] && PACKAGES="$PACKAGES g++ llvm-14-dev valgrind"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "linkscope: missing Debian packages:$missing" >&2
	echo "linkscope: run as root: apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
echo "linkscope: installing:$missing"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
