#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-build.sh - configure and build a kernel for one target with one
# compiler, out of tree, and print the path of its vmlinux.
#
# The build directory is BUILDDIR/kernel/TARGET-COMPILER/. The kernel is
# configured again only when what the configuration depends on changed
# (fragments, compiler, kernel tree, kernel-config.sh); otherwise make's own
# dependency tracking decides what to rebuild, so a second run with nothing
# changed takes seconds.
#
# Progress goes to stderr, one line per step; make's output goes to
# build.log in the build directory (and to stderr too with V=1). stdout
# carries only the vmlinux path.
#
# Exit: 0 ok, 1 configuring or building failed, 2 trouble (usage, no tree,
# no compiler).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=kernel-build.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
FRAGDIR="$TOPDIR/kconfig/fragments"

usage() {
	cat <<USAGE
usage: $PROG -o BUILDDIR -t TARGET -c gcc|clang [-j N]
Configure (when needed) and build the kernel for TARGET with the given
compiler in BUILDDIR/kernel/TARGET-COMPILER/, then print vmlinux's path.
  -o BUILDDIR  where build products go
  -t TARGET    one of: x86_64
  -c COMPILER  gcc, or clang for an LLVM=1 build
  -j N         make jobs (default: the number of CPUs)
Environment:
  LLVM=1|-N|DIR/  which LLVM a clang build uses (default 1); a version
                  suffix names the build directory, e.g. x86_64-clang-19
  CROSS_COMPILE   prefix for a gcc build's binutils and compiler
  KSRC, KPARITY_KERNEL_TARBALL  the kernel tree (see kernel-src.sh)
  V=1             show make's commands and output
  CCACHE_DISABLE=1  do without ccache even where it is installed
USAGE
}

die() {
	printf '%s: %s\n' "$PROG" "$*" >&2
	exit 2
}

step() {
	printf '  %-7s %s\n' "$1" "$2" >&2
}

# Per-target data: ARCH, the make target giving the base config, and the
# fragments from kconfig/fragments/ merged onto it, in order.
target_data() {
	case "$1" in
	x86_64)
		t_arch=x86_64
		t_base=tinyconfig
		t_fragments="x86_64.config debug-info.config"
		;;
	*)
		return 1
		;;
	esac
}

# setup_compiler COMPILER: set cc_bin, ld_bin, the build's name suffix, and
# export the make variables for COMPILER (and only those).
setup_compiler() {
	local llvm

	unset CC LD LLVM LLVM_IAS HOSTCC HOSTCXX
	case "$1" in
	gcc)
		cc_bin="${CROSS_COMPILE:-}gcc"
		ld_bin="${CROSS_COMPILE:-}ld"
		suffix=gcc
		;;
	clang)
		llvm="${want_llvm:-1}"
		case "$llvm" in
		1)
			cc_bin=clang
			ld_bin=ld.lld
			suffix=clang
			;;
		-[0-9]*)
			cc_bin="clang$llvm"
			ld_bin="ld.lld$llvm"
			suffix="clang$llvm"
			;;
		*/)
			cc_bin="${llvm}clang"
			ld_bin="${llvm}ld.lld"
			command -v "$cc_bin" >/dev/null || die "cannot find '$cc_bin' (LLVM=$llvm)"
			suffix="clang-$("$cc_bin" -dumpversion | cut -d. -f1)"
			;;
		*)
			die "LLVM='$llvm' is none of 1, -VERSION, DIR/"
			;;
		esac
		LLVM="$llvm"
		export LLVM
		;;
	*)
		usage >&2
		exit 2
		;;
	esac
	command -v "$cc_bin" >/dev/null || die "cannot find compiler '$cc_bin'"
	command -v "$ld_bin" >/dev/null || die "cannot find linker '$ld_bin'"

	CC="$cc_bin"
	if [ "${CCACHE_DISABLE:-}" != 1 ] && command -v ccache >/dev/null; then
		CC="ccache $cc_bin"
	fi
	ARCH="$t_arch"
	export ARCH CC
}

# fmt_time SECONDS: print a duration as 2m13s or 9s.
fmt_time() {
	if [ "$1" -ge 60 ]; then
		printf '%dm%02ds\n' $(($1 / 60)) $(($1 % 60))
	else
		printf '%ds\n' "$1"
	fi
}

# config_inputs SRCDIR FRAGMENT...: print everything the .config depends on,
# to be compared with what the last successful configuration recorded.
config_inputs() {
	local srcdir="$1"

	shift
	printf 'srcdir %s\n' "$srcdir"
	printf 'Makefile %s\n' "$(stat -c %Y "$srcdir/Makefile")"
	printf 'base %s\n' "$t_base"
	printf 'ARCH=%s CC=%s LLVM=%s CROSS_COMPILE=%s\n' \
		"$ARCH" "$CC" "${LLVM:-}" "${CROSS_COMPILE:-}"
	printf 'cc %s\n' "$("$cc_bin" --version | head -n 1)"
	printf 'ld %s\n' "$("$ld_bin" --version | head -n 1)"
	printf 'kernel-config.sh %s\n' "$(cksum <"$TOPDIR/scripts/kernel-config.sh")"
	for frag in "$@"; do
		printf 'fragment %s %s\n' "$(basename "$frag")" "$(cksum <"$frag")"
	done
}

