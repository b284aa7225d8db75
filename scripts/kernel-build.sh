#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-build.sh - configure and build a kernel for one target with one
# compiler, out of tree, and print the path of its vmlinux.
#
# A target is the data file scripts/targets/TARGET.target (checked by
# target.sh, then sourced): ARCH, the cross prefix for GCC, the base config
# and fragments, the image to build. The tree gets the quilt series first
# (kernel-patch.sh).
#
# The build directory is BUILDDIR/kernel/TARGET-COMPILER/. The kernel is
# configured again only when what the configuration depends on changed
# (fragments, compiler, kernel tree, kernel-config.sh); otherwise make's own
# dependency tracking decides what to rebuild, so a second run with nothing
# changed takes seconds: when nothing in the tree is newer than the last
# successful build and the configuration is unchanged, make is not run.
#
# Progress goes to stderr, one line per step; make's output goes to
# build.log in the build directory (and to stderr too with V=1). stdout
# carries only the vmlinux path. build.seconds keeps how long the last
# make that built something took. make reports a warning only when it
# compiles the file again, so the output of every successful build of the
# directory is also kept in warnings.log, for warnings.sh (which counts a
# repeated warning once; one fixed since lingers until the directory goes).
# Configuring writes config.log afresh each time, so Kconfig's warnings are
# always those of the configuration in place. On a farm (DIST) the engine's
# client logs to farm.log there, which says where each compile ran
# (scripts/lib/farm.sh: dist_log, dist_jobs).
#
# The flags Kbuild adds to every compile (KCFLAGS, KAFLAGS, KCPPFLAGS) are
# operands, as for make, and go on make's command line: kernel-make.sh
# scrubs them from the environment, where a user's shell settings would
# change a cell unseen. They are part of what the build is made of, so a
# build with other flags is never "up to date" (make itself compiles again
# every file whose command line changed).
#
# Exit: 0 ok, 1 configuring or building failed, 2 trouble (usage, no tree,
# no compiler, an operand that is not one of those flags).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=kernel-build.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
# shellcheck source=scripts/lib/farm.sh
. "$TOPDIR/scripts/lib/farm.sh"
# shellcheck source=scripts/lib/debcache.sh
. "$TOPDIR/scripts/lib/debcache.sh"
FRAGDIR="$TOPDIR/kconfig/fragments"
# the Kbuild variables a build takes as operands
MAKE_VARS="KCFLAGS KAFLAGS KCPPFLAGS"

usage() {
	cat <<USAGE
usage: $PROG -o BUILDDIR -t TARGET -c COMPILER [-j N] [VAR=VALUE...]
Configure (when needed) and build the kernel for TARGET with the given
compiler in BUILDDIR/kernel/TARGET-COMPILER/, then print vmlinux's path.
VAR is one of $MAKE_VARS, given to make as 'make VAR=VALUE'.
  -o BUILDDIR  where build products go
  -t TARGET    one of: $(known_targets)
  -c COMPILER  one of: $(known_compilers)
               (scripts/targets/compilers.list: gcc-N with the target's
               cross prefix, clang for LLVM=1, clang-N for LLVM=-N,
               clang-gas for LLVM=1 LLVM_IAS=0)
  -j N         make jobs (default: the number of CPUs)
Environment:
  LLVM=1|-N|DIR/  which LLVM a clang build uses (default 1); a version
                  suffix names the build directory, e.g. x86_64-clang-19
  KSRC, KPARITY_KERNEL_TARBALL  the kernel tree (see kernel-src.sh)
  KCONFIG=NAME    the base configuration in place of the target's:
                  tinyconfig, allnoconfig, defconfig, NAME_defconfig,
                  or debian: Debian's own for the tree's version (the
                  configuration of the linux-image package the target's
                  DEBIAN names, fetched into the cache)
  KCONFIG_ADD=WORDS  fragments of kconfig/fragments/ (by NAME) and
                  CONFIG_SYMBOL=VALUE words added to the target's
                  configuration; with either, the cell is in
                  config-NAMES/ below the tree's place in BUILDDIR
  V=1             show make's commands and output
  CCACHE_DISABLE=1  do without ccache even where it is installed
  DIST=distcc|icecc  compile on a farm: DISTCC_HOSTS for distcc, the local
                  iceccd for icecc (Documentation/build-farm.md); the
                  engine's client log goes to farm.log in the build directory
USAGE
}

