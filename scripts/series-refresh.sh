#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# series-refresh.sh - regenerate every patch of the quilt series in one
# normalised form, so that two versions of a patch differ only where the
# change does: 'a/' and 'b/' prefixes, no timestamps, no Index: lines, the
# C function of each hunk in its @@ line, the header kept as it is.
#
# The topmost applied patch is refreshed first, so edits made to its files
# go into it. Then the series is popped and pushed one patch at a time,
# each refreshed on the way; the tree ends with the same patches applied as
# it started with.
#
# Exit: 0 ok, 1 a patch does not push or refresh, 2 trouble (usage, no
# tree, an interrupted push, wrong kernel version).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=series-refresh.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/series.sh
. "$TOPDIR/scripts/lib/series.sh"

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-s SRCDIR] [-p PATCHDIR]
Refresh every patch of PATCHDIR/series (default: the series of the tree, patches/TREE/) against SRCDIR
(default: the tree kernel-src.sh gives for BUILDDIR, default build), one
line per patch: 'refreshed NAME' or 'unchanged NAME'.
USAGE
}

# sums PATCHDIR NAME...: one 'CKSUM SIZE NAME' line per patch file.
sums() {
	local dir="$1" name

	shift
	for name in "$@"; do
		if [ -f "$dir/$name" ]; then
			printf '%s %s\n' "$(cksum <"$dir/$name")" "$name"
		else
			printf 'missing %s\n' "$name"
		fi
	done
}

# refresh_top SRCDIR: refresh the topmost patch.
refresh_top() {
	q "$1" refresh >/dev/null ||
		fail "cannot refresh '$(applied_names "$1" | tail -n 1)' in '$1'"
}

main() {
	local builddir=build srcdir="" patchdir="" opt top name old stale

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
	open_series "$builddir"
	quilt_setup "$patchdir"
	use_patchdir "$srcdir" "$patchdir"
	check_interrupted "$srcdir" "$patchdir"

	# shellcheck disable=SC2046 # patch names have no blanks
	old=$(sums "$patchdir" $(series_names "$patchdir/series"))
	top=$(applied_names "$srcdir" | tail -n 1)
	# Refreshing would write back a patch the series no longer has, or
	# overwrite a newer version of it with what the tree holds.
	stale=$(stale_patch "$srcdir" "$patchdir")
	# The top patch's edits are refreshed into it below; any other
	# patch's would be lost when the series is popped.
	check_unsaved "$srcdir" "$patchdir" "$top"
	[ -z "$stale" ] ||
		die "'$stale' is applied in '$srcdir' but changed or left the series since; bring the tree to the series with 'scripts/kernel-patch.sh -s $srcdir' first"
	if [ -n "$top" ]; then
		refresh_top "$srcdir"
		q "$srcdir" pop -a -q >/dev/null || fail "cannot pop the series in '$srcdir'"
	fi
	for name in $(series_names "$patchdir/series"); do
		q "$srcdir" push -q "$name" >/dev/null || fail "cannot push '$name' in '$srcdir'"
		refresh_top "$srcdir"
	done
	if [ -z "$top" ]; then
		q "$srcdir" pop -a -q >/dev/null
	elif [ "$top" != "$name" ]; then
		q "$srcdir" pop -q "$top" >/dev/null
	fi
	# The tree's record of what it applied names the new files.
	record "$srcdir" "$patchdir"
	for name in $(series_names "$patchdir/series"); do
		if printf '%s\n' "$old" | grep -qxF "$(sums "$patchdir" "$name")"; then
			printf 'unchanged %s\n' "$name"
		else
			printf 'refreshed %s\n' "$name"
		fi
	done
}

main "$@"
