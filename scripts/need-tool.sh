#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# need-tool.sh - check that programs are on PATH and name the Debian
# package of each one that is not.
#
# Exit: 0 all found, 2 one is missing (or usage).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=need-tool.sh

usage() {
	cat <<USAGE
usage: $PROG [-p PROGNAME] TOOL...
Print one line per TOOL that is not on PATH, naming the Debian package that
provides it, prefixed with PROGNAME (default: $PROG); exit 2 if any is.
USAGE
}

# package TOOL: the Debian (bookworm) package that installs TOOL.
package() {
	case "$1" in
	clang) echo clang ;;
	ld.lld) echo lld ;;
	clang-[0-9]*) echo "clang-${1#clang-}" ;;
	ld.lld-[0-9]*) echo "lld-${1#ld.lld-}" ;;
	llvm-*-[0-9]*) echo "llvm-${1##*-}" ;;
	llvm-*) echo llvm ;;
	gcc | cc) echo gcc ;;
	ld | as | nm | readelf) echo binutils ;;
	python3) echo python3 ;;
	arm-linux-gnueabi-*) echo gcc-arm-linux-gnueabi ;;
	aarch64-linux-gnu-*) echo gcc-aarch64-linux-gnu ;;
	qemu-system-x86_64 | qemu-system-i386) echo qemu-system-x86 ;;
	qemu-system-arm | qemu-system-aarch64) echo qemu-system-arm ;;
	quilt) echo quilt ;;
	jq) echo jq ;;
	sqlite3) echo sqlite3 ;;
	ccache) echo ccache ;;
	timeout) echo coreutils ;;
	make) echo make ;;
	*) echo "" ;;
	esac
}

main() {
	local prog="$PROG" opt tool pkg bad=0

	while getopts hp: opt; do
		case "$opt" in
		p) prog="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -gt 0 ] || { usage >&2; exit 2; }

	for tool in "$@"; do
		command -v "$tool" >/dev/null 2>&1 && continue
		bad=1
		pkg=$(package "$tool")
		if [ -n "$pkg" ]; then
			printf "%s: cannot find '%s' (Debian package: %s)\n" "$prog" "$tool" "$pkg" >&2
		else
			printf "%s: cannot find '%s'\n" "$prog" "$tool" >&2
		fi
	done
	[ "$bad" = 0 ] || exit 2
}

main "$@"
