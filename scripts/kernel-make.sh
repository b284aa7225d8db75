#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-make.sh - the one way kparity runs the kernel's make (a build, a
# configuration, the kselftests, an external module), so that nothing of
# the caller's own make or Kbuild settings leaks into it.
#
# The environment is scrubbed of
#   - make's own: MAKEFLAGS, MFLAGS, MAKELEVEL, MAKEFILES, MAKEOVERRIDES,
#     GNUMAKEFLAGS: a 'make -j8 parity' above would hand Kbuild its
#     jobserver and its command-line variables (O=, V=, CC=);
#   - the Kbuild variables read from the environment: KBUILD_OUTPUT,
#     KBUILD_EXTMOD, KBUILD_VERBOSE, KBUILD_EXTRA_WARN, KBUILD_CHECKSRC,
#     KBUILD_KCONFIG, KCFLAGS, KCPPFLAGS, KAFLAGS, KRUSTFLAGS, KCONFIG_CONFIG,
#     LOCALVERSION: a user's settings would make two cells differ in ways
#     no report shows;
#   - the toolchain variables ARCH, SRCARCH, SUBARCH, CROSS_COMPILE, LLVM,
#     LLVM_IAS, CC, LD, AR, NM, OBJCOPY, HOSTCC, HOSTCXX: they go on the
#     command line instead, where every sub-make and Kconfig's compiler
#     probes see them.
# The toolchain is the cell's (-t TARGET -c COMPILER, with LLVM= choosing
# the clang as for kernel-build.sh) or, without -t, the toolchain variables
# the caller exported. They come first on the command line, so that a
# MAKE-ARG naming one of them again (CC="ccache clang") wins: make takes
# the last. With V=1 in the environment, V=1 is passed. Everything else
# of the environment (CFLAGS for the kselftests, ccache's and the farm's
# settings) passes through.
#
# Exit: make's status; 2 on usage.
#
# Usage (from a script):
#   "$TOPDIR/scripts/kernel-make.sh" -t x86_64 -c clang "$srcdir" O="$objdir" -j 2

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=kernel-make.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"

SCRUB="MAKEFLAGS MFLAGS MAKELEVEL MAKEFILES MAKEOVERRIDES GNUMAKEFLAGS
KBUILD_OUTPUT KBUILD_EXTMOD KBUILD_VERBOSE KBUILD_EXTRA_WARN KBUILD_CHECKSRC
KBUILD_KCONFIG KCFLAGS KCPPFLAGS KAFLAGS KRUSTFLAGS KCONFIG_CONFIG LOCALVERSION"
TOOLCHAIN="ARCH SRCARCH SUBARCH CROSS_COMPILE LLVM LLVM_IAS CC LD AR NM OBJCOPY HOSTCC HOSTCXX"

usage() {
	cat <<USAGE
usage: $PROG [-t TARGET -c COMPILER] DIR [MAKE-ARG...]
Run 'make -C DIR MAKE-ARG...' for a kernel tree (or its tools/), its
environment scrubbed of make's and Kbuild's settings, the toolchain on the
command line: the cell's with -t and -c, else the caller's exported
ARCH, CROSS_COMPILE, LLVM, LLVM_IAS, CC, LD, HOSTCC, HOSTCXX.
USAGE
}

# cell_toolchain: the loaded target's and selected compiler's variables
cell_toolchain() {
	set -- ARCH="$t_arch"
	[ -z "$cc_cross" ] || set -- "$@" CROSS_COMPILE="$cc_cross"
	if [ -n "$cc_llvm" ]; then
		set -- "$@" LLVM="$cc_llvm"
		[ -z "$cc_ias" ] || set -- "$@" LLVM_IAS="$cc_ias"
	else
		set -- "$@" CC="$cc_bin"
	fi
	printf '%s\n' "$@"
}

# env_toolchain: the toolchain variables the caller exported, set ones only
env_toolchain() {
	local v val

	for v in $TOOLCHAIN; do
		eval "val=\${$v:-}"
		[ -z "$val" ] || printf '%s=%s\n' "$v" "$val"
	done
}

main() {
	local opt target="" compiler="" dir vars line n unset_args=""

	while getopts c:ht: opt; do
		case "$opt" in
		c) compiler="$OPTARG" ;;
		t) target="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	dir="${1:-}"
	[ $# -eq 0 ] || shift
	if [ -z "$dir" ] || { [ -n "$target" ] && [ -z "$compiler" ]; } ||
		{ [ -z "$target" ] && [ -n "$compiler" ]; }; then
		usage >&2
		exit 2
	fi
	if [ -n "$target" ]; then
		load_target "$target"
		compiler_select "$compiler"
		vars=$(cell_toolchain)
	else
		vars=$(env_toolchain)
	fi
	# the variables go first, one word each (values may hold spaces):
	# appended, then the caller's arguments rotated behind them
	n=$#
	while IFS= read -r line; do
		[ -z "$line" ] || set -- "$@" "$line"
	done <<EOF
$vars
EOF
	while [ "$n" -gt 0 ]; do
		set -- "$@" "$1"
		shift
		n=$((n - 1))
	done
	[ "${V:-0}" != 1 ] || set -- "$@" V=1
	for line in $SCRUB $TOOLCHAIN V; do
		unset_args="$unset_args -u $line"
	done
	# shellcheck disable=SC2086 # one word per option
	exec env $unset_args make -C "$dir" "$@"
}

main "$@"