# setup_compiler COMPILER BUILDDIR: set cc_bin, ld_bin and cc_suffix (the
# build's name) for COMPILER with the caller's LLVM, and export the make
# variables for COMPILER (and only those).
setup_compiler() {
	cell_select "$1"
	unset CC LD LLVM LLVM_IAS HOSTCC HOSTCXX CROSS_COMPILE
	[ -z "$cc_cross" ] || { CROSS_COMPILE="$cc_cross"; export CROSS_COMPILE; }
	[ -z "$cc_llvm" ] || { LLVM="$cc_llvm"; export LLVM; }
	[ -z "$cc_ias" ] || { LLVM_IAS="$cc_ias"; export LLVM_IAS; }
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" "$cc_bin" "$ld_bin" || exit 2

	dist_setup "$cc_bin" "$2"
	CC=$(dist_cc "$cc_bin")
	if [ "${CC%% *}" = ccache ]; then
		# -g makes ccache key every object on the build directory; the
		# same command in another directory (the overlay's build of
		# this tree) may share the result. Objects so served name the
		# first directory in DW_AT_comp_dir, which kabi strips from
		# declaration paths as it strips --root.
		CCACHE_NOHASHDIR=1
		export CCACHE_NOHASHDIR
	fi
	ARCH="$t_arch"
	export ARCH CC
}

# version_string SRCDIR: export the KBUILD_BUILD_* variables of the
# kernel's version string the caller left unset, fixed by the tree (its
# Makefile's time) rather than by the clock, the user and the build count:
# 6.1 compiles init/version.o with them alone, "# " when they are unset,
# so a cell is only rebuilt the same (scripts/reproduce.sh) if they were
# set when it was built (Documentation/kbuild/reproducible-builds.rst).
version_string() {
	: "${KBUILD_BUILD_USER:=kparity}" "${KBUILD_BUILD_HOST:=kparity}" "${KBUILD_BUILD_VERSION:=1}"
	[ -n "${KBUILD_BUILD_TIMESTAMP:-}" ] ||
		KBUILD_BUILD_TIMESTAMP=$(LC_ALL=C date -u -d "@$(stat -c %Y "$1/Makefile")") ||
		die "cannot read the time of '$1/Makefile'"
	export KBUILD_BUILD_USER KBUILD_BUILD_HOST KBUILD_BUILD_VERSION KBUILD_BUILD_TIMESTAMP
}

# config_inputs SRCDIR FRAGMENT...: print everything the .config depends on,
# to be compared with what the last successful configuration recorded.
config_inputs() {
	local srcdir="$1"

	shift
	printf 'srcdir %s\n' "$srcdir"
	printf 'Makefile %s\n' "$(stat -c %Y "$srcdir/Makefile")"
	printf 'base %s\n' "$t_base"
	[ -z "$base_file" ] || printf 'base file %s %s\n' "$(basename "$base_file")" "$(cksum <"$base_file")"
	printf 'ARCH=%s CC=%s LLVM=%s LLVM_IAS=%s CROSS_COMPILE=%s\n' \
		"$ARCH" "$CC" "${LLVM:-}" "${LLVM_IAS:-}" "${CROSS_COMPILE:-}"
	printf 'cc %s\n' "$("$cc_bin" --version | head -n 1)"
	printf 'ld %s\n' "$("$ld_bin" --version | head -n 1)"
	printf 'kernel-config.sh %s\n' "$(cksum <"$TOPDIR/scripts/kernel-config.sh")"
	for frag in "$@"; do
		printf 'fragment %s %s\n' "$(basename "$frag")" "$(cksum <"$frag")"
	done
}

