#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The quilt series on the real tree, Debian's linux-source-6.1: it applies
# exactly, push and pop leave the tree byte-identical, every patch passes
# the tree's checkpatch.pl, and every prefix builds init/ of the tiny x86_64
# kernel with GCC and with Clang under CONFIG_WERROR=y (incrementally, in
# $KPARITY_BUILD/series/, with ccache). Building init/ after make's prepare
# stage runs the bisect's whole logic on the real tree in a minute; every
# prefix's full build is 'make series-bisect', the evidence run.

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
	sed -n '/^[^#]/p' "$TOP/patches/6.1/series"
}

@test "series-kernel: the series pins the kernel the tree is" {
	local pin tree
	pin=$(sed -n 's/^# Kernel: //p' "$TOP/patches/6.1/series")
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

@test "series-kernel: an unrefreshed 'quilt new' edit stops make parity's patch step, and survives" {
	local q="$TOP/scripts/quiltrc" build="$BATS_TEST_TMPDIR/build"

	run -0 "$S/kernel-patch.sh" -s "$SRC"
	(cd "$SRC" && QUILTRC="$q" quilt new 0099-unsaved.patch && QUILTRC="$q" quilt add init/version.c) >/dev/null
	printf '/* unsaved */\n' >>"$SRC/init/version.c"
	mkdir -p "$build"
	ln -s "$KABI" "$build/kabi"
	run -2 --separate-stderr env KSRC="$SRC" "$S/parity.sh" -o "$build" -t x86_64 -c gcc
	assert_equal "${stderr_lines[1]}" "kernel-patch.sh: '$SRC' has work no patch file holds: 0099-unsaved.patch (no patch file: quilt new, never refreshed); keep it with 'cd $SRC && quilt refresh 0099-unsaved.patch', or drop it with 'scripts/kernel-patch.sh --discard -s $SRC'"
	run -0 tail -n 1 "$SRC/init/version.c"
	assert_output "/* unsaved */"
	# the tree as the other tests want it: the edit and its patch gone
	(cd "$SRC" && QUILTRC="$q" quilt delete 0099-unsaved.patch) >/dev/null
	run -0 "$S/kernel-patch.sh" -s "$SRC"
}

@test "series-kernel: every patch passes the tree's checkpatch.pl" {
	local p
	# A tarball has no git history, so checkpatch cannot look up the
	# upstream commit ids the backports name: that one check is skipped.
	for p in $(patches); do
		run -0 perl "$SRC/scripts/checkpatch.pl" --root="$SRC" -q --ignore UNKNOWN_COMMIT_ID "$TOP/patches/6.1/$p"
		assert_output ""
	done
}

# compiled_of LINE COMPILER: the count "COMPILER ok (N compiled)" in LINE.
compiled_of() {
	printf '%s\n' "$1" | sed -n "s/.* $2 ok (\([0-9]*\) compiled).*/\1/p"
}

@test "series-kernel: every prefix builds init/ of tiny x86_64 with gcc and clang, -Werror" {
	need_tool clang
	local n i
	n=$(patches | grep -c .)
	run -0 --separate-stderr "$S/series-bisect.sh" -o "$BUILD" -t x86_64 -c "gcc clang" -m init/
	assert_equal "${#lines[@]}" "$((n + 2))"
	assert_line -n 0 --regexp '^ 0 \(no patch\): gcc ok \([0-9]+ compiled\), clang ok \([0-9]+ compiled\)$'
	# GCC's builds are the tree's own: no patch changes a GCC command line,
	# so after the first prefix make compiles nothing again for gcc, unless
	# the patch changes objtool, which every object is checked by again
	local gcc_re
	for i in $(seq 1 "$n"); do
		gcc_re='0 compiled|nothing for x86_64'
		if grep -q '^+++ b/tools/objtool/' "$TOP/patches/6.1/$(patches | sed -n "${i}p")"; then
			gcc_re='[0-9]+ compiled'
		fi
		assert_line -n "$i" --regexp "^ *$i [^ ]+: gcc ok \(($gcc_re)\), clang ok \(([0-9]+ compiled|nothing for x86_64)\)\$"
	done
	assert_line -n "$((n + 1))" "bisect: all $((n + 1)) prefixes build with gcc clang"
	# the last two patches change every clang command line: each compiles
	# all of init/ and prepare's generated files again, as many each time
	local c7 c8
	c7=$(compiled_of "${lines[7]}" clang)
	c8=$(compiled_of "${lines[8]}" clang)
	assert [ "${c7:-0}" -gt 0 ]
	assert_equal "$c8" "$c7"
}

@test "series-kernel: a prefix that does not build is named, exit 1" {
	local log
	# every C file of the build includes this header: prefix 0 breaks
	printf '#error the bisect must name this prefix\n' >"$BATS_TEST_TMPDIR/break.h"
	run -1 --separate-stderr env KCFLAGS="-include $BATS_TEST_TMPDIR/break.h" \
		"$S/series-bisect.sh" -o "$BUILD" -t x86_64 -c gcc -m init/
	log=$(cd "$BUILD" && pwd)/series/bisect/x86_64-gcc/prefix-0.log
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 " 0 (no patch): gcc FAIL"
	assert_line -n 1 "bisect: the first failing prefix ends with (no patch), with gcc (log: $log)"
	run -0 grep -m 1 -o 'error: #error the bisect must name this prefix' "$log"
	assert_output 'error: #error the bisect must name this prefix'
}
