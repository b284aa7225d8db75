#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# translated-cc.sh - the compiler of a module built with another compiler
# than its kernel's (scripts/module.sh): runs KPARITY_REAL_CC with the
# command line kbuild/flag-translate.sh makes of this one from the
# decisions in KPARITY_FLAG_DECISIONS, probes and compiles alike.
#
# With KPARITY_FLAG_RECORD set, the first compile of a C file writes its
# words there, one per line, and fails: that is how module.sh learns the
# base flags Kbuild hands the module, to have them judged once.
#
# Exit: the compiler's status; 1 after recording; 2 trouble.
# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=translated-cc.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

# is_compile ARG...: the command compiles a C source file of the module
is_compile() {
	local a c=0 src=0

	for a in "$@"; do
		case "$a" in
		-c) c=1 ;;
		*.c) [ ! -f "$a" ] || src=1 ;;
		esac
	done
	[ "$c" = 1 ] && [ "$src" = 1 ]
}

main() {
	local words nl='
'

	[ -n "${KPARITY_REAL_CC:-}" ] || die "KPARITY_REAL_CC names no compiler"
	if [ -n "${KPARITY_FLAG_RECORD:-}" ] && is_compile "$@"; then
		printf '%s\n' "$@" >"$KPARITY_FLAG_RECORD"
		exit 1
	fi
	if [ ! -s "${KPARITY_FLAG_DECISIONS:-}" ]; then
		exec "$KPARITY_REAL_CC" "$@"
	fi
	words=$("$TOPDIR/kbuild/flag-translate.sh" -d "$KPARITY_FLAG_DECISIONS" -o -- "$@") ||
		die "cannot apply '$KPARITY_FLAG_DECISIONS'"
	# one word a line: words with blanks stay whole
	set -f
	IFS=$nl
	# shellcheck disable=SC2086 # split on newlines only
	exec "$KPARITY_REAL_CC" $words
}

main "$@"