# cell_fragment FRAGMENT: print the path of what the cell takes of
# kconfig/fragments/FRAGMENT, and add the console line that proves it is
# on, if the fragment names one, to $objdir/kparity.proof.tmp (LABEL TAB
# TEXT, for kernel-boot.sh). A compiler that cannot build the fragment's
# Clang-only symbols (fragment_unfit) makes the cell a control: it takes a
# copy of the fragment without them, and its proof is the fragment's
# control line (kparity-control), what the same test shows without them.
# A GCC cell takes the fragment's GCC words (fragment_gcc) in a copy too.
cell_fragment() {
	local f="$FRAGDIR/$1" label="$1" key=proof why out syms

	if why=$(fragment_unfit "$f" "$srcdir"); then
		syms=$(fragment_needs "$f" | cut -d ' ' -f 2- -s | tr ' ' '|')
		out="$objdir/${1%.config}.control.config"
		grep -v -E "^(# )?(${syms:-CONFIG_ }) *(=| is not set)" "$f" >"$out.tmp" || :
		mv "$out.tmp" "$out"
		label="$1 control ($why)"
		key=control
		f=$out
	elif [ -z "$cc_llvm" ] && syms=$(fragment_gcc "$f") && [ -n "$syms" ]; then
		out="$objdir/${1%.config}.gcc.config"
		# shellcheck disable=SC2086 # one word a line
		{ cat "$f"; printf '%s\n' $syms; } >"$out.tmp"
		mv "$out.tmp" "$out"
		f=$out
	fi
	sed -n "s/^# kparity-$key: *\\(.*[^ ]\\) *\$/\\1/p" "$FRAGDIR/$1" | while IFS= read -r text; do
		printf '%s\t%s\n' "$label" "$text"
	done >>"$objdir/kparity.proof.tmp"
	printf '%s\n' "$f"
}

# check_base SRCDIR BUILDDIR: die when the base configuration is a
# NAME_defconfig that SRCDIR does not have for the target's architecture,
# or debian for a target Debian makes no kernel for; for debian, set
# base_file to Debian's configuration of SRCDIR's version (debian_config),
# fetched into the cache the first time
check_base() {
	local v

	base_file=""
	case "$t_base" in
	*_defconfig)
		[ -f "$1/arch/$t_srcarch/configs/$t_base" ] ||
			die "KCONFIG: the tree has no arch/$t_srcarch/configs/$t_base (known: $(cd "$1/arch/$t_srcarch/configs" && printf '%s\n' *_defconfig | paste -s -d ' ' -))"
		;;
	debian)
		[ -n "$t_debian" ] ||
			die "KCONFIG=debian: Debian has no kernel for target '$t_name' (no DEBIAN in its target file)"
		v=$(tree_version "$1") || die "KCONFIG=debian: no kernel version in '$1/Makefile'"
		# shellcheck disable=SC2086 # DEBARCH FLAVOUR
		base_file=$(debian_config "$(cache_dir "$2")" "$v" $t_debian) || exit 2
		;;
	esac
}

