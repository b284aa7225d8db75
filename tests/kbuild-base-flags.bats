#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# A probe whose base flags the compiler rejects by themselves (a GCC
# kernel's flags under Clang): the reason says so, once per directory on
# stderr, instead of every probe answering "n failed".

load common

PROBE="$TOP/kbuild/probe.sh"

setup() {
	T=$BATS_TEST_TMPDIR
	need_tool clang-14
}

@test "probe: base flags the compiler rejects are named once, and recorded as such" {
	mkdir "$T/c"
	run -0 --separate-stderr "$PROBE" -d "$T/c" -a "$T/audit" cc-option clang-14 -O2 -fconserve-stack -- -Wno-unused
	assert_output n
	assert_equal "$stderr" "kparity-probe: /usr/bin/clang-14 rejects the base flags alone, so every cc-option probe answers n: clang: error: unknown argument: '-fconserve-stack' (a GCC kernel's flags for another compiler: kbuild/flag-translate.sh)"
	run -0 --separate-stderr "$PROBE" -d "$T/c" -a "$T/audit" cc-option clang-14 -O2 -fconserve-stack -- -Wno-shadow
	assert_output n
	assert_equal "$stderr" ""
	run -0 cut -f 2,4,5 "$T/audit"
	assert_output "$(printf '%s\tn\tbase-rejected\n' -Wno-unused -Wno-shadow)"
}

@test "probe: an option rejected on good base flags is still the option's fault" {
	run -0 --separate-stderr "$PROBE" -a "$T/audit" cc-option clang-14 -O2 -- -mno-such-flag
	assert_output n
	assert_equal "$stderr" ""
	run -0 cut -f 2,4,5 "$T/audit"
	assert_output "$(printf -- '-mno-such-flag\tn\tunknown-option')"
}
