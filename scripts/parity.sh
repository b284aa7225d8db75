#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# parity.sh - build the kernel for a target with GCC and with Clang and
# compare the two vmlinux layouts with kabi.
#
# Reports go to BUILDDIR/report/TARGET.kabi.txt and .json. The last line
# printed is the verdict and the report's directory.
#
# Exit: 0 both builds succeeded and no layout differs incompatibly, 1 a
# build failed or a size, offset or enum size differs, 2 trouble.
set -eu

PROG=parity.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-t TARGET]
Build TARGET (default x86_64) with gcc and clang, then diff the layouts.
  -o BUILDDIR  where build products and reports go (default: build)
  -t TARGET    the target to build (see scripts/kernel-build.sh)
USAGE
}

die() {
	printf '%s: %s\n' "$PROG" "$*" >&2
	exit 2
}

step() {
	printf '  %-7s %s\n' "$1" "$2" >&2
}

# build_one COMPILER: print the vmlinux path, or nothing on failure
build_one() {
	"$TOPDIR/scripts/kernel-build.sh" -o "$build" -t "$target" -c "$1" | tail -n 1
}

# compare GCC_VMLINUX CLANG_VMLINUX: write the reports; fail on an error
# or an incompatible layout change (kabi's bit 8).  Types only one
# compiler emitted and typedef-only findings are reported, not failed.
compare() {
	kabi_rc=0
	"$build/kabi" diff --root "$srcdir" -o "$report/$target.kabi.txt" "$1" "$2" || kabi_rc=$?
	[ "$kabi_rc" -ne 1 ] && [ "$kabi_rc" -ne 2 ] || return 1
	"$build/kabi" diff --json --root "$srcdir" -o "$report/$target.kabi.json" "$1" "$2" || :
	step KABI "$target  $(tail -n 1 "$report/$target.kabi.txt")"
	[ $((kabi_rc & 8)) -eq 0 ]
}

main() {
	build=build
	target=x86_64
	while getopts o:t:h opt; do
		case "$opt" in
		o) build=$OPTARG ;;
		t) target=$OPTARG ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ "$#" -eq 0 ] || { usage >&2; exit 2; }
	[ -x "$build/kabi" ] || die "no '$build/kabi': run 'make' first"

	srcdir=$("$TOPDIR/scripts/kernel-src.sh" -o "$build") || exit 2
	report=$build/report
	mkdir -p "$report"

	verdict=pass
	gcc_vm=$(build_one gcc) || verdict=fail
	clang_vm=$(build_one clang) || verdict=fail
	if [ "$verdict" = pass ]; then
		compare "$gcc_vm" "$clang_vm" || verdict=fail
	fi
	if [ "$verdict" = pass ]; then
		echo "parity: PASS $target builds with gcc and clang, no incompatible layout difference; report in $report/"
	else
		echo "parity: FAIL $target (a build failed or the layouts differ); report in $report/"
		exit 1
	fi
}

main "$@"
