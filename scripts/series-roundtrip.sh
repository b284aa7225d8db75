#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# series-roundtrip.sh - check that 'quilt push -a' then 'quilt pop -a'
# leaves a kernel tree byte-identical.
#
# The tree is brought to no patch applied, every file's checksum is taken
# (quilt's .pc/ aside), the whole series is pushed and popped, and the
# checksums are taken again: a file that differs, appeared (a stray .orig or
# .rej) or went missing is listed. The patches applied at the start are
# applied again at the end, up to the first that changed or left the series
# since it was applied (a tree patched before the series changed), which
# cannot be pushed again as it was.
#
# Exit: 0 byte-identical, 1 the tree differs or a patch does not push or
# pop, 2 trouble (usage, no tree, local changes, work no patch file holds
# yet, wrong kernel version).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=series-roundtrip.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/series.sh
. "$TOPDIR/scripts/lib/series.sh"

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-s SRCDIR] [-p PATCHDIR]
Push and pop the whole of PATCHDIR/series (default: the series of the tree, patches/TREE/) in SRCDIR
(default: the tree kernel-src.sh gives for BUILDDIR, default build) and
compare the checksums of every file before and after.
USAGE
}

# checksums SRCDIR: 'MD5  ./PATH' for every file but quilt's, and
# '->TARGET  ./PATH' for every symbolic link, sorted by path.
checksums() {
	(cd "$1" && {
		find . -path ./.pc -prune -o -type f -print0 | xargs -0 md5sum
		find . -path ./.pc -prune -o -type l -printf '%l  %p\n' | sed 's/^/->/'
	} | sort -k 2)
}

# to_top SRCDIR TOP: push or pop until TOP is the topmost patch (none: no
# patch applied).
to_top() {
	if [ -z "$2" ]; then
		[ -z "$(applied_names "$1")" ] || q "$1" pop -a -q >/dev/null
	else
		q "$1" push -q "$2" >/dev/null 2>&1 || q "$1" pop -q "$2" >/dev/null
	fi
}

main() {
	local builddir=build srcdir="" patchdir="" opt top name stale left

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
	[ -n "$(series_names "$patchdir/series")" ] || { echo "round-trip: empty series"; return 0; }

	use_patchdir "$srcdir" "$patchdir"
	check_interrupted "$srcdir" "$patchdir"
	check_unsaved "$srcdir" "$patchdir"
	top=$(applied_names "$srcdir" | tail -n 1)
	stale=$(stale_patch "$srcdir" "$patchdir")
	if [ -n "$stale" ]; then
		# What the tree held from there up cannot be pushed again.
		top=$(applied_below "$srcdir" "$stale")
		left="no patch applied"
		[ -z "$top" ] || left="the patches up to '$top' applied"
		printf "%s: '%s' changed or left the series since it was applied: the tree is left with %s ('scripts/kernel-patch.sh' applies the series)\n" \
			"$PROG" "$stale" "$left" >&2
		pop_from "$srcdir" "$stale" || fail "cannot pop '$stale' from '$srcdir'"
	fi
	if name=$(local_changes "$srcdir"); then
		die "$(changes_msg "$srcdir" "$name")"
	fi

	to_top "$srcdir" "" || fail "cannot pop every patch from '$srcdir'"
	before=$(mktemp "${TMPDIR:-/tmp}/roundtrip.XXXXXX")
	after=$(mktemp "${TMPDIR:-/tmp}/roundtrip.XXXXXX")
	trap 'rm -f "$before" "$after"' EXIT
	trap 'exit 2' HUP INT TERM
	checksums "$srcdir" >"$before"
	q "$srcdir" push -a -q >/dev/null || fail "'quilt push -a' failed in '$srcdir'"
	q "$srcdir" pop -a -q >/dev/null || fail "'quilt pop -a' failed in '$srcdir'"
	checksums "$srcdir" >"$after"
	to_top "$srcdir" "$top" || fail "cannot bring '$srcdir' back to '$top'"

	printf 'before  %s  %d files\n' "$(md5sum <"$before" | cut -d' ' -f1)" "$(wc -l <"$before")"
	printf 'after   %s  %d files\n' "$(md5sum <"$after" | cut -d' ' -f1)" "$(wc -l <"$after")"
	if cmp -s "$before" "$after"; then
		echo "round-trip: byte-identical"
		return 0
	fi
	echo "round-trip: the tree differs:"
	diff "$before" "$after" | sed -n 's/^\([<>]\) [^ ]*  \.\//\1 /p'
	return 1
}

main "$@"
