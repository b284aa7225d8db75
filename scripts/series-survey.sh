#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# series-survey.sh - build large kernel configs with CONFIG_WERROR=y, one
# after the other, and keep every diagnostic they print. A target's own
# configuration (its base config and fragments, as kernel-build.sh
# configures it) is surveyed the same way, named by the target:
# x86_64-gcc-11.
#
# The survey has its own copy of the kernel tree (BUILDDIR/survey/src/),
# so it can run for hours while the tiny builds go on with theirs. Phase
# "before" builds the tree as Debian ships it (the series popped), phase
# "after" with the series pushed. Each build is 'make -k', so one failing
# file does not hide the next, in BUILDDIR/survey/CONFIG-SUFFIX/ (the
# compiler named as kernel-build.sh names builds: gcc, clang-19):
#   PHASE.log     make's output
#   PHASE.diag    one line per distinct diagnostic (warnings.sh -l), then
#                 the compiler driver's own ('clang-19: warning: ...'),
#                 which name no file: KIND, compiler, FLAG, (driver), 0, TEXT
#   PHASE.status  "exit N seconds S warnings W errors E"
# A build is incremental: the "after" phase recompiles what the series
# changed (for Clang everything, as the series changes Clang's flags).
#
# Exit: 0 every build succeeded, 1 a build failed (logs kept), 2 trouble.

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=series-survey.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
# shellcheck source=scripts/lib/farm.sh
. "$TOPDIR/scripts/lib/farm.sh"
DEFAULT_BUILDS=$(awk '!/^[ \t]*(#|$)/ { printf "%s%s", sep, $1; sep = " " }' \
	"$TOPDIR/scripts/targets/survey.list")

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-p before|after] [-j N] [-s] [-c COMPILERS]
       [CONFIG-COMPILER...]
Build each CONFIG (a defconfig a target lists in DEFCONFIGS, or a target,
for its base config and fragments: $(known_targets)) with COMPILER
(a name of scripts/targets/compilers.list; clang follows the caller's LLVM,
default 1) with
CONFIG_WERROR=y and 'make -k', one build at a time, under nice -n
\$SURVEY_NICE (default 15), in BUILDDIR/survey/CONFIG-SUFFIX/ (SUFFIX as
kernel-build.sh names builds). Default builds (scripts/targets/survey.list):
  $DEFAULT_BUILDS
  -o BUILDDIR  where build products go (default: build)
  -p PHASE     before: the tree without the series (default); after: with it
  -j N         make jobs (default: 2)
  -s           build nothing: summarise the logs there are again
  -c COMPILERS build every CONFIG of the builds named (or of the default
               ones) with each of COMPILERS instead (names separated by
               spaces or commas, or all)
Environment: DIST=distcc|icecc compiles on a farm, through ccache when it
is installed (Documentation/build-farm.md).
USAGE
}

# config_target CONFIG: the target whose DEFCONFIGS names CONFIG.
config_target() {
	local t

	for t in $(known_targets); do
		load_target "$t"
		case " $t_defconfigs " in
		*" $1 "*) printf '%s\n' "$t"; return 0 ;;
		esac
	done
	return 1
}

# select_build NAME: for CONFIG-COMPILER, load the target of CONFIG and
# select COMPILER; set config, and dir to the build's directory name,
# CONFIG-SUFFIX. A CONFIG that is a target's name sets tiny=1: the build
# is configured as kernel-build.sh configures that target.
select_build() {
	local compiler="" target c

	# the longest compiler name NAME ends in: clang-gas, not gas
	for c in $(known_compilers); do
		case "$1" in
		*-"$c") [ "${#c}" -le "${#compiler}" ] || compiler="$c" ;;
		esac
	done
	[ -n "$compiler" ] || die "no compiler in '$1' (known: $(known_compilers))"
	config="${1%-"$compiler"}"
	tiny=0
	case " $(known_targets) " in
	*" $config "*) target="$config" tiny=1 ;;
	*) target=$(config_target "$config") || die "unknown config '$config' in '$1'" ;;
	esac
	load_target "$target"
	compiler_select "$compiler"
	dir="$config-$cc_suffix"
}

