#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# module.sh - build an external module (a DKMS source, say) against a
# kernel's configured tree or headers, with the compiler that built the
# kernel or a chosen one, then compare the layout of every type the
# module shares with the kernel against the kernel's own
# (Documentation/distro-modules.md).
#
# The kernel's compiler comes from its .config (CONFIG_CC_VERSION_TEXT,
# CC_IS_GCC/CLANG, GCC_VERSION/CLANG_VERSION, LD_IS_*, AS_IS_*) and from
# Debian's .kernelvariables, which sets CC: the compiler is always given
# on make's command line, so that it is the one used. A compiler of the
# other family builds through the probe overlay, with each base flag it
# rejects translated or dropped (kbuild/flag-translate.sh), every one
# listed with what dropping it costs.
#
# Exit: 0 built and no layout differs (or no check asked), 1 the build
# failed, 2 trouble (bad KDIR or M, no compiler); a layout check that
# finds differences exits with kabi's bits: 4 changes, 8 (12)
# incompatible ones.
# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=module.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	cat <<USAGE
usage: $PROG -k KDIR -m MDIR [-c COMPILER] [-o BUILDDIR] [-V VMLINUX] [-B BTF] [-n]
Build the module in MDIR against the kernel tree or headers in KDIR, then
check its types against the kernel's.
  -c COMPILER  kernel (default: the one that built the kernel), gcc, gcc-N,
               clang or clang-N
  -o BUILDDIR  where the log, the flag decisions and the check go
               (default: build); kabi is BUILDDIR/kabi, else the installed one
  -V VMLINUX   the kernel's types from this vmlinux's DWARF
  -B BTF       the kernel's types from this BTF (raw, or a vmlinux with .BTF);
               default /sys/kernel/btf/vmlinux when KDIR is the running
               kernel's
  -n           no layout check
Exit: 0 ok, 1 the build failed, 2 trouble; 4, 8 or 12 (kabi's bits) when
the layout check finds a difference.
USAGE
}

# ---- the kernel -----------------------------------------------------------

# config_val NAME: the value of CONFIG_NAME in the kernel's .config, quotes
# removed; empty when unset
config_val() {
	sed -n "s/^CONFIG_$1=\"\\{0,1\\}\\([^\"]*\\)\"\\{0,1\\}\$/\\1/p" "$kdir/.config" | head -n 1
}

# version_of NUM: 120200 -> 12.2.0
version_of() {
	echo "$1" | awk '{ printf "%d.%d.%d\n", $1 / 10000, ($1 / 100) % 100, $1 % 100 }'
}

# kernelvariables_cc: the compiler Debian's .kernelvariables sets, if any
kernelvariables_cc() {
	[ -f "$kdir/.kernelvariables" ] || return 0
	sed -n 's/^CC *= *\(.*\)$/\1/p' "$kdir/.kernelvariables" | awk '{ w = $NF; sub(/^\$\(CROSS_COMPILE\)/, "", w); print w }' | head -n 1
}

# kernel_release: the release the tree builds modules for
kernel_release() {
	local r

	r=$(cat "$kdir/Makefile" "$kdir/.kernelvariables" 2>/dev/null | sed -n 's/^override KERNELRELEASE *= *//p' | head -n 1)
	[ -n "$r" ] || r=$(cat "$kdir/include/config/kernel.release" 2>/dev/null || :)
	echo "${r:-unknown}"
}

# read_kernel: the kernel's toolchain into k_family, k_version, k_text,
# k_ld, k_as, k_vars_cc
read_kernel() {
	k_text=$(config_val CC_VERSION_TEXT)
	if [ "$(config_val CC_IS_CLANG)" = y ]; then
		k_family=clang
		k_version=$(version_of "$(config_val CLANG_VERSION)")
	elif [ "$(config_val CC_IS_GCC)" = y ]; then
		k_family=gcc
		k_version=$(version_of "$(config_val GCC_VERSION)")
	else
		die "'$kdir/.config' says neither CONFIG_CC_IS_GCC nor CONFIG_CC_IS_CLANG: which compiler built this kernel?"
	fi
	k_ld="GNU ld"
	[ "$(config_val LD_IS_LLD)" != y ] || k_ld=ld.lld
	k_as="GNU as"
	[ "$(config_val AS_IS_LLVM)" != y ] || k_as="LLVM integrated assembler"
	k_vars_cc=$(kernelvariables_cc)
}

# cc_version CC: the full version CC reports
cc_version() {
	case "$1" in
	*clang*) "$1" --version 2>/dev/null | sed -n 's/.*clang version \([0-9][0-9.]*\).*/\1/p' | head -n 1 ;;
	*) "$1" -dumpfullversion 2>/dev/null ;;
	esac
}

