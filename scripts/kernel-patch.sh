#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-patch.sh - apply the project's quilt series to a kernel tree, once.
#
# quilt keeps what it applied in the tree's .pc/; patches already applied
# are not applied again, so a re-run with an unchanged series does nothing.
# A patch pushed by quilt itself (quilt push) that the tree holds exactly
# as its file in the series is taken as applied. A patch whose file
# changed since it was applied (a git pull), or that is no longer where
# the series has it (renamed, dropped, reordered), is popped with the
# patches above it, from quilt's backups, and the series is pushed again
# from there; a copy of every patch as applied, in .pc/.kparity/, proves
# that popping it loses nothing.
#
# Nothing a maintainer did is discarded: a patch made by 'quilt new' and
# never refreshed, or edits in the tree no patch file holds yet, stop the
# run with one line naming them, before anything is popped; --discard pops
# them anyway. Refused are also a tree of another kernel version than the
# series pins, changes in files only unapplied patches touch, a tree
# patched from another patch directory, and a push that was interrupted
# (the message says how to undo it).
#
# Exit: 0 ok (including an empty series), 1 a patch does not apply, 2
# trouble (usage, no tree, no series, quilt missing, unsaved work,
# inconsistent tree).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=kernel-patch.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/series.sh
. "$TOPDIR/scripts/lib/series.sh"

usage() {
	cat <<USAGE
usage: $PROG -s SRCDIR [-p PATCHDIR] [-r] [--discard]
Push every patch of PATCHDIR/series (default PATCHDIR: the series of
SRCDIR's kernel, patches/VERSION.PATCHLEVEL/, as scripts/trees/ says) that is
not applied to SRCDIR yet, with quilt. V=1 shows quilt's output.
  -r         undo an interrupted push first: restore the files of the patch
             whose push did not finish from quilt's backups in SRCDIR/.pc/;
             or finish an interrupted pop (quilt pop -f)
  --discard  (or -D) pop applied patches holding work no patch file has
             (edits not refreshed, a 'quilt new' patch never refreshed),
             losing that work, instead of stopping
USAGE
}

# recover SRCDIR NAME: restore the files of NAME's interrupted push.
recover() {
	step RESTORE "$2 (interrupted push) from $1/.pc/$2/"
	(cd "$1" && "$QUILT_BACKUP" -r -t -B ".pc/$2/" -) >/dev/null ||
		die "cannot restore the backups in '$1/.pc/$2/'"
	rmdir "$1/.pc/$2" 2>/dev/null || :
}

# discard SRCDIR PATCHDIR LIST: pop the lowest patch of the unsaved LIST
# and everything above it.
discard() {
	local lowest

	lowest=$(patch_states "$1" "$2" | awk '$2 == "new" || $2 == "edited" { print $1; exit }')
	step DISCARD "$3"
	pop_from "$1" "$lowest" || die "cannot pop '$lowest' from '$1'"
}

main() {
	local srcdir="" patchdir="" opt want have n out arg
	local recover=0 discard=0 name stale list rc

	for arg in "$@"; do
		shift
		case "$arg" in
		--discard) set -- "$@" -D ;;
		--help) set -- "$@" -h ;;
		*) set -- "$@" "$arg" ;;
		esac
	done
	while getopts Dhp:rs: opt; do
		case "$opt" in
		D) discard=1 ;;
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
	if [ -z "$patchdir" ]; then
		tree_version "$srcdir" >/dev/null ||
			die "'$srcdir' is not a kernel tree (no Makefile with VERSION, PATCHLEVEL and SUBLEVEL)"
		rc=0
		patchdir=$(series_dir "$srcdir") || rc=$?
		# series_dir said why it refused (2); 1 is a kernel without data
		[ "$rc" -ne 2 ] || exit 2
		if [ "$rc" -ne 0 ]; then
			warn "no series for Linux $(tree_version "$srcdir") (scripts/trees/ has no file for it): '$srcdir' is used as it is"
			exit 0
		fi
	fi
	need_patchdir "$srcdir"

	want=$(series_names "$patchdir/series")
	[ -n "$want" ] || [ -n "$(applied_names "$srcdir")" ] || exit 0
	check_pin "$patchdir/series" "$srcdir"
	quilt_setup "$patchdir"
	use_patchdir "$srcdir" "$patchdir"

	name=$(interrupted "$srcdir")
	if [ -n "$name" ]; then
		[ "$recover" = 1 ] ||
			die "a push of '$name' was interrupted in '$srcdir'; undo it with '$PROG -r -s $srcdir' or $(recover_hint "$srcdir" "$name")"
		recover "$srcdir" "$name"
	fi
	name=$(interrupted_pop "$srcdir" "$patchdir")
	if [ -n "$name" ]; then
		[ "$recover" = 1 ] || die "$(pop_msg "$srcdir" "$name")"
		step POP "$name (interrupted pop)"
		q "$srcdir" pop -f -q >/dev/null || die "cannot pop '$name' in '$srcdir'"
	fi
	if list=$(unsaved "$srcdir" "$patchdir"); then
		[ "$discard" = 1 ] || die "$(unsaved_msg "$srcdir" "$list")"
		discard "$srcdir" "$patchdir" "$list"
	fi
	stale=$(stale_patch "$srcdir" "$patchdir")
	if [ -n "$stale" ]; then
		step UNPATCH "$stale changed or left the series since it was applied"
		pop_from "$srcdir" "$stale" || die "cannot pop '$stale' from '$srcdir'"
	fi
	have=$(applied_names "$srcdir")
	if [ "$have" = "$want" ]; then
		[ -z "$have" ] || record "$srcdir" "$patchdir"
		exit 0
	fi
	n=$(printf '%s\n' "$have" | grep -c . || :)

	if out=$(local_changes "$srcdir"); then
		die "$(changes_msg "$srcdir" "$out")"
	fi

	for name in $want; do
		[ -r "$patchdir/$name" ] ||
			die "cannot read '$patchdir/$name' (named in '$patchdir/series'; 'quilt refresh' writes a patch 'quilt new' made)"
	done
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
