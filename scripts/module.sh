#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# module.sh - build an external module (a DKMS source, say) against a
# kernel's configured tree or headers, with the compiler that built the
# kernel or a chosen one, then compare the layout of every type each
# module it built shares with the kernel, and with the modules it depends
# on, against theirs (Documentation/distro-modules.md).
#
# The kernel's compiler comes from its .config (CONFIG_CC_VERSION_TEXT,
# CC_IS_GCC/CLANG, GCC_VERSION/CLANG_VERSION, LD_IS_*, AS_IS_*) and from
# Debian's .kernelvariables, which sets CC: the compiler is always given
# on make's command line, so that it is the one used. Any other compiler
# has the base flags judged first (kbuild/flag-translate.sh): each one it
# rejects is dropped, or for Clang translated, and every one is listed
# with what that costs; Clang builds through the probe overlay.
#
# The modules are those the build lists in M's modules.order, at any
# depth; scripts/module-check.sh checks them.
#
# Exit: 0 built and every module checked, no layout differs (or built,
# with no check asked); 1 the build failed or made no module; 2 trouble
# (bad KDIR or M, no compiler); otherwise bits: 4 a layout changed, 8
# incompatibly (kabi's), 16 not checked (no kernel types, or a module
# kabi cannot see into) or some types not compared. A check not done, in
# whole or in part, is never exit 0.
# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=module.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
NOT_CHECKED=16
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/elf.sh
. "$TOPDIR/scripts/lib/elf.sh"

usage() {
	cat <<USAGE
usage: $PROG -k KDIR -m MDIR [-c COMPILER] [-o BUILDDIR] [-V VMLINUX] [-B BTF] [-d DIR] [-n]
Build the module in MDIR against the kernel tree or headers in KDIR, then
check the types of every module it made against the kernel's.
  -c COMPILER  kernel (default: the one that built the kernel), gcc, gcc-N,
               clang or clang-N
  -o BUILDDIR  where the logs, the flag decisions and the checks go, in
               BUILDDIR/module/ (default: build); kabi is BUILDDIR/kabi,
               else the installed one
  -V VMLINUX   the kernel's types from this vmlinux's DWARF
  -B BTF       the kernel's types from this BTF (raw, or a vmlinux with .BTF);
               default KDIR/vmlinux when it has .BTF, else
               /sys/kernel/btf/vmlinux when KDIR is the running kernel's
  -d DIR       the kernel's modules, for the types of those a module
               depends on (an unpacked linux-image package's
               lib/modules/RELEASE, or another module source's directory,
               say); repeatable; M, KDIR and /lib/modules/RELEASE are
               looked in too
  -n           no layout check
Exit: 0 ok, 1 the build failed or made no module, 2 trouble; else bits:
4 a layout changed, 8 incompatibly, 16 not checked or not fully.
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
		own_cc=1
	elif [ "$cc_family" = "$k_family" ]; then
		step CC "$cc $mine: the kernel's family, another version ($k_version built the kernel); flags it rejects are dropped below"
		warn "$cc $mine is not the compiler that built the kernel: its code differs"
	else
		step CC "$cc $mine: NOT the kernel's compiler ($k_family $k_version); its flags are translated below"
		warn "the module's code will differ from code the kernel's compiler makes: built and tested with $k_family $k_version, the kernel meets code from $cc $mine"
	fi
}

# ---- building -------------------------------------------------------------

# kmake ARG...: make in the kernel tree for the module, not under ours
kmake() {
	# make module's own settings are not the module's, and the toolchain
	# is the one chosen here, not one the caller's environment names
	env -u KDIR -u COMPILER -u VMLINUX -u BTF -u MODDIR -u LLVM -u LLVM_IAS -u LD \
		"$TOPDIR/scripts/kernel-make.sh" "$kdir" M="$mdir" "$@"
}

# build_failed WHY: the last line of a failed build, with the first error
# the log holds; exit 1
build_failed() {
	local err

	# a compiler's or modpost's error, else make's; not -Werror=... in V=1's commands
	err=$(grep -m 1 -E '(error|ERROR): ' "$work/build.log" 2>/dev/null ||
		grep -m 1 -E '\*\*\* .*Error [0-9]+' "$work/build.log" 2>/dev/null || :)
	echo "module: FAIL ($1${err:+: $err}; see '$work/build.log')"
	exit 1
}

# direct_build: the module with the kernel's own compiler
direct_build() {
	local llvm=""

	[ "$cc_family" != clang ] || [ "$k_ld" != ld.lld ] || llvm=LLVM=1
	step BUILD "$(basename "$mdir") with $cc"
	# shellcheck disable=SC2086 # LLVM=1 or nothing
	run_logged "$work/build.log" kmake CC="$cc" $llvm modules
}

