#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# The probe macros, stock 6.1 against the overlay, with gcc, clang-14 and
# clang-19: every cell of the matrix is written down in
# fixtures/kbuild/matrix.expected (KPARITY_BLESS=1 rewrites it for review).

load kbuild-helpers

FIX="$BATS_TEST_DIRNAME/fixtures/kbuild"

setup_file() {
	kbuild_setup_file
}

@test "probe macros: the matrix of answers, stock 6.1 and overlay" {
	run -0 matrix "$FIX/questions"
	expect_file "$FIX/matrix.expected"
}

@test "probe macros: with gcc the overlay gives stock Kbuild's exact results" {
	run -0 ask gcc stock "$FIX/questions" RAW=1
	local stock="$output"
	assert_equal "${#lines[@]}" "$(wc -l <"$FIX/questions")"
	run -0 ask gcc overlay "$FIX/questions" RAW=1 KPARITY_CACHE=0
	assert_output "$stock"
}

@test "probe macros: stock 6.1 says clang-14 takes -fuse-ld=bogus, -mthumb and -z bogus; the overlay does not" {
	printf '%s\n' 'cc-option|-fuse-ld=bogus' 'cc-option|-mthumb' 'ld-option|-z@bogus' >"$BATS_TEST_TMPDIR/q"
	run -0 ask clang-14 stock "$BATS_TEST_TMPDIR/q"
	assert_output "$(printf '%s\n' y y y)"
	run -0 ask clang-14 overlay "$BATS_TEST_TMPDIR/q" KPARITY_CACHE=0
	assert_output "$(printf '%s\n' n n n)"
}

@test "probe macros: the overlay leaves nothing in the kernel tree" {
	touch "$BATS_TEST_TMPDIR/mark"
	run -0 ask clang-19 overlay "$FIX/questions" KPARITY_OUT="$KSRC_DIR"
	run -0 find "$KSRC_DIR" -newer "$BATS_TEST_TMPDIR/mark"
	assert_output ""
}

@test "probe macros: a tree of unknown layout is refused" {
	local fake="$BATS_TEST_TMPDIR/tree"
	mkdir -p "$fake/scripts"
	printf '# no probes here\n' >"$fake/scripts/Kbuild.include"
	printf 'x := $(call cc-option,-O2)\nall:\n\t@echo "$(x)"\n' >"$BATS_TEST_TMPDIR/t.mk"
	run -2 --separate-stderr make -s -C "$BATS_TEST_TMPDIR" -f t.mk srctree="$fake" CC=gcc \
		MAKEFILES="$TOP/kbuild/overlay.mk"
	assert_output ""
	assert_equal "$stderr" "t.mk:1: *** kparity: unknown Kbuild layout in '$fake': neither scripts/Makefile.compiler nor cc-option in scripts/Kbuild.include.  Stop."
}

# old_tree CC GCC-VERSION [MAKE-ARGS...]: the pre-5.13 fixture's answers
old_tree() {
	local cc="$1" version="$2" clang=""

	shift 2
	[ "$cc" = gcc ] || clang=1
	(cd "$BATS_TEST_TMPDIR" && env -u MAKEFLAGS -u MAKELEVEL make -s -f "$FIX/old-tree/Makefile" \
		srctree="$FIX/old-tree" CC="$cc" CLANG="$clang" CONFIG_GCC_VERSION="$version" "$@")
}

@test "probe macros: a pre-5.13 tree (probes in scripts/Kbuild.include) is recognised and overlaid" {
	need_tool clang-14
	touch "$BATS_TEST_TMPDIR/mark"
	run -0 old_tree clang-14 0
	assert_output "$(printf '%s\n' 'layout: ' '[-mthumb]' '[-fno-common]' '[]' '[old]' '[old]')"
	run -0 old_tree clang-14 0 MAKEFILES="$TOP/kbuild/overlay.mk"
	assert_output "$(printf '%s\n' 'layout: include' '[]' '[-fno-common]' '[]' '[old]' '[old]')"
	assert [ -d "$BATS_TEST_TMPDIR/.kparity/probes" ]
	run -0 find "$FIX/old-tree" -newer "$BATS_TEST_TMPDIR/mark"
	assert_output ""
}

@test "probe macros: cc-ifversion on a pre-5.13 tree answers as the tree's own" {
	local v
	for v in 40800 90100 120200; do
		run -0 old_tree gcc "$v"
		local stock="${output#layout: }"
		run -0 old_tree gcc "$v" MAKEFILES="$TOP/kbuild/overlay.mk"
		assert_output "layout: include$stock"
	done
	run -0 old_tree gcc 40800 MAKEFILES="$TOP/kbuild/overlay.mk"
	assert_output "$(printf '%s\n' 'layout: include' '[]' '[-fno-common]' '[]' '[old]' '[old]')"
	run -0 old_tree gcc 120200 MAKEFILES="$TOP/kbuild/overlay.mk"
	assert_output "$(printf '%s\n' 'layout: include' '[]' '[-fno-common]' '[]' '[new]' '[new]')"
}

