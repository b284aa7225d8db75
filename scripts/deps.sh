#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# deps.sh - install the Debian packages a kparity job needs, and only those
# that are missing.
#
# A group may also need Debian source packages (SRCS_*), fetched later by
# the job itself; for those, deps.sh makes sure apt has a deb-src entry.
#
# Exit: 0 everything present (or installed), 1 a package or deb-src entry
# is missing and --check was given, 2 trouble (unknown group, apt-get
# failed, not root).

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
PKGS_check="bats bats-assert bats-support jq sqlite3 python3-jsonschema valgrind shellcheck binutils debhelper lintian bash-completion man-db chromium clang llvm lld libclang-rt-14-dev dwarves gcc-arm-linux-gnueabi gcc-aarch64-linux-gnu strace qemu-user distcc icecc iproute2 util-linux file"
# and the source package of the run's kernel tree (tree_packages)
PKGS_kernel="xz-utils flex bison bc libssl-dev cpio kmod python3 ccache libncurses-dev g++ gcc-12-plugin-dev"
PKGS_bench="dwarves abigail-tools time coreutils binutils dpkg apt bpftool jq"
# and each target's own (targets_pkgs)
PKGS_parity="quilt jq sqlite3 coreutils clang clang-19 lld lld-19 llvm llvm-19 rsync genext2fs"

# The Debian source packages a group's job fetches itself (their upstream
# tarball, into the cache: scripts/lib/debcache.sh's deb_orig); apt needs a
# deb-src entry for them, which deps.sh adds when apt has none.
SRCS_parity="toybox"

DEP_GROUPS="build check kernel parity bench compilers all"
DEB_SRC_LIST=/etc/apt/sources.list.d/kparity-deb-src.list

usage() {
	cat <<USAGE
usage: $PROG [--check] [--list] GROUP...
Install the Debian packages of each GROUP that are not installed yet.
Groups: $DEP_GROUPS
  parity     what make parity needs, with what each target of TARGETS
             needs (names as make parity takes them, all for every one;
             default: the targets of a run that names none)
  compilers  the compilers of COMPILERS (default: all, the version matrix;
             names as in scripts/targets/compilers.list), with their cross
             packages for every target of TARGETS
  --check  install nothing; exit 1 and name what is missing
  --list   print the packages of the groups, one per line
USAGE
}

group_pkgs() {
	local t

	case "$1" in
	build) echo "$PKGS_build" ;;
	check) echo "$PKGS_check $(tree_packages all)" ;;
	kernel) echo "$PKGS_kernel $(tree_packages)" ;;
	parity) t=$(targets_pkgs) || return 1; echo "$PKGS_parity $t" ;;
	bench) echo "$PKGS_bench" ;;
	compilers) compilers_pkgs "${COMPILERS:-all}" ;;
	all) echo "$PKGS_build $PKGS_check $PKGS_kernel $(tree_packages all) $PKGS_parity $(TARGETS=all targets_pkgs) $PKGS_bench $(TARGETS=all compilers_pkgs all)" ;;
	*) return 1 ;;
	esac
}

# tree_packages [all]: the source package of the run's kernel tree
# (KERNEL), or with all of every tree kparity knows; none for a KSRC tree
# it has no data for
tree_packages() {
	local t

	if [ "${1:-}" = all ]; then
		# shellcheck disable=SC2046 # one word per tree
		set -- $(known_trees)
	elif tree_known; then
		set -- "$(tree_name)"
	else
		set --
	fi
	for t in "$@"; do
		(load_tree "$t" && printf '%s ' "$k_package")
	done
}

# compilers_pkgs LIST: the packages of the compilers of LIST (as COMPILERS
# takes it) for every target of the job (run_targets) that may have them,
# on one line.
compilers_pkgs() {
	local c t words targets

	words=$(compiler_words "$1") || exit 2
	targets=$(run_targets) || exit 2
	for c in $words; do
		for t in $targets; do
			load_target "$t"
			target_skip "$c" >/dev/null || compiler_packages "$c" "$t_cross"
		done
	done | sort -u | tr '\n' ' '
}

