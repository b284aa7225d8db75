#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# series-status.sh - which patches of the quilt series a kernel tree has
# applied, and for each patch its subject and the files it touches.
#
# One line per patch, 'applied' or 'unapplied', its name and subject, then
# its files indented below. Last come the notes: a push that was
# interrupted (with the command that undoes it), work in the tree no patch
# file holds yet (with the commands that keep it), the first patch that
# changed or left the series since it was applied, or else local changes
# where the series works.
#
# Exit: 0 ok, 2 trouble (usage, no series, a tree given with -s or KSRC=
# that does not exist, wrong kernel version).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=series-status.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/series.sh
. "$TOPDIR/scripts/lib/series.sh"

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-s SRCDIR] [-p PATCHDIR]
Show the state of PATCHDIR/series (default: the series of the tree, patches/TREE/) in SRCDIR (default:
KSRC, else BUILDDIR/src/linux-source-6.1, BUILDDIR defaulting to build;
that default tree not extracted yet shows every patch unapplied).
USAGE
}

# show_patch STATE PATCHFILE: the patch's line and its files. A patch
# 'quilt new' made has no file until it is refreshed.
show_patch() {
	local files

	if [ ! -f "$2" ]; then
		printf '%-9s  %s  (no file yet: quilt refresh writes it)\n' "$1" "$(basename "$2")"
		return 0
	fi
	printf '%-9s  %s  %s\n' "$1" "$(basename "$2")" "$(patch_subject "$2")"
	files=$(patch_files "$2") || files="(cannot tell)"
	printf '%s\n' "$files" | sed 's/^/             /'
}

main() {
	local builddir=build srcdir="" patchdir="" opt name state
	local n=0 applied=0 pin

	[ "${1:-}" != --help ] || { usage; exit 0; }
	while getopts ho:p:s: opt; do
		case "$opt" in
		o) builddir="$OPTARG" ;;
		p) patchdir="$OPTARG" ;;
		s) srcdir="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 0 ] || { usage >&2; exit 2; }
	if [ -z "$srcdir" ] && [ -n "${KSRC:-}" ]; then
		srcdir="$KSRC"
	fi
	# A tree named on purpose must exist; only the default one may be
	# not extracted yet.
	[ -z "$srcdir" ] || [ -d "$srcdir" ] || die "'$srcdir' is not a directory"
	load_tree "$(tree_name)"
	[ -n "$srcdir" ] || srcdir="$builddir/src/$k_package"
	if [ -d "$srcdir" ]; then
		need_patchdir "$srcdir"
	else
		# the tree of this run, not extracted yet
		[ -n "$patchdir" ] || patchdir="$k_series"
		[ -f "$patchdir/series" ] || die "cannot read '$patchdir/series'"
		patchdir=$(cd "$patchdir" && pwd)
	fi

	pin=$(series_pin "$patchdir/series")
	if [ -d "$srcdir" ]; then
		check_pin "$patchdir/series" "$srcdir"
		quilt_setup "$patchdir"
	fi
	printf 'series  %s%s\n' "$patchdir/series" "${pin:+ (Linux $pin)}"
	printf 'tree    %s%s\n' "$srcdir" "$([ -d "$srcdir" ] || echo ' (not extracted)')"
	for name in $(series_names "$patchdir/series"); do
		n=$((n + 1))
		state=unapplied
		if grep -qxF "$name" "$srcdir/.pc/applied-patches" 2>/dev/null; then
			state=applied
			applied=$((applied + 1))
		fi
		[ -r "$patchdir/$name" ] || [ "$state" = applied ] ||
			die "cannot read '$patchdir/$name' (named in '$patchdir/series')"
		show_patch "$state" "$patchdir/$name"
	done
	printf '%d of %d patches applied\n' "$applied" "$n"

	[ -d "$srcdir" ] || return 0
	if name=$(unsaved "$srcdir" "$patchdir"); then
		printf 'note: %s\n' "$(unsaved_msg "$srcdir" "$name")"
	fi
	name=$(interrupted_pop "$srcdir" "$patchdir")
	[ -z "$name" ] || printf 'note: %s\n' "$(pop_msg "$srcdir" "$name")"
	name=$(interrupted "$srcdir")
	[ -z "$name" ] ||
		printf 'note: the push of %s was interrupted; undo it with scripts/kernel-patch.sh -r -s %s, or %s\n' \
			"$name" "$srcdir" "$(recover_hint "$srcdir" "$name")"
	# Local changes are measured against the patches as applied, which a
	# stale patch no longer is.
	name=$(stale_patch "$srcdir" "$patchdir")
	if [ -n "$name" ]; then
		printf 'note: %s changed or left the series since it was applied; scripts/kernel-patch.sh -s %s pushes the series again from there\n' \
			"$name" "$srcdir"
	elif name=$(local_changes "$srcdir"); then
		printf 'note: %s\n' "$(changes_msg "$srcdir" "$name")"
	fi
	return 0
}

main "$@"
