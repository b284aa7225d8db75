#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# kernel-swap.sh and kernel-swap/kernel-swap.jq: the 2x2 of kernel
# compiler by test compiler. The cells and boots are the results ktap.sh
# and parity-tests.jq read from recorded consoles: the x86_64 cells' of a
# parity run (tests/fixtures/ktap/x86_64-gcc.log, x86_64-clang.log) and
# the same run's swapped boots (tests/fixtures/kernel-swap/), each console
# also standing in for another boot to make the other verdicts. The boots
# that kernel-swap.sh itself makes are parity.bats's.

load common

setup() {
	need_tool jq
	T=$BATS_TEST_TMPDIR
	K=$TOP/scripts/kernel-swap.sh
	mkdir -p "$T/cells" "$T/build"
}

# results NAME: $T/NAME.json, parity-tests.jq's reading of the console
# tests/fixtures/NAME.log, as a cell of the x86_64 disk has it
results() {
	mkdir -p "$T/$(dirname "$1")"
	"$TOP/scripts/ktap.sh" "$TOP/tests/fixtures/$1.log" >"$T/$1.lines"
	jq -R -s --arg kinds "kunit kselftest" --arg kselftest "size kcmp timers futex breakpoints" \
		-f "$TOP/scripts/parity/parity-tests.jq" "$T/$1.lines" >"$T/$1.json"
}

# cell COMPILER LOG [BOOT-STATUS]: the cell file $T/cells/x86_64-COMPILER.json
cell() {
	results "$2"
	jq -n --arg c "$1" --arg b "${3:-pass}" --slurpfile t "$T/$2.json" \
		'{target: "x86_64", compiler: $c, boot: {status: $b}, tests: $t[0]}' >"$T/cells/x86_64-$1.json"
}

# boot KERNEL TESTS LOG [VERDICT]: $T/KERNEL-TESTS.json, a swapped boot
# whose console is LOG
boot() {
	results "$3"
	jq -n --arg k "$1" --arg d "$2" --arg v "${4:-pass}" --slurpfile t "$T/$3.json" \
		'{kernel: $k, tests: $d, status: (if $v == "pass" then "pass" else "fail" end),
		  verdict: $v, seconds: 20, console: "swap/x86_64/\($k)-kernel.\($d)-tests/boot.log",
		  reproduce: "scripts/kernel-boot.sh ...", results: $t[0]}' >"$T/$1-$2.json"
}

# pair NAMES: kernel-swap.jq on the cells and boots of $T
pair() {
	jq -n --arg ref gcc --arg other clang --arg names "$1" \
		--slurpfile refcell "$T/cells/x86_64-gcc.json" --slurpfile othercell "$T/cells/x86_64-clang.json" \
		--slurpfile refkernel "$T/gcc-clang.json" --slurpfile otherkernel "$T/clang-gcc.json" \
		-f "$TOP/scripts/kernel-swap/kernel-swap.jq"
}

@test "kernel-swap: no cell directory, no options: usage errors" {
	run -2 --separate-stderr "$K" -o "$T/build" -t x86_64 -r gcc -c "gcc clang"
	assert_equal "${stderr_lines[0]}" "usage: kernel-swap.sh -o BUILDDIR -t TARGET -r REFERENCE -c COMPILERS [-T SECONDS] [-O FILE] CELLS"
	run -2 --separate-stderr "$K" -o "$T/build" -t x86_64 -r gcc -c "gcc clang" "$T/none"
	assert_output ""
	assert_equal "$stderr" "kernel-swap.sh: no cell directory '$T/none'"
}

@test "kernel-swap: a compiler without its cell file is trouble, named" {
	cell gcc ktap/kselftest
	run -2 --separate-stderr "$K" -o "$T/build" -t x86_64 -r gcc -c "gcc clang" "$T/cells"
	assert_output ""
	assert_equal "$stderr" "kernel-swap.sh: cannot read '$T/cells/x86_64-clang.json'"
}

@test "kernel-swap: where no kselftest differs, nothing boots" {
	cell gcc ktap/kselftest
	cell clang ktap/kselftest
	run -0 --separate-stderr "$K" -o "$T/build" -t x86_64 -r gcc -c "gcc clang" "$T/cells"
	assert_output '{"pairs": []}'
	assert_equal "$stderr" ""
	[ ! -e "$T/build/swap" ]
}

@test "kernel-swap: a KUnit test that differs is the kernel's own: nothing boots" {
	cell gcc parity-tests/gcc
	cell clang parity-tests/clang
	local prog='.tests.results[] | select(.name == "stackinit.test_u8_zero") | .status'
	run -0 jq -r "$prog" "$T/cells/x86_64-clang.json"
	assert_output fail
	run -0 --separate-stderr "$K" -o "$T/build" -t x86_64 -r gcc -c "gcc clang" "$T/cells"
	assert_output '{"pairs": []}'
	[ ! -e "$T/build/swap" ]
}