# configure SRCDIR NAME: configure $objdir unless its inputs are unchanged.
configure() {
	local srcdir="$1" name="$2" stamp="$objdir/.kparity-config" frag inputs

	set --
	: >"$objdir/kparity.proof.tmp"
	for frag in $t_fragments; do
		[ -f "$FRAGDIR/$frag" ] || die "cannot read fragment '$FRAGDIR/$frag'"
		set -- "$@" "$(cell_fragment "$frag")"
	done
	mv "$objdir/kparity.proof.tmp" "$objdir/kparity.proof"
	# KCONFIG_ADD's CONFIG_SYMBOL=VALUE words, as a fragment of the cell's
	if [ -n "$t_config_set" ]; then
		# shellcheck disable=SC2086 # one word a line
		printf '%s\n' $t_config_set >"$objdir/kconfig-add.config.tmp"
		mv "$objdir/kconfig-add.config.tmp" "$objdir/kconfig-add.config"
		set -- "$@" "$objdir/kconfig-add.config"
	fi
	inputs=$(config_inputs "$srcdir" "$@")
	if [ -f "$objdir/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$inputs" ]; then
		return 0
	fi

	step CONFIG "$name"
	rm -f "$stamp"
	# A first build compiles everything, so its output is the whole story;
	# after a reconfiguration make compiles only what changed, and the
	# warnings of the rest are still those already recorded.
	[ -f "$objdir/vmlinux" ] || rm -f "$objdir/warnings.log"
	"$TOPDIR/scripts/kernel-config.sh" -s "$srcdir" -O "$objdir" -b "${base_file:-$t_base}" \
		"$@" >/dev/null || exit
	printf '%s\n' "$inputs" >"$stamp"
}

# built_stamp: what a build is made of beyond its tree, for .kparity-built:
# the configuration's inputs, the version string and the make variables
# ($make_vars)
built_stamp() {
	cat "$objdir/.kparity-config"
	printf 'version %s@%s #%s %s\n' "$KBUILD_BUILD_USER" "$KBUILD_BUILD_HOST" \
		"$KBUILD_BUILD_VERSION" "$KBUILD_BUILD_TIMESTAMP"
	[ -z "$make_vars" ] || printf 'make %s\n' "$make_vars"
}

# check_make_vars VAR=VALUE...: each operand sets one of MAKE_VARS, on one
# line; set make_vars to them, one a line
check_make_vars() {
	local a

	make_vars=""
	for a; do
		case "$a" in
		*"
"*) die "'${a%%=*}' has a newline in its value" ;;
		esac
		case " $MAKE_VARS " in
		*" ${a%%=*} "*) [ "$a" != "${a%%=*}" ] || die "'$a' is not VAR=VALUE" ;;
		*) die "'$a' is not one of the variables a build takes ($MAKE_VARS)" ;;
		esac
		make_vars="${make_vars:+$make_vars
}$a"
	done
}

# up_to_date SRCDIR: the last build succeeded, the configuration is what
# it was then, and nothing in SRCDIR changed since. make would find nothing
# to do, but it takes many seconds to find out.
up_to_date() {
	local built="$objdir/.kparity-built"

	[ -f "$built" ] && [ -f "$objdir/vmlinux" ] &&
		[ "$(cat "$built")" = "$(built_stamp)" ] &&
		[ -z "$(find "$1" "$objdir/.config" -newer "$built" -print | head -n 1)" ]
}

