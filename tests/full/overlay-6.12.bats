#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The probe overlay on the second kernel tree, Linux 6.12 (KERNEL=6.12):
# its series (the overlay hook) applies exactly and passes 6.12's
# checkpatch.pl; the probe macros, stock 6.12 against the overlay, give
# the matrix in fixtures/kbuild/matrix-6.12.expected; the hooked tree
# configures the tiny x86_64 clang cell with the overlay's audited answers,
# fixtures/kbuild/audit-6.12-x86_64-clang.expected (KPARITY_BLESS=1
# rewrites both for review).
# The 6.12 tree and its configure cost more than the default suite may
# take, so 'make check-full' runs this file; tests/kbuild-cc-option.bats
# and tests/kbuild-overlay.bats run the same checks on 6.1.

load ../kbuild-helpers

FIX="$BATS_TEST_DIRNAME/../fixtures/kbuild"

setup_file() {
	export KERNEL=6.12
	kbuild_setup_file
	# one hooked tree for the configure tests: 86,000 symlinks
	export HOOKED="$BATS_FILE_TMPDIR/src"
	hooked_tree "$HOOKED"
}

setup() {
	T="$BATS_TEST_TMPDIR"
}

@test "overlay 6.12: the series is the hook alone, applies exactly and passes 6.12's checkpatch.pl" {
	need_tool quilt
	run -0 sed -n '/^[^#]/p' "$TOP/patches/6.12/series"
	assert_output "0001-kbuild-hook-the-kparity-probe-overlay.patch"
	run -0 --separate-stderr "$TOP/scripts/series-check.sh" -c -s "$KSRC_DIR"
	assert_output - <<'OUT'
0001-kbuild-hook-the-kparity-probe-overlay.patch: applies
1 patches: 1 applies, 0 offset, 0 fuzz, 0 rejected, 0 missing
checkpatch: 1 of 1 patches clean
OUT
}

@test "probe macros 6.12: the matrix of answers, stock 6.12 and overlay" {
	run -0 matrix "$FIX/questions"
	expect_file "$FIX/matrix-6.12.expected"
}

@test "probe macros 6.12: with gcc the overlay gives stock Kbuild's exact results" {
	run -0 ask gcc stock "$FIX/questions" RAW=1
	local stock="$output"
	assert_equal "${#lines[@]}" "$(wc -l <"$FIX/questions")"
	run -0 ask gcc overlay "$FIX/questions" RAW=1 KPARITY_CACHE=0
	assert_output "$stock"
}

@test "probe macros 6.12: stock 6.12 refuses clang-14 link-only flags and takes LLD's -z bogus; the overlay the other way" {
	printf '%s\n' 'cc-option|-fuse-ld=lld' 'cc-option|-rdynamic' 'cc-option|-Wl,--build-id' 'ld-option|-z@bogus' >"$T/q"
	run -0 ask clang-14 stock "$T/q"
	assert_output "$(printf '%s\n' n n n y)"
	run -0 ask clang-14 overlay "$T/q" KPARITY_CACHE=0
	assert_output "$(printf '%s\n' y y y n)"
}

# cell_fragments: the fragments of the tiny x86_64 cell of this tree
cell_fragments() {
	PROG=overlay-6.12 TOPDIR="$TOP" sh -c '. "$TOPDIR/scripts/lib/common.sh" &&
		. "$TOPDIR/scripts/lib/target.sh" && load_target x86_64 &&
		for f in $t_fragments; do echo "$TOPDIR/kconfig/fragments/$f"; done'
}

# configure OBJDIR [VAR=VALUE...]: configure the tiny x86_64 cell of the
# hooked tree, as kernel-build.sh does, with the environment VAR=VALUE...
configure() {
	local obj="$1"

	shift
	# shellcheck disable=SC2046 # one word per fragment
	env "$@" ARCH=x86_64 "$TOP/scripts/kernel-config.sh" -s "$HOOKED" -O "$obj" -b tinyconfig \
		$(cell_fragments)
}

@test "overlay 6.12: the hooked tree configures the tiny x86_64 clang cell with the overlay's audited answers" {
	run -0 --separate-stderr configure "$T/obj" LLVM=1 KPARITY_DIR="$TOP" KPARITY_AUDIT=1
	assert_output "$T/obj/.config"
	run -0 grep -e KPARITY -e 'kparity probe overlay' "$T/obj/.config"
	assert_output - <<'OUT'
# kparity probe overlay
CONFIG_KPARITY_OVERLAY=y
CONFIG_KPARITY_PROBE_STRICT=y
# CONFIG_KPARITY_PROBE_STOCK is not set
CONFIG_KPARITY_PROBE_CACHE=y
# CONFIG_KPARITY_PROBE_NO_CACHE is not set
# CONFIG_KPARITY_PROBE_AUDIT is not set
# end of kparity probe overlay
OUT
	run -0 cat "$T/obj/.kparity/audit.log"
	expect_file "$FIX/audit-6.12-x86_64-clang.expected"
	assert [ ! -e "$T/obj/.kparity/Kconfig" ]
	# MAKEFILES on top of the hook reads the entries once, as on 6.1
	run -0 --separate-stderr env -u MAKEFLAGS -u MAKELEVEL make -s -C "$HOOKED" O="$T/obj" ARCH=x86_64 \
		LLVM=1 KPARITY_DIR="$TOP" MAKEFILES="$TOP/kbuild/overlay.mk" olddefconfig
	assert_equal "$stderr" ""
	assert [ ! -e "$T/obj/.kparity/Kconfig" ]
}

@test "overlay 6.12: a GCC configure of the hooked tree with KPARITY_DIR reads neither file" {
	run -0 --separate-stderr configure "$T/obj"
	cp "$T/obj/.config" "$T/before"
	run -0 --separate-stderr env -u MAKEFLAGS -u MAKELEVEL KPARITY_DIR="$TOP" make -s -C "$HOOKED" \
		O="$T/obj" ARCH=x86_64 olddefconfig
	assert_equal "$stderr" ""
	run -0 cmp "$T/before" "$T/obj/.config"
	assert [ ! -e "$T/obj/.kparity" ]
}
