#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# series-tree.sh - a kernel tree with the quilt series pushed, for a
# maintainer to work in: extract Debian's tarball if needed (kernel-src.sh),
# push the series (kernel-patch.sh), print the tree's path on stdout.
#
# -f extracts the tree afresh. Before the old tree goes, the same checks as
# kernel-patch.sh's run: work no patch file holds (edits not refreshed, a
# 'quilt new' patch) and changes in files the series is still to patch stop
# it with one line naming them, unless --discard is given too; and so do
# files no patch touches that are not as the tarball had them (TREE.sums):
# edited, removed or added without 'quilt add'.
#
# Exit: 0 ok, 1 a patch does not apply, 2 trouble (usage, no tarball,
# unsaved work, inconsistent tree).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=series-tree.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/series.sh
. "$TOPDIR/scripts/lib/series.sh"

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-p PATCHDIR] [-f] [--discard]
Extract the kernel tree into BUILDDIR/src/ (default BUILDDIR: build) unless
it is there, push every patch of PATCHDIR/series (default: the series of the tree, patches/TREE/) and
print the tree's path.
  -f         extract the tree afresh (refused while it holds work no patch
             file has, or files no patch touches that differ from the
             tarball's, unless --discard)
  --discard  (or -D) drop such work instead of stopping
USAGE
}

# stray_changes SRCDIR PATCHDIR: print, one a line, the files of SRCDIR
# that are not as the tarball had them (SRCDIR.sums: changed, removed, or
# not in it) and that no patch touches, neither one of PATCHDIR's series
# nor one applied (quilt's backups in .pc/); return 1 when there are none.
stray_changes() {
	local srcdir="$1" dir="$2" tmp name rc=1

	[ -f "$srcdir.sums" ] || return 1
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/series-tree.XXXXXX")
	for name in $(series_names "$dir/series"); do
		[ ! -f "$dir/$name" ] || patch_files "$dir/$name" || :
	done >"$tmp/owned"
	if [ -d "$srcdir/.pc" ]; then
		(cd "$srcdir/.pc" && find . -mindepth 2 -type f ! -name .timestamp) |
			sed 's|^\./[^/]*/||' >>"$tmp/owned"
	fi
	# md5sum -c fails when a file does: its output is the answer
	(cd "$srcdir" && { md5sum -c --quiet "$srcdir.sums" 2>/dev/null || :; }) |
		sed -n 's|^\./\(.*\): FAILED.*|\1|p' >"$tmp/differ"
	sed 's|^[0-9a-f]*  \./||' "$srcdir.sums" | LC_ALL=C sort >"$tmp/was"
	(cd "$srcdir" && find . -type f ! -path './.pc/*') | sed 's|^\./||' | LC_ALL=C sort |
		LC_ALL=C comm -23 - "$tmp/was" >>"$tmp/differ"
	LC_ALL=C sort -u "$tmp/differ" | grep -vxF -f "$tmp/owned" >"$tmp/stray" || :
	if [ -s "$tmp/stray" ]; then
		cat "$tmp/stray"
		rc=0
	fi
	rm -rf "$tmp"
	return "$rc"
}

# stray_msg SRCDIR LIST: the one line that stops -f on LIST, files no
# patch touches (at most ten named)
stray_msg() {
	local names

	names=$(printf '%s\n' "$2" | awk 'NR <= 10 { l = l sep $0; sep = ", " } END { if (NR > 10) l = l " and " NR - 10 " more"; print l }')
	printf "'%s' has changes no patch holds in files no patch touches: %s; save them if they are yours ('quilt add FILE' before an edit puts it in the top patch), or drop them with 'make series-tree FRESH=1 DISCARD=1'" \
		"$1" "$names"
}

# discard_check SRCDIR PATCHDIR: die when extracting SRCDIR afresh would
# lose work: patches with work no file holds, changed files the series is
# still to patch, or changed files no patch touches.
discard_check() {
	local list

	quilt_setup "$2"
	if list=$(unsaved "$1" "$2"); then
		die "$(unsaved_msg "$1" "$list" | sed "s|scripts/kernel-patch.sh --discard -s [^']*|make series-tree FRESH=1 DISCARD=1|")"
	fi
	if list=$(local_changes "$1" "$2"); then
		die "$(changes_msg "$1" "$list")"
	fi
	if list=$(stray_changes "$1" "$2"); then
		die "$(stray_msg "$1" "$list")"
	fi
}

main() {
	local builddir=build patchdir="" fresh=0 discard=0 opt arg
	local srcdir

	for arg in "$@"; do
		shift
		case "$arg" in
		--discard) set -- "$@" -D ;;
		--help) set -- "$@" -h ;;
		*) set -- "$@" "$arg" ;;
		esac
	done
	while getopts Dfho:p: opt; do
		case "$opt" in
		D) discard=1 ;;
		f) fresh=1 ;;
		o) builddir="$OPTARG" ;;
		p) patchdir="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 0 ] || { usage >&2; exit 2; }
	[ -z "$patchdir" ] || [ -f "$patchdir/series" ] || die "cannot read '$patchdir/series'"
	[ "$fresh" = 0 ] || [ -z "${KSRC:-}" ] ||
		die "KSRC='$KSRC' names a tree of yours: extracting afresh is for the tarball's tree"
	mkdir -p "$builddir" || die "cannot create '$builddir'"

	mark=$(mktemp "${TMPDIR:-/tmp}/series-tree.XXXXXX")
	trap 'rm -f "$mark"' EXIT
	srcdir=$("$TOPDIR/scripts/kernel-src.sh" -o "$builddir") || exit 2
	need_patchdir "$srcdir"
	# A tree extracted just now is fresh already.
	if [ "$fresh" = 1 ] && [ -z "$(find "$srcdir.stamp" -newer "$mark" 2>/dev/null)" ]; then
		[ "$discard" = 1 ] || discard_check "$srcdir" "$patchdir"
		rm -f "$srcdir.stamp"
		srcdir=$(KPARITY_SRC_QUIET=1 "$TOPDIR/scripts/kernel-src.sh" -o "$builddir") || exit 2
	fi
	if [ "$discard" = 1 ]; then
		"$TOPDIR/scripts/kernel-patch.sh" -s "$srcdir" -p "$patchdir" --discard
	else
		"$TOPDIR/scripts/kernel-patch.sh" -s "$srcdir" -p "$patchdir"
	fi
	printf '%s\n' "$srcdir"
}

main "$@"
