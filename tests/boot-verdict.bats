#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# boot-verdict.sh on real console logs of the tiny x86_64 kernel
# (tests/fixtures/boot-verdict/README says how each was captured).

load common

setup() {
	F=$BATS_TEST_DIRNAME/fixtures/boot-verdict
	T=$BATS_TEST_TMPDIR
	V=$TOP/scripts/boot-verdict.sh
}

@test "boot-verdict: marker and PASS with this boot's token and exit 0 pass" {
	run -0 --separate-stderr "$V" "$F/pass.log" 0 fixture-1
	assert_output "pass"
	assert_equal "$stderr" ""
}

@test "boot-verdict: a panic fails and names its message" {
	run -1 "$V" "$F/panic.log" 0 fixture-1
	assert_output "fail: kernel panic: No working init found.  Try passing init= option to kernel. See Linux Documentation/admin-guide/init.rst for guidance."
}

@test "boot-verdict: a boot stopped by timeout is a hang" {
	run -1 "$V" "$F/hang.log" 124 fixture-1
	assert_output "fail: hang: no verdict from the guest before the time limit"
}

@test "boot-verdict: timeout's KILL status is a hang too" {
	run -1 "$V" "$F/hang.log" 137 fixture-1
	assert_output "fail: hang: no verdict from the guest before the time limit"
}

@test "boot-verdict: a log from another boot has no marker" {
	run -1 "$V" "$F/pass.log" 0 fixture-2
	assert_output 'fail: no marker: init never printed "kparity-init: marker fixture-2"'
}

@test "boot-verdict: an empty log has no marker" {
	: >"$T/empty.log"
	run -1 "$V" "$T/empty.log" 0 fixture-1
	assert_output 'fail: no marker: init never printed "kparity-init: marker fixture-1"'
}

@test "boot-verdict: a passing log fails when QEMU did not exit 0" {
	run -1 "$V" "$F/pass.log" 1 fixture-1
	assert_output "fail: qemu exited 1"
}

@test "boot-verdict: failed smoke checks are named" {
	sed 's/ok mount \/sys/FAILED mount \/sys/; s/ok run \/bin\/check/FAILED run \/bin\/check/' \
		"$F/pass.log" >"$T/smoke.log"
	run -1 "$V" "$T/smoke.log" 0 fixture-1
	assert_output "fail: smoke check failed: mount /sys, run /bin/check"
}

@test "boot-verdict: the marker without PASS fails" {
	grep -v 'kparity-init: PASS' "$F/pass.log" >"$T/nopass.log"
	run -1 "$V" "$T/nopass.log" 0 fixture-1
	assert_output 'fail: no PASS: init printed its marker but not "kparity-init: PASS fixture-1"'
}

@test "boot-verdict: a panic after PASS still fails" {
	cat "$F/pass.log" "$F/panic.log" >"$T/late-panic.log"
	run -1 "$V" "$T/late-panic.log" 0 fixture-1
	assert_output "fail: kernel panic: No working init found.  Try passing init= option to kernel. See Linux Documentation/admin-guide/init.rst for guidance."
}

@test "boot-verdict: bad arguments are trouble" {
	run -2 --separate-stderr "$V" "$F/pass.log" 0
	assert_equal "${stderr_lines[0]}" "usage: boot-verdict.sh LOG STATUS TOKEN"
	run -2 --separate-stderr "$V" "$T/missing.log" 0 fixture-1
	assert_equal "$stderr" "boot-verdict.sh: cannot read '$T/missing.log'"
	run -2 --separate-stderr "$V" "$F/pass.log" x fixture-1
	assert_equal "$stderr" "boot-verdict.sh: STATUS must be a number, not 'x'"
}
