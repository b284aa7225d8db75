#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# report-export.sh - a parity run in the formats others read: KCIDB I/O
# JSON (report/kcidb.json: the checkout, a build per cell, their tests)
# and a TuxMake metadata.json per cell (report/tuxmake/BUILD/metadata.json,
# BUILD the cell's build directory's name). Both come from report.json
# alone, with the toolchain.json scripts/history.sh writes beside it when
# it is there; Documentation/schemas/ has the subset of each format that
# kparity writes. Every file is written under a temporary name and
# renamed.
#
# Exit: 0 ok, 2 trouble (usage, an unreadable report).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG="report-export.sh"
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
EXPORT="$TOPDIR/scripts/report-export"

usage() {
	cat <<USAGE
usage: $PROG REPORT.JSON
Write kcidb.json and tuxmake/BUILD/metadata.json beside REPORT.JSON.
USAGE
}

# targets_json: {NAME: {arch, base_config, fragments, config}} of the
# report's targets, from scripts/targets/
targets_json() {
	local t

	for t in $(jq -r '.targets[]' "$report"); do
		(
			load_target "$t" >/dev/null 2>&1 || exit 0
			# shellcheck disable=SC2154 # load_target sets the t_ variables
			printf '%s\t%s\t%s\t%s\n' "$t" "$t_arch" "$t_base" "$t_fragments"
		)
	done | jq -R -s '[split("\n")[] | select(. != "") | split("\t")
		| {(.[0]): {arch: .[1], base_config: .[2],
			    fragments: (.[3] | split(" ") | map(select(. != ""))),
			    config: ([.[2]] + (.[3] | split(" ") | map(select(. != ""))) | join("+"))}}]
		| add // {}'
}

# write FILE CMD...: CMD's output to FILE, through FILE.tmp
write() {
	local f="$1"

	shift
	"$@" >"$f.tmp" || { rm -f "$f.tmp"; die "cannot write '$f'"; }
	mv "$f.tmp" "$f"
}

main() {
	local dir sum tc cell build

	[ $# -eq 1 ] || { usage >&2; exit 2; }
	case "$1" in -h | --help) usage; exit 0 ;; esac
	report="$1"
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq || exit 2
	[ -r "$report" ] || die "cannot read '$report'"
	jq -e '.version == 1 and (.matrix | type) == "array"' "$report" >/dev/null 2>&1 ||
		die "'$report' is not a version 1 parity report"
	dir=$(dirname "$report")
	sum=$(sha256sum "$report" | cut -c-64)
	tc=/dev/null
	# a toolchain.json of another report would pin the wrong compilers
	if [ -f "$dir/toolchain.json" ] &&
		[ "$(jq -r '.report_sha256 // ""' "$dir/toolchain.json" 2>/dev/null)" = "$sum" ]; then
		tc="$dir/toolchain.json"
	fi
	targets_json >"$dir/.targets.json.tmp" || die "cannot read the report's targets"
	write "$dir/kcidb.json" jq --slurpfile toolchain "$tc" --argjson targets "$(cat "$dir/.targets.json.tmp")" \
		--arg sum "$sum" -f "$EXPORT/kcidb.jq" "$report"
	# TARGET/COMPILER=BUILD: names have no spaces (target files, compilers.list)
	for cell in $(jq -r '.matrix[].cells[] | "\(.target)/\(.compiler)=\(.dir | split("/")[-1])"' "$report"); do
		build=${cell#*=}
		cell=${cell%%=*}
		mkdir -p "$dir/tuxmake/$build" || die "cannot create '$dir/tuxmake/$build'"
		write "$dir/tuxmake/$build/metadata.json" jq --slurpfile toolchain "$tc" \
			--argjson targets "$(cat "$dir/.targets.json.tmp")" --arg cell "$cell" --arg default_tree "$DEFAULT_TREE" \
			-f "$EXPORT/tuxmake.jq" "$report"
	done
	rm -f "$dir/.targets.json.tmp"
}

main "$@"
