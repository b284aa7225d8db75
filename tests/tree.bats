#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Kernel trees as data: scripts/trees/NAME.tree, scripts/lib/tree.sh, and
# how KERNEL= and KSRC= choose the tree, its series and its directories.

load common

setup() {
	T=$BATS_TEST_TMPDIR
}

# in_sh CODE: run CODE in a POSIX sh that has sourced the libraries
in_sh() {
	PROG=tree-test TOPDIR="$TOP" sh -c \
		'. "$TOPDIR/scripts/lib/common.sh" && . "$TOPDIR/scripts/lib/target.sh" && eval "$1"' sh "$1"
}

# fake_tree DIR VERSION: a directory whose Makefile says it is VERSION
fake_tree() {
	mkdir -p "$1"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\n' $(echo "$2" | tr . ' ') >"$1/Makefile"
}

@test "tree: every tree file passes the check, and names a series pinned to its kernel" {
	local t
	for t in $(in_sh known_trees); do
		run -0 --separate-stderr "$TOP/scripts/target-check.sh" -k tree "$t"
		assert_output "$TOP/scripts/trees/$t.tree"
		run -0 in_sh "load_tree $t; sed -n 's/^# Kernel: //p' \"\$k_series/series\""
		assert_output --regexp "^$t\.[0-9]+\$"
	done
	run -0 in_sh known_trees
	assert_output "6.1 6.12"
}

@test "tree: load_tree sets the tree's values, paths absolute" {
	run -0 in_sh 'load_tree 6.12; echo "$k_name|$k_package|$k_tarball|$k_series|$k_min_gcc|$k_min_clang|$k_differences|$k_fragments"'
	assert_output "6.12|linux-source-6.12|/usr/src/linux-source-6.12.tar.xz|$TOP/patches/6.12|5|13|$TOP/scripts/trees/test-differences-6.12.list|kunit-6.12.config"
}

@test "tree: a target's fragments end with its tree's, for a tree with a data file only" {
	fake_tree "$T/u" 6.13.1
	run -0 in_sh 'load_target x86_64; echo "$t_fragments"; KERNEL=6.12; load_target x86_64; echo "$t_fragments"'
	assert_output "$(printf '%s\n' "x86_64.config debug-info.config kunit.config" \
		"x86_64.config debug-info.config kunit.config kunit-6.12.config")"
	run -0 in_sh "KSRC='$T/u'; load_target arm64-virt; echo \"\$t_fragments\""
	assert_output "arm64-virt.config debug-info.config kunit.config"
}

@test "tree: an unknown tree or a bad tree file is one line and exit 2" {
	run -2 --separate-stderr in_sh 'load_tree 6.13'
	assert_equal "$stderr" "tree-test: unknown tree '6.13' (known: 6.1 6.12)"
	mkdir "$T/trees"
	printf 'PACKAGE=x\nSERIES=patches/x\nMIN_GCC=5\nMIN_CLANG=13\nTARBAL=/x\n' >"$T/trees/x.tree"
	run -2 --separate-stderr "$TOP/scripts/target-check.sh" -k tree -d "$T/trees" x
	assert_equal "$stderr" "$(printf '%s\n' "target-check.sh: $T/trees/x.tree:5: unknown key 'TARBAL'" \
		"target-check.sh: $T/trees/x.tree: missing key 'TARBALL'")"
}

@test "tree: a tree file whose series is not pinned to a kernel of the tree is one line and exit 2" {
	mkdir "$T/trees"
	sed 's|^SERIES=.*|SERIES=patches/6.1|' "$TOP/scripts/trees/6.12.tree" >"$T/trees/6.12.tree"
	run -2 --separate-stderr "$TOP/scripts/target-check.sh" -k tree -d "$T/trees" 6.12
	assert_output ""
	assert_equal "$stderr" "target-check.sh: $T/trees/6.12.tree: 'patches/6.1/series' is for Linux 6.1.192, not 6.12"
	sed 's|^SERIES=.*|SERIES=patches/6.13|' "$TOP/scripts/trees/6.12.tree" >"$T/trees/6.12.tree"
	run -2 --separate-stderr "$TOP/scripts/target-check.sh" -k tree -d "$T/trees" 6.12
	assert_equal "$stderr" "target-check.sh: $T/trees/6.12.tree: cannot read 'patches/6.13/series' (its SERIES)"
	mkdir -p "$T/top/patches/none"
	cp -R "$TOP/scripts" "$TOP/kconfig" "$T/top/"
	sed 's|^SERIES=.*|SERIES=patches/none|' "$TOP/scripts/trees/6.12.tree" >"$T/top/scripts/trees/6.12.tree"
	printf '# Kernel: 6.12.118\n' >"$T/top/patches/none/series"
	run -0 --separate-stderr "$T/top/scripts/target-check.sh" -k tree 6.12
	printf 'a.patch\n' >"$T/top/patches/none/series"
	run -2 --separate-stderr "$T/top/scripts/target-check.sh" -k tree 6.12
	assert_equal "$stderr" "target-check.sh: $T/top/scripts/trees/6.12.tree: 'patches/none/series' is for no kernel (no '# Kernel:' line), not 6.12"
}

