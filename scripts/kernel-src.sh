#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-src.sh - make sure a Linux source tree is at hand and print its path.
#
# By default the tree is the tarball of the Debian package of the run's
# kernel tree (KERNEL=6.1, the default, or 6.12: scripts/trees/KERNEL.tree),
# extracted once into BUILDDIR/src/. A stamp beside the tree records which tarball it came
# from, so a re-run costs nothing and a changed tarball is extracted anew;
# the MD5 of every file as extracted goes to TREE.sums beside it (the
# series tools tell local changes from the tarball's content with it).
# KSRC=DIR in the environment names a tree to use as it is; with KERNEL
# set too, it must be that kernel.
#
# Progress goes to stderr; stdout carries only the tree's path.
#
# Exit: 0 ok, 2 trouble (no tarball, not a kernel tree, tar failed, usage).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=kernel-src.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/tree.sh
. "$TOPDIR/scripts/lib/tree.sh"

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR]
Extract the kernel source tarball into BUILDDIR/src/ (default BUILDDIR:
build) unless that was done already, and print the tree's path.
  -o BUILDDIR  where build products go (default: build)
Environment:
  KERNEL=TREE                 the kernel tree: $(known_trees) (default: $DEFAULT_TREE)
  KSRC=DIR                    use this kernel tree instead of extracting one
  KPARITY_KERNEL_TARBALL=FILE tarball to extract (default: the tree's,
                              scripts/trees/TREE.tree)
  KPARITY_SRC_QUIET=1         no SRC line (a calling script printed it)
USAGE
}

# check_tree DIR: die unless DIR looks like the top of a kernel tree.
check_tree() {
	local dir="$1"

	[ -d "$dir" ] || die "'$dir' is not a kernel tree (not a directory)"
	grep -q '^VERSION = ' "$dir/Makefile" 2>/dev/null ||
		die "'$dir' is not a kernel tree (no Makefile with 'VERSION =')"
	[ -f "$dir/Kconfig" ] || die "'$dir' is not a kernel tree (no Kconfig)"
	[ -f "$dir/scripts/Makefile.compiler" ] || [ -f "$dir/scripts/Kbuild.include" ] ||
		die "'$dir' is not a kernel tree (no scripts/Makefile.compiler or scripts/Kbuild.include)"
}

# tarball_id FILE: what identifies one tarball: its path, size and mtime.
tarball_id() {
	printf '%s %s\n' "$1" "$(stat -L -c '%s %Y' "$1")"
}

# extract TARBALL DEST: unpack TARBALL's single top directory as DEST.
# Work happens in a temporary directory beside DEST, so an interrupted run
# leaves no half-written tree under DEST's name.
extract() {
	local tarball="$1" dest="$2" top

	tmpdir=$(mktemp -d "$dest.tmp.XXXXXX")
	trap 'rm -rf "$tmpdir"' EXIT
	trap 'exit 2' HUP INT TERM
	# -m: files get the extraction time, so objects built from an older
	# tree are older than every source and make rebuilds them.
	tar -x -m -f "$tarball" -C "$tmpdir" || die "cannot extract '$tarball'"
	set -- "$tmpdir"/*
	if [ $# -ne 1 ] || [ ! -d "$1" ]; then
		die "'$tarball' does not hold exactly one top directory"
	fi
	top="$1"
	if [ -e "$dest" ]; then
		mv "$dest" "$tmpdir/old"
	fi
	mv "$top" "$dest"
	rm -rf "$tmpdir"
	trap - EXIT HUP INT TERM
}

# sums DIR: 'MD5  ./PATH' for every file of DIR as extracted, so that the
# quilt series tools can tell local changes from the tarball's content.
sums() {
	(cd "$1" && find . -type f -print0 | xargs -0 md5sum)
}

# from_tarball BUILDDIR: extract the tarball if needed; print the tree path.
from_tarball() {
	local builddir="$1" tarball name dest stamp id want have

	load_tree "$(tree_name)"
	tarball="${KPARITY_KERNEL_TARBALL:-$k_tarball}"
	if [ ! -r "$tarball" ]; then
		[ "$tarball" = "$k_tarball" ] &&
			die "cannot read '$tarball' (install the Debian package $k_package, or set KSRC)"
		die "cannot read '$tarball'"
	fi

	name=$(basename "$tarball")
	name="${name%.tar*}"
	mkdir -p "$builddir/src" || die "cannot create '$builddir/src'"
	dest="$(abspath "$builddir/src")/$name"
	stamp="$dest.stamp"
	id=$(tarball_id "$tarball")

	if [ ! -d "$dest" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$id" ]; then
		step EXTRACT "$tarball"
		rm -f "$stamp" "$dest.sums"
		extract "$tarball" "$dest"
		sums "$dest" >"$dest.sums.tmp"
		mv "$dest.sums.tmp" "$dest.sums"
		printf '%s\n' "$id" >"$stamp.tmp"
		mv "$stamp.tmp" "$stamp"
	fi

	check_tree "$dest"
	have=$(tree_version "$dest") || die "'$dest/Makefile' has no usable VERSION/PATCHLEVEL/SUBLEVEL"
	# Debian names the tarball after VERSION.PATCHLEVEL; a tree that
	# disagrees came from somewhere else.
	want="${name##*-}"
	case "$want" in
	[0-9]*.[0-9]*)
		case "$have" in
		"$want".*) ;;
		*) die "'$tarball' holds Linux $have, expected $want.*" ;;
		esac
		;;
	esac
	[ "${KPARITY_SRC_QUIET:-}" = 1 ] || step SRC "linux-$have"
	printf '%s\n' "$dest"
}

# from_ksrc DIR: check the tree the user named; print its path.
from_ksrc() {
	local dir="$1" have

	check_tree "$dir"
	dir=$(abspath "$dir")
	have=$(tree_version "$dir") || die "'$dir/Makefile' has no usable VERSION/PATCHLEVEL/SUBLEVEL"
	if [ -n "${KERNEL:-}" ]; then
		case "$have" in
		"$KERNEL".*) ;;
		*) die "KERNEL=$KERNEL, but KSRC='$1' is Linux $have" ;;
		esac
	fi
	[ "${KPARITY_SRC_QUIET:-}" = 1 ] || step SRC "linux-$have ($dir)"
	printf '%s\n' "$dir"
}

main() {
	local builddir=build opt

	while getopts ho: opt; do
		case "$opt" in
		o) builddir="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 0 ] || { usage >&2; exit 2; }
	[ -n "$builddir" ] || die "empty BUILDDIR"

	if [ -n "${KSRC:-}" ]; then
		from_ksrc "$KSRC"
	else
		from_tarball "$builddir"
	fi
}

main "$@"
