#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# target-check.sh - find and check a data file: a target's,
# scripts/targets/NAME.target, or a kernel tree's, scripts/trees/NAME.tree.
#
# A target NAME not in DIR may be a host target, DIR/host/NAME.target (it
# runs as a process of the host, not under QEMU): it has its own keys, and
# -l does not list it.
#
# A data file holds KEY=value lines and comments, nothing else, so that
# the scripts may source it once this check has passed. A value is a plain
# word or a double-quoted string of plain words; nothing in it expands.
# A tree's SERIES must be a series pinned to a kernel of that tree.
#
# Exit: 0 ok, 2 unknown name, bad file or usage.

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG="target-check.sh"
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
# shellcheck source=scripts/lib/tree.sh
. "$TOPDIR/scripts/lib/tree.sh"

usage() {
	cat <<USAGE
usage: $PROG [-k target|tree] [-d DIR] [-p PROGNAME] NAME
       $PROG [-k target|tree] [-d DIR] -l
Check DIR/NAME.target (default DIR: scripts/targets) and print its path,
or with -l list the known targets, one per line; with -k tree, the same
for DIR/NAME.tree (default DIR: scripts/trees). Messages start with
PROGNAME (default: $PROG).
A target's required keys: $TARGET_REQUIRED
             optional keys: $TARGET_OPTIONAL
A host target's (DIR/host/NAME.target) required keys: $TARGET_HOST_REQUIRED
             optional keys: $TARGET_HOST_OPTIONAL
A tree's required keys: $TREE_REQUIRED
           optional keys: $TREE_OPTIONAL
USAGE
}

# known DIR: the names of DIR's files of the kind, sorted, one per line.
known() {
	local f

	for f in "$1"/*."$kind"; do
		[ -f "$f" ] || continue
		f=$(basename "$f")
		printf '%s\n' "${f%."$kind"}"
	done | if [ "$kind" = tree ]; then sort -V; else LC_ALL=C sort; fi
}

# check FILE: print one line per problem in FILE; exit 2 if there is any.
check() {
	awk -v prog="$PROG" -v req="$req" -v opt="$opt" \
		-f "$TOPDIR/scripts/target-check/target-check.awk" "$1"
}

# check_series FILE NAME: a tree's SERIES (relative to the checkout) must
# be a series pinned to a kernel of the tree NAME, or nothing may be
# extracted for it; FILE has passed check.
check_series() {
	local series pin

	# shellcheck disable=SC1090 # checked just now, and read in a subshell
	series=$(. "$1" && printf '%s\n' "$SERIES")
	[ -r "$TOPDIR/$series/series" ] || die "$1: cannot read '$series/series' (its SERIES)"
	pin=$(series_pin "$TOPDIR/$series/series")
	case "$pin" in
	"$2".*) ;;
	*) die "$1: '$series/series' is for ${pin:+Linux }${pin:-no kernel (no '# Kernel:' line)}, not $2" ;;
	esac
}

main() {
	local dir="" list=0 opt file

	kind=target
	while getopts d:hk:lp: opt; do
		case "$opt" in
		d) dir="$OPTARG" ;;
		k) kind="$OPTARG" ;;
		p) PROG="$OPTARG" ;;
		l) list=1 ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	case "$kind" in
	target) req="$TARGET_REQUIRED" opt="$TARGET_OPTIONAL" ;;
	tree) req="$TREE_REQUIRED" opt="$TREE_OPTIONAL" ;;
	*) usage >&2; exit 2 ;;
	esac
	[ -n "$dir" ] || dir="$TOPDIR/scripts/${kind}s"
	if [ "$list" = 1 ]; then
		[ $# -eq 0 ] || { usage >&2; exit 2; }
		known "$dir"
		exit 0
	fi
	[ $# -eq 1 ] || { usage >&2; exit 2; }

	case "$1" in
	'' | */* | .*) file="" ;;
	*) file="$dir/$1.$kind" ;;
	esac
	if [ "$kind" = target ] && [ -n "$file" ] && [ ! -f "$file" ] && [ -f "$dir/host/$1.target" ]; then
		file="$dir/host/$1.target"
		req="$TARGET_HOST_REQUIRED" opt="$TARGET_HOST_OPTIONAL"
	fi
	if [ -z "$file" ] || [ ! -f "$file" ]; then
		die "unknown $kind '$1' (known: $(known "$dir" | tr '\n' ' ' | sed 's/ $//'))"
	fi
	check "$file" || exit 2
	[ "$kind" != tree ] || check_series "$file" "$1"
	printf '%s\n' "$file"
}

main "$@"
