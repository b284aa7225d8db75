#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The tests' results in the parity report, from console to report.md:
# scripts/parity/parity-tests.jq (one cell), parity-tests-target.jq (the
# compilers compared) and report-tests.jq (the report), on the consoles in
# tests/fixtures/parity-tests/ (KPARITY_BLESS=1 rewrites the expected files).

load common

setup() {
	need_tool jq
	F=$BATS_TEST_DIRNAME/fixtures/parity-tests
	T=$BATS_TEST_TMPDIR
	L=$TOP/scripts/parity
}

# cell COMPILER: $T/COMPILER.json, the "tests" of a cell whose console is
# $F/COMPILER.log
cell() {
	"$TOP/scripts/ktap.sh" "$F/$1.log" >"$T/$1.lines"
	jq -R -s --arg kinds kunit -f "$L/parity-tests.jq" "$T/$1.lines" >"$T/$1.json"
}

# target KNOWN: $T/target.json, the x86_64 row of the recorded report with
# the fixture's tests in its cells, compared with the KNOWN list
target() {
	cell gcc
	cell clang
	jq --slurpfile g "$T/gcc.json" --slurpfile c "$T/clang.json" \
		'.matrix[0] | .cells[0].tests = $g[0] | .cells[1].tests = $c[0]' \
		"$BATS_TEST_DIRNAME/fixtures/report/report.json" >"$T/in.json"
	jq --rawfile known "$1" -f "$L/parity-tests-target.jq" "$T/in.json" >"$T/target.json"
}

# report TARGET-JSON: report.md and report.html in $T of the recorded report
# with TARGET-JSON as its x86_64 row
report() {
	jq --slurpfile t "$1" '.matrix[0] = $t[0]' \
		"$BATS_TEST_DIRNAME/fixtures/report/report.json" >"$T/report.json"
	"$TOP/scripts/report.sh" "$T/report.json" "$T"
}

@test "parity-tests: a cell's results in order, its notes and counts" {
	cell clang
	run -0 jq -c '.' "$T/clang.json"
	assert_output '{"kinds":["kunit"],"results":[{"name":"overflow.u8_overflow_test","status":"pass"},{"name":"overflow.shift_sane_test","status":"fail"},{"name":"overflow.shift_overflow_test","status":"fail"},{"name":"overflow.overflow_size_helpers_test","status":"pass"},{"name":"stackinit.test_u8_zero","status":"fail"},{"name":"stackinit.#2","status":"not-run"}],"notes":["the log ends in the middle of the tests"],"counts":{"pass":2,"fail":3,"skip":0,"timeout":0,"not-run":1}}'
}

@test "parity-tests: differing tests first, a known one with its reason, then failing ones" {
	target "$F/known.list"
	local prog='.tests.rows[] | [.test, .status.gcc, .status.clang, .parity, .reason // "-"] | @tsv'
	run -0 jq -r "$prog" "$T/target.json"
	assert_output "$(printf '%s\t%s\t%s\t%s\t%s\n' \
		stackinit.test_u8_zero pass fail differs - \
		overflow.shift_sane_test pass fail known "the fixture's reason" \
		overflow.shift_overflow_test fail fail same - \
		stackinit.test_switch_1_none skip not-run same - \
		stackinit.#2 not-run not-run same - \
		overflow.u8_overflow_test pass pass same - \
		overflow.overflow_size_helpers_test pass pass same -)"
	run -0 jq -c '[.tests.compilers, .tests.differs, .tests.counts.gcc]' "$T/target.json"
	assert_output '[["gcc","clang"],1,{"pass":4,"fail":1,"skip":1,"timeout":0,"not-run":0}]'
}

