#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# ktap.sh on console logs (tests/fixtures/ktap/README says where each
# came from): kunit-6.1.log is the KUnit part of a real console (the
# parity run's arm-vexpress/gcc boot, lines 66-240 of its boot.log);
# kselftest.log is the kselftest part of a real x86_64/gcc console, the
# guest's /init running the programs of a disk on a kernel that lacked
# some of their options (so some fail), with kernel messages between the
# lines: breakpoint_test's runner says ok while two of its 110 subtests
# fail, futex_wait stops after 1 of its 3. x86_64-gcc.log and
# x86_64-clang.log are the whole consoles of the x86_64 cells. Each other
# NAME.log is a console in the form 6.1's KUnit or the guest's /init
# prints it, made of lines of those, with one thing done to it.
# NAME.expected is what ktap.sh must print for it (KPARITY_BLESS=1
# rewrites the expected files for review).

load common

setup() {
	F=$BATS_TEST_DIRNAME/fixtures/ktap
	K=$TOP/scripts/ktap.sh
}

# parse NAME [OPTION]: ktap.sh on NAME.log, compared with NAME.expected
parse() {
	run -0 --separate-stderr "$K" "${@:2}" "$F/$1.log"
	assert_equal "$stderr" ""
	expect_file "$F/$1.expected"
}

@test "ktap: the KTAP of 6.1's KUnit as arm-vexpress/gcc printed it, CRs and all" {
	parse kunit-6.1
}

@test "ktap: kselftest's TAP as /init prints it: each program's own results nested under its test" {
	parse kselftest
}

@test "ktap: x86_64/gcc's console: breakpoint_test's runner says ok, 2 of its 110 subtests fail" {
	parse x86_64-gcc
}

@test "ktap: x86_64/clang's console: breakpoint_test's runner says ok, 108 of its 110 subtests fail" {
	parse x86_64-clang
}

@test "ktap: a panic in the middle of a program's nested plan: the rest of its subtests not-run" {
	parse kselftest-nested-panic
}

@test "ktap: a Totals line that disagrees with the results printed is a finding" {
	parse kselftest-totals
}

@test "ktap: a program that prints no plan: its results are read as they come" {
	parse kselftest-noplan
}

@test "ktap: a Totals line without results is a finding, and its failures fail the test" {
	parse kselftest-totals-only
}

@test "ktap: a plan whose results only the Totals line counts is read from it; one it does not count, not-run" {
	parse kselftest-counted
}

@test "ktap: '#' in a subtest's name is kept; ' # ' starts a directive" {
	parse kselftest-hash
}

@test "ktap: kernel messages between a program's lines are skipped; one that cuts a line is a finding" {
	parse kselftest-interleaved
}

@test "ktap: a 1.4 MB console: a program's 20000 results, every one read" {
	# kselftest.log with breakpoint_test's 110 results repeated as 20000
	awk -v n=20000 -f "$F/big.awk" "$F/kselftest.log" >"$BATS_TEST_TMPDIR/big.log"
	run -0 stat -c %s "$BATS_TEST_TMPDIR/big.log"
	[ "$output" -gt 1000000 ]
	run -0 --separate-stderr "$K" "$BATS_TEST_TMPDIR/big.log"
	assert_equal "$stderr" ""
	printf '%s\n' "${lines[@]}" >"$BATS_TEST_TMPDIR/big.out"
	assert_equal "${#lines[@]}" "$(($(wc -l <"$F/kselftest.expected") - 110 + 20000))"
	# 181 rounds of 108 pass and 2 fail, then the first 90 of a round
	run -0 grep -c '^breakpoints\.breakpoint_test\.Test .* \[[0-9]*\] pass$' "$BATS_TEST_TMPDIR/big.out"
	assert_output 19638
	run -0 grep -c '^breakpoints\.breakpoint_test\.Test .* \[[0-9]*\] fail$' "$BATS_TEST_TMPDIR/big.out"
	assert_output 362
	# the test itself, and the findings of kselftest.log alone
	local re='^breakpoints\.breakpoint_test \|^#'
	run -0 grep "$re" "$BATS_TEST_TMPDIR/big.out"
	assert_output "$(grep '^#' "$F/kselftest.expected")
breakpoints.breakpoint_test fail runner=pass"
}

@test "ktap: a panic during a kselftest marks it, by name, and the rest not-run" {
	parse kselftest-panic
}

@test "ktap: a kselftest running at the boot's time limit is timeout" {
	parse kselftest-hang -t
}

@test "ktap: nested suites, a parameterised test summed up by its result" {
	parse nested
}

@test "ktap: '# SKIP' on tests, and a suite skipped whole" {
	parse skip
}

@test "ktap: '# TIMEOUT' and KUnit's 'try timed out' are timeouts" {
	parse timeout
}

@test "ktap: a panic in a test marks it and the rest not-run" {
	parse panic
}

@test "ktap: a log that ends inside a suite marks the rest not-run" {
	parse truncated
}

@test "ktap: with -t the test running at the time limit timed out" {
	parse truncated-hang -t
}

@test "ktap: timestamps and kernel messages between KTAP lines are dropped" {
	parse noise
}

@test "ktap: a console line cut by another message is reported, its test not-run" {
	parse cut
}

@test "ktap: a last line without its newline is cut" {
	parse cut-eof
}

@test "ktap: a log without KTAP says so" {
	parse none
}

@test "ktap: a flat TAP list of SUITE.TEST results" {
	parse tap
}

@test "ktap: a new document before the last one ended ends it" {
	parse restart
}

@test "ktap: an unreadable log is trouble" {
	run -2 --separate-stderr "$K" "$BATS_TEST_TMPDIR/missing.log"
	assert_output ""
	assert_equal "$stderr" "ktap.sh: cannot read '$BATS_TEST_TMPDIR/missing.log'"
}

@test "ktap: no log is a usage error" {
	run -2 --separate-stderr "$K"
	assert_equal "${stderr_lines[0]}" "usage: ktap.sh [-t] LOG"
}
