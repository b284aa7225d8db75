# SPDX-License-Identifier: GPL-2.0-only
# The checks the suites that run make parity on one target share
# (tests/parity-riscv.bats, tests/full/parity-targets.bats); they set BUILD
# and R, the run's report.json.
# shellcheck disable=SC2034,SC2154 # CELLS is for the suites; bats' run sets stderr and stderr_lines

# cells: each cell's name, build and boot status, warnings, KUnit counts
# and kabi check summary, one JSON array a line
CELLS='.matrix[].cells[] | [.name, .build.status, .boot.status, .warnings.warnings,
	.tests.counts.pass, .tests.counts.fail, .tests.counts.skip, .check.summary]'

# stderr_has LINE: a line of the last run's stderr is LINE, its leading
# blanks aside (bats drops those of the first line)
stderr_has() {
	local l

	for l in "${stderr_lines[@]}"; do
		[ "${l#"${l%%[! ]*}"}" != "$1" ] || return 0
	done
	printf 'no line "%s" in:\n%s\n' "$1" "$stderr" >&2
	return 1
}

# run_target TARGET: make parity's run of TARGET alone, KUnit judged; it
# must pass
run_target() {
	run -0 --separate-stderr "$TOP/scripts/parity.sh" -o "$BUILD" -t "$1" -k kunit
	assert_output "parity: PASS 1 targets x 2 compilers built and booted, no incompatible layout difference; report in $BUILD/report/report.html"
}