# crossed COMPILERS NAME...: the CONFIG of each NAME (CONFIG-COMPILER),
# once each, with each of COMPILERS: CONFIG-COMPILER names, on one line.
crossed() {
	local compilers="$1" name c seen=" "

	shift
	for name in "$@"; do
		select_build "$name"
		case "$seen" in *" $config "*) continue ;; esac
		seen="$seen$config "
		for c in $compilers; do
			printf '%s-%s\n' "$config" "$c"
		done
	done | paste -s -d ' ' -
}

# prepare_tree SRCDIR PHASE: pop or push the series to match PHASE; the
# series is the run's tree's (load_tree has set k_series).
prepare_tree() {
	local srcdir="$1" phase="$2"

	case "$phase" in
	before)
		[ -s "$srcdir/.pc/applied-patches" ] || return 0
		step POP "the series, for phase before"
		(cd "$srcdir" && QUILT_PATCHES="$k_series" QUILT_PC=.pc \
			quilt --quiltrc /dev/null pop -a -q >/dev/null) ||
			die "cannot pop the series from '$srcdir'"
		;;
	after)
		"$TOPDIR/scripts/kernel-patch.sh" -s "$srcdir" || exit 2
		;;
	esac
}

# driver_diagnostics LOG: the distinct diagnostics of the compiler driver
# itself ('clang-19: error: argument unused during compilation: ...'),
# which carry no file name, in the format of warnings.sh -l.
driver_diagnostics() {
	awk -f "$TOPDIR/scripts/series/driver-diagnostics.awk" "$1"
}

# survey_one SRCDIR BUILDDIR PHASE JOBS NAME: configure and build one
# CONFIG-COMPILER; return make's status.
survey_one() {
	local srcdir="$1" builddir="$2" phase="$3" jobs="$4" name="$5"
	local config dir objdir log start status=0 engine tiny

	select_build "$name"
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" "$cc_bin" || exit 2
	# the variables make gets, for Kconfig's probes and the build alike
	set -- ARCH="$t_arch"
	[ -z "$cc_cross" ] || set -- "$@" CROSS_COMPILE="$cc_cross"
	[ -z "$cc_llvm" ] || set -- "$@" LLVM="$cc_llvm"
	[ -z "$cc_ias" ] || set -- "$@" LLVM_IAS="$cc_ias"
	engine=$(dist_engine) || exit 2
	if [ -n "$engine" ]; then
		dist_setup "$cc_bin" "$builddir"
		set -- "$@" CC="$(dist_cc "$cc_bin")"
	elif [ -z "$cc_llvm" ]; then
		# make's default is gcc, GCC 12, whatever gcc-N was asked for
		set -- "$@" CC="$cc_bin"
	fi
	name="$dir"

	mkdir -p "$root/survey/$name" || die "cannot create '$root/survey/$name'"
	objdir=$(cd "$root/survey/$name" && pwd)
	log="$objdir/$phase.log"

	step CONFIG "$name ($phase)"
	if [ "$tiny" = 1 ]; then
		configure_target "$srcdir" "$objdir" "$log" "$@" || die "cannot configure '$name'"
	else
		{
			"$TOPDIR/scripts/kernel-make.sh" "$srcdir" "$@" O="$objdir" "$config" &&
				"$srcdir/scripts/config" --file "$objdir/.config" -e WERROR &&
				"$TOPDIR/scripts/kernel-make.sh" "$srcdir" "$@" O="$objdir" olddefconfig
		} >"$log" 2>&1 || { tail -n 20 "$log" >&2; die "cannot configure '$name'"; }
	fi
	grep -qx 'CONFIG_WERROR=y' "$objdir/.config" || die "'$name' did not keep CONFIG_WERROR=y"

	step BUILD "$name ($phase), log in $log"
	start=$(date +%s)
	nice -n "${SURVEY_NICE:-15}" "$TOPDIR/scripts/kernel-make.sh" "$srcdir" "$@" O="$objdir" -k -j "$jobs" >>"$log" 2>&1 ||
		status=$?
	summarise "$srcdir" "$objdir" "$phase" "$status" "$(($(date +%s) - start))"
	step DONE "$name ($phase): $(cat "$objdir/$phase.status")"
	"$TOPDIR/scripts/history.sh" record "$objdir/$phase.status" || :
	return "$status"
}

