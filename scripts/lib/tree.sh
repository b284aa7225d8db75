# SPDX-License-Identifier: GPL-2.0-only
#
# tree.sh - kernel trees for the scripts; sourced, not run, after
# common.sh (it uses PROG, TOPDIR and die).
#
# A tree is one data file, scripts/trees/NAME.tree (NAME is the kernel's
# VERSION.PATCHLEVEL: 6.1, 6.12), checked by scripts/target-check.sh -k
# tree before it is sourced: the Debian source package and its tarball,
# the quilt series made for it (whose first lines pin the exact version),
# the oldest compilers it supports, the tests known to differ between
# compilers on it, the configuration fragments (kconfig/fragments/) every
# target of the tree adds to its own (load_target). Which tree a run uses is the KERNEL variable (default
# DEFAULT_TREE); a tree given with KSRC=DIR is the one its Makefile names.

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
# shellcheck shell=sh
# shellcheck disable=SC2034 # the k_* variables are for the caller

DEFAULT_TREE=6.1
TREE_REQUIRED="PACKAGE TARBALL SERIES MIN_GCC MIN_CLANG"
TREE_OPTIONAL="DIFFERENCES FRAGMENTS"

# known_trees
# Usage: die "unknown tree (known: $(known_trees))"
# Prints the tree names on one line, oldest first.
known_trees() {
	"$TOPDIR/scripts/target-check.sh" -k tree -l | sort -V | paste -s -d ' ' -
}

# tree_name
# Usage: name=$(tree_name)
# Prints the tree of this run: KERNEL; else, with KSRC, the
# VERSION.PATCHLEVEL of KSRC's Makefile (which may have no data file);
# else DEFAULT_TREE.
tree_name() {
	local v

	if [ -n "${KERNEL:-}" ]; then
		printf '%s\n' "$KERNEL"
	elif [ -n "${KSRC:-}" ] && v=$(tree_version "$KSRC"); then
		printf '%s\n' "${v%.*}"
	else
		printf '%s\n' "$DEFAULT_TREE"
	fi
}

# tree_known
# Usage: if tree_known; then load_tree "$(tree_name)"; fi
# Succeeds when scripts/trees/ has a file for the tree of this run.
tree_known() {
	[ -f "$TOPDIR/scripts/trees/$(tree_name).tree" ]
}

# load_tree NAME
# Usage: load_tree "$(tree_name)"
# Checks scripts/trees/NAME.tree and sets k_name and
# one k_* variable per key, in lower case: k_package, k_tarball, k_series
# (absolute), k_min_gcc, k_min_clang, k_differences (absolute, or empty),
# k_fragments. The keys themselves are left unset. Exits 2 (target-check.sh
# has said why) on an unknown tree or a bad file.
load_tree() {
	local file name="$1"

	file=$("$TOPDIR/scripts/target-check.sh" -k tree -p "$PROG" "$name") || exit 2
	# shellcheck disable=SC2086 # one word per key
	unset $TREE_REQUIRED $TREE_OPTIONAL
	# shellcheck disable=SC1090 # checked by target-check.sh just now
	. "$file"
	k_name="$name"
	k_package="$PACKAGE"
	k_tarball="$TARBALL"
	k_series="$TOPDIR/$SERIES"
	k_min_gcc="$MIN_GCC"
	k_min_clang="$MIN_CLANG"
	k_differences="${DIFFERENCES:+$TOPDIR/$DIFFERENCES}"
	k_fragments="${FRAGMENTS:-}"
	# shellcheck disable=SC2086 # one word per key
	unset $TREE_REQUIRED $TREE_OPTIONAL
}

# series_pin FILE
# Usage: pin=$(series_pin "$k_series/series")
# Prints the kernel version the quilt series FILE pins with its line
# '# Kernel: VERSION.PATCHLEVEL.SUBLEVEL', or nothing.
series_pin() {
	sed -n 's/^# Kernel: *\([0-9][0-9.]*\) *$/\1/p' "$1" | head -n 1
}

