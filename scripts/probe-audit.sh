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

usage() {
	cat <<USAGE
usage: $PROG BUILD [OTHER-BUILD]
List the probes of BUILD where the overlay and stock Kbuild disagree; with
OTHER-BUILD (the same tree built with the other compiler), also the
probes both builds made where the compilers' answers differ.
BUILD is a build directory (O=) with .kparity/audit.log, or an audit log.
USAGE
}

die() {
	printf '%s: %s\n' "$PROG" "$*" >&2
	exit 2
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
	awk -F'\t' -v two="$#" '
	FNR == 1 { file++ }
	{
		q = $1 " " $2
		if (!((file, q) in seen)) {
			seen[file, q] = 1
			if (file == 1) { order[++n] = q; questions++ }
			else order2[++n2] = q
		}
		ans[file, q] = $4; why[file, q] = $5; cc[file] = $3
		if ($7 != "-") stock[file, q] = $7
	}
	END {
		bad = 0
		for (f = 1; f <= file; f++) {
			head = 0
			for (i = 1; i <= (f == 1 ? n : n2); i++) {
				q = (f == 1 ? order[i] : order2[i])
				if (!((f, q) in stock) || stock[f, q] == ans[f, q]) continue
				if (!head++) printf "overlay and stock Kbuild disagree (%s):\n", cc[f]
				printf "  %s: overlay %s (%s), stock %s\n", q, ans[f, q], why[f, q], stock[f, q]
				bad++; sdis++
			}
		}
		if (two == 2) {
			head = 0
			for (i = 1; i <= n; i++) {
				q = order[i]
				if (!((2, q) in ans) || ans[1, q] == ans[2, q]) continue
				if (!head++) printf "%s and %s disagree:\n", cc[1], cc[2]
				printf "  %s: %s (%s), %s (%s)\n", q, ans[1, q], why[1, q], ans[2, q], why[2, q]
				bad++; cdis++
			}
		}
		printf "summary: %d questions, %d overlay/stock disagreements", questions, sdis
		if (two == 2) printf ", %d compiler disagreements", cdis
		printf "\n"
		exit bad ? 1 : 0
	}' "$@"
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
