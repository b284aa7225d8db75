#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# deps.sh - install the Debian packages a kparity job needs, and only those
# that are missing.
#
# Exit: 0 everything present (or installed), 1 a package is missing and
# --check was given, 2 trouble (unknown group, apt-get failed, not root).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=deps.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"

# One group per job; a job asks for the groups it uses.
PKGS_build="make gcc libc6-dev pkg-config libelf-dev libdw-dev libbpf-dev"
PKGS_check="bats bats-assert bats-support jq valgrind shellcheck binutils debhelper lintian bash-completion man-db chromium clang llvm lld libclang-rt-14-dev dwarves gcc-arm-linux-gnueabi gcc-aarch64-linux-gnu strace qemu-user distcc icecc iproute2 util-linux"
PKGS_kernel="linux-source-6.1 xz-utils flex bison bc libssl-dev cpio kmod python3 ccache libncurses-dev"
PKGS_bench="dwarves abigail-tools time coreutils binutils dpkg apt bpftool"
PKGS_parity="quilt jq coreutils qemu-system-x86 qemu-system-arm gcc-arm-linux-gnueabi gcc-aarch64-linux-gnu clang clang-19 lld lld-19 llvm llvm-19"

DEP_GROUPS="build check kernel parity bench compilers all"

usage() {
	cat <<USAGE
usage: $PROG [--check] [--list] GROUP...
Install the Debian packages of each GROUP that are not installed yet.
Groups: $DEP_GROUPS
  compilers  the compilers of COMPILERS (default: all, the version matrix;
             names as in scripts/targets/compilers.list), with their cross
             packages for every target
  --check  install nothing; exit 1 and name what is missing
  --list   print the packages of the groups, one per line
USAGE
}

group_pkgs() {
	case "$1" in
	build) echo "$PKGS_build" ;;
	check) echo "$PKGS_check" ;;
	kernel) echo "$PKGS_kernel" ;;
	parity) echo "$PKGS_parity" ;;
	bench) echo "$PKGS_bench" ;;
	compilers) compilers_pkgs "${COMPILERS:-all}" ;;
	all) echo "$PKGS_build $PKGS_check $PKGS_kernel $PKGS_parity $PKGS_bench $(compilers_pkgs all)" ;;
	*) return 1 ;;
	esac
}

# compilers_pkgs LIST: the packages of the compilers of LIST (as COMPILERS
# takes it) for every target, on one line.
compilers_pkgs() {
	local c t words

	words=$(compiler_words "$1") || exit 2
	for c in $words; do
		for t in $(known_targets); do
			load_target "$t"
			compiler_packages "$c" "$t_cross"
		done
	done | sort -u | tr '\n' ' '
}

one_per_line() {
	echo "$1" | tr ' ' '\n' | sed '/^$/d' | sort -u
}

is_installed() {
	status=$(dpkg-query -W -f '${db:Status-Abbrev}' "$1" 2>/dev/null) || return 1
	[ "$status" = "ii " ]
}

main() {
	check=0
	list=0
	wanted=""
	for arg in "$@"; do
		case "$arg" in
		--check) check=1 ;;
		--list) list=1 ;;
		-h | --help) usage; exit 0 ;;
		-*) usage >&2; exit 2 ;;
		*)
			case " $DEP_GROUPS " in
			*" $arg "*) ;;
			*) die "unknown group '$arg' (known: $DEP_GROUPS)" ;;
			esac
			# the compilers group has said why it failed
			pkgs=$(group_pkgs "$arg") || exit 2
			wanted="$wanted $pkgs"
			;;
		esac
	done
	[ -n "$wanted" ] || { usage >&2; exit 2; }

	if [ "$list" = 1 ]; then
		one_per_line "$wanted"
		exit 0
	fi

	missing=""
	for p in $(one_per_line "$wanted"); do
		is_installed "$p" || missing="$missing $p"
	done
	[ -n "$missing" ] || exit 0

	if [ "$check" = 1 ]; then
		printf '%s: missing Debian packages:%s\n' "$PROG" "$missing" >&2
		exit 1
	fi
	[ "$(id -u)" = 0 ] || die "missing Debian packages:$missing (run as root, or install them)"

	printf '  APT     %s\n' "$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq || die "apt-get update failed"
	# shellcheck disable=SC2086 # word splitting of the package list is intended
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		die "apt-get install failed for:$missing"
}

main "$@"
