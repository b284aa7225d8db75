#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# initramfs.sh - build the test initramfs for a target and print its path.
#
# The init (scripts/initramfs/init.c) is compiled static with the target's GCC
# against the kernel tree's nolibc and its exported UAPI headers ('make
# headers' into BUILDDIR/initramfs/TARGET/, never into the tree). The
# archive is written by the tree's usr/gen_init_cpio from
# scripts/initramfs/initramfs.list, which sets owners and device nodes
# itself, so nothing here needs root. A stamp of the inputs makes a re-run free.
#
# Exit: 0 ok, 1 a compile step failed, 2 trouble (usage, target, tools).

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
usage: $PROG -o BUILDDIR -t TARGET
Build BUILDDIR/initramfs/TARGET/initramfs.cpio unless it is up to date,
and print its path. V=1 shows the commands.
USAGE
}

# run CMD...: run CMD, its output to $log (and stderr with V=1).
run() {
	[ "${V:-0}" != 1 ] || printf '%s\n' "$*" >&2
	if ! "$@" >>"$log" 2>&1; then
		printf '%s: failed: %s; last lines of %s:\n' "$PROG" "$*" "$log" >&2
		tail -n 20 "$log" >&2
		exit 1
	fi
}

# inputs SRCDIR CC: everything the archive depends on.
inputs() {
	printf 'srcdir %s %s\n' "$1" "$(stat -c %Y "$1/Makefile")"
	printf 'cc %s\n' "$("$2" --version | head -n 1)"
	printf 'ARCH=%s\n' "$t_arch"
	cksum "$SRC/init.c" "$SRC/check" "$SRC/initramfs.list" "$0" |
		awk '{ print $1, $2 }'
}

main() {
	local builddir="" target="" opt srcdir dir cc stamp want

	while getopts ho:t: opt; do
		case "$opt" in
		o) builddir="$OPTARG" ;;
		t) target="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ $# -ne 0 ] || [ -z "$builddir" ] || [ -z "$target" ]; then
		usage >&2
		exit 2
	fi
	load_target "$target"
	compiler_select gcc
	cc="$cc_bin"
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" "$cc" cc make || exit 2

	srcdir=$("$TOPDIR/scripts/kernel-src.sh" -o "$builddir") || exit 2
	mkdir -p "$builddir/initramfs/$target" || die "cannot create '$builddir/initramfs/$target'"
	dir=$(cd "$builddir/initramfs/$target" && pwd)
	stamp="$dir/.kparity-inputs"
	want=$(inputs "$srcdir" "$cc")
	if [ -f "$dir/initramfs.cpio" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
		printf '%s\n' "$dir/initramfs.cpio"
		exit 0
	fi

	step INITRD "$target"
	rm -f "$stamp"
	log="$dir/initramfs.log"
	: >"$log"
	run make -C "$srcdir" O="$dir/headers" ARCH="$t_arch" headers
	# nolibc's own headers are not -Wextra clean; -isystem keeps their
	# warnings out while init.c is held to -Werror.
	run "$cc" -static -nostdlib -fno-stack-protector -fno-asynchronous-unwind-tables \
		-Os -Wall -Wextra -Werror \
		-isystem "$dir/headers/usr/include" -isystem "$srcdir/tools/include/nolibc" \
		-include nolibc.h -o "$dir/init" "$SRC/init.c" -lgcc
	run cc -O2 -o "$dir/gen_init_cpio" "$srcdir/usr/gen_init_cpio.c"
	cp "$SRC/check" "$dir/check"
	(cd "$dir" && ./gen_init_cpio "$SRC/initramfs.list" >initramfs.cpio.tmp) 2>>"$log" ||
		die "gen_init_cpio failed; see '$log'"
	mv "$dir/initramfs.cpio.tmp" "$dir/initramfs.cpio"
	printf '%s\n' "$want" >"$stamp"
	printf '%s\n' "$dir/initramfs.cpio"
}

main "$@"