@test "parity-tests: a test that did not run in a cell whose boot failed is unjudged, not a difference" {
	target "$F/known.list"
	# overflow.u8_overflow_test passes under gcc and did not run under clang
	jq '.cells[1].tests.results |= map(if .name == "overflow.u8_overflow_test" then .status = "not-run" else . end)' \
		"$T/in.json" >"$T/cut.json"
	jq '.cells[0].boot.status = "pass" | .cells[1].boot.status = "fail"' "$T/cut.json" >"$T/down.json"
	run -0 jq -c --rawfile known "$F/known.list" -f "$L/parity-tests-target.jq" "$T/down.json"
	assert_output --partial '"differs":1,'
	assert_output --partial '{"test":"overflow.u8_overflow_test","status":{"gcc":"pass","clang":"not-run"},"parity":"unjudged","reason":"the boot of clang failed"}'
	jq --rawfile known "$F/known.list" -f "$L/parity-tests-target.jq" "$T/down.json" >"$T/t.json"
	report "$T/t.json"
	run -0 grep -F 'overflow.u8_overflow_test' "$T/report.md"
	assert_output "$(printf '%s\n' \
		'- x86_64 overflow.u8_overflow_test: gcc pass, clang not-run (unjudged: the boot of clang failed)' \
		'| overflow.u8_overflow_test | pass | not-run | unjudged: the boot of clang failed |')"
	# the same console from a cell that booted is a difference
	jq '.cells[].boot.status = "pass"' "$T/cut.json" >"$T/up.json"
	run -0 jq -c --rawfile known "$F/known.list" -f "$L/parity-tests-target.jq" "$T/up.json"
	assert_output --partial '"differs":2,'
	assert_output --partial '{"test":"overflow.u8_overflow_test","status":{"gcc":"pass","clang":"not-run"},"parity":"differs"}'
	# a failure is judged even in a cell whose boot failed
	run -0 jq -r '.tests.rows[0] | [.test, .parity] | @tsv' "$T/target.json"
	assert_output "$(printf 'stackinit.test_u8_zero\tdiffers')"
}

@test "parity-tests: a known list without a reason is refused with its line" {
	printf 'x86_64 overflow.shift_sane_test https://example.org/x\n' >"$T/bad.list"
	echo '{"name": "x86_64", "cells": []}' >"$T/in.json"
	run -5 --separate-stderr jq --rawfile known "$T/bad.list" -f "$L/parity-tests-target.jq" "$T/in.json"
	assert_equal "$stderr" "jq: error (at $T/in.json:1): malformed line (want TARGET TEST REFERENCE REASON): x86_64 overflow.shift_sane_test https://example.org/x"
}

@test "parity-tests: report.md shows the counts, the differing tests and the table" {
	target "$F/known.list"
	report "$T/target.json"
	run -0 cat "$T/report.md"
	expect_file "$F/report.md.expected"
}

@test "parity-tests: report.html draws a bar per cell and colours each status" {
	target "$F/known.list"
	report "$T/target.json"
	run -0 grep -o '<th>x86_64/[a-z]*</th><td><div class="bar">\|<span class="[a-z]*" style="width:[0-9]*px" title="[^"]*">' "$T/report.html"
	assert_output "$(printf '%s\n' \
		'<th>x86_64/gcc</th><td><div class="bar">' \
		'<span class="pass" style="width:200px" title="4 pass">' \
		'<span class="fail" style="width:50px" title="1 fail">' \
		'<span class="skip" style="width:50px" title="1 skip">' \
		'<th>x86_64/clang</th><td><div class="bar">' \
		'<span class="pass" style="width:100px" title="2 pass">' \
		'<span class="fail" style="width:150px" title="3 fail">' \
		'<span class="fail" style="width:50px" title="1 not-run">')"
	run -0 grep -o '<tr><td>stackinit.test_u8_zero</td>\(<td[^>]*>[^<]*</td>\)*</tr>' "$T/report.html"
	assert_output '<tr><td>stackinit.test_u8_zero</td><td class="pass">pass</td><td class="fail">fail</td><td class="fail">DIFFERS</td></tr>'
}

