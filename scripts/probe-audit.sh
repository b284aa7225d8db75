#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# probe-audit.sh - report on the probes a kernel build made through the
# kparity Kbuild overlay (KPARITY_AUDIT=1): where the overlay's answer
# differs from stock Kbuild's, and, given a second build, where the two
# compilers answer the same question differently.
#
# Each argument is a build directory (its .kparity/audit.log is read) or an
# audit log. A question asked many times in one build is reported once.
#
# Exit: 0 no disagreement, 1 disagreements listed, 2 trouble (usage,
# unreadable or malformed log).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=probe-audit.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	cat <<USAGE
usage: $PROG BUILD [OTHER-BUILD]
List the probes of BUILD where the overlay and stock Kbuild disagree; with
OTHER-BUILD (the same tree built with the other compiler), also the
probes both builds made where the compilers' answers differ.
BUILD is a build directory (O=) with .kparity/audit.log, or an audit log.
USAGE
}

# audit_log ARG: the audit log ARG names
audit_log() {
	if [ -d "$1" ]; then
		printf '%s\n' "$1/.kparity/audit.log"
	else
		printf '%s\n' "$1"
	fi
}

# check_log FILE: die unless FILE is a readable, well-formed audit log
check_log() {
	local bad

	[ -r "$1" ] || die "cannot read '$1' (build with KPARITY_AUDIT=1)"
	bad=$(awk -F'\t' 'NF != 7 || $4 !~ /^[yn]$/ || $6 !~ /^(live|cached)$/ || $7 !~ /^[yn-]$/ {
		print NR; exit }' "$1")
	[ -z "$bad" ] || die "'$1' line $bad: not a kparity audit record"
}

# report LOG [OTHER]: print the disagreements and a summary line; the awk
# exit status is 1 when there is something to report.
report() {
	awk -F'\t' -v two="$(($# - 1))" -f "$TOPDIR/scripts/probe-audit/probe-audit.awk" "$@"
}

main() {
	local a b=""

	case "${1:-}" in
	-h | --help) usage; exit 0 ;;
	-*) usage >&2; exit 2 ;;
	esac
	[ $# -eq 1 ] || [ $# -eq 2 ] || { usage >&2; exit 2; }
	a=$(audit_log "$1")
	check_log "$a"
	if [ $# -eq 2 ]; then
		b=$(audit_log "$2")
		check_log "$b"
		report "$a" "$b"
	else
		report "$a"
	fi
}

main "$@"
