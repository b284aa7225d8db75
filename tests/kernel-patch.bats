#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# kernel-patch.sh: the quilt series is applied once, an empty one is fine.

load common

setup() {
	need_tool quilt
	T=$BATS_TEST_TMPDIR
	P=$TOP/scripts/kernel-patch.sh
	mkdir -p "$T/tree" "$T/patches"
	printf 'one\n' >"$T/tree/file"
}

# add_patch NAME FROM TO: a patch turning file's FROM into TO, added to
# the series
add_patch() {
	printf '%s\n' "--- a/file" "+++ b/file" "@@ -1 +1 @@" "-$2" "+$3" >"$T/patches/$1"
	echo "$1" >>"$T/patches/series"
}

@test "kernel-patch: the project's series refuses a tree it is not for" {
	local pin
	pin=$(sed -n 's/^# Kernel: //p' "$TOP/patches/6.1/series")
	run -2 --separate-stderr "$P" -s "$T/tree"
	assert_output ""
	assert_equal "$stderr" "kernel-patch.sh: '$T/tree' is not a kernel tree (no Makefile with VERSION, PATCHLEVEL and SUBLEVEL)"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$T/tree/Makefile"
	run -2 --separate-stderr "$P" -s "$T/tree"
	assert_equal "$stderr" "kernel-patch.sh: '$TOP/patches/6.1/series' is for Linux $pin, but '$T/tree' is Linux 6.1.0"
	run -0 ls -A "$T/tree"
	assert_output "$(printf 'Makefile\nfile')"
}

@test "kernel-patch: each tree's series by its version; none for a kernel kparity has no data for" {
	printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 1\n' >"$T/tree/Makefile"
	run -2 --separate-stderr env KERNEL=6.1 "$P" -s "$T/tree"
	assert_equal "$stderr" "kernel-patch.sh: KERNEL=6.1, but '$T/tree' is Linux 6.12.1"
	printf 'VERSION = 6\nPATCHLEVEL = 13\nSUBLEVEL = 1\n' >"$T/tree/Makefile"
	run -0 --separate-stderr "$P" -s "$T/tree"
	assert_equal "$stderr" "kernel-patch.sh: no series for Linux 6.13.1 (scripts/trees/ has no file for it): '$T/tree' is used as it is"
	[ ! -e "$T/tree/.pc" ]
}

@test "kernel-patch: an empty series file is not an error" {
	: >"$T/patches/series"
	run -0 --separate-stderr "$P" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" ""
	assert [ ! -e "$T/tree/.pc" ]
}

@test "kernel-patch: a series applies once, a re-run does nothing" {
	printf '# a comment\n\n' >"$T/patches/series"
	add_patch 0001-two.patch one two
	add_patch 0002-three.patch two three
	run -0 merged "$P" -s "$T/tree" -p "$T/patches"
	assert_output "  PATCH   2 of 2 patches"
	run -0 cat "$T/tree/file"
	assert_output "three"
	run -0 --separate-stderr "$P" -s "$T/tree" -p "$T/patches"
	assert_equal "$stderr" ""
	run -0 cat "$T/tree/file"
	assert_output "three"
}

@test "kernel-patch: a patch added to the series is applied on the next run" {
	add_patch 0001-two.patch one two
	run -0 "$P" -s "$T/tree" -p "$T/patches"
	add_patch 0002-three.patch two three
	run -0 merged "$P" -s "$T/tree" -p "$T/patches"
	assert_output "  PATCH   1 of 2 patches"
	run -0 cat "$T/tree/file"
	assert_output "three"
}

@test "kernel-patch: a patch that does not apply fails the run" {
	add_patch 0001-bad.patch nine ten
	run -1 --separate-stderr "$P" -s "$T/tree" -p "$T/patches"
	assert_equal "${stderr_lines[-1]}" "kernel-patch.sh: the series does not apply to $T/tree"
}

@test "kernel-patch: applied patches that left the series are popped first" {
	add_patch 0001-two.patch one two
	run -0 "$P" -s "$T/tree" -p "$T/patches"
	mv "$T/patches/0001-two.patch" "$T/patches/0002-other.patch"
	echo 0002-other.patch >"$T/patches/series"
	run -0 merged "$P" -s "$T/tree" -p "$T/patches"
	assert_output "$(printf '%s\n' \
		"  UNPATCH 0001-two.patch changed or left the series since it was applied" \
		"  PATCH   1 of 1 patches")"
	run -0 cat "$T/tree/.pc/applied-patches"
	assert_output "0002-other.patch"
	run -0 cat "$T/tree/file"
	assert_output "two"
}
