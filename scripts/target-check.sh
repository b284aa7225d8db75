#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# target-check.sh - find and check a target's data file, scripts/targets/NAME.target.
#
# A target file holds KEY=value lines and comments, nothing else, so that
# the scripts may source it once this check has passed. A value is a plain
# word or a double-quoted string of plain words; nothing in it expands.
#
# Exit: 0 ok, 2 unknown target, bad file or usage.

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG="target-check.sh"
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"

usage() {
	cat <<USAGE
usage: $PROG [-d DIR] [-p PROGNAME] NAME
       $PROG [-d DIR] -l
Check DIR/NAME.target (default DIR: scripts/targets) and print its path,
or with -l list the known targets, one per line. Messages start with
PROGNAME (default: $PROG).
Required keys: $TARGET_REQUIRED
Optional keys: $TARGET_OPTIONAL
USAGE
}

# known DIR: the target names in DIR, sorted, one per line.
known() {
	local f

	for f in "$1"/*.target; do
		[ -f "$f" ] || continue
		f=$(basename "$f")
		printf '%s\n' "${f%.target}"
	done | LC_ALL=C sort
}

# check FILE: print one line per problem in FILE; exit 2 if there is any.
check() {
	awk -v prog="$PROG" -v req="$TARGET_REQUIRED" -v opt="$TARGET_OPTIONAL" \
		-f "$TOPDIR/scripts/target-check/target-check.awk" "$1"
}

main() {
	local dir="$TOPDIR/scripts/targets" list=0 opt file

	while getopts d:hlp: opt; do
		case "$opt" in
		d) dir="$OPTARG" ;;
		p) PROG="$OPTARG" ;;
		l) list=1 ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ "$list" = 1 ]; then
		[ $# -eq 0 ] || { usage >&2; exit 2; }
		known "$dir"
		exit 0
	fi
	[ $# -eq 1 ] || { usage >&2; exit 2; }

	case "$1" in
	'' | */* | .*) file="" ;;
	*) file="$dir/$1.target" ;;
	esac
	if [ -z "$file" ] || [ ! -f "$file" ]; then
		die "unknown target '$1' (known: $(known "$dir" | tr '\n' ' ' | sed 's/ $//'))"
	fi
	check "$file" || exit 2
	printf '%s\n' "$file"
}

main "$@"
