#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# ktap.sh - the test results in a console log: one line per test,
# "SUITE.TEST pass|fail|skip|timeout|not-run", and "# MESSAGE" lines for
# what went wrong with the log itself (scripts/ktap/ktap.awk has the rules).
#
# Exit: 0 ok (whatever the results), 2 trouble (usage, unreadable log).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=ktap.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	cat <<USAGE
usage: $PROG [-t] LOG
Print the KTAP/TAP test results in the console log LOG.
  -t  the boot hit its time limit: the test running at the end timed out
USAGE
}

# eof_line LOG: the number of LOG's last line if it has no newline, else 0.
eof_line() {
	if [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" != '\n' ]; then
		echo $(($(wc -l <"$1") + 1))
	else
		echo 0
	fi
}

main() {
	local opt hang=0

	while getopts ht opt; do
		case "$opt" in
		t) hang=1 ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 1 ] || { usage >&2; exit 2; }
	if [ ! -f "$1" ] || [ ! -r "$1" ]; then
		die "cannot read '$1'"
	fi
	awk -v hang="$hang" -v eof_line="$(eof_line "$1")" \
		-f "$TOPDIR/scripts/ktap/ktap.awk" "$1"
}

main "$@"
