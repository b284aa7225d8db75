#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/parity-target.sh, the stages that take one target's cells
# together, on cells whose vmlinux is a small object built by gcc and
# clang in the test: the comparison files, the swap left out when no
# kselftest is judged, the target's row, and bad arguments. The stage on
# a real run's cells is in tests/parity.bats.

load common

FIX=tests/fixtures/kabi-diff

setup() {
	need_tool jq
	T=$BATS_TEST_TMPDIR
	B=$T/build
	C=$T/cells
	mkdir -p "$B" "$C" "$T/src"
	ln -s "$KABI" "$B/kabi"
}

# cell COMPILER CC [FLAGS...]: a built cell whose vmlinux is layout.c built
# by CC, and its JSON as build_cell writes it, cut to what the row reads
cell() {
	local c=$1 cc=$2 dir=$B/kernel/x86_64-$1
	shift 2
	mkdir -p "$dir"
	cc_obj "$cc" "$dir/vmlinux" "$FIX/layout.c" "$@"
	: >"$dir/.kparity-built"
	printf '{"name": "x86_64/%s", "compiler": "%s", "build": {"status": "pass"}, "tests": null, "warnings": {"by_flag": {}}}\n' \
		"$c" "$c" >"$C/x86_64-$c.json"
}

@test "parity-target: a target's comparison, no swap without kselftests, and its row" {
	cell gcc gcc
	cell clang clang
	run -0 --separate-stderr "$TOP/scripts/parity-target.sh" -o "$B" -t x86_64 -c "gcc clang" -k kunit -s "$T/src" "$C"
	assert_output ""
	local prog='[.name, (.cells | map(.name)), .kabi.status, (.kabi_vs_ref | map([.old, .new, .status])), .kabi_versions, .swap, .tests]'
	run -0 jq -c "$prog" "$C/x86_64.target.json"
	assert_output '["x86_64",["x86_64/gcc","x86_64/clang"],"pass",[["gcc","clang","pass"]],[],null,null]'
	run -0 jq -c '[.status, .summary]' "$C/x86_64.kabi.json"
	assert_output '["pass",{"changed":0,"incompatible":0,"only_old":0,"only_new":0,"unchanged":14,"suppressed":0}]'
}

@test "parity-target: an incompatible difference is in the row, and the stage still writes it" {
	cell gcc gcc
	cell clang clang -DNEW
	run -0 --separate-stderr "$TOP/scripts/parity-target.sh" -o "$B" -t x86_64 -c "gcc clang" -k "" "$C"
	run -0 jq -c '[.kabi.status, .kabi.summary.incompatible, [.kabi.incompatible[].name]]' "$C/x86_64.target.json"
	assert_output '["fail",2,["bits","grows"]]'
}

@test "parity-target: bad arguments are trouble, no row written" {
	run -2 --separate-stderr "$TOP/scripts/parity-target.sh" -o "$B" -t x86_64 -c gcc
	assert_equal "${stderr_lines[0]}" "usage: parity-target.sh -o BUILDDIR -t TARGET -c COMPILERS [-a ALIASES] [-k KINDS] [-s SRCDIR] [-T SECONDS] CELLS"
	run -2 --separate-stderr "$TOP/scripts/parity-target.sh" -o "$B" -t vax -c gcc "$C"
	assert_equal "$stderr" "parity-target.sh: unknown target 'vax' (known: $(cd "$TOP/scripts/targets" && ls -- *.target | sed 's/\.target$//' | paste -s -d ' ' -))"
	run -2 --separate-stderr "$TOP/scripts/parity-target.sh" -o "$B" -t x86_64 -c gcc "$T/none"
	assert_equal "$stderr" "parity-target.sh: no cells directory '$T/none'"
	run -0 find "$C" -name '*.target.json'
	assert_output ""
}
