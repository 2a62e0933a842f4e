#!/bin/sh
# Build the case of ../shared/background in the current directory for
# aarch64 (natively on an aarch64 host, else with Debian's cross toolchain;
# $AARCH64_CC names the gcc used), and print the link line of rustc's shape:
# -nodefaultlibs, rustc's native list ending in -lc, --copy-dt-needed-entries
# after that -lc (the workaround that did not help), then the appended group.
set -e
here=$(dirname "$0")
case $(cc -dumpmachine) in
aarch64-*) cc=cc ar=ar ;;
*) cc=aarch64-linux-gnu-gcc ar=aarch64-linux-gnu-ar ;;
esac
$cc -c -fPIC -fstack-protector-all "$here/call.c" -o call.o
$ar rcs libiree_runtime_unified.a call.o
$cc -c -fPIC "$here/main.c" -o main.o
echo "main.o -nodefaultlibs -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -Wl,--copy-dt-needed-entries -L. -Wl,--start-group -l:libiree_runtime_unified.a -Wl,--end-group"
