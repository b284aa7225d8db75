#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# overlay-path.sh - print the MAKEFILES= argument that puts this checkout's
# Kbuild overlay in front of a kernel build:
#
#   make -C "$KSRC" O=out LLVM=1 "$(path/to/kparity/kbuild/overlay-path.sh)" all
#
# The path is absolute: GNU make silently skips a MAKEFILES entry that does
# not exist, and resolves a relative one after -C, in the kernel tree.
#
# Exit: 0 printed, 2 trouble (usage, no overlay, a path make cannot take).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG='overlay-path.sh'
TOPDIR=$(cd "$(dirname "$0")/.." && pwd -P)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	cat <<USAGE
usage: $PROG
Print MAKEFILES=PATH, PATH the absolute path of this checkout's
kbuild/overlay.mk, for a kernel make's command line.
USAGE
}

main() {
	local overlay="$TOPDIR/kbuild/overlay.mk"

	case "${1:-}" in
	-h | --help) usage; exit 0 ;;
	esac
	[ $# -eq 0 ] || { usage >&2; exit 2; }
	[ -r "$overlay" ] || die "cannot read '$overlay'"
	case "$overlay" in
	*[[:space:]]*) die "'$overlay' has a blank in it, and MAKEFILES is a list split on blanks" ;;
	esac
	printf 'MAKEFILES=%s\n' "$overlay"
}

main "$@"
