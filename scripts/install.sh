#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# install.sh - install kabi, its man pages and bash completion, and the
# overlay, the Kconfig entries, the series and the scripts, under the FHS
# paths 'make install' and the Debian package use.
#
# Layout under DESTDIR/PREFIX:
#   bin/kabi                           the tool
#   share/man/man1/kabi.1              its manual
#   share/man/man1/kabi-check.1        and its check verb's
#   share/bash-completion/completions/kabi
#   share/kparity/{kbuild,kconfig,patches,scripts}/   the checkout's
#                                      layout, so that the overlay finds its
#                                      scripts and the scripts their data
#   share/doc/kparity/                 the documentation
#
# Exit: 0 ok, 2 trouble (usage, a missing file, a failed copy).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=install.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

# The directories copied whole into share/kparity/.
DATA_DIRS="kbuild kconfig patches scripts"

usage() {
	cat <<USAGE
usage: $PROG -k KABI [-d DESTDIR] [-p PREFIX]
Install the built KABI and the checkout's data under DESTDIR/PREFIX
(default PREFIX: /usr/local).
USAGE
}

# put MODE SRC DEST: install one file, creating DEST's directories.
put() {
	install -D -m "$1" "$2" "$3" || die "cannot install '$2' as '$3'"
}

# copy_dir DIR DEST: DIR's files under DEST/DIR, keeping the execute bit of
# those that have it and nothing else.
copy_dir() {
	local f mode

	find "$TOPDIR/$1" -type f ! -name '*~' ! -name '*.orig' ! -name '*.rej' |
		LC_ALL=C sort | while IFS= read -r f; do
		mode=0644
		[ -x "$f" ] && mode=0755
		put "$mode" "$f" "$2/${f#"$TOPDIR"/}"
	done
}

main() {
	local kabi="" destdir="" prefix=/usr/local opt dir root

	while getopts d:hk:p: opt; do
		case "$opt" in
		d) destdir="$OPTARG" ;;
		k) kabi="$OPTARG" ;;
		p) prefix="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ $# -ne 0 ] || [ -z "$kabi" ]; then
		usage >&2
		exit 2
	fi
	[ -x "$kabi" ] || die "no executable '$kabi': run 'make' first"
	case "$prefix" in
	/*) ;;
	*) die "PREFIX '$prefix' is not an absolute path" ;;
	esac

	root="$destdir$prefix"
	put 0755 "$kabi" "$root/bin/kabi"
	put 0644 "$TOPDIR/Documentation/kabi.1" "$root/share/man/man1/kabi.1"
	put 0644 "$TOPDIR/Documentation/kabi-check.1" "$root/share/man/man1/kabi-check.1"
	put 0644 "$TOPDIR/tools/kabi/completion/kabi" \
		"$root/share/bash-completion/completions/kabi"
	for dir in $DATA_DIRS; do
		copy_dir "$dir" "$root/share/kparity"
	done
	for f in "$TOPDIR"/Documentation/*.md "$TOPDIR/README.md"; do
		put 0644 "$f" "$root/share/doc/kparity/$(basename "$f")"
	done
}

main "$@"
