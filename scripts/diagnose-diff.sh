#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-diff.sh - compare two replays' diagnose.json: which findings are
# new in B, which are gone from A, how many are unchanged. A finding is
# named by its group, kind, flag, place and text (Documentation/diagnose.md),
# so the same tree replayed twice, or with another Clang, compares entry by
# entry.
#
# Exit: 0 nothing new or gone, 1 something is, 2 trouble (usage, an
# unreadable or malformed report).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=diagnose-diff.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	cat <<USAGE
usage: $PROG A.json B.json
Print "new N gone N unchanged N", then "+ GROUP ID" for each entry only B
has and "- GROUP ID" for each only A has.
USAGE
}

main() {
	local f result

	[ $# -eq 2 ] || { usage >&2; exit 2; }
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq || exit 2
	for f in "$@"; do
		[ -r "$f" ] || die "cannot read '$f'"
		jq -e '.schema == 1 and (.findings | type) == "array"' "$f" >/dev/null 2>&1 ||
			die "'$f' is not a schema 1 diagnose report"
	done
	result=$(jq -n -r --slurpfile a "$1" --slurpfile b "$2" -L "$TOPDIR/scripts/diagnose" \
		-f "$TOPDIR/scripts/diagnose/diagnose-diff.jq") || die "cannot compare '$1' and '$2'"
	printf '%s\n' "$result"
	case "$result" in
	"new 0 gone 0 "*) return 0 ;;
	*) return 1 ;;
	esac
}

main "$@"