# run_logged CMD...: run CMD with its output appended to $log; with V=1
# the output is shown on stderr too.
run_logged() {
	if [ "${V:-0}" = 1 ]; then
		printf '%s\n' "$*" >&2
		rm -f "$log.failed"
		{ "$@" 2>&1 || : >"$log.failed"; } | tee -a "$log" >&2
		if [ -e "$log.failed" ]; then
			rm -f "$log.failed"
			return 1
		fi
	else
		"$@" >>"$log" 2>&1
	fi
}

# configure SRCDIR NAME: configure $objdir unless its inputs are unchanged.
configure() {
	local srcdir="$1" name="$2" stamp="$objdir/.kparity-config" frag inputs

	set --
	for frag in $t_fragments; do
		[ -f "$FRAGDIR/$frag" ] || die "cannot read fragment '$FRAGDIR/$frag'"
		set -- "$@" "$FRAGDIR/$frag"
	done
	inputs=$(config_inputs "$srcdir" "$@")
	if [ -f "$objdir/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$inputs" ]; then
		return 0
	fi

	step CONFIG "$name"
	rm -f "$stamp"
	"$TOPDIR/scripts/kernel-config.sh" -s "$srcdir" -O "$objdir" -b "$t_base" \
		-l "$log" "$@" >/dev/null || exit
	printf '%s\n' "$inputs" >"$stamp"
}

# build SRCDIR NAME JOBS: run make for the default targets in $objdir.
build() {
	local srcdir="$1" name="$2" jobs="$3" start

	set -- -C "$srcdir" O="$objdir" ARCH="$ARCH" CC="$CC" -j "$jobs"
	[ -z "${LLVM:-}" ] || set -- "$@" LLVM="$LLVM"
	[ -z "${CROSS_COMPILE:-}" ] || set -- "$@" CROSS_COMPILE="$CROSS_COMPILE"
	[ "${V:-0}" != 1 ] || set -- "$@" V=1

	start=$(date +%s)
	if ! run_logged make "$@"; then
		step BUILD "$name  failed"
		printf '%s: building %s failed; last lines of %s:\n' "$PROG" "$name" "$log" >&2
		tail -n 20 "$log" >&2
		exit 1
	fi
	step BUILD "$name  $(fmt_time $(($(date +%s) - start)))"
}

# check_srcdir SRCDIR: fail if anything in SRCDIR is newer than the mark
# taken before configuring; with O= the tree must stay untouched.
check_srcdir() {
	local found

	found=$(find "$1" -newer "$objdir/.kparity-start" -print | head -n 5)
	rm -f "$objdir/.kparity-start"
	if [ -n "$found" ]; then
		printf '%s: the build wrote into the source tree:\n%s\n' "$PROG" "$found" >&2
		exit 1
	fi
}

main() {
	local builddir="" target="" compiler="" jobs srcdir name opt

	jobs=$(nproc)
	while getopts c:hj:o:t: opt; do
		case "$opt" in
		c) compiler="$OPTARG" ;;
		j) jobs="$OPTARG" ;;
		o) builddir="$OPTARG" ;;
		t) target="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ $# -ne 0 ] || [ -z "$builddir" ] || [ -z "$target" ] || [ -z "$compiler" ]; then
		usage >&2
		exit 2
	fi
	case "$jobs" in
	'' | *[!0-9]* | 0) die "-j needs a positive number, not '$jobs'" ;;
	esac
	target_data "$target" || die "unknown target '$target' (known: x86_64)"

	# LLVM from the caller selects the clang build; a gcc build must not
	# see it, so it is kept aside before setup_compiler clears it.
	want_llvm="${LLVM:-}"
	setup_compiler "$compiler"

	srcdir=$("$TOPDIR/scripts/kernel-src.sh" -o "$builddir") || exit 2
	mkdir -p "$builddir/kernel/$target-$suffix" || die "cannot create '$builddir/kernel/$target-$suffix'"
	objdir=$(cd "$builddir/kernel/$target-$suffix" && pwd)
	log="$objdir/build.log"
	name="$target/$suffix"
	: >"$log"
	touch "$objdir/.kparity-start"

	configure "$srcdir" "$name"
	build "$srcdir" "$name" "$jobs"
	check_srcdir "$srcdir"

	[ -f "$objdir/vmlinux" ] || die "make succeeded but left no '$objdir/vmlinux'"
	printf '%s\n' "$objdir/vmlinux"
}

main "$@"