# judge_flags: the base flags Kbuild hands the module, judged by $cc once
# into $work/decisions.tsv; another GCC is offered no Clang spelling
judge_flags() {
	local wrapper="$TOPDIR/kbuild/translated-cc.sh" gcc=""

	rm -f "$work/base-flags" "$work/decisions.tsv"
	: >"$work/decisions.tsv"
	KPARITY_REAL_CC=$cc KPARITY_FLAG_RECORD="$work/base-flags" KPARITY_FLAG_DECISIONS=""
	export KPARITY_REAL_CC KPARITY_FLAG_RECORD KPARITY_FLAG_DECISIONS
	kmake CC="$wrapper" modules >"$work/record.log" 2>&1 || :
	unset KPARITY_FLAG_RECORD
	if [ ! -s "$work/base-flags" ]; then
		cat "$work/record.log" >>"$work/build.log"
		build_failed "the build compiled no C file"
	fi
	[ "$cc_family" = clang ] || gcc=-n
	# shellcheck disable=SC2046,SC2086 # one word a line, no blanks in Kbuild's flags; -n or nothing
	"$TOPDIR/kbuild/flag-translate.sh" $gcc -c "$cc" -- $(cat "$work/base-flags") >"$work/decisions.tsv.tmp"
	mv "$work/decisions.tsv.tmp" "$work/decisions.tsv"
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

# mcount_plan: when the compiler cannot make the __mcount_loc table that
# the kernel's configuration expects from it (-mrecord-mcount dropped
# under CONFIG_FTRACE_MCOUNT_USE_CC), have the tree's recordmcount make
# it, as Kbuild does for compilers without the flag; sets mcount_args
mcount_plan() {
	local tool=recordmcount

	mcount_args=""
	grep -q "^-mrecord-mcount	drop	" "$work/decisions.tsv" || return 0
	[ "$(config_val FTRACE_MCOUNT_USE_CC)" = y ] || return 0
	[ "$(config_val HAVE_C_RECORDMCOUNT)" = y ] || tool=recordmcount.pl
	if [ -f "$kdir/scripts/$tool" ]; then
		mcount_args=CONFIG_FTRACE_MCOUNT_USE_RECORDMCOUNT=y
		step FTRACE "__mcount_loc made by the tree's scripts/$tool, as the kernel's compiler makes it (its calls to __fentry__ kept: the kernel turns them into NOPs at load)"
	else
		step FTRACE "no __mcount_loc: the tree has no scripts/$tool to make it"
	fi
}

# judged_build: the module with another compiler, the base flags it
# rejects dropped or translated; Clang's through the probe overlay
judged_build() {
	local overlay=""

	[ "$k_family" = gcc ] || [ "$cc_family" = clang ] ||
		die "a $k_family-built kernel's flags cannot be translated for $cc_family yet (only GCC's for Clang or another GCC): choose COMPILER=kernel or clang"
	judge_flags
	report_flags
	mcount_plan
	[ "$cc_family" != clang ] || overlay="MAKEFILES=$TOPDIR/kbuild/overlay.mk"
	step BUILD "$(basename "$mdir") with $cc${overlay:+ through the overlay}"
	KPARITY_FLAG_DECISIONS="$work/decisions.tsv"
	export KPARITY_FLAG_DECISIONS
	# shellcheck disable=SC2086 # each one word or nothing
	run_logged "$work/build.log" kmake CC="$TOPDIR/kbuild/translated-cc.sh" $overlay $mcount_args modules
}

# built_modules: the .ko files the build made, from M's modules.order
# (6.1 lists them by absolute path, later kernels their objects, by path
# below M), into $work/modules.list
built_modules() {
	local order="$mdir/modules.order" line ko

	: >"$work/modules.list"
	[ -f "$order" ] || return 0
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		case "$line" in
		/*) ko=${line%.o} ;;
		*) ko="$mdir/${line%.o}" ;;
		esac
		ko="${ko%.ko}.ko"
		[ -f "$ko" ] || die "'$order' lists '$line', but there is no '$ko'"
		printf '%s\n' "$ko" >>"$work/modules.list"
	done <"$order"
}

# mcount_check: every module's calls to __fentry__ against its
# __mcount_loc entries: a call not in the table is one ftrace never sees
mcount_check() {
	local ko counts calls entries rel

	while IFS= read -r ko; do
		counts=$(LC_ALL=C readelf -rW "$ko" | awk -f "$TOPDIR/scripts/module/module-mcount.awk")
		calls=${counts% *} entries=${counts#* }
		[ "$calls" -gt 0 ] || continue
		[ "$entries" -lt "$calls" ] || continue
		rel=${ko#"$mdir"/}
		warn "$rel: $((calls - entries)) of its $calls calls to __fentry__ are not in __mcount_loc: ftrace cannot see those functions (no function tracing, no BPF fentry/fexit, no live patching), and each call runs on into __fentry__, an empty function, where the kernel's own have a NOP"
	done <"$work/modules.list"
}

# ---- the layout check -----------------------------------------------------

# kernel_types: set k_src to the file with the kernel's types, or to
# nothing: VMLINUX, BTF, the tree's own vmlinux when it carries .BTF
# (Debian's headers do from 6.12 on: a vmlinux of .BTF alone, which
# Kbuild splits the modules' BTF on), the running kernel's
kernel_types() {
	k_src=""
	if [ -n "$vmlinux" ]; then
		k_src=$vmlinux
	elif [ -n "$btf" ]; then
		k_src=$btf
	elif [ -f "$kdir/vmlinux" ] && elf_has_section "$kdir/vmlinux" .BTF; then
		k_src=$kdir/vmlinux
	elif [ -r /sys/kernel/btf/vmlinux ] && [ "$(uname -r)" = "$(kernel_release)" ]; then
		k_src=/sys/kernel/btf/vmlinux
	fi
}

# check_layouts: every module the build made, checked by
# module-check.sh; sets verdict, returns its bits
check_layouts() {
	local release rc=0 base="" ko dir

	kernel_types
	if [ -z "$k_src" ]; then
		step CHECK "not done: no kernel types (give VMLINUX= or BTF=; /sys/kernel/btf/vmlinux is another kernel's)"
		verdict="NOT CHECKED (no kernel types: give VMLINUX= or BTF=)"
		return "$NOT_CHECKED"
	fi
	[ -r "$k_src" ] || die "cannot read the kernel's types '$k_src'"
	release=$(kernel_release)
	# a vmlinux's DWARF, but its BTF for the dependencies' split BTF
	[ -z "$vmlinux" ] || base=$btf
	# where to look for the modules depended on: M first, then as given
	set -- -d "$mdir"
	while IFS= read -r dir; do
		[ -z "$dir" ] || set -- "$@" -d "$dir"
	done <<DIRS
$moddirs
DIRS
	# a kernel build tree holds its modules; Debian's headers none
	set -- "$@" -d "$kdir" -d "/lib/modules/$release"
	while IFS= read -r ko; do
		set -- "$@" "$ko"
	done <"$work/modules.list"
	verdict=$("$TOPDIR/scripts/module-check.sh" -k "$kabi" -t "$k_src" ${base:+-b "$base"} \
		-w "$work/check" -R "$mdir" -r "$release" "$@") || rc=$?
	[ "$rc" -ne 2 ] || exit 2
	[ ! -s "$work/check/missing" ] ||
		step CHECK "modules depended on are looked for in M, MODDIR=DIR (-d), KDIR and /lib/modules/$release: give an unpacked linux-image-$release's lib/modules/$release, say"
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
	[ -z "$vmlinux" ] || vmlinux=$(abspath "$vmlinux") || die "cannot read the kernel's types '$vmlinux'"
	[ -z "$btf" ] || btf=$(abspath "$btf") || die "cannot read the kernel's types '$btf'"
}

# work_dir BUILDDIR: where this M's logs and checks go for this compiler:
# one directory per M, by its full path, and one per compiler in it
work_dir() {
	local id

	id=$(printf '%s' "$mdir" | cksum | cut -d' ' -f1)
	printf '%s/module/%s-%s/%s\n' "$(abspath "$1")" "$(basename "$mdir")" "$id" "$(basename "$cc")"
}

main() {
	local builddir=build compiler=kernel check=1 rc=0 n opt nl='
'

	kdir="" mdir="" vmlinux="" btf="" moddirs="" own_cc=0
	while getopts k:m:c:o:V:B:d:nh opt; do
		case "$opt" in
		k) kdir=$OPTARG ;;
		m) mdir=$OPTARG ;;
		c) compiler=$OPTARG ;;
		o) builddir=$OPTARG ;;
		V) vmlinux=$OPTARG ;;
		B) btf=$OPTARG ;;
		d)
			[ -d "$OPTARG" ] || die "the modules' directory '$OPTARG' is not a directory"
			moddirs="$moddirs$(abspath "$OPTARG")$nl"
			;;
		n) check=0 ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 0 ] || { usage >&2; exit 2; }
	check_inputs
	mkdir -p "$builddir" || die "cannot create '$builddir'"
	# this checkout's kabi, or an installed one
	kabi="$(abspath "$builddir")/kabi"
	[ -x "$kabi" ] || kabi=$(command -v kabi || echo "$kabi")
	[ "$check" = 0 ] || [ -x "$kabi" ] || die "no '$kabi' and no kabi installed: run 'make' first"
	read_kernel
	pick "$compiler"
	say_toolchain
	work=$(work_dir "$builddir")
	mkdir -p "$work"
	: >"$work/build.log"
	if [ "$own_cc" = 1 ]; then
		direct_build || build_failed build
	else
		judged_build || build_failed build
	fi
	built_modules
	n=$(wc -l <"$work/modules.list")
	[ "$n" -gt 0 ] ||
		build_failed "the build made no module: '$mdir/modules.order' lists none"
	mcount_check
	if [ "$check" = 0 ]; then
		echo "module: BUILT ($n built, no layout check asked); $work"
		exit 0
	fi
	check_layouts || rc=$?
	echo "module: $verdict; $work"
	exit "$rc"
}

main "$@"
