#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/series-survey.sh without building: which builds -c names, and
# the summary of a log already there (-s).

load common

setup() {
	T=$BATS_TEST_TMPDIR
	S=$TOP/scripts/series-survey.sh
}

@test "series-survey: -c builds each config of the default builds with each compiler" {
	mkdir -p "$T/survey/x86_64_defconfig-gcc-11"
	printf '%s\n' '  CC      lib/a.o' \
		'lib/a.c:3:5: warning: unused variable '"'"'x'"'"' [-Wunused-variable]' \
		'lib/vsprintf.o: warning: objtool: vsscanf+0x320: unreachable instruction' \
		>"$T/survey/x86_64_defconfig-gcc-11/before.log"
	run -0 --separate-stderr "$S" -o "$T" -s -c gcc-11,clang-gas
	assert_output ""
	assert_equal "$stderr" "SUMMARY x86_64_defconfig-gcc-11 (before): exit running seconds - warnings 2 errors 0"
	run -0 cat "$T/survey/x86_64_defconfig-gcc-11/before.diag"
	assert_output "$(printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
		warning compiler -Wunused-variable lib/a.c 3:5 "unused variable 'x'" \
		warning objtool '(none)' lib/vsprintf.o - 'vsscanf+0x320: unreachable instruction')"
}

@test "series-survey: a build named with a compiler of the list, the longest that fits" {
	mkdir -p "$T/survey/vexpress_defconfig-clang-gas"
	printf '  CC      init/main.o\n' >"$T/survey/vexpress_defconfig-clang-gas/after.log"
	run -0 --separate-stderr "$S" -o "$T" -s -p after vexpress_defconfig-clang-gas
	assert_equal "$stderr" "SUMMARY vexpress_defconfig-clang-gas (after): exit running seconds - warnings 0 errors 0"
}

@test "series-survey: a build without a known compiler, or an unknown one in -c, is trouble" {
	run -2 --separate-stderr "$S" -o "$T" -s x86_64_defconfig-icc
	assert_equal "$stderr" "series-survey.sh: no compiler in 'x86_64_defconfig-icc' (known: gcc gcc-11 gcc-12 clang clang-13 clang-14 clang-15 clang-16 clang-19 clang-22 clang-gas)"
	run -2 --separate-stderr "$S" -o "$T" -s -c gcc,icc
	assert_equal "$stderr" "series-survey.sh: unknown compiler 'icc' (known: gcc gcc-11 gcc-12 clang clang-13 clang-14 clang-15 clang-16 clang-19 clang-22 clang-gas all)"
}