# kernel_cc: the installed compiler that is the kernel's, or nothing
kernel_cc() {
	local major="${k_version%%.*}" c

	for c in $k_vars_cc "$k_family-$major" "$k_family"; do
		command -v "$c" >/dev/null 2>&1 || continue
		[ "$(cc_version "$c")" = "$k_version" ] || continue
		echo "$c"
		return 0
	done
}

# ---- the compiler ---------------------------------------------------------

# pick COMPILER: set cc, cc_family
pick() {
	case "$1" in
	kernel)
		cc=$(kernel_cc)
		[ -n "$cc" ] || die "the kernel's compiler ($k_family $k_version${k_vars_cc:+, $k_vars_cc in .kernelvariables}) is not installed; install it, or choose one with COMPILER=gcc|clang (its code then differs from the kernel's)"
		;;
	gcc | gcc-[0-9]* | clang | clang-[0-9]*)
		cc=$1
		command -v "$cc" >/dev/null 2>&1 || die "no compiler '$cc' (install it, or choose another with COMPILER=)"
		;;
	*) die "COMPILER is kernel, gcc, gcc-N, clang or clang-N, not '$1'" ;;
	esac
	cc_family=${cc%%-*}
}

# say_toolchain: which compiler built the kernel, which one builds now
say_toolchain() {
	local mine

	mine=$(cc_version "$cc")
	step KERNEL "$(kernel_release): $k_family $k_version ($k_text), $k_ld, $k_as"
	if [ "$cc_family" = "$k_family" ] && [ "$mine" = "$k_version" ]; then
		step CC "$cc $mine: the kernel's own compiler"
	elif [ "$cc_family" = "$k_family" ]; then
		step CC "$cc $mine: the kernel's family, another version ($k_version built the kernel)"
		warn "$cc $mine is not the compiler that built the kernel: its code differs"
	else
		step CC "$cc $mine: NOT the kernel's compiler ($k_family $k_version); its flags are translated below"
		warn "the module's code will differ from code the kernel's compiler makes: built and tested with $k_family $k_version, the kernel meets code from $cc $mine"
	fi
}

# ---- building -------------------------------------------------------------

# kmake ARG...: make in the kernel tree for the module, not under ours
kmake() {
	"$TOPDIR/scripts/kernel-make.sh" "$kdir" M="$mdir" "$@"
}

# direct_build: the module with a compiler of the kernel's family
direct_build() {
	local llvm=""

	[ "$cc_family" != clang ] || [ "$k_ld" != ld.lld ] || llvm=LLVM=1
	step BUILD "$(basename "$mdir") with $cc"
	# shellcheck disable=SC2086 # LLVM=1 or nothing
	run_logged "$work/build.log" kmake CC="$cc" $llvm modules
}

# judge_flags: the base flags Kbuild hands the module, judged by $cc once
# into $work/decisions.tsv
judge_flags() {
	local wrapper="$TOPDIR/kbuild/translated-cc.sh"

	rm -f "$work/base-flags" "$work/decisions.tsv"
	: >"$work/decisions.tsv"
	KPARITY_REAL_CC=$cc KPARITY_FLAG_RECORD="$work/base-flags" KPARITY_FLAG_DECISIONS=""
	export KPARITY_REAL_CC KPARITY_FLAG_RECORD KPARITY_FLAG_DECISIONS
	kmake CC="$wrapper" modules >"$work/record.log" 2>&1 || :
	unset KPARITY_FLAG_RECORD
	[ -s "$work/base-flags" ] ||
		die "found no compile command in the build of '$mdir' (see '$work/record.log')"
	# shellcheck disable=SC2046 # one word a line, no blanks in Kbuild's flags
	"$TOPDIR/kbuild/flag-translate.sh" -c "$cc" -- $(cat "$work/base-flags") >"$work/decisions.tsv"
}

# report_flags: each translated or dropped flag, what it costs
report_flags() {
	local flag what new class why n=0

	while IFS="$(printf '\t')" read -r flag what new class why; do
		n=$((n + 1))
		if [ "$what" = translate ]; then
			step FLAG "$flag -> $(echo "$new" | tr ',' ' ') ($class, kept in Clang's words)"
			continue
		fi
		step FLAG "$flag dropped ($class): $why"
		case "$class" in
		abi) warn "dropping $flag changes the ABI: the module may not work with this kernel" ;;
		security) warn "without $flag the module lacks a protection the kernel has: $why" ;;
		esac
	done <"$work/decisions.tsv"
	[ "$n" -gt 0 ] || step FLAG "$cc takes every base flag as it is"
}

