#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# series-bisect.sh - build every prefix of the quilt series (no patch, the
# first, the first two, ...) for one target with each compiler, with
# CONFIG_WERROR=y, and report the first patch that breaks a build.
#
# The series gets its own copy of the kernel tree, BUILDDIR/series/src/, so
# the tree of the parity builds is never popped. Each compiler has one build
# directory, BUILDDIR/series/bisect/TARGET-SUFFIX/ (kernel-build.sh's
# naming: x86_64-gcc, x86_64-clang, x86_64-clang-19), configured once (the
# target's base config and fragments, then CONFIG_WERROR=y) and built again
# after each push: make rebuilds only what the patch changed (everything,
# for a patch that changes the compiler flags), and ccache serves what was
# built before. Each build's output is kept as prefix-N.log there. A prefix
# whose last patch touches only other architectures' arch/ files is not
# built again: its tree is, for this target, the one before it. With -m,
# each prefix builds only the Kbuild targets named (make's prepare stage,
# then, say, init/): the same logic at a small part of the cost, for the
# tests; the full builds are the evidence a patch builds.
#
# Exit: 0 every prefix builds with every compiler, 1 a build failed (the
# last line names the patch and the compiler), 2 trouble.

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=series-bisect.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
# shellcheck source=scripts/lib/farm.sh
. "$TOPDIR/scripts/lib/farm.sh"
# shellcheck source=/dev/null # series-lib.sh is checked on its own
. "$TOPDIR/scripts/lib/series.sh"

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-t TARGET] [-c COMPILERS] [-j N] [-p PATCHDIR] [-k]
       [-m 'KBUILD-TARGETS']
Build each prefix of PATCHDIR/series (default: the series of the tree, patches/TREE/) for TARGET
(default: x86_64) with each of COMPILERS (default: "gcc clang"; names of
scripts/targets/compilers.list separated by spaces or commas, or all;
clang follows the caller's LLVM, default 1), with CONFIG_WERROR=y,
one line per prefix, in BUILDDIR/series/bisect/TARGET-COMPILER/ (named as
kernel-build.sh names its build directories).
  -o BUILDDIR  where build products go (default: build)
  -j N         make jobs (default: the number of CPUs)
  -k           build with KPARITY_DIR set, so a tree with the overlay hook
               uses the overlay for Clang
  -m TARGETS   build only these Kbuild targets (directories such as
               'init/', or objects), not the whole kernel
Environment: CCACHE_DISABLE=1 builds without ccache; DIST=distcc|icecc
compiles on a farm (Documentation/build-farm.md); KCFLAGS is given to
every prefix's make (as 'make KCFLAGS=-Wno-error' would be), not read by
Kbuild from the environment.
USAGE
}

# compiler_cc: the CC make is given for the selected compiler (through
# ccache, and the farm of DIST).
compiler_cc() {
	dist_cc "$cc_bin"
}

# compiler_env CMD...: run CMD with the make variables of the selected
# compiler (ARCH, CC, CROSS_COMPILE or LLVM) in the environment, as
# kernel-config.sh wants them.
compiler_env() {
	local cc

	cc=$(compiler_cc)
	if [ -z "$cc_llvm" ]; then
		env -u LLVM -u LLVM_IAS CROSS_COMPILE="$cc_cross" ARCH="$t_arch" CC="$cc" "$@"
	elif [ -n "$cc_ias" ]; then
		env CROSS_COMPILE="$cc_cross" LLVM="$cc_llvm" LLVM_IAS="$cc_ias" \
			ARCH="$t_arch" CC="$cc" "$@"
	else
		env -u CROSS_COMPILE -u LLVM_IAS LLVM="$cc_llvm" ARCH="$t_arch" CC="$cc" "$@"
	fi
}

