#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# kbuild/overlay-path.sh: the exact MAKEFILES= argument that turns the
# overlay on, absolute wherever it is run from.

load common

@test "overlay-path.sh: prints the absolute MAKEFILES= from any directory" {
	cd "$BATS_TEST_TMPDIR"
	run -0 --separate-stderr "$(realpath --relative-to=. "$TOP")/kbuild/overlay-path.sh"
	assert_output "MAKEFILES=$(cd "$TOP" && pwd -P)/kbuild/overlay.mk"
	assert_equal "$stderr" ""
}

@test "overlay-path.sh: the path it prints is what make reads" {
	local mk
	mk=$("$TOP/kbuild/overlay-path.sh")
	printf 'all:\n\t@echo $(if $(__kparity_overlay),on,off)\n' >"$BATS_TEST_TMPDIR/t.mk"
	run -0 env -u MAKEFLAGS -u MAKELEVEL make -s -C / -f "$BATS_TEST_TMPDIR/t.mk" "$mk"
	assert_output on
}

@test "overlay-path.sh: arguments are a usage error" {
	run -2 --separate-stderr "$TOP/kbuild/overlay-path.sh" extra
	assert_output ""
	assert_equal "${stderr_lines[0]}" "usage: overlay-path.sh"
}
