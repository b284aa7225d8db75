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

# fake_tree: a kernel tree kernel-src.sh accepts (KSRC) whose scripts/config
# enables a symbol, and a make on PATH that records its arguments in
# $T/make.args and writes an empty .config
fake_tree() {
	mkdir -p "$T/src/scripts" "$T/bin"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$T/src/Makefile"
	: >"$T/src/Kconfig"
	: >"$T/src/scripts/Kbuild.include"
	printf '#!/bin/sh\necho "CONFIG_$4=y" >>"$2"\n' >"$T/src/scripts/config"
	# merge_config.sh -m -O DIR DIR/.config FRAGMENT...: the fragments appended
	mkdir -p "$T/src/scripts/kconfig"
	printf '#!/bin/sh\nc=$4\nshift 4\ncat "$@" >>"$c"\n' >"$T/src/scripts/kconfig/merge_config.sh"
	chmod +x "$T/src/scripts/kconfig/merge_config.sh"
	cat >"$T/bin/make" <<'EOF2'
#!/bin/sh
printf '%s\n' "$*" >>"$MAKE_ARGS"
for a; do case "$a" in O=*) touch "${a#O=}/.config" ;; esac; done
EOF2
	chmod +x "$T/src/scripts/config" "$T/bin/make"
}

@test "series-survey: clang-gas builds with LLVM_IAS=0 and the target's cross prefix" {
	need_tool clang
	fake_tree
	run -0 --separate-stderr env KSRC="$T/src" MAKE_ARGS="$T/make.args" PATH="$T/bin:$PATH" \
		SURVEY_NICE=0 "$S" -o "$T" -p before vexpress_defconfig-clang-gas
	local o="-C $T/src ARCH=arm CROSS_COMPILE=arm-linux-gnueabi- LLVM=1 LLVM_IAS=0 O=$T/survey/vexpress_defconfig-clang-gas"
	run -0 cat "$T/make.args"
	assert_output "$(printf '%s\n' "$o vexpress_defconfig" "$o olddefconfig" "$o -k -j 2")"
}

@test "series-survey: gcc-N builds with CC=gcc-N, the target's cross prefix in front" {
	need_tool arm-linux-gnueabi-gcc-11
	fake_tree
	run -0 --separate-stderr env KSRC="$T/src" MAKE_ARGS="$T/make.args" PATH="$T/bin:$PATH" \
		SURVEY_NICE=0 "$S" -o "$T" -p before vexpress_defconfig-gcc-11
	local o="-C $T/src ARCH=arm CROSS_COMPILE=arm-linux-gnueabi- CC=arm-linux-gnueabi-gcc-11 O=$T/survey/vexpress_defconfig-gcc-11"
	run -0 cat "$T/make.args"
	assert_output "$(printf '%s\n' "$o vexpress_defconfig" "$o olddefconfig" "$o -k -j 2")"
}

@test "series-survey: a target's name surveys its own configuration, CONFIG_WERROR=y added" {
	need_tool gcc-11
	fake_tree
	run -0 --separate-stderr env KSRC="$T/src" MAKE_ARGS="$T/make.args" PATH="$T/bin:$PATH" \
		SURVEY_NICE=0 "$S" -o "$T" -p before x86_64-gcc-11
	local d="$T/survey/x86_64-gcc-11"
	run -0 cat "$T/make.args"
	local o="-C $T/src ARCH=x86_64 CC=gcc-11 O=$d"
	assert_output "$(printf '%s\n' "$o tinyconfig" "$o olddefconfig" "$o -k -j 2")"
	run -0 tail -n 1 "$d/.config"
	assert_output "CONFIG_WERROR=y"
	run -0 grep -c '^CONFIG_KUNIT=y$' "$d/.config"
	assert_output "1"
}