# configure_target SRCDIR OBJDIR LOG VAR=VALUE...: configure the loaded
# target as kernel-build.sh does (kernel-config.sh: the base config, the
# fragments, then a check of every symbol), with make's VARs in the
# environment and one more fragment, OBJDIR/werror.config, for
# CONFIG_WERROR=y.
configure_target() {
	local srcdir="$1" objdir="$2" log="$3" v frag

	shift 3
	printf 'CONFIG_WERROR=y\n' >"$objdir/werror.config"
	: >"$log"
	(
		for v in "$@"; do
			# shellcheck disable=SC2163 # v is NAME=VALUE
			export "$v"
		done
		set --
		for frag in $t_fragments; do
			set -- "$@" "$TOPDIR/kconfig/fragments/$frag"
		done
		"$TOPDIR/scripts/kernel-config.sh" -s "$srcdir" -O "$objdir" -b "$t_base" -l "$log" \
			"$@" "$objdir/werror.config" >/dev/null
	)
}

# summarise SRCDIR OBJDIR PHASE STATUS SECONDS: write PHASE.diag and
# PHASE.status from PHASE.log.
summarise() {
	local srcdir="$1" objdir="$2" phase="$3"

	{
		"$TOPDIR/scripts/warnings.sh" -l -s "$srcdir" "$objdir/$phase.log"
		driver_diagnostics "$objdir/$phase.log"
	} >"$objdir/$phase.diag.tmp"
	mv "$objdir/$phase.diag.tmp" "$objdir/$phase.diag"
	printf 'exit %s seconds %s warnings %s errors %s\n' "$4" "$5" \
		"$(grep -c '^warning' "$objdir/$phase.diag" || :)" \
		"$(grep -c '^error' "$objdir/$phase.diag" || :)" >"$objdir/$phase.status.tmp"
	mv "$objdir/$phase.status.tmp" "$objdir/$phase.status"
}

# resummarise SRCDIR BUILDDIR PHASE NAME: summarise a log again (a build
# still running, or one summarised by an older version of this script),
# keeping the exit status and time it recorded ('running' when none).
resummarise() {
	local config dir objdir status=running seconds=-

	select_build "$4"
	objdir="$2/survey/$dir"

	[ -f "$objdir/$3.log" ] || return 0
	if [ -f "$objdir/$3.status" ]; then
		status=$(awk '{ print $2 }' "$objdir/$3.status")
		seconds=$(awk '{ print $4 }' "$objdir/$3.status")
	fi
	summarise "$1" "$objdir" "$3" "$status" "$seconds"
	step SUMMARY "$dir ($3): $(cat "$objdir/$3.status")"
}

main() {
	local builddir=build phase=before jobs=2 srcdir opt name failed=0 only=0
	local compilers="" builds

	while getopts c:hj:o:p:s opt; do
		case "$opt" in
		c) compilers="$OPTARG" ;;
		s) only=1 ;;
		j) jobs="$OPTARG" ;;
		o) builddir="$OPTARG" ;;
		p) phase="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	case "$phase" in
	before | after) ;;
	*) die "unknown phase '$phase' (known: before after)" ;;
	esac
	is_positive "$jobs" || die "-j needs a positive number, not '$jobs'"
	# shellcheck disable=SC2086 # a list of words
	[ $# -gt 0 ] || set -- $DEFAULT_BUILDS
	if [ -n "$compilers" ]; then
		compilers=$(compiler_words "$compilers")
		builds=$(crossed "$compilers" "$@")
		# shellcheck disable=SC2086 # a list of words
		set -- $builds
	fi

	# each kernel tree surveys apart (tree_root)
	load_tree "$(tree_name)"
	root=$(tree_root "$builddir")
	if [ "$only" = 1 ]; then
		for name in "$@"; do
			resummarise "$root/survey/src/$k_package" "$root" "$phase" "$name"
		done
		return 0
	fi
	mkdir -p "$root/survey" || die "cannot create '$root/survey'"
	srcdir=$("$TOPDIR/scripts/kernel-src.sh" -o "$root/survey") || exit 2
	prepare_tree "$srcdir" "$phase"
	for name in "$@"; do
		survey_one "$srcdir" "$builddir" "$phase" "$jobs" "$name" || failed=1
	done
	return "$failed"
}

main "$@"
