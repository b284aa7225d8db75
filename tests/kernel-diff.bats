#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/kernel-diff.sh, the layout stage, on cells whose vmlinux is a
# small object built by gcc and clang in the test: one kabi read per
# pair, its result file, and the stage's exit status for each outcome.

load common

FIX=tests/fixtures/kabi-diff

setup() {
	need_tool jq
	T=$BATS_TEST_TMPDIR
	B=$T/build
	mkdir -p "$B/kernel/x86_64-gcc" "$B/kernel/x86_64-clang" "$T/src"
	ln -s "$KABI" "$B/kabi"
}

# cell COMPILER CC [FLAGS...]: the cell's vmlinux is layout.c built by CC,
# marked as a successful build
cell() {
	local dir=$B/kernel/x86_64-$1 cc=$2
	shift 2
	cc_obj "$cc" "$dir/vmlinux" "$FIX/layout.c" "$@"
	: >"$dir/.kparity-built"
}

# fake_kabi RC: BUILD/kabi runs the real one, then exits RC; each call is
# counted in $T/calls
fake_kabi() {
	rm "$B/kabi"
	printf '#!/bin/sh\necho x >>"%s"\n"%s" "$@"\nexit %s\n' "$T/calls" "$KABI" "$1" >"$B/kabi"
	chmod +x "$B/kabi"
}

@test "kernel-diff: the same layouts from gcc and clang pass, one result file" {
	cell gcc gcc
	cell clang clang
	run -0 --separate-stderr "$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 -s "$T/src" gcc clang
	assert_output ""
	assert_equal "$stderr" "KABI    x86_64 gcc vs clang  0 changed (0 incompatible), 0 only in old, 0 only in new, 14 unchanged"
	run -0 jq -c '[.old, .new, .status, .reason, .summary.changed, .incompatible, .changed, .changed_more]' \
		"$B/diff/x86_64.gcc.clang.result.json"
	assert_output '["gcc","clang","pass",null,0,[],[],0]'
	run -0 jq -r .reproduce "$B/diff/x86_64.gcc.clang.result.json"
	assert_output "$B/kabi diff --root $T/src $B/kernel/x86_64-gcc/vmlinux $B/kernel/x86_64-clang/vmlinux"
}

@test "kernel-diff: an incompatible difference fails a ref comparison, with both layouts" {
	cell gcc gcc
	cell clang clang -DNEW
	run -1 --separate-stderr "$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 -O "$T/r.json" gcc clang
	local prog='[.status, .reason, .summary.incompatible, [.incompatible[] | [.name, .gcc.size, .clang.size]]]'
	run -0 jq -c "$prog" "$T/r.json"
	assert_output '["fail","layouts differ incompatibly",2,[["bits",4,4],["grows",16,24]]]'
}

@test "kernel-diff: the same difference is a finding of a version comparison, which passes" {
	cell gcc gcc
	cell clang clang -DNEW
	run -0 --separate-stderr "$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 -k version -O "$T/r.json" gcc clang
	run -0 jq -c '[.status, .reason, .summary.changed, .summary.incompatible]' "$T/r.json"
	assert_output '["pass",null,7,2]'
}

@test "kernel-diff: a cell without a successful build is skipped, kabi not run" {
	cell gcc gcc
	cell clang clang
	rm "$B/kernel/x86_64-clang/.kparity-built"
	fake_kabi 0
	run -0 --separate-stderr "$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 -O "$T/r.json" gcc clang
	assert_equal "$stderr" "KABI    x86_64 gcc vs clang  skipped: $B/kernel/x86_64-clang has no successful build"
	run -0 jq -c '[.status, .reason, .summary]' "$T/r.json"
	assert_output '["skipped","a build failed",null]'
	[ ! -e "$T/calls" ]
}

@test "kernel-diff: a build by GCC's randstruct plugin is skipped: its DWARF is not its layout" {
	cell gcc gcc
	cell clang clang -DNEW
	printf 'CONFIG_RANDSTRUCT=y\nCONFIG_GCC_PLUGIN_RANDSTRUCT=y\n' >"$B/kernel/x86_64-gcc/.config"
	fake_kabi 0
	run -0 --separate-stderr "$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 -O "$T/r.json" gcc clang
	assert_equal "$stderr" "KABI    x86_64 gcc vs clang  skipped: GCC's randstruct plugin leaves the DWARF in declared order, not the randomized layout"
	run -0 jq -c '[.status, .reason, .summary]' "$T/r.json"
	assert_output '["skipped","GCC'"'"'s randstruct plugin leaves the DWARF in declared order, not the randomized layout",null]'
	[ ! -e "$T/calls" ]
	# Clang's randomized layouts are in its DWARF: such a build is compared
	printf 'CONFIG_RANDSTRUCT=y\n' >"$B/kernel/x86_64-gcc/.config"
	run -1 --separate-stderr "$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 -O "$T/r.json" gcc clang
}

