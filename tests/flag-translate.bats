#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# kbuild/flag-translate.sh: a GCC build's flags judged by a real Clang.

load common

FT="$TOP/kbuild/flag-translate.sh"

setup() {
	T=$BATS_TEST_TMPDIR
}

# The flags Debian's GCC-built 6.1 cloud kernel hands an external module,
# which Clang 14 rejects, with a path, a macro and an include around them.
GCC_FLAGS=(-O2 -mfunction-return=thunk-extern -fconserve-stack -mrecord-mcount
	-ftrivial-auto-var-init=zero -I include -include foo.h -DX=1 -Wall -pg -mfentry)

@test "clang 14: the kernel's GCC-only flags dropped or translated, with reasons" {
	need_tool clang-14
	run -0 "$FT" -c clang-14 -t x86_64-linux-gnu -- "${GCC_FLAGS[@]}"
	expect_file "$TOP/tests/fixtures/flags/clang-14.tsv"
}

@test "clang 19 takes the return thunk and the plain auto-var-init" {
	need_tool clang-19
	run -0 "$FT" -c clang-19 -t x86_64-linux-gnu -- "${GCC_FLAGS[@]}"
	expect_file "$TOP/tests/fixtures/flags/clang-19.tsv"
}

@test "-a lists the flags kept too; passed-through words are not judged" {
	need_tool clang-19
	run -0 "$FT" -c clang-19 -a -- -O2 -include -fconserve-stack -I dir -Wall
	assert_output "$(printf '%s\n' "-O2	keep	-	-	-" "-Wall	keep	-	-	-")"
}

@test "-o: the command line Clang takes, in the original order" {
	need_tool clang-14
	run -0 "$FT" -c clang-14 -o -- "${GCC_FLAGS[@]}"
	assert_output "$(printf '%s\n' -O2 -ftrivial-auto-var-init=zero \
		-enable-trivial-auto-var-init-zero-knowing-it-will-be-removed-from-clang \
		-I include -include foo.h -DX=1 -Wall -pg -mfentry)"
}

@test "-d: saved decisions applied without judging; flags they do not name are kept" {
	run -0 "$FT" -d "$TOP/tests/fixtures/flags/clang-14.tsv" -o -- \
		-O2 -fconserve-stack -Wno-new-one -ftrivial-auto-var-init=zero -I include -c x.c
	assert_output "$(printf '%s\n' -O2 -Wno-new-one -ftrivial-auto-var-init=zero \
		-enable-trivial-auto-var-init-zero-knowing-it-will-be-removed-from-clang \
		-I include -c x.c)"
	run -2 --separate-stderr "$FT" -d "$T/none.tsv" -o -- -O2
	assert_equal "$stderr" "flag-translate.sh: cannot read the decisions '$T/none.tsv'"
}

@test "a flag holding a comma is judged whole: Clang takes 6.12's call padding" {
	need_tool clang-14
	# Debian's 6.12 (CONFIG_CALL_PADDING) hands modules 16 bytes of NOPs
	# before each function; Clang 14 takes the flag as GCC spells it
	run -0 "$FT" -c clang-14 -- -pg -fpatchable-function-entry=16,16 -mrecord-mcount
	assert_output "$(printf -- '-mrecord-mcount\tdrop\t-\ttracing\tno __mcount_loc table from the compiler (recordmcount or objtool must build it)')"
	run -0 "$FT" -c clang-14 -o -- -pg -fpatchable-function-entry=16,16 -mrecord-mcount
	assert_output "$(printf '%s\n' -pg -fpatchable-function-entry=16,16)"
}

@test "a flag no rule knows is dropped with Clang's own words" {
	need_tool clang-14
	run -0 "$FT" -c clang-14 -- -O2 -mcpu=nonsense
	assert_output "-mcpu=nonsense	drop	-	unknown	argument unused during compilation: '-mcpu=nonsense' [-Wunused-command-line-argument]"
}

@test "ARM: an assembler option and a GCC default are named as such" {
	need_tool clang-14
	run -0 "$FT" -c clang-14 -t arm-linux-gnueabi -- -mabi=aapcs-linux -mno-thumb-interwork -Wa,-mno-warn-deprecated -marm
	assert_output "$(printf '%s\n' \
		"-mno-thumb-interwork	drop	-	codegen	interworking is Clang's default on ARM; no effect on the kernel's Thumb-2 or ARM builds" \
		"-Wa,-mno-warn-deprecated	drop	-	codegen	an assembler option Clang's integrated assembler does not take")"
}

@test "an assembler option: Clang 19 names it as '-Wa,', and takes x86's -mrelax-relocations=no" {
	need_tool clang-19
	run -0 "$FT" -c clang-19 -t arm-linux-gnueabi -- -O2 -Wa,-mno-warn-deprecated
	assert_output "-Wa,-mno-warn-deprecated	drop	-	codegen	an assembler option Clang's integrated assembler does not take"
	run -0 "$FT" -c clang-19 -t x86_64-linux-gnu -a -- -O2 -Wa,-mrelax-relocations=no
	assert_output "$(printf '%s\t%s\n' -O2 'keep	-	-	-' -Wa,-mrelax-relocations=no 'keep	-	-	-')"
}

@test "a compiler that is not installed: one line, exit 2" {
	run -2 "$FT" -c clang-77 -- -O2
	assert_output "flag-translate.sh: no compiler 'clang-77' (install it, or name another with -c)"
}

@test "flags that fail with no flag named: the base flags are rejected, exit 2" {
	need_tool clang-14
	run -2 "$FT" -c clang-14 -- -O2 -Werror -Wmissing-variable-declarations
	assert_line -n 0 --partial "flag-translate.sh: clang-14 rejects the flags without naming one: "
	assert_line -n 0 --partial "error: no previous extern declaration for non-static variable 'kparity_flag_probe' [-Werror,-Wmissing-variable-declarations]"
}

@test "gcc 11, -n: GCC 12's flags it rejects are dropped, no Clang spelling tried, in any locale" {
	need_tool gcc-11
	# GCC quotes with typographic quotes in a UTF-8 locale
	run -0 env LC_ALL=C.UTF-8 "$FT" -n -c gcc-11 -- -O2 -ftrivial-auto-var-init=zero \
		-mfunction-return=thunk-extern -mrecord-mcount -pg -mfentry -Wimplicit-fallthrough=5
	assert_output "-ftrivial-auto-var-init=zero	drop	-	security	stack variables are not zero-initialised"
}
