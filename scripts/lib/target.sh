# SPDX-License-Identifier: GPL-2.0-only
#
# target.sh - targets and compilers for the scripts; sourced, not run,
# after common.sh (it uses PROG, TOPDIR and die).
#
# A target is one data file, scripts/targets/NAME.target, checked by the
# executable scripts/target.sh before it is sourced. A compiler is named
# gcc, clang or clang-N; which clang "clang" means is the kernel's LLVM=
# variable: 1 (default, clang), -N (clang-N) or DIR/ (DIR/clang).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
# shellcheck shell=sh
# shellcheck disable=SC2034 # the t_* and cc_* variables are for the caller

# The keys a target file must set, and those it may set; scripts/target.sh
# checks them and documents each.
TARGET_REQUIRED="ARCH BASE_CONFIG FRAGMENTS IMAGE QEMU QEMU_MACHINE CONSOLE"
TARGET_OPTIONAL="SRCARCH CROSS_COMPILE DEFCONFIGS DTB QEMU_CPU QEMU_MEMORY APPEND"

# known_targets
# Usage: die "no targets (known: $(known_targets))"
# Prints the target names on one line, sorted, separated by spaces.
known_targets() {
	"$TOPDIR/scripts/target.sh" -l | tr '\n' ' ' | sed 's/ $//'
}

# load_target NAME
# Usage: load_target "$target"
# Checks scripts/targets/NAME.target and sets t_name and one t_* variable
# per key, in lower case (t_arch, t_cross for CROSS_COMPILE, t_base for
# BASE_CONFIG, t_qemu_machine, ...): an optional key that is not set is
# empty, but t_srcarch defaults to t_arch. The keys themselves are left
# unset, so that none leaks into a make run. Exits 2 (target.sh has said
# why) on an unknown target or a bad file.
load_target() {
	local file

	file=$("$TOPDIR/scripts/target.sh" -p "$PROG" "$1") || exit 2
	# shellcheck disable=SC2086 # one word per key
	unset $TARGET_REQUIRED $TARGET_OPTIONAL
	# shellcheck disable=SC1090 # checked by target.sh just now
	. "$file"
	t_name="$1"
	t_arch="$ARCH"
	t_srcarch="${SRCARCH:-$ARCH}"
	t_cross="${CROSS_COMPILE:-}"
	t_base="$BASE_CONFIG"
	t_fragments="$FRAGMENTS"
	t_defconfigs="${DEFCONFIGS:-}"
	t_image="$IMAGE"
	t_dtb="${DTB:-}"
	t_qemu="$QEMU"
	t_qemu_machine="$QEMU_MACHINE"
	t_qemu_cpu="${QEMU_CPU:-}"
	t_qemu_memory="${QEMU_MEMORY:-}"
	t_console="$CONSOLE"
	t_append="${APPEND:-}"
	# shellcheck disable=SC2086 # one word per key
	unset $TARGET_REQUIRED $TARGET_OPTIONAL
}

# compiler_select COMPILER
# Usage: load_target "$target"; compiler_select clang
# Sets, for COMPILER (gcc, clang with the caller's LLVM, or clang-N):
#   cc_bin     the compiler to run (arm-linux-gnueabi-gcc, clang-19, ...)
#   ld_bin     its linker
#   cc_cross   CROSS_COMPILE for make (gcc only: the target's prefix)
#   cc_llvm    LLVM= for make (clang only: 1, -N or DIR/)
#   cc_suffix  the name of the build: gcc, clang (LLVM=1), clang-N
#              (LLVM=-N, clang-N, and LLVM=DIR/ whose clang is N.x)
# Build directories are named TARGET-SUFFIX (x86_64-clang-19). GCC's
# cross prefix is the loaded target's (none before load_target). Dies on
# an unknown compiler or LLVM value, or a DIR/ without clang.
compiler_select() {
	local llvm

	cc_cross=""
	cc_llvm=""
	case "$1" in
	gcc)
		cc_bin="${t_cross:-}gcc"
		ld_bin="${t_cross:-}ld"
		cc_cross="${t_cross:-}"
		cc_suffix=gcc
		return 0
		;;
	clang) llvm="${LLVM:-1}" ;;
	clang-[0-9]*)
		case "${1#clang-}" in
		*[!0-9]*) die "unknown compiler '$1' (known: gcc clang clang-N)" ;;
		esac
		llvm="-${1#clang-}"
		;;
	*) die "unknown compiler '$1' (known: gcc clang clang-N)" ;;
	esac
	case "$llvm" in
	1)
		cc_bin=clang
		ld_bin=ld.lld
		cc_suffix=clang
		;;
	-[0-9]*)
		cc_bin="clang$llvm"
		ld_bin="ld.lld$llvm"
		cc_suffix="clang$llvm"
		;;
	*/)
		cc_bin="${llvm}clang"
		ld_bin="${llvm}ld.lld"
		[ -x "$cc_bin" ] || die "cannot find '$cc_bin' (LLVM=$llvm)"
		cc_suffix="clang-$("$cc_bin" -dumpversion | cut -d. -f1)"
		;;
	*)
		die "LLVM='$llvm' is none of 1, -VERSION, DIR/"
		;;
	esac
	cc_llvm="$llvm"
}