# initramfs_current: the built-in initramfs (usr/initramfs_data.cpio, the
# archive gen_init_cpio writes before any compression) is absent, or its
# first entry carries the time of KBUILD_BUILD_TIMESTAMP. usr/Makefile
# writes it again when its list or gen_init_cpio change, not when the
# timestamp does (usr/gen_initramfs.sh reads that from the environment),
# so a cell built under another time keeps that time in vmlinux's
# .init.data. A newc header is "070701" and 8 hex digits each of ino,
# mode, uid, gid, nlink and mtime.
initramfs_current() {
	local cpio="$objdir/usr/initramfs_data.cpio" head want

	[ -f "$cpio" ] || return 0
	head=$(head -c 54 "$cpio")
	case "$head" in
	070701*) ;;
	*) return 0 ;;
	esac
	# as usr/gen_initramfs.sh reads it
	want=$(date -d "$KBUILD_BUILD_TIMESTAMP" +%s) || return 0
	[ "$(printf '%d' "0x${head#"${head%????????}"}")" = "$want" ]
}

# fix_seed SRCDIR: when the configuration randomizes layouts and a
# fragment gives a seed, put it where Kbuild keeps the one it draws from
# /dev/urandom (scripts/basic/randstruct.seed, whose hash modules carry
# in include/generated/randstruct_hash.h), once 'make scripts_basic' has
# made both: Kbuild makes them again only when its script or command
# changes, so every compile takes the fixed seed, and two builds (GCC's
# plugin, Clang) randomize with the same one.
fix_seed() {
	local seed f h

	seed=$(fragment_seed)
	[ -n "$seed" ] && grep -qx 'CONFIG_RANDSTRUCT=y' "$objdir/.config" || return 0
	f="$objdir/scripts/basic/randstruct.seed"
	h="$objdir/include/generated/randstruct_hash.h"
	run_logged "$log" "$TOPDIR/scripts/kernel-make.sh" "$1" O="$objdir" scripts_basic || return
	[ "$(cat "$f")" != "$seed" ] || return 0
	printf '%s\n' "$seed" >"$f.tmp"
	mv "$f.tmp" "$f"
	printf '#define RANDSTRUCT_HASHED_SEED "%s"\n' "$(printf '%s' "$seed" | sha256sum | cut -d ' ' -f 1)" >"$h.tmp"
	mv "$h.tmp" "$h"
}

# build SRCDIR NAME JOBS: run make for the default targets in $objdir.
build() {
	local srcdir="$1" name="$2" jobs="$3" start status

	if up_to_date "$srcdir" && initramfs_current; then
		step BUILD "$name  up to date"
		return 0
	fi
	rm -f "$objdir/.kparity-built"
	initramfs_current || rm -f "$objdir/usr/initramfs_data.cpio"

	start=$(date +%s)
	status=0
	# the toolchain setup_compiler exported goes on make's command line,
	# after it the operands, one a line in make_vars
	set -- "$TOPDIR/scripts/kernel-make.sh" "$srcdir" O="$objdir" -j "$jobs"
	set -f
	IFS='
'
	# shellcheck disable=SC2086 # split at newlines only
	set -- "$@" $make_vars
	unset IFS
	set +f
	fix_seed "$srcdir" && run_logged "$log" "$@" || status=$?
	dist_log_end "$objdir/farm.log"
	if [ "$status" != 0 ]; then
		step BUILD "$name  FAIL"
		printf '%s: building %s failed; last lines of %s:\n' "$PROG" "$name" "$log" >&2
		tail -n 20 "$log" >&2
		[ ! -s "$objdir/farm.log" ] ||
			printf '%s: the %s client logged to %s\n' "$PROG" "$DIST" "$objdir/farm.log" >&2
		exit 1
	fi
	cat "$log" >>"$objdir/warnings.log"
	built_stamp >"$objdir/.kparity-built"
	echo $(($(date +%s) - start)) >"$objdir/build.seconds"
	step BUILD "$name  $(fmt_time $(($(date +%s) - start)))"
}

# seed_proof FRAGMENT: for a fragment that gives a seed, the line that
# says with what the cell randomized its layouts (the seed Kbuild kept),
# or that it did not (a control)
seed_proof() {
	local f="$FRAGDIR/$1" seed why

	seed=$(seed_of "$f")
	[ -n "$seed" ] || return 0
	if why=$(fragment_unfit "$f" "$srcdir"); then
		printf '%s control (%s): no CONFIG_RANDSTRUCT\n' "$1" "$why"
	elif [ "$(cat "$objdir/scripts/basic/randstruct.seed" 2>/dev/null)" = "$seed" ]; then
		printf '%s: layouts randomized with seed %s\n' "$1" "$(printf '%s' "$seed" | cut -c 1-16)"
	else
		die_build "$1: scripts/basic/randstruct.seed is not the fragment's seed"
	fi
}

# build_proofs: the base configuration's origin when it is a file
# (KCONFIG=debian's package); check what the fragments say the build must be made of
# ('# kparity-bitcode: OBJECT': OBJECT is LLVM bitcode, or an ELF object in
# a control cell, fragment_unfit) and keep each finding, 'LABEL: FINDING',
# in $objdir/build.proof; exit 1 when one is not so.
build_proofs() {
	local frag f obj magic want label why

	: >"$objdir/build.proof.tmp"
	# Debian's configuration, by the package it came from
	[ -z "$base_file" ] || sed -n "1s/^# /KCONFIG=$t_base: /p" "$base_file" >>"$objdir/build.proof.tmp"
	for frag in $t_fragments; do
		f="$FRAGDIR/$frag"
		# shellcheck disable=SC2013 # object paths have no blanks
		for obj in $(sed -n 's/^# kparity-bitcode: *//p' "$f"); do
			magic=$(head -c 4 "$objdir/$obj" 2>/dev/null | od -An -tx1 | tr -d ' \n')
			label=$frag
			want=4243c0de
			if why=$(fragment_unfit "$f" "$srcdir"); then
				label="$frag control ($why)"
				want=7f454c46
			fi
			if [ "$magic" != "$want" ]; then
				rm -f "$objdir/build.proof.tmp"
				die_build "$frag: $obj is $(magic_name "$magic"), not $(magic_name "$want")"
			fi
			printf '%s: %s is %s\n' "$label" "$obj" "$(magic_name "$magic")" >>"$objdir/build.proof.tmp"
		done
		seed_proof "$frag" >>"$objdir/build.proof.tmp"
	done
	mv "$objdir/build.proof.tmp" "$objdir/build.proof"
}

# magic_name HEX: what an object whose first four bytes are HEX is
magic_name() {
	case "$1" in
	4243c0de) echo "LLVM bitcode" ;;
	7f454c46) echo "an ELF object" ;;
	"") echo "missing" ;;
	*) echo "neither LLVM bitcode nor ELF (first bytes $1)" ;;
	esac
}

