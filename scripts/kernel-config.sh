#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-config.sh - configure a kernel out of tree from a base config and
# fragments, then check that every symbol the fragments ask for got the
# requested value.
#
# Kconfig silently drops what it cannot honour (an unmet dependency, a
# symbol that does not exist in this kernel, a choice the compiler rules
# out), so the final .config is compared with every request and each
# mismatch is reported on its own line.
#
# Exit: 0 ok, 1 a make step failed or a request was dropped, 2 trouble
# (usage, missing tree or fragment, malformed fragment).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=kernel-config.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	cat <<USAGE
usage: $PROG -s SRCDIR -O OBJDIR [-b TARGET|FILE] [-l LOG] FRAGMENT...
Run 'make TARGET' (default: tinyconfig), or copy FILE, for the kernel in SRCDIR with its
output in OBJDIR, merge each FRAGMENT in order, run 'make olddefconfig',
then check that OBJDIR/.config has every value the fragments request.
Prints the path of the .config on success.
  -s SRCDIR  kernel source tree (left untouched)
  -O OBJDIR  build directory, created if missing
  -b TARGET  make target giving the base config (default: tinyconfig);
             a path (with a '/') is a .config to start from instead
  -l LOG     append make's output to LOG (default: OBJDIR/config.log,
             emptied first)
Environment: ARCH, CROSS_COMPILE, LLVM, LLVM_IAS, CC, LD, HOSTCC and HOSTCXX
go to make's command line when set (Kconfig asks the compiler what it
supports, so configure with the compiler you build with). V=1 shows make's
output as it runs.
USAGE
}

# kmake ARG...: make in the kernel tree for $objdir; kernel-make.sh puts
# the toolchain variables of the environment on the command line, so that
# sub-makes and Kconfig's compiler probes all see them.
kmake() {
	run_logged "$log" "$TOPDIR/scripts/kernel-make.sh" "$srcdir" O="$objdir" "$@"
}

# failed WHAT: report a failed make step with the end of the log; exit 1.
failed() {
	printf '%s: %s failed; last lines of %s:\n' "$PROG" "$1" "$log" >&2
	tail -n 20 "$log" >&2
	exit 1
}

# check_fragments FRAGMENT...: exit 2 on a line that is neither blank, a
# comment nor a Kconfig assignment, so that a typo is not silently ignored.
check_fragments() {
	awk -v prog="$PROG" -f "$TOPDIR/scripts/kernel-config/kconfig-lines.awk" "$@"
}

# verify CONFIG FRAGMENT...: print one line per symbol whose requested
# value is not what CONFIG has, in the order of the requests; exit 1 if
# there is any. The last request for a symbol wins, as when merging.
#
# A symbol that is "not set" may also be missing from .config altogether:
# Kconfig leaves out symbols whose dependencies are unmet, and those are
# off all the same.
verify() {
	local config="$1"

	shift
	awk -v prog="$PROG" -f "$TOPDIR/scripts/kernel-config/kconfig-verify.awk" \
		part=config "$config" part=fragment "$@" >&2
}

main() {
	local base=tinyconfig frag opt

	srcdir=""
	objdir=""
	log=""
	while getopts b:hl:O:s: opt; do
		case "$opt" in
		b) base="$OPTARG" ;;
		l) log="$OPTARG" ;;
		O) objdir="$OPTARG" ;;
		s) srcdir="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ -z "$srcdir" ] || [ -z "$objdir" ] || [ $# -eq 0 ]; then
		usage >&2
		exit 2
	fi

	if [ ! -f "$srcdir/Makefile" ] || [ ! -f "$srcdir/Kconfig" ]; then
		die "'$srcdir' is not a kernel tree"
	fi
	srcdir=$(cd "$srcdir" && pwd)
	for frag in "$@"; do
		[ -f "$frag" ] || die "cannot read fragment '$frag'"
	done
	check_fragments "$@" || exit 2
	mkdir -p "$objdir" || die "cannot create '$objdir'"
	objdir=$(cd "$objdir" && pwd)
	if [ -z "$log" ]; then
		log="$objdir/config.log"
		: >"$log"
	fi
	log=$(abspath "$log") || die "cannot use log '$log'"

	# The environment must not point Kconfig at another file.
	unset KCONFIG_CONFIG KCONFIG_ALLCONFIG

	case "$base" in
	*/*)
		[ -f "$base" ] || die "cannot read base configuration '$base'"
		cp "$base" "$objdir/.config.tmp" || die "cannot copy '$base' to '$objdir'"
		mv "$objdir/.config.tmp" "$objdir/.config"
		;;
	*) kmake "$base" || failed "make $base" ;;
	esac
	# merge_config.sh keeps its temporary files in the current directory.
	(
		for frag in "$@"; do
			shift
			set -- "$@" "$(abspath "$frag")"
		done
		cd "$objdir" &&
			run_logged "$log" "$srcdir/scripts/kconfig/merge_config.sh" -m -O "$objdir" \
				"$objdir/.config" "$@"
	) || failed "merge_config.sh"
	kmake olddefconfig || failed "make olddefconfig"

	verify "$objdir/.config" "$@" || exit 1
	printf '%s\n' "$objdir/.config"
}

main "$@"
