#!/bin/sh
# Build the case of ../shared/background in the current directory with
# Debian's aarch64 cross toolchain, and print the link line of rustc's shape:
# -nodefaultlibs, rustc's native list ending in -lc, --copy-dt-needed-entries
# after that -lc (the workaround that did not help), then the appended group.
set -e
here=$(dirname "$0")
aarch64-linux-gnu-gcc -c -fPIC -fstack-protector-all "$here/call.c" -o call.o
aarch64-linux-gnu-ar rcs libiree_runtime_unified.a call.o
aarch64-linux-gnu-gcc -c -fPIC "$here/main.c" -o main.o
echo "main.o -nodefaultlibs -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -Wl,--copy-dt-needed-entries -L. -Wl,--start-group -l:libiree_runtime_unified.a -Wl,--end-group"