# die_build MESSAGE: the build is not what its configuration asked for:
# say so, forget that it built, exit 1
die_build() {
	rm -f "$objdir/.kparity-built"
	printf '%s: %s\n' "$PROG" "$1" >&2
	exit 1
}

# check_srcdir SRCDIR: fail if anything in SRCDIR is newer than the mark
# taken before configuring; with O= the tree must stay untouched.
check_srcdir() {
	local found

	found=$(find "$1" -newer "$objdir/.kparity-start" -print | head -n 5)
	rm -f "$objdir/.kparity-start"
	if [ -n "$found" ]; then
		rm -f "$objdir/.kparity-built"
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
	if [ -z "$builddir" ] || [ -z "$target" ] || [ -z "$compiler" ]; then
		usage >&2
		exit 2
	fi
	is_positive "$jobs" || die "-j needs a positive number, not '$jobs'"
	check_make_vars "$@"
	config_check
	load_target "$target"
	setup_compiler "$compiler" "$builddir"
	suffix="$cc_suffix"

	srcdir=$("$TOPDIR/scripts/kernel-src.sh" -o "$builddir") || exit 2
	"$TOPDIR/scripts/kernel-patch.sh" -s "$srcdir" || exit
	version_string "$srcdir"
	check_base "$srcdir" "$builddir"
	objdir=$(cell_dir "$builddir")
	mkdir -p "$objdir" || die "cannot create '$objdir'"
	objdir=$(cd "$objdir" && pwd)
	log="$objdir/build.log"
	name="$target/$suffix"
	: >"$log"
	dist_log "$objdir/farm.log"
	touch "$objdir/.kparity-start"

	configure "$srcdir" "$name"
	build "$srcdir" "$name" "$jobs"
	check_srcdir "$srcdir"
	# what the cell boots must be there, or it did not build
	[ -f "$objdir/vmlinux" ] || die_build "make succeeded but left no '$objdir/vmlinux'"
	[ -f "$objdir/$t_image" ] || die_build "make succeeded but left no '$objdir/$t_image'"
	cell_dtb "$objdir" >/dev/null || die_build "make succeeded but left no '$objdir/$t_dtb'"
	build_proofs
	printf '%s\n' "$objdir/vmlinux"
}

main "$@"
