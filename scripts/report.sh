#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# report.sh - write report.md and report.html from a parity run's
# report.json (Documentation/parity.md describes its fields).
#
# Both are rendered from the JSON alone, so a recorded report.json renders
# the same anywhere. Each file is written under a temporary name and
# renamed when complete.
#
# Exit: 0 ok, 2 trouble (usage, unreadable or malformed JSON, jq missing).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=report.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	cat <<USAGE
usage: $PROG REPORT.JSON OUTDIR
Write OUTDIR/report.md and OUTDIR/report.html from REPORT.JSON.
USAGE
}

# history_file JSON NAME: NAME beside JSON when scripts/history.sh wrote it
# for this very JSON (its report_sha256), else /dev/null
history_file() {
	local f sum

	f="$(dirname "$1")/$2"
	sum=$(sha256sum "$1" | cut -d' ' -f1)
	if [ -f "$f" ] && [ "$(jq -r '.report_sha256 // ""' "$f" 2>/dev/null)" = "$sum" ]; then
		echo "$f"
	else
		echo /dev/null
	fi
}

# with_history JSON: JSON with its since.json and toolchain.json as .since
# and .toolchain (scripts/report/report-history.jq), or JSON as it is
with_history() {
	jq --slurpfile since "$(history_file "$1" since.json)" \
		--slurpfile toolchain "$(history_file "$1" toolchain.json)" \
		'. + {since: $since[0], toolchain: $toolchain[0]}' "$1"
}

# render_md JSON: report.md (scripts/report/report-md.jq)
render_md() {
	with_history "$1" | jq -r -L "$TOPDIR/scripts/report" -f "$TOPDIR/scripts/report/report-md.jq"
}

# render_html JSON: report.html (scripts/report/report-html.jq)
render_html() {
	with_history "$1" | jq -r -L "$TOPDIR/scripts/report" -f "$TOPDIR/scripts/report/report-html.jq"
}

main() {
	local json out

	[ $# -eq 2 ] || { usage >&2; exit 2; }
	json="$1"
	out="$2"
	"$(dirname "$0")/need-tool.sh" -p "$PROG" jq || exit 2
	[ -r "$json" ] || die "cannot read '$json'"
	jq -e '.version == 1 and (.matrix | type) == "array"' "$json" >/dev/null 2>&1 ||
		die "'$json' is not a version 1 parity report"
	[ -d "$out" ] || die "'$out' is not a directory"

	render_md "$json" >"$out/report.md.tmp" || die "cannot render '$out/report.md'"
	render_html "$json" >"$out/report.html.tmp" || die "cannot render '$out/report.html'"
	mv "$out/report.md.tmp" "$out/report.md"
	mv "$out/report.html.tmp" "$out/report.html"
}

main "$@"