@test "kernel-diff: kabi's error bit fails the comparison even with the change bit (exit 5)" {
	cell gcc gcc
	cell clang clang -DNEW
	fake_kabi 5
	run -1 --separate-stderr "$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 -k version -O "$T/r.json" gcc clang
	assert_equal "${stderr_lines[0]}" "KABI    x86_64 gcc vs clang  FAIL: kabi exited 5"
	run -0 jq -c '[.status, .reason, .summary]' "$T/r.json"
	assert_output '["fail","kabi diff failed (exit 5)",null]'
	# nothing half-read is kept for the next run
	run -0 ls "$B/diff"
	assert_output "x86_64.gcc.clang.json.err"
}

@test "kernel-diff: the pair is read once, and again when an image changes" {
	cell gcc gcc
	cell clang clang
	fake_kabi 0
	"$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 gcc clang 2>/dev/null
	"$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 gcc clang 2>/dev/null
	run -0 wc -l <"$T/calls"
	assert_output 1
	touch -d '+1 minute' "$B/kernel/x86_64-clang/vmlinux"
	"$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 gcc clang 2>/dev/null
	run -0 wc -l <"$T/calls"
	assert_output 2
}

@test "kernel-diff: the read kept for clang is not the read of clang with LLVM=-22" {
	need_tool clang-22
	cell gcc gcc
	cell clang clang
	mkdir -p "$B/kernel/x86_64-clang-22"
	cc_obj clang-22 "$B/kernel/x86_64-clang-22/vmlinux" "$FIX/layout.c" -DNEW
	: >"$B/kernel/x86_64-clang-22/.kparity-built"
	# every image older than the read the first comparison keeps
	touch -d '-1 hour' "$B"/kernel/*/vmlinux
	run -0 --separate-stderr "$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 -k version gcc clang
	assert_equal "$stderr" "KABI    x86_64 gcc vs clang  0 changed (0 incompatible), 0 only in old, 0 only in new, 14 unchanged"
	run -0 --separate-stderr env LLVM=-22 "$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 -k version gcc clang
	assert_equal "$stderr" "KABI    x86_64 gcc vs clang  7 changed (2 incompatible), 1 only in old, 1 only in new, 6 unchanged"
	run -0 jq -r .reproduce "$B/diff/x86_64.gcc.clang-22.result.json"
	assert_output "$B/kabi diff $B/kernel/x86_64-gcc/vmlinux $B/kernel/x86_64-clang-22/vmlinux"
	run -0 ls "$B/diff"
	assert_output "$(printf '%s\n' x86_64.gcc.clang-22.json x86_64.gcc.clang-22.result.json x86_64.gcc.clang.json x86_64.gcc.clang.result.json)"
}

@test "kernel-diff: bad arguments are trouble, nothing written" {
	run -2 --separate-stderr "$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 -k both gcc clang
	assert_equal "$stderr" "kernel-diff.sh: -k takes ref or version, not 'both'"
	run -2 --separate-stderr "$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 gcc
	assert_equal "${stderr_lines[0]}" "usage: kernel-diff.sh -o BUILDDIR -t TARGET [-k ref|version] [-s SRCDIR] [-O FILE] OLD NEW"
	run -2 --separate-stderr "$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 gcc icc
	assert_equal "$stderr" "kernel-diff.sh: unknown compiler 'icc' (known: gcc gcc-11 gcc-12 clang clang-13 clang-14 clang-15 clang-16 clang-19 clang-22 clang-gas)"
	rm "$B/kabi"
	run -2 --separate-stderr "$TOP/scripts/kernel-diff.sh" -o "$B" -t x86_64 gcc clang
	assert_equal "$stderr" "kernel-diff.sh: no '$B/kabi': run 'make' first"
	[ ! -e "$B/diff" ]
}
