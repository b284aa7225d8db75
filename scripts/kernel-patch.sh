#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-patch.sh - apply the project's quilt series to a kernel tree, once.
#
# quilt keeps what it applied in the tree's .pc/; patches already applied
# are not applied again, so a re-run with an unchanged series does nothing.
# A tree whose applied patches are not the start of the series (a patch
# was renamed, dropped or reordered) is refused: extract it afresh.
#
# Exit: 0 ok (including an empty series), 1 a patch does not apply, 2
# trouble (usage, no tree, no series, quilt missing, inconsistent tree).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=kernel-patch.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	cat <<USAGE
usage: $PROG -s SRCDIR [-p PATCHDIR]
Push every patch of PATCHDIR/series (default PATCHDIR: patches/) that is
not applied to SRCDIR yet, with quilt. V=1 shows quilt's output.
USAGE
}

die() {
	printf '%s: %s\n' "$PROG" "$*" >&2
	exit 2
}

step() {
	printf '  %-7s %s\n' "$1" "$2" >&2
}

# series FILE: the patch names in a quilt series file, in order.
series() {
	awk '/^[ \t]*(#|$)/ { next } { print $1 }' "$1"
}

# applied SRCDIR: the patches quilt has applied to SRCDIR, in order, from
# quilt's own record (asking quilt fails once the series lost a patch).
applied() {
	if [ -f "$1/.pc/applied-patches" ]; then
		cat "$1/.pc/applied-patches"
	fi
}

main() {
	local srcdir="" patchdir="$TOPDIR/patches" opt want have n out

	while getopts hp:s: opt; do
		case "$opt" in
		p) patchdir="$OPTARG" ;;
		s) srcdir="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ $# -ne 0 ] || [ -z "$srcdir" ]; then
		usage >&2
		exit 2
	fi
	[ -d "$srcdir" ] || die "'$srcdir' is not a directory"
	[ -f "$patchdir/series" ] || die "cannot read '$patchdir/series'"
	patchdir=$(cd "$patchdir" && pwd)

	want=$(series "$patchdir/series")
	[ -n "$want" ] || exit 0
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" quilt || exit 2

	QUILT_PATCHES="$patchdir"
	QUILT_PC=.pc
	export QUILT_PATCHES QUILT_PC
	have=$(applied "$srcdir")
	[ "$have" != "$want" ] || exit 0
	n=$(printf '%s\n' "$have" | grep -c . || :)
	if [ "$n" -gt 0 ] &&
		[ "$(printf '%s\n' "$want" | head -n "$n")" != "$have" ]; then
		die "'$srcdir' has patches applied that are not the start of '$patchdir/series' (extract the tree afresh)"
	fi

	step PATCH "$(printf '%s\n' "$want" | tail -n +"$((n + 1))" | grep -c .) of $(printf '%s\n' "$want" | grep -c .) patches"
	if out=$(cd "$srcdir" && quilt --quiltrc /dev/null push -a 2>&1); then
		[ "${V:-0}" != 1 ] || printf '%s\n' "$out" >&2
		exit 0
	fi
	printf '%s\n' "$out" >&2
	printf '%s: the series does not apply to %s\n' "$PROG" "$srcdir" >&2
	exit 1
}

main "$@"