@test "parity-tests: with the disk's collections, KUnit's and the kselftests' counts apart, in report.md" {
	# one console as a cell prints it: KUnit's document, then the kselftests'
	cat "$F/gcc.log" "$BATS_TEST_DIRNAME/fixtures/ktap/kselftest.log" >"$T/both.log"
	"$TOP/scripts/ktap.sh" "$T/both.log" >"$T/both.lines"
	jq -R -s --arg kinds "kunit kselftest" --arg kselftest "size kcmp timers futex breakpoints" \
		-f "$L/parity-tests.jq" "$T/both.lines" >"$T/both.json"
	run -0 jq -c '[.counts, .by_kind]' "$T/both.json"
	# breakpoint_test's runner said ok, two of its subtests fail: a fail
	assert_output '[{"pass":13,"fail":6,"skip":1,"timeout":0,"not-run":0},{"kunit":{"pass":4,"fail":1,"skip":1,"timeout":0,"not-run":0},"kselftest":{"pass":9,"fail":5,"skip":0,"timeout":0,"not-run":0},"kselftest_subtests":{"pass":129,"fail":2,"skip":0,"timeout":0,"not-run":8}}]'
	# without the collections there is no split
	run -0 jq -R -s -c --arg kinds kunit -f "$L/parity-tests.jq" "$T/both.lines"
	refute_output --partial by_kind
	jq --slurpfile c "$T/both.json" '.matrix[0] | .cells[0].tests = $c[0] | .cells[1].tests = $c[0]' \
		"$BATS_TEST_DIRNAME/fixtures/report/report.json" >"$T/in.json"
	jq --rawfile known "$F/known.list" -f "$L/parity-tests-target.jq" "$T/in.json" >"$T/target.json"
	report "$T/target.json"
	run -0 grep -A 3 '^x86_64/clang ' "$T/report.md"
	assert_output "x86_64/clang        ####################--xxxxxxxx 13 pass, 6 fail, 1 skip, 0 timeout, 0 not-run
  KUnit             4 pass, 1 fail, 1 skip, 0 timeout, 0 not-run
  kselftest         9 pass, 5 fail, 0 skip, 0 timeout, 0 not-run
  kselftest subtests 129 pass, 2 fail, 0 skip, 0 timeout, 8 not-run"
	run -0 grep -o '<th>x86_64/[a-z]*</th>\|<br>[^<]*' "$T/report.html"
	assert_output "$(printf '%s\n' '<th>x86_64/gcc</th>' \
		'<br>KUnit: 4 pass, 1 fail, 1 skip, 0 timeout, 0 not-run' \
		'<br>kselftest: 9 pass, 5 fail, 0 skip, 0 timeout, 0 not-run' \
		'<br>kselftest subtests: 129 pass, 2 fail, 0 skip, 0 timeout, 8 not-run' '<th>x86_64/clang</th>' \
		'<br>KUnit: 4 pass, 1 fail, 1 skip, 0 timeout, 0 not-run' \
		'<br>kselftest: 9 pass, 5 fail, 0 skip, 0 timeout, 0 not-run' \
		'<br>kselftest subtests: 129 pass, 2 fail, 0 skip, 0 timeout, 8 not-run')"
}

@test "parity-tests: the rest of a plan a panic cut off counts with the tests before it" {
	# the panic in the kselftests: "#4.*" is the rest of their plan
	"$TOP/scripts/ktap.sh" "$BATS_TEST_DIRNAME/fixtures/ktap/kselftest-panic.log" >"$T/ksft.lines"
	run -0 jq -R -s -c --arg kinds "kunit kselftest" --arg kselftest "size timers futex" \
		-f "$L/parity-tests.jq" "$T/ksft.lines"
	assert_output --partial '"by_kind":{"kunit":{"pass":0,"fail":0,"skip":0,"timeout":0,"not-run":0},"kselftest":{"pass":1,"fail":0,"skip":0,"timeout":1,"not-run":2},"kselftest_subtests":{"pass":1,"fail":0,"skip":0,"timeout":0,"not-run":0}}'
	# the panic in KUnit: "#3.*" is the rest of KUnit's
	"$TOP/scripts/ktap.sh" "$BATS_TEST_DIRNAME/fixtures/ktap/panic.log" >"$T/kunit.lines"
	run -0 jq -R -s -c --arg kinds "kunit kselftest" --arg kselftest "size timers futex" \
		-f "$L/parity-tests.jq" "$T/kunit.lines"
	assert_output --partial '"by_kind":{"kunit":{"pass":3,"fail":0,"skip":0,"timeout":0,"not-run":4},"kselftest":{"pass":0,"fail":0,"skip":0,"timeout":0,"not-run":0}}'
}

