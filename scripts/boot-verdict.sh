#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# boot-verdict.sh - judge a test boot from its console log and QEMU's exit
# status.
#
# A boot fails unless it proves otherwise: the init (scripts/initramfs/init.sh) must
# have printed its marker and PASS, both with this boot's token, no kernel
# panic may appear, and QEMU must have exited 0 (under -no-reboot, the
# guest's restart). The first finding in this order is the reason:
#
#   kernel panic: MESSAGE       "Kernel panic - not syncing" in the log
#   hang: ...                   timeout stopped QEMU (status 124 or 137)
#   qemu exited N               any other non-zero status
#   no marker: ...              init never printed its marker with TOKEN
#   smoke check failed: A, B    init reported failed checks
#   no PASS: ...                marker, but no PASS with TOKEN
#
# Exit: 0 pass, 1 fail, 2 trouble (usage, unreadable log).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=boot-verdict.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	cat <<USAGE
usage: $PROG LOG STATUS TOKEN
Print 'pass' or 'fail: REASON' for the boot whose console output is LOG,
whose QEMU exited with STATUS, and whose kernel command line carried
kparity.token=TOKEN.
USAGE
}

main() {
	[ $# -eq 3 ] || { usage >&2; exit 2; }
	[ -r "$1" ] || die "cannot read '$1'"
	case "$2" in
	'' | *[!0-9]*) die "STATUS must be a number, not '$2'" ;;
	esac
	[ -n "$3" ] || die "empty TOKEN"

	awk -v status="$2" -v token="$3" -f "$TOPDIR/scripts/boot-verdict/boot-verdict.awk" "$1"
}

main "$@"