# run_targets: the job's targets: TARGETS as make parity takes it (all
# for every one), else the default ones; exit 2 on an unknown one
run_targets() {
	local ts t

	if [ -n "${TARGETS:-}" ]; then
		ts=$(target_words "$TARGETS")
	else
		ts=$(default_targets)
	fi
	for t in $ts; do
		"$TOPDIR/scripts/target-check.sh" -p "$PROG" "$t" >/dev/null || exit 2
	done
	printf '%s\n' "$ts"
}

# targets_pkgs: what the job's targets need, on one line: each one's
# PACKAGES, and GCC and Clang for it
targets_pkgs() {
	local t targets

	targets=$(run_targets) || exit 2
	for t in $targets; do
		load_target "$t"
		# shellcheck disable=SC2086 # one word per package
		printf '%s\n' $t_packages
		compiler_packages gcc "$t_cross"
		compiler_packages clang "$t_cross"
	done | sort -u | tr '\n' ' '
}

group_srcs() {
	case "$1" in
	parity | all) echo "$SRCS_parity" ;;
	esac
}

# src_known SRC: apt can fetch the source package SRC.
src_known() {
	apt-get source --print-uris --download-only "$1" >/dev/null 2>&1
}

# add_deb_src SRC: a deb-src entry for the archive (URI, suite, component)
# apt installs the package SRC from, in DEB_SRC_LIST, then apt-get update.
# apt refuses two entries of one archive with different keys: the new one
# takes the Signed-By of the archive's deb entry, if that has one.
add_deb_src() {
	local arch uri key line

	arch=$(apt-cache policy "$1" 2>/dev/null |
		sed -n 's|^ *[0-9]* \(https\?://[^ ]*\) \([^/ ]*\)/\([^ ]*\) [^ ]* Packages$|\1 \2 \3|p' |
		head -n 1)
	[ -n "$arch" ] || die "apt knows no archive of '$1' to add a deb-src entry for (apt-get update?)"
	uri=${arch%% *}
	key=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v uri="$uri" 'BEGIN { RS = "" }
		index($0, "URIs: " uri) && match($0, /Signed-By: [^\n]*/) {
			print substr($0, RSTART + 11, RLENGTH - 11); exit }')
	line="deb-src ${key:+[signed-by=$key] }$arch"
	grep -qxF "$line" "$DEB_SRC_LIST" 2>/dev/null || printf '%s\n' "$line" >>"$DEB_SRC_LIST"
	printf '  APT     %s\n' "$line"
	apt-get update -qq || die "apt-get update failed"
	src_known "$1" || die "apt cannot fetch the source package '$1' even with '$line' in '$DEB_SRC_LIST'"
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
	srcs=""
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
			# the compilers and parity groups have said why they failed
			pkgs=$(group_pkgs "$arg") || exit 2
			wanted="$wanted $pkgs"
			srcs="$srcs $(group_srcs "$arg")"
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
	nosrc=""
	for p in $(one_per_line "$srcs"); do
		src_known "$p" || nosrc="$nosrc $p"
	done
	[ -n "$missing" ] || [ -n "$nosrc" ] || exit 0

	if [ "$check" = 1 ]; then
		[ -z "$missing" ] || printf '%s: missing Debian packages:%s\n' "$PROG" "$missing" >&2
		[ -z "$nosrc" ] || printf '%s: no deb-src entry for the Debian source packages:%s\n' "$PROG" "$nosrc" >&2
		exit 1
	fi
	[ "$(id -u)" = 0 ] ||
		die "missing Debian packages:$missing${nosrc:+; no deb-src entry for:$nosrc} (run as root, or install them)"

	export DEBIAN_FRONTEND=noninteractive
	for p in $nosrc; do
		add_deb_src "$p"
	done
	[ -n "$missing" ] || exit 0
	printf '  APT     %s\n' "$missing"
	apt-get update -qq || die "apt-get update failed"
	# shellcheck disable=SC2086 # word splitting of the package list is intended
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		die "apt-get install failed for:$missing"
}

main "$@"
