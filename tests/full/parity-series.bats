#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# make parity when the series changed since the last run: the changed
# patch is walked on the GCC cell (diagnose-series.sh, a full replay of
# the tiny x86_64 cell the first time, hence 'make check-full') and the
# report lists what it brings. tests/diagnose-series.bats checks the walk,
# tests/report.bats the section, tests/parity.bats that an unchanged
# series walks nothing.

load ../common

setup() {
	need_tool jq
	BUILD=${KPARITY_BUILD:-$TOP/build}
}

# bats test_tags=kernel
@test "parity: a patch changed since the last run is walked on the GCC cell and reported" {
	local list=$BUILD/report/series.list prog
	echo "# parity on x86_64 (cells cached after the first run)" >&3
	"$TOP/scripts/parity.sh" -o "$BUILD" -t x86_64 -k none >/dev/null
	# as if the last run had had another 0009
	prog='/ 0009-/s/^[0-9a-f]*/0000000000000000000000000000000000000000000000000000000000000000/'
	sed -i "$prog" "$list"
	run -0 "$TOP/scripts/parity.sh" -o "$BUILD" -t x86_64 -k none
	assert_line --regexp "^  SERIES  x86_64: x86_64-gcc with .*clang version .*, W=1: 4 patches, 0 of them change Clang's findings$"
	run -0 jq -c '[.series_new.patches[].name, (.series_new.targets[] | [.target, .error, [.patches[] | [.index, .units]]])]' \
		"$BUILD/report/report.json"
	assert_output '["0009-x86-configs-tiny-name-every-unwinder-of-the-choice.patch",["x86_64",null,[[9,[]]]]]'
	run -0 grep -A 4 '^## New patches' "$BUILD/report/report.md"
	assert_line --index 2 '- `0009-x86-configs-tiny-name-every-unwinder-of-the-choice.patch` (x86/configs: tiny: name every unwinder of the choice)'
	# the record is this run's again: the next run walks nothing
	run -0 "$TOP/scripts/parity.sh" -o "$BUILD" -t x86_64 -k none
	refute_line --partial "  SERIES  "
}
