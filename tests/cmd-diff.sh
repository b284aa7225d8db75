#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# cmd-diff.sh OLD NEW: compare the compile commands Kbuild recorded in two
# build directories (the first line of every .*.o.cmd outside tools/, whose
# own build system records absolute paths). Prints a unified
# diff of the commands that differ, or of the objects only one directory
# built, and nothing when the two builds compiled alike.
#
# Exit: 0 the same commands, 1 they differ, 2 trouble.
set -eu

PROG=cmd-diff.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	echo "usage: $PROG OLD-BUILDDIR NEW-BUILDDIR"
}

# commands DIR: "OBJECT := COMMAND" for every object DIR compiled, sorted
commands() {
	(cd "$1" && find . -path ./tools -prune -o -name '.*.o.cmd' -exec sed -s -n '1s/^cmd_//p' {} +) | LC_ALL=C sort
}

main() {
	[ $# -eq 2 ] || { usage >&2; exit 2; }
	for dir in "$1" "$2"; do
		[ -f "$dir/.config" ] || die "'$dir' is not a kernel build directory (no .config)"
	done
	tmp=$(mktemp -d) || die "cannot create a temporary directory"
	trap 'rm -rf "$tmp"' EXIT
	commands "$1" >"$tmp/old"
	commands "$2" >"$tmp/new"
	[ -s "$tmp/old" ] || die "'$1' holds no compile commands"
	diff -U0 --label "$1" --label "$2" "$tmp/old" "$tmp/new" && return 0
	exit 1
}

main "$@"