# new_tree CC [MAKE-ARGS...]: the 6.12 fixture's answers
new_tree() {
	local cc="$1" clang=""

	shift
	[ "$cc" = gcc ] || clang=1
	(cd "$BATS_TEST_TMPDIR" && env -u MAKEFLAGS -u MAKELEVEL make -s -f "$FIX/new-tree/Makefile" \
		srctree="$FIX/new-tree" CC="$cc" CLANG="$clang" "$@")
}

@test "probe macros: a 6.12 tree's questions (-Wfoo for -Wno-foo, fatal assembler warnings) are asked as it asks them" {
	local want
	want=$(printf '%s\n' '[]' '[-Wno-unused-but-set-variable]' '[n]' '[fallback]' '[no]' '[yes]')
	run -0 new_tree gcc
	assert_output "$(printf 'traits: \n%s' "$want")"
	run -0 new_tree gcc MAKEFILES="$TOP/kbuild/overlay.mk" KPARITY_OUT="$BATS_TEST_TMPDIR/o" KPARITY_AUDIT=1
	assert_output "$(printf 'traits: wno fatal\n%s' "$want")"
	run -0 cut -f 1,2,4,7 "$BATS_TEST_TMPDIR/o/.kparity/audit.log"
	assert_output - <<'OUT'
cc-option	-Wbogus-warning	n	n
cc-option	-Wunused-but-set-variable	y	y
cc-option-yn	-Wbogus-warning	n	n
__cc-option	-Wbogus-warning	n	n
as-instr	.warning	n	n
as-instr	nop	y	y
OUT
}

@test "probe macros: the 6.1 tree shows the overlay none of 6.12's traits" {
	printf 'all:\n\t@echo "[$(__kp-traits)]"\n' >"$BATS_TEST_TMPDIR/t.mk"
	run -0 env -u MAKEFLAGS -u MAKELEVEL make -s -C "$BATS_TEST_TMPDIR" -f t.mk srctree="$KSRC_DIR" \
		MAKEFILES="$TOP/kbuild/overlay.mk"
	assert_output "[]"
}

@test "probe macros: a tree with neither probe file is refused with its reason" {
	local fake="$BATS_TEST_TMPDIR/empty-tree"
	mkdir -p "$fake"
	printf 'x := $(call cc-option,-O2)\nall:\n\t@echo "$(x)"\n' >"$BATS_TEST_TMPDIR/t.mk"
	run -2 --separate-stderr make -s -C "$BATS_TEST_TMPDIR" -f t.mk srctree="$fake" CC=gcc \
		MAKEFILES="$TOP/kbuild/overlay.mk"
	assert_output ""
	assert_equal "$stderr" "t.mk:1: *** kparity: unknown Kbuild layout in '$fake': neither scripts/Makefile.compiler nor cc-option in scripts/Kbuild.include.  Stop."
}

# versions [MAKE-ARGS...]: gcc-min-version and clang-min-version of the
# 6.1 tree (or the overlay's) for a set of version:minimum pairs
versions() {
	env -u MAKEFLAGS -u MAKELEVEL make -s -f "$FIX/versions.mk" srctree="$KSRC_DIR" \
		PAIRS='120200:70100 120200:120200 120200:120201 99999:100000 100000:99999 none:70100 none:0 0:0 5:50 50:5 1000000:999999 140006:070100' "$@"
}

@test "probe macros: gcc-min-version and clang-min-version answer as 6.1's, without a shell" {
	local want
	want=$(printf '%s\n' '120200:70100 y y' '120200:120200 y y' '120200:120201 - -' \
		'99999:100000 - -' '100000:99999 y y' 'none:70100 - -' 'none:0 y y' '0:0 y y' \
		'5:50 - -' '50:5 y y' '1000000:999999 y y' '140006:070100 y y')
	run -0 versions
	assert_output "$want"
	run -0 versions MAKEFILES="$TOP/kbuild/overlay.mk"
	assert_output "$want"
	# with no working shell the overlay still compares plain numbers; a
	# leading zero is left to the shell's test, as in the kernel
	run -0 versions MAKEFILES="$TOP/kbuild/overlay.mk" SHELL=/bin/false
	assert_output "${want%y y}- -"
}