# x86_64 KNOWN: $T/target.json from the x86_64 consoles of a parity run
# (tests/fixtures/ktap/x86_64-gcc.log, x86_64-clang.log), KUnit's and the
# kselftests' results of each, compared with the KNOWN list
x86_64() {
	local c
	for c in gcc clang; do
		"$TOP/scripts/ktap.sh" "$BATS_TEST_DIRNAME/fixtures/ktap/x86_64-$c.log" >"$T/$c.lines"
		jq -R -s --arg kinds "kunit kselftest" --arg kselftest "size kcmp timers futex breakpoints" \
			-f "$L/parity-tests.jq" "$T/$c.lines" >"$T/$c.json"
	done
	jq --slurpfile g "$T/gcc.json" --slurpfile c "$T/clang.json" \
		'.matrix[0] | .cells[0].tests = $g[0] | .cells[1].tests = $c[0]' \
		"$BATS_TEST_DIRNAME/fixtures/report/report.json" >"$T/in.json"
	jq --rawfile known "$1" -f "$L/parity-tests-target.jq" "$T/in.json" >"$T/target.json"
}

@test "parity-tests: a kselftest whose runner said ok while subtests failed is a fail, with both facts" {
	x86_64 "$F/known.list"
	run -0 jq -c '.results[] | select(.name | startswith("breakpoints.breakpoint_test")) | select(.status != "pass")' "$T/gcc.json"
	assert_output "$(printf '%s\n' \
		'{"name":"breakpoints.breakpoint_test.Test icebp","status":"fail","test":"breakpoints.breakpoint_test"}' \
		'{"name":"breakpoints.breakpoint_test.Test int 3 trap","status":"fail","test":"breakpoints.breakpoint_test"}' \
		'{"name":"breakpoints.breakpoint_test","status":"fail","runner":"pass"}')"
}

@test "parity-tests: subtests are compared one by one: breakpoint_test fails under both, 106 subtests differ" {
	x86_64 "$F/known.list"
	run -0 jq -c '.tests | [.differs, (.rows[0] | [.test, .status, .runner, .parity, .subtests.count, .subtests.differ, .subtests.counts])]' "$T/target.json"
	assert_output '[1,["breakpoints.breakpoint_test",{"gcc":"fail","clang":"fail"},{"gcc":"pass","clang":"pass"},"differs",110,106,{"gcc":{"pass":108,"fail":2,"skip":0,"timeout":0,"not-run":0},"clang":{"pass":2,"fail":108,"skip":0,"timeout":0,"not-run":0}}]]'
	run -0 jq -r '.tests.rows[0].subtests.rows[] | select(.parity == "same") | "\(.test) \(.status.gcc) \(.status.clang)"' "$T/target.json"
	# in the order of the console
	assert_output "$(printf '%s\n' "Test breakpoint 0 with local: 0 global: 1 pass pass" \
		"Test breakpoint 1 with local: 0 global: 1 pass pass" "Test icebp fail fail" "Test int 3 trap fail fail")"
	run -0 jq -r '.tests.rows[1:][] | select(.parity != "same") | .test' "$T/target.json"
	assert_output ""
}

@test "parity-tests: a line of the known list for a test covers its subtests, one for a subtest that one only" {
	printf '%s\n' 'x86_64 breakpoints.breakpoint_test https://example.org/bp the fixture'"'"'s reason' >"$T/test.list"
	x86_64 "$T/test.list"
	run -0 jq -c '[.tests.differs, (.tests.rows[0] | [.parity, .reason, .subtests.differ, ([.subtests.rows[].parity] | unique)])]' "$T/target.json"
	assert_output '[0,["known","the fixture'"'"'s reason",106,["known","same"]]]'
	# a subtest of futex_wait_wouldblock that fails under clang alone: a
	# line for it makes it known, and breakpoint_test still differs
	printf '%s\n' 'x86_64 futex.futex_wait_wouldblock.futex_waitv https://example.org/fw one' >"$T/sub.list"
	jq '.cells[1].tests.results |= map(if .name == "futex.futex_wait_wouldblock.futex_waitv" then .status = "fail" else . end)' \
		"$T/in.json" >"$T/fw.json"
	run -0 jq -c --rawfile known "$T/sub.list" -f "$L/parity-tests-target.jq" "$T/fw.json"
	assert_output --partial '"differs":1,'
	assert_output --partial '{"test":"futex_waitv","status":{"gcc":"pass","clang":"fail"},"parity":"known","reference":"https://example.org/fw","reason":"one"}'
}

@test "parity-tests: an unknown TESTS value is a usage error" {
	run -2 --separate-stderr "$TOP/scripts/parity.sh" -o "$T" -k unit
	assert_output ""
	assert_equal "$stderr" "parity.sh: unknown TESTS 'unit' (known: none kunit kselftest all)"
}