# other_build: the module with the other family's compiler, through the
# overlay, with the base flags translated
other_build() {
	[ "$k_family" = gcc ] ||
		die "a $k_family-built kernel's flags cannot be translated for $cc_family yet (only GCC's for Clang): choose COMPILER=kernel or clang"
	judge_flags
	report_flags
	step BUILD "$(basename "$mdir") with $cc through the overlay"
	KPARITY_FLAG_DECISIONS="$work/decisions.tsv"
	export KPARITY_FLAG_DECISIONS
	run_logged "$work/build.log" kmake CC="$TOPDIR/kbuild/translated-cc.sh" \
		MAKEFILES="$TOPDIR/kbuild/overlay.mk" modules
}

# ---- the layout check -----------------------------------------------------

# kernel_types: set k_src and k_kind to the file with the kernel's types
# and its format, or k_src to nothing
kernel_types() {
	k_src="" k_kind=BTF
	if [ -n "$vmlinux" ]; then
		k_src=$vmlinux k_kind=DWARF
	elif [ -n "$btf" ]; then
		k_src=$btf
	elif [ -r /sys/kernel/btf/vmlinux ] && [ "$(uname -r)" = "$(kernel_release)" ]; then
		k_src=/sys/kernel/btf/vmlinux
	fi
}

# check_one KO: kabi diff of the kernel's types against KO's; kabi's bits
check_one() {
	local ko="$1" out st=0

	out="$work/check-$(basename "$ko" .ko).txt"
	step CHECK "$(basename "$ko") against the kernel's $k_kind ($k_src)"
	"$kabi" diff --only-common "$k_src" "$ko" >"$out" 2>"$work/check.err" || st=$?
	case "$st" in
	0 | 4 | 8 | 12) ;;
	*) die "kabi failed on '$ko': $(head -n 1 "$work/check.err")" ;;
	esac
	sed 's/^/    /' "$out" >&2
	return "$st"
}

# check_layouts: every .ko of the module checked; kabi's bits, ORed
check_layouts() {
	local ko rc=0 st

	kernel_types
	if [ -z "$k_src" ]; then
		step CHECK "not done: no kernel types (give VMLINUX= or BTF=; /sys/kernel/btf/vmlinux is another kernel's)"
		return 0
	fi
	[ -r "$k_src" ] || die "cannot read the kernel's types '$k_src'"
	for ko in "$mdir"/*.ko; do
		[ -f "$ko" ] || die "the build left no .ko in '$mdir'"
		st=0
		check_one "$ko" || st=$?
		rc=$((rc | st))
	done
	return "$rc"
}

# ---- main -----------------------------------------------------------------

# check_inputs: KDIR a configured kernel tree, MDIR a module source
check_inputs() {
	[ -n "$kdir" ] || die "no kernel tree: give KDIR= (-k), e.g. /lib/modules/\$(uname -r)/build"
	[ -n "$mdir" ] || die "no module source: give M= (-m)"
	[ -d "$kdir" ] || die "KDIR '$kdir' is not a directory"
	if [ ! -f "$kdir/.config" ] || [ ! -f "$kdir/Makefile" ]; then
		die "KDIR '$kdir' is not a configured kernel tree (no .config or no Makefile)"
	fi
	[ -d "$mdir" ] || die "M '$mdir' is not a directory"
	[ -f "$mdir/Kbuild" ] || [ -f "$mdir/Makefile" ] ||
		die "M '$mdir' has no Kbuild or Makefile: not a module source"
	kdir=$(abspath "$kdir")
	mdir=$(abspath "$mdir")
}

main() {
	local builddir=build compiler=kernel check=1 rc=0 opt

	kdir="" mdir="" vmlinux="" btf=""
	while getopts k:m:c:o:V:B:nh opt; do
		case "$opt" in
		k) kdir=$OPTARG ;;
		m) mdir=$OPTARG ;;
		c) compiler=$OPTARG ;;
		o) builddir=$OPTARG ;;
		V) vmlinux=$OPTARG ;;
		B) btf=$OPTARG ;;
		n) check=0 ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 0 ] || { usage >&2; exit 2; }
	check_inputs
	# this checkout's kabi, or an installed one
	kabi="$(abspath "$builddir")/kabi"
	[ -x "$kabi" ] || kabi=$(command -v kabi || echo "$kabi")
	[ "$check" = 0 ] || [ -x "$kabi" ] || die "no '$kabi' and no kabi installed: run 'make' first"
	read_kernel
	pick "$compiler"
	say_toolchain
	work="$(abspath "$builddir")/module/$(basename "$mdir")"
	mkdir -p "$work"
	: >"$work/build.log"
	if [ "$cc_family" = "$k_family" ]; then
		direct_build || { echo "module: FAIL (build; see '$work/build.log')"; exit 1; }
	else
		other_build || { echo "module: FAIL (build; see '$work/build.log')"; exit 1; }
	fi
	[ "$check" = 0 ] || check_layouts || rc=$?
	if [ "$rc" = 0 ]; then
		echo "module: PASS; $work"
	else
		echo "module: layouts differ (kabi exit $rc); $work"
	fi
	exit "$rc"
}

main "$@"
