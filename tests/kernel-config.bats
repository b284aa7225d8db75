#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-config.sh on the real kernel tree: the project's fragments reach
# .config whole, and every request Kconfig drops is reported on its own line.
#
# KPARITY_BUILD names the build directory holding the extracted tree
# (default: build, relative to the top of the repository).

# shellcheck disable=SC2154 # bats' run sets output and stderr
bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert

setup_file() {
	TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
	local build="${KPARITY_BUILD:-build}"
	case "$build" in
	/*) ;;
	*) build="$TOP/$build" ;;
	esac
	KSRC_DIR=$("$TOP/scripts/kernel-src.sh" -o "$build")
	export TOP KSRC_DIR
}

setup() {
	FRAGS="$TOP/kconfig/fragments"
	OBJ="$BATS_FILE_TMPDIR/x86_64-gcc"
	BAD="$BATS_TEST_TMPDIR/bad.config"
}

# kconfig OBJDIR FRAGMENT...: configure x86_64 with gcc in OBJDIR.
kconfig() {
	local objdir="$1"
	shift
	env -u LLVM -u CC ARCH=x86_64 \
		"$TOP/scripts/kernel-config.sh" -s "$KSRC_DIR" -O "$objdir" "$@"
}

@test "kernel-config.sh: the x86_64 fragments all reach .config with gcc" {
	run -0 --separate-stderr kconfig "$OBJ" "$FRAGS/x86_64.config" "$FRAGS/debug-info.config"
	assert_output "$OBJ/.config"
	assert_equal "$stderr" ""
}

@test "kernel-config.sh: the x86_64 fragments all reach .config with clang" {
	local obj="$BATS_FILE_TMPDIR/x86_64-clang"
	run -0 --separate-stderr env -u CC ARCH=x86_64 LLVM=1 \
		"$TOP/scripts/kernel-config.sh" -s "$KSRC_DIR" -O "$obj" \
		"$FRAGS/x86_64.config" "$FRAGS/debug-info.config"
	assert_output "$obj/.config"
	assert_equal "$stderr" ""
}

@test "kernel-config.sh: a symbol the kernel does not have fails the check" {
	printf 'CONFIG_KPARITY_DOES_NOT_EXIST=y\n' >"$BAD"
	run -1 --separate-stderr kconfig "$OBJ" "$FRAGS/x86_64.config" "$BAD"
	assert_output ""
	assert_equal "$stderr" \
		"kernel-config.sh: CONFIG_KPARITY_DOES_NOT_EXIST=y requested by $BAD but .config does not mention it"
}

@test "kernel-config.sh: a symbol with unmet dependencies fails the check" {
	printf 'CONFIG_X86_32=y\n' >"$BAD"
	run -1 --separate-stderr kconfig "$OBJ" "$FRAGS/x86_64.config" "$BAD"
	assert_output ""
	assert_equal "$stderr" \
		"kernel-config.sh: CONFIG_X86_32=y requested by $BAD but .config does not mention it"
}

@test "kernel-config.sh: each dropped request gets one line, in request order" {
	printf '%s\n' 'CONFIG_LOG_BUF_SHIFT=99' '# CONFIG_DEBUG_INFO is not set' >"$BAD"
	run -1 --separate-stderr kconfig "$OBJ" "$FRAGS/x86_64.config" "$FRAGS/debug-info.config" "$BAD"
	assert_output ""
	assert_equal "$stderr" "$(printf '%s\n' \
		"kernel-config.sh: CONFIG_LOG_BUF_SHIFT=99 requested by $BAD but .config has 'CONFIG_LOG_BUF_SHIFT=17'" \
		"kernel-config.sh: CONFIG_DEBUG_INFO=n requested by $BAD but .config has 'CONFIG_DEBUG_INFO=y'")"
}

@test "kernel-config.sh: a later fragment overrides an earlier one" {
	printf '# CONFIG_PRINTK is not set\n' >"$BAD"
	run -0 --separate-stderr kconfig "$OBJ" "$FRAGS/x86_64.config" "$BAD"
	assert_output "$OBJ/.config"
	assert_equal "$stderr" ""
}

@test "kernel-config.sh: a malformed fragment line is refused before make runs" {
	printf 'CONFIG_PRINTK=y\nCONFIG_TTY = y\n' >"$BAD"
	run -2 --separate-stderr kconfig "$BATS_TEST_TMPDIR/unused" "$BAD"
	assert_output ""
	assert_equal "$stderr" "kernel-config.sh: $BAD:2: not a Kconfig assignment: 'CONFIG_TTY = y'"
	assert [ ! -e "$BATS_TEST_TMPDIR/unused" ]
}
