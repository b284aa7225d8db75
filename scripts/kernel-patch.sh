#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-patch.sh - apply the project's quilt series to a kernel tree, once.
#
# quilt keeps what it applied in the tree's .pc/; patches already applied
# are not applied again, so a re-run with an unchanged series does nothing.
# A patch whose file changed since it was applied (a refresh, an edit), or
# that is no longer where the series has it (renamed, dropped, reordered),
# is popped with the patches above it, from quilt's backups, and the series
# is pushed again from there. Refused are a tree of another kernel version
# than the series pins, a tree with local changes where the series works,
# and a push that was interrupted (the message says how to undo it).
#
# Exit: 0 ok (including an empty series), 1 a patch does not apply, 2
# trouble (usage, no tree, no series, quilt missing, inconsistent tree).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=kernel-patch.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=/dev/null # series-lib.sh is checked on its own
. "$TOPDIR/scripts/series-lib.sh"

usage() {
	cat <<USAGE
usage: $PROG -s SRCDIR [-p PATCHDIR] [-r]
Push every patch of PATCHDIR/series (default PATCHDIR: patches/) that is
not applied to SRCDIR yet, with quilt. V=1 shows quilt's output.
  -r  undo an interrupted push first: restore the files of the patch whose
      push did not finish from quilt's backups in SRCDIR/.pc/
USAGE
}

die() {
	printf '%s: %s\n' "$PROG" "$*" >&2
	exit 2
}

step() {
	printf '  %-7s %s\n' "$1" "$2" >&2
}

# recover SRCDIR NAME: restore the files of NAME's interrupted push.
recover() {
	step RESTORE "$2 (interrupted push) from $1/.pc/$2/"
	(cd "$1" && "$QUILT_BACKUP" -r -t -B ".pc/$2/" -) >/dev/null ||
		die "cannot restore the backups in '$1/.pc/$2/'"
	rmdir "$1/.pc/$2" 2>/dev/null || :
}

main() {
	local srcdir="" patchdir="$TOPDIR/patches" opt want have n out
	local recover=0 name stale

	while getopts hp:rs: opt; do
		case "$opt" in
		p) patchdir="$OPTARG" ;;
		r) recover=1 ;;
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

	want=$(series_names "$patchdir/series")
	[ -n "$want" ] || exit 0
	check_pin "$patchdir/series" "$srcdir"
	quilt_setup "$patchdir"

	name=$(interrupted "$srcdir")
	if [ -n "$name" ]; then
		[ "$recover" = 1 ] ||
			die "a push of '$name' was interrupted in '$srcdir'; undo it with '$PROG -r -s $srcdir' or $(recover_hint "$srcdir" "$name")"
		recover "$srcdir" "$name"
	fi
	stale=$(stale_patch "$srcdir" "$patchdir")
	if [ -n "$stale" ]; then
		step UNPATCH "$stale changed or left the series since it was applied"
		pop_from "$srcdir" "$stale" || die "cannot pop '$stale' from '$srcdir'"
	fi
	have=$(applied_names "$srcdir")
	if [ "$have" = "$want" ]; then
		[ -f "$srcdir/.pc/kparity-sums" ] || record "$srcdir" "$patchdir"
		exit 0
	fi
	n=$(printf '%s\n' "$have" | grep -c . || :)

	if out=$(local_changes "$srcdir"); then
		die "'$srcdir' has local changes where the series works: $out (extract the tree afresh, or refresh the patch)"
	fi

	step PATCH "$(printf '%s\n' "$want" | tail -n +"$((n + 1))" | grep -c .) of $(printf '%s\n' "$want" | grep -c .) patches"
	if out=$(q "$srcdir" push -a 2>&1); then
		[ "${V:-0}" != 1 ] || printf '%s\n' "$out" >&2
		record "$srcdir" "$patchdir"
		exit 0
	fi
	printf '%s\n' "$out" >&2
	record "$srcdir" "$patchdir"
	printf '%s: the series does not apply to %s\n' "$PROG" "$srcdir" >&2
	exit 1
}

main "$@"
