#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# warnings.sh - the diagnostics in a kernel build log, counted by the tool
# that printed them (compiler, linker, objtool, modpost, kconfig), by -W
# flag and by file.
#
# GCC and Clang both print "FILE:LINE:COL: warning: TEXT [FLAG]"; GCC writes
# an error from -Werror as [-Werror=FOO], Clang as [-Werror,-WFOO], and both
# count here as an error of -WFOO. Linker diagnostics ("ld: warning: ...",
# "ld.lld: error: ...") count under the file "(link)"; objtool's
# ("FILE.o: warning: objtool: ..."), modpost's ("WARNING: modpost: ...")
# and Kconfig's (".config:12:warning: override: ...") under their own tool
# (scripts/warnings/warnings-list.awk has every form). A diagnostic without
# a flag counts under "(none)". A header's diagnostic repeats in every unit
# that includes it; it counts once per distinct file, line, column, kind,
# flag and text. Paths below SRCDIR are made relative to it.
#
# Exit: 0 ok, 2 trouble (usage, unreadable log).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=warnings.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
TOOLS="compiler linker objtool modpost kconfig"

usage() {
	cat <<USAGE
usage: $PROG [-l | -j] [-s SRCDIR] LOG...
Count the warnings and errors in kernel build LOGs.
  (default)  'warnings N', 'errors N', then 'tool TOOL N', 'flag FLAG N'
             and 'file FILE N' lines, most frequent first, then by name
  -l         one line per distinct diagnostic:
             KIND<tab>TOOL<tab>FLAG<tab>FILE<tab>LINE<tab>TEXT
  -j         the counts as JSON: {"warnings":N,"errors":N,"by_tool":
             {TOOL:{"warnings":N,"errors":N},...},"by_flag":{...},
             "by_file":{...}}, with every TOOL of: $TOOLS
  -s SRCDIR  print paths below SRCDIR relative to it
USAGE
}

# diagnostics SRCDIR LOG...: the -l listing.
diagnostics() {
	local srcdir="$1"

	shift
	awk -v src="$srcdir" -f "$TOPDIR/scripts/warnings/warnings-list.awk" "$@" |
		LC_ALL=C sort -t "$(printf '\t')" -k4,4 -k5,5V -k1,3 -k6 -u
}

# summary: the default report from the -l listing on stdin.
summary() {
	awk -F '\t' -f "$TOPDIR/scripts/warnings/warnings-summary.awk" |
		LC_ALL=C sort -t "$(printf '\t')" -k1,1n -k2,2nr -k3,3 | cut -f 4
}

main() {
	local mode=text srcdir="" opt log

	while getopts hjls: opt; do
		case "$opt" in
		j) mode=json ;;
		l) mode=list ;;
		s) srcdir="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -gt 0 ] || { usage >&2; exit 2; }
	for log in "$@"; do
		[ -r "$log" ] || die "cannot read '$log'"
	done
	srcdir="${srcdir%/}"

	case "$mode" in
	list)
		diagnostics "$srcdir" "$@"
		;;
	text)
		diagnostics "$srcdir" "$@" | summary
		;;
	json)
		"$(dirname "$0")/need-tool.sh" -p "$PROG" jq || exit 2
		diagnostics "$srcdir" "$@" |
			jq -R -s -c --arg tools "$TOOLS" -f "$TOPDIR/scripts/warnings/warnings-json.jq"
		;;
	esac
}

main "$@"
