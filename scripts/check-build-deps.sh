#!/bin/sh
# Before the first compile of a plain `make`: is every header the build
# includes there? If not, say which is missing, its Debian package, and the
# one command that installs them, instead of gcc's "jansson.h: No such file
# or directory" (make demo and make check install them themselves, as root).
# Usage: check-build-deps.sh CC HEADER=PACKAGE...
set -u
cc=$1
shift
missing=""
for pair in "$@"; do
	header=${pair%%=*}
	package=${pair#*=}
	# bfd.h wants the names of the package that uses it first.
	if ! printf '#define PACKAGE "linkscope"\n#define PACKAGE_VERSION "0"\n#include <%s>\n' "$header" |
		$cc -E -x c - >/dev/null 2>&1; then
		echo "linkscope: missing build dependency: <$header> (Debian package $package)" >&2
		missing="$missing $package"
	fi
done
[ -z "$missing" ] && exit 0
echo "linkscope: install it with: apt-get install -y$missing   (or, as root: make deps)" >&2
exit 1
