#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The parity run on the tiny x86_64 kernel (builds cached in $KPARITY_BUILD).

load common

@test "parity: x86_64 gcc and clang build and have no incompatible layout difference" {
	local build=${KPARITY_BUILD:-$TOP/build}

	run -0 --separate-stderr "$TOP/scripts/parity.sh" -o "$build"
	assert_output "parity: PASS x86_64 builds with gcc and clang, no incompatible layout difference; report in $build/report/"
	[ "${stderr_lines[${#stderr_lines[@]} - 1]}" = "  KABI    x86_64  summary: 2 changed (0 incompatible), 115 only in old, 0 only in new, 2957 unchanged, 0 suppressed" ]
	run -0 jq -c .summary "$build/report/x86_64.kabi.json"
	assert_output '{"changed":2,"incompatible":0,"only_old":115,"only_new":0,"unchanged":2957,"suppressed":0}'
}

@test "parity: an unknown option is a usage error" {
	run -2 --separate-stderr "$TOP/scripts/parity.sh" -x
	[ "${stderr_lines[1]}" = "usage: parity.sh [-o BUILDDIR] [-t TARGET]" ]
}