# applied_from SRCDIR PATCHDIR: the patch directory SRCDIR's applied
# patches came from: quilt's record of it while that exists, else PATCHDIR.
applied_from() {
	local old

	old=$(cat "$1/.pc/.quilt_patches" 2>/dev/null) || old="$2"
	case "$old" in
	/*) ;;
	*) old="$1/$old" ;;
	esac
	if [ -d "$old" ]; then
		printf '%s\n' "$old"
	else
		printf '%s\n' "$2"
	fi
}

# reaches PATCHFILE: does the patch touch a file the target's build may
# read? Only files below another architecture's arch/ directory do not;
# a prefix that adds only those builds what the one before it built. A
# patch whose files cannot be told reaches it.
reaches() {
	local file files

	files=$(patch_files "$1") || return 0
	for file in $files; do
		case "$file" in
		arch/"$t_srcarch"/*) return 0 ;;
		arch/*) ;;
		*) return 0 ;;
		esac
	done
	return 1
}

# configure SRCDIR OBJDIR: configure OBJDIR for the selected compiler
# unless done before.
configure() {
	local srcdir="$1" objdir="$2" frag

	[ ! -f "$objdir/.config" ] || return 0
	mkdir -p "$objdir"
	printf 'CONFIG_WERROR=y\n' >"$objdir/werror.config"
	set --
	for frag in $t_fragments; do
		set -- "$@" "$TOPDIR/kconfig/fragments/$frag"
	done
	compiler_env "$TOPDIR/scripts/kernel-config.sh" -s "$srcdir" -O "$objdir" \
		-b "$t_base" -l "$objdir/config.log" "$@" "$objdir/werror.config" >/dev/null ||
		die "cannot configure '$objdir' (see '$objdir/config.log')"
}

# build SRCDIR OBJDIR LOG COMPILER: build OBJDIR with COMPILER (selected);
# return make's status.
build() {
	local srcdir="$1" objdir="$2" log="$3"

	# kernel-make.sh scrubs the environment's KCFLAGS: the user's go on
	# the command line, where every prefix's log shows them
	set -- "$TOPDIR/scripts/kernel-make.sh" -t "$target" -c "$4" \
		"$srcdir" O="$objdir" -j "$jobs" CC="$(compiler_cc)"
	[ -z "${KCFLAGS:-}" ] || set -- "$@" KCFLAGS="$KCFLAGS"
	# shellcheck disable=SC2086 # one word per Kbuild target
	nice -n "${BISECT_NICE:-10}" "$@" $kbuild_targets >"$log" 2>&1
}

# compiled LOG: how many C and assembler files make compiled in LOG. Kbuild
# compiles again whatever's command line changed, so after the first
# prefix a compiler whose flags the series leaves alone compiles nothing.
compiled() {
	grep -c -E '^  (CC|AS)( \[M\])? ' "$1" || :
}

main() {
	local builddir=build target=x86_64 compilers="gcc clang" opt srcdir n=0
	local patchdir="" name c objdir line failed="" kparity=0

	jobs=$(nproc)
	kbuild_targets=""
	while getopts c:hj:km:o:p:t: opt; do
		case "$opt" in
		c) compilers="$OPTARG" ;;
		j) jobs="$OPTARG" ;;
		k) kparity=1 ;;
		m) kbuild_targets="$OPTARG" ;;
		o) builddir="$OPTARG" ;;
		p) patchdir="$OPTARG" ;;
		t) target="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 0 ] || { usage >&2; exit 2; }
	is_positive "$jobs" || die "-j needs a positive number, not '$jobs'"
	compilers=$(compiler_words "$compilers")
	[ -z "$patchdir" ] || [ -f "$patchdir/series" ] || die "cannot read '$patchdir/series'"
	load_target "$target"
	if [ "$kparity" = 1 ]; then
		KPARITY_DIR="$TOPDIR"
		export KPARITY_DIR
	else
		unset KPARITY_DIR
	fi

	mkdir -p "$builddir/series" || die "cannot create '$builddir/series'"
	srcdir=$(KPARITY_SRC_QUIET=1 "$TOPDIR/scripts/kernel-src.sh" -o "$builddir/series") || exit 2
	need_patchdir "$srcdir"
	check_pin "$patchdir/series" "$srcdir"
	quilt_setup "$patchdir"
	check_interrupted "$srcdir" "$patchdir"
	if [ -n "$(applied_names "$srcdir")" ]; then
		# Its own tree, but a maintainer may have edited it: nothing
		# unsaved is popped.
		check_unsaved "$srcdir" "$(applied_from "$srcdir" "$patchdir")"
		q "$srcdir" pop -a -f -q >/dev/null || die "cannot pop the series in '$srcdir'"
		record "$srcdir" "$patchdir"
	fi
	use_patchdir "$srcdir" "$patchdir"
	# quilt restores a file with the time it had: make must see it changed.
	for name in $(series_names "$patchdir/series"); do
		[ -r "$patchdir/$name" ] || die "cannot read '$patchdir/$name' (named in '$patchdir/series')"
		(cd "$srcdir" && patch_files "$patchdir/$name" | xargs -r touch -c)
	done
	if name=$(local_changes "$srcdir"); then
		die "'$srcdir' has local changes where the series works: $name"
	fi

	name="(no patch)"
	while :; do
		line=""
		for c in $compilers; do
			if [ "$n" -gt 0 ] && ! reaches "$patchdir/$name"; then
				line="$line${line:+, }$c ok (nothing for $t_arch)"
				continue
			fi
			compiler_select "$c"
			"$TOPDIR/scripts/need-tool.sh" -p "$PROG" "$cc_bin" || exit 2
			dist_setup "$cc_bin" "$builddir"
			objdir=$(cell_dir "$builddir/series" bisect)
			configure "$srcdir" "$objdir"
			objdir=$(cd "$objdir" && pwd)
			if build "$srcdir" "$objdir" "$objdir/prefix-$n.log" "$c"; then
				line="$line${line:+, }$c ok ($(compiled "$objdir/prefix-$n.log") compiled)"
			else
				line="$line${line:+, }$c FAIL"
				failed="$failed${failed:+ and }$c (log: $objdir/prefix-$n.log)"
			fi
		done
		printf '%2d %s: %s\n' "$n" "$name" "$line"
		if [ -n "$failed" ]; then
			printf 'bisect: the first failing prefix ends with %s, with %s\n' "$name" "$failed"
			return 1
		fi
		name=$(q "$srcdir" next 2>/dev/null) || break
		q "$srcdir" push -q >/dev/null || die "cannot push '$name' in '$srcdir'"
		# The record always names what is applied, should the bisect stop.
		record "$srcdir" "$patchdir"
		n=$((n + 1))
	done
	printf 'bisect: all %d prefixes build with %s\n' "$((n + 1))" "$compilers"
}

main "$@"
