#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/parity-cell.sh, one cell of a parity run: bad arguments, before
# anything is built. The stage on a real cell is in tests/parity.bats.

load common

setup() {
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/b" "$T/cells"
}

@test "parity-cell: bad arguments are trouble, nothing built or written" {
	run -2 --separate-stderr "$TOP/scripts/parity-cell.sh" -o "$T/b" -t x86_64 -c gcc "$T/cells"
	assert_equal "${stderr_lines[0]}" "usage: parity-cell.sh -o BUILDDIR -t TARGET -c COMPILER -s SRCDIR [-k KINDS] [-T SECONDS] [-j JOBS] CELLS"
	run -2 --separate-stderr "$TOP/scripts/parity-cell.sh" -o "$T/b" -t vax -c gcc -s "$T/src" "$T/cells"
	assert_equal "$stderr" "parity-cell.sh: unknown target 'vax' (known: $(cd "$TOP/scripts/targets" && ls -- *.target | sed 's/\.target$//' | paste -s -d ' ' -))"
	run -2 --separate-stderr "$TOP/scripts/parity-cell.sh" -o "$T/b" -t x86_64 -c icc -s "$T/src" "$T/cells"
	assert_equal "$stderr" "parity-cell.sh: unknown compiler 'icc' (known: gcc gcc-11 gcc-12 clang clang-13 clang-14 clang-15 clang-16 clang-19 clang-22 clang-gas)"
	run -2 --separate-stderr "$TOP/scripts/parity-cell.sh" -o "$T/b" -t x86_64 -c gcc -s "$T/src" "$T/none"
	assert_equal "$stderr" "parity-cell.sh: no cells directory '$T/none'"
	DIST=ccache run -2 --separate-stderr "$TOP/scripts/parity-cell.sh" -o "$T/b" -t x86_64 -c gcc -s "$T/src" "$T/cells"
	assert_equal "${stderr_lines[0]}" "parity-cell.sh: DIST='ccache' is none of distcc, icecc"
	run -0 find "$T/b" "$T/cells" -mindepth 1
	assert_output ""
}
