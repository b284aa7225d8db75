#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The quilt series on the real tree, Debian's linux-source-6.1: it applies
# exactly, push and pop leave the tree byte-identical, every patch passes
# the tree's checkpatch.pl, and every prefix builds the tiny x86_64 kernel
# with GCC and with Clang under CONFIG_WERROR=y (incrementally, in
# $KPARITY_BUILD/series/, with ccache).

load common

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
	# The series' own tree, extracted once and kept, like the parity tree.
	export SRC
	SRC=$(KPARITY_SRC_QUIET=1 "$TOP/scripts/kernel-src.sh" -o "$BUILD/series")
}

setup() {
	need_tool quilt
	S=$TOP/scripts
}

# patches: the series' patch files, in order.
patches() {
	sed -n '/^[^#]/p' "$TOP/patches/series"
}

@test "series-kernel: the series pins the kernel the tree is" {
	local pin tree
	pin=$(sed -n 's/^# Kernel: //p' "$TOP/patches/series")
	tree=$(awk -F' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { print v "." p "." $2; exit }' "$SRC/Makefile")
	assert_equal "$pin" "$tree"
}

@test "series-kernel: every patch applies exactly to the pristine tree" {
	local n
	n=$(patches | grep -c .)
	run -0 --separate-stderr "$S/series-check.sh" -s "$SRC"
	assert_equal "${#lines[@]}" "$((n + 1))"
	assert_line -n "$n" "$n patches: $n applies, 0 offset, 0 fuzz, 0 rejected, 0 missing"
}

@test "series-kernel: push -a and pop -a leave the tree byte-identical" {
	run -0 --separate-stderr "$S/series-roundtrip.sh" -s "$SRC"
	assert_line -n 2 "round-trip: byte-identical"
	assert_equal "${lines[0]#before  }" "${lines[1]#after   }"
}

@test "series-kernel: every patch passes the tree's checkpatch.pl" {
	local p
	# A tarball has no git history, so checkpatch cannot look up the
	# upstream commit ids the backports name: that one check is skipped.
	for p in $(patches); do
		run -0 perl "$SRC/scripts/checkpatch.pl" --root="$SRC" -q --ignore UNKNOWN_COMMIT_ID "$TOP/patches/$p"
		assert_output ""
	done
}

@test "series-kernel: every prefix builds tiny x86_64 with gcc and clang, -Werror" {
	need_tool clang
	local n
	n=$(patches | grep -c .)
	local i
	run -0 --separate-stderr "$S/series-bisect.sh" -o "$BUILD" -t x86_64 -c "gcc clang"
	assert_equal "${#lines[@]}" "$((n + 2))"
	assert_line -n 0 --regexp '^ 0 \(no patch\): gcc ok \([0-9]+ compiled\), clang ok \([0-9]+ compiled\)$'
	# GCC's builds are the tree's own: no patch changes a GCC command line,
	# so after the first prefix make compiles nothing again for gcc
	for i in $(seq 1 "$n"); do
		assert_line -n "$i" --regexp "^ *$i [^ ]+: gcc ok \((0 compiled|nothing for x86_64)\), clang ok \(([0-9]+ compiled|nothing for x86_64)\)\$"
	done
	assert_line -n "$((n + 1))" "bisect: all $((n + 1)) prefixes build with gcc clang"
}