# tree_for_version VERSION
# Usage: name=$(tree_for_version 6.12.118) || warn "no data for it"
# Prints the tree of Linux VERSION (its VERSION.PATCHLEVEL) when
# scripts/trees/ has a file for it; prints nothing and fails otherwise.
tree_for_version() {
	local name

	name=$(printf '%s\n' "$1" | cut -d . -f 1-2)
	[ -f "$TOPDIR/scripts/trees/$name.tree" ] || return 1
	printf '%s\n' "$name"
}

# config_words
# Usage: for w in $(config_words); do ...
# Prints the words of KCONFIG_ADD (separated by spaces or commas), what
# the run adds to every cell's configuration: each the NAME of a fragment
# kconfig/fragments/NAME.config, or CONFIG_SYMBOL=VALUE.
config_words() {
	printf '%s\n' "${KCONFIG_ADD:-}" | sed 's/,/ /g' | tr -s ' ' '\n' | awk 'NF' | paste -s -d ' ' -
}

# config_check
# Usage: config_check || exit 2
# Dies on a KCONFIG that is none of tinyconfig, allnoconfig, defconfig,
# NAME_defconfig and debian, or on a word of KCONFIG_ADD that is neither a fragment of
# kconfig/fragments/ nor CONFIG_SYMBOL=VALUE with VALUE y, n, m or a
# number (a string would need quoting in a make variable and a path).
config_check() {
	local w

	case "${KCONFIG:-}" in
	"" | tinyconfig | allnoconfig | defconfig | debian) ;;
	*[!A-Za-z0-9_.-]* | _defconfig) die "KCONFIG: '$KCONFIG' is not a configuration's name" ;;
	*_defconfig) ;;
	*) die "KCONFIG: '$KCONFIG' is none of tinyconfig, allnoconfig, defconfig, NAME_defconfig, debian" ;;
	esac

	for w in $(config_words); do
		case "$w" in
		CONFIG_*)
			printf '%s\n' "$w" | grep -Eqx 'CONFIG_[A-Z0-9_]+=(y|n|m|-?[0-9]+|0x[0-9a-fA-F]+)' ||
				die "KCONFIG_ADD: '$w' is not CONFIG_SYMBOL=VALUE (y, n, m or a number)"
			;;
		*)
			[ -f "$TOPDIR/kconfig/fragments/$w.config" ] ||
				die "KCONFIG_ADD: no fragment '$w' (known: $(config_fragments))"
			;;
		esac
	done
}

# config_fragments
# Usage: die "... (known: $(config_fragments))"
# Prints the names of the fragments in kconfig/fragments/, on one line.
config_fragments() {
	(cd "$TOPDIR/kconfig/fragments" && ls -- *.config) | sed 's/\.config$//' | paste -s -d ' ' -
}

# config_name
# Usage: name=$(config_name)
# Prints the name of the run's configuration when it is not the targets'
# own: KCONFIG, then the words of KCONFIG_ADD, joined by '+', CONFIG_ left
# out (kcfi, defconfig+kcfi, kcfi+CFI_PERMISSIVE=y); nothing without
# either.
config_name() {
	printf '%s %s\n' "${KCONFIG:-}" "$(config_words)" | tr ' ' '\n' | awk 'NF' |
		sed 's/^CONFIG_//' | paste -s -d '+' -
}

# tree_root BUILDDIR
# Usage: report="$(tree_root "$builddir")/report"
# Prints where the run of the current tree (tree_name) and configuration
# (config_name) keeps what depends on the kernel (its cells, report,
# comparisons): BUILDDIR itself for the default tree, BUILDDIR/NAME for
# another, and below that config-NAME (config_name) when KCONFIG or
# KCONFIG_ADD changes the configuration, so that no two trees' or configurations' runs share a
# file.
tree_root() {
	local root="$1" c

	[ "$(tree_name)" = "$DEFAULT_TREE" ] || root="$root/$(tree_name)"
	c=$(config_name)
	[ -z "$c" ] || root="$root/config-$c"
	printf '%s\n' "$root"
}
