#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-report.sh - write diagnose.md and diagnose.html from a replay's
# diagnose.json (scripts/diagnose.sh; Documentation/diagnose.md).
#
# Each file is written under a temporary name and renamed when complete.
#
# Exit: 0 ok, 2 trouble (usage, unreadable or malformed JSON, jq missing).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=diagnose-report.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	cat <<USAGE
usage: $PROG DIAGNOSE.JSON OUTDIR
Write OUTDIR/diagnose.md and OUTDIR/diagnose.html from DIAGNOSE.JSON.
USAGE
}

# render KIND JSON OUT: OUT/diagnose.KIND from scripts/lib/diagnose-KIND.jq
render() {
	jq -r -L "$TOPDIR/scripts/diagnose" -f "$TOPDIR/scripts/diagnose/diagnose-$1.jq" "$2" >"$3/diagnose.$1.tmp" ||
		die "cannot render '$3/diagnose.$1'"
	mv "$3/diagnose.$1.tmp" "$3/diagnose.$1"
}

main() {
	[ $# -eq 2 ] || { usage >&2; exit 2; }
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq || exit 2
	[ -r "$1" ] || die "cannot read '$1'"
	jq -e '.schema == 1 and (.findings | type) == "array"' "$1" >/dev/null 2>&1 ||
		die "'$1' is not a schema 1 diagnose report"
	[ -d "$2" ] || die "'$2' is not a directory"
	render md "$1" "$2"
	render html "$1" "$2"
}

main "$@"
