#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# initramfs.sh - build the test initramfs of a cell (target x compiler) and
# print its path.
#
# The user space is toybox, built by the cell's own compiler
# (scripts/toybox.sh); /init is scripts/initramfs/init.sh, run by toybox's
# sh. The archive is written by the tree's usr/gen_init_cpio from
# scripts/initramfs/initramfs.list, which sets owners and device nodes
# itself, so nothing here needs root. Every entry carries the time 0
# (gen_init_cpio -t for what the list makes, the files' own times for the
# files, set to 0 on their copies), so the same inputs give the same
# bytes, whenever and wherever the archive is built. A stamp of the inputs
# makes a re-run free; the archive is written under a temporary name and
# renamed.
#
# Exit: 0 ok, 1 a build step failed, 2 trouble (usage, target, tools).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=initramfs.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
SRC="$TOPDIR/scripts/initramfs"

usage() {
	cat <<USAGE
usage: $PROG -o BUILDDIR -t TARGET [-c COMPILER]
Build BUILDDIR/initramfs/TARGET-COMPILER/initramfs.cpio, whose toybox
COMPILER (default: gcc) built, unless it is up to date, and print its path.
V=1 shows the commands; LLVM= selects the clang as for scripts/toybox.sh.
USAGE
}

# inputs SRCDIR TOYBOX: everything the archive depends on
inputs() {
	printf 'gen_init_cpio %s\n' "$(cksum <"$1/usr/gen_init_cpio.c")"
	printf 'toybox %s\n' "$(cksum <"$2")"
	cksum "$SRC/init.sh" "$SRC/check" "$SRC/initramfs.list" "$0" |
		awk '{ print $1, $2 }'
}

main() {
	local builddir target compiler srcdir dir toybox stamp want log

	cell_opts "$@"
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" cc || exit 2

	srcdir=$("$TOPDIR/scripts/kernel-src.sh" -o "$builddir") || exit 2
	toybox=$("$TOPDIR/scripts/toybox.sh" -o "$builddir" -t "$target" -c "$compiler") || exit
	dir=$(cell_dir "$builddir" initramfs)
	mkdir -p "$dir" || die "cannot create '$dir'"
	dir=$(cd "$dir" && pwd)
	stamp="$dir/.kparity-inputs"
	want=$(inputs "$srcdir" "$toybox")
	if [ -f "$dir/initramfs.cpio" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
		printf '%s\n' "$dir/initramfs.cpio"
		exit 0
	fi

	step INITRD "$target/$cc_suffix"
	rm -f "$stamp"
	log="$dir/initramfs.log"
	: >"$log"
	if ! run_logged "$log" cc -O2 -o "$dir/gen_init_cpio" "$srcdir/usr/gen_init_cpio.c"; then
		printf '%s: cannot build gen_init_cpio; last lines of %s:\n' "$PROG" "$log" >&2
		tail -n 20 "$log" >&2
		exit 1
	fi
	cp "$toybox" "$dir/toybox"
	cp "$SRC/init.sh" "$dir/init"
	cp "$SRC/check" "$dir/check"
	touch -d @0 "$dir/toybox" "$dir/init" "$dir/check"
	(cd "$dir" && ./gen_init_cpio -t 0 "$SRC/initramfs.list" >initramfs.cpio.tmp) 2>>"$log" ||
		die "gen_init_cpio failed; see '$log'"
	mv "$dir/initramfs.cpio.tmp" "$dir/initramfs.cpio"
	printf '%s\n' "$want" >"$stamp"
	printf '%s\n' "$dir/initramfs.cpio"
}

main "$@"