@test "kernel-swap: a cell file whose tests cannot be compared is trouble, named" {
	cell gcc ktap/kselftest
	echo '{"target": "x86_64", "compiler": "clang", "boot": {"status": "pass"}, "tests": {"results": null}}' \
		>"$T/cells/x86_64-clang.json"
	run -2 --separate-stderr "$K" -o "$T/build" -t x86_64 -r gcc -c "gcc clang" "$T/cells"
	assert_output ""
	assert_equal "${stderr_lines[1]}" "kernel-swap.sh: cannot compare the tests of '$T/cells/x86_64-gcc.json' and '$T/cells/x86_64-clang.json'"
	[ ! -e "$T/build/swap" ]
}

# x86_64_pair GCC-KERNEL-LOG CLANG-KERNEL-LOG: the cells of the x86_64
# consoles, and the swapped boots whose consoles are the two LOGs
x86_64_pair() {
	cell gcc ktap/x86_64-gcc
	cell clang ktap/x86_64-clang
	boot gcc clang "$1"
	boot clang gcc "$2"
}

# CARRIER: breakpoint_test's verdict in a pair's JSON; BOOTS: each boot
# with its verdict, and what ktap.sh found about its console
CARRIER='.tests["breakpoints.breakpoint_test"] | [.carrier, .counts, .text]'
BOOTS='[.reference, .other, (.boots[] | [.kernel, .tests, .status, (.notes[] | sub(": .*"; ""))])]'

# carrier: the pair of breakpoint_test (which must exit 0) into
# $T/pair.json, and its verdict read by CARRIER as the last run
carrier() {
	run -0 pair breakpoints.breakpoint_test
	printf '%s\n' "$output" >"$T/pair.json"
	run -0 jq -c "$CARRIER" "$T/pair.json"
}

@test "kernel-swap.jq: breakpoint_test follows the Clang-built program on either kernel: user-space code generation" {
	x86_64_pair kernel-swap/gcc-kernel.clang-tests kernel-swap/clang-kernel.gcc-tests
	carrier
	assert_output '["tests",{"tests":106},"differs with the clang-built test program on either kernel: user-space code generation"]'
	run -0 jq -c '.tests["breakpoints.breakpoint_test"].grid' "$T/pair.json"
	assert_output '{"gcc":{"gcc":{"status":"fail","runner":"pass","subtests":{"pass":108,"fail":2}},"clang":{"status":"fail","runner":"pass","subtests":{"pass":2,"fail":108}}},"clang":{"gcc":{"status":"fail","runner":"pass","subtests":{"pass":108,"fail":2}},"clang":{"status":"fail","runner":"pass","subtests":{"pass":2,"fail":108}}}}'
	# each boot with its verdict, and what ktap.sh found about its console
	run -0 jq -c "$BOOTS" "$T/pair.json"
	assert_output '["gcc","clang",["gcc","clang","pass","line 313"],["clang","gcc","pass","line 313"]]'
}

@test "kernel-swap.jq: results that follow the kernel are the kernel's code generation" {
	# each kernel's swapped boot printed what its own cell printed
	x86_64_pair ktap/x86_64-gcc ktap/x86_64-clang
	carrier
	assert_output '["kernel",{"kernel":106},"differs with the clang kernel, whatever built the test: kernel code generation"]'
}

@test "kernel-swap.jq: results that need a particular kernel and program together are both sides'" {
	x86_64_pair ktap/x86_64-gcc ktap/x86_64-gcc
	carrier
	assert_output '["both",{"both":106},"differs only with a particular kernel and test program together: both sides"]'
}

@test "kernel-swap.jq: subtests that do not agree are mixed, with the count of each" {
	x86_64_pair kernel-swap/gcc-kernel.clang-tests kernel-swap/clang-kernel.gcc-tests
	# one subtest fails on the clang kernel with the gcc-built program
	jq '.results.results |= map(if .name == "breakpoints.breakpoint_test.Test breakpoint 2 with local: 0 global: 1"
		then .status = "fail" else . end)' "$T/clang-gcc.json" >"$T/edited.json"
	mv "$T/edited.json" "$T/clang-gcc.json"
	carrier
	assert_output '["mixed",{"tests":105,"both":1},"mixed: 105 follow the test program, 1 need both"]'
}

@test "kernel-swap.jq: a swapped boot that hung before the test ran leaves it undecided, and says why" {
	x86_64_pair kernel-swap/gcc-kernel.clang-tests ktap/kselftest-hang
	boot clang gcc ktap/kselftest-hang "fail: hang: no verdict in 120 s"
	carrier
	assert_output '["undecided",{"undecided":106},"undecided: the clang kernel with the gcc-built tests: fail: hang: no verdict in 120 s"]'
}

@test "kernel-swap.sh: -O writes the pairs whole, and nothing boots where nothing differs" {
	cell gcc ktap/x86_64-gcc
	cell clang ktap/x86_64-gcc
	run -0 --separate-stderr "$K" -o "$T/build" -t x86_64 -r gcc -c "gcc clang" -O "$T/pairs.json" "$T/cells"
	assert_output ""
	run -0 cat "$T/pairs.json"
	assert_output '{"pairs": []}'
	[ ! -e "$T/pairs.json.tmp" ]
	[ ! -e "$T/build/swap" ]
	run -2 --separate-stderr "$K" -o "$T/build" -t x86_64 -r gcc -c "gcc clang" -O "$T/none/pairs.json" "$T/cells"
	assert_equal "$stderr" "kernel-swap.sh: cannot write '$T/none/pairs.json': no such directory"
}