@test "tree: KERNEL=6.12 with a series not pinned to 6.12 is refused before anything is extracted" {
	mkdir -p "$T/top/patches/6.12"
	cp -R "$TOP/scripts" "$TOP/kconfig" "$T/top/"
	printf '# Kernel: 6.1.192\n' >"$T/top/patches/6.12/series"
	run -2 --separate-stderr env KERNEL=6.12 "$T/top/scripts/kernel-src.sh" -o "$T/b"
	assert_output ""
	assert_equal "$stderr" "kernel-src.sh: $T/top/scripts/trees/6.12.tree: 'patches/6.12/series' is for Linux 6.1.192, not 6.12"
	[ ! -e "$T/b" ]
}

@test "tree: KERNEL chooses the tree, else KSRC's version, else the default" {
	fake_tree "$T/k" 6.12.7
	run -0 in_sh "tree_name; KERNEL=6.12 tree_name; KSRC='$T/k' tree_name; KSRC='$T/k' KERNEL=6.1 tree_name"
	assert_output "$(printf '%s\n' 6.1 6.12 6.12 6.1)"
	run -0 in_sh 'tree_for_version 6.12.118; tree_for_version 6.1.5; tree_for_version 6.13.1 || echo none'
	assert_output "$(printf '%s\n' 6.12 6.1 none)"
}

@test "tree: the default tree's cells are where they always were, another's apart" {
	run -0 in_sh 'load_target x86_64; compiler_select gcc; cell_dir /b; cell_dir /b kselftest; cell_dir /b toybox'
	assert_output "$(printf '%s\n' /b/kernel/x86_64-gcc /b/kselftest/x86_64-gcc /b/toybox/x86_64-gcc)"
	run -0 in_sh 'KERNEL=6.12; load_target x86_64; compiler_select gcc; cell_dir /b; cell_dir /b initramfs; cell_dir /b toybox'
	assert_output "$(printf '%s\n' /b/6.12/kernel/x86_64-gcc /b/6.12/initramfs/x86_64-gcc /b/toybox/x86_64-gcc)"
}

@test "tree: KERNEL=6.13 is refused before anything is extracted" {
	run -2 --separate-stderr env KERNEL=6.13 "$TOP/scripts/kernel-src.sh" -o "$T/b"
	assert_equal "$stderr" "kernel-src.sh: unknown tree '6.13' (known: 6.1 6.12)"
	[ ! -e "$T/b/src" ]
}

@test "tree: KSRC of another kernel than KERNEL is refused" {
	fake_tree "$T/k" 6.12.7
	: >"$T/k/Kconfig"
	mkdir "$T/k/scripts"
	: >"$T/k/scripts/Makefile.compiler"
	run -2 --separate-stderr env KERNEL=6.1 KSRC="$T/k" "$TOP/scripts/kernel-src.sh"
	assert_equal "$stderr" "kernel-src.sh: KERNEL=6.1, but KSRC='$T/k' is Linux 6.12.7"
	run -0 --separate-stderr env KSRC="$T/k" "$TOP/scripts/kernel-src.sh"
	assert_output "$T/k"
}

# series_of_rc DIR: the QUILT_PATCHES scripts/quiltrc gives quilt run in DIR
series_of_rc() {
	QUILTRC="$TOP/scripts/quiltrc" sh -c 'cd "$1" && . "$QUILTRC" && echo "$QUILT_PATCHES"' sh "$1"
}

@test "tree: scripts/quiltrc takes the series of the tree quilt runs in, else the default tree's" {
	fake_tree "$T/k" 6.12.7
	fake_tree "$T/u" 6.13.1
	mkdir "$T/none"
	unset QUILT_PATCHES
	run -0 series_of_rc "$T/k"
	assert_output "$TOP/patches/6.12"
	run -0 series_of_rc "$T/u"
	assert_output "$TOP/patches/6.1"
	run -0 series_of_rc "$T/none"
	assert_output "$TOP/patches/6.1"
	QUILT_PATCHES="$T/mine" run -0 series_of_rc "$T/k"
	assert_output "$T/mine"
}
