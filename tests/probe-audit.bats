#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# probe-audit.sh on audit logs the overlay writes: where overlay and stock
# Kbuild disagree, and where gcc and clang do.

load kbuild-helpers

AUDIT="$BATS_TEST_DIRNAME/../scripts/probe-audit.sh"

setup_file() {
	kbuild_setup_file
}

setup() {
	T="$BATS_TEST_TMPDIR"
	printf '%s\n' 'cc-option|-fno-common' 'cc-option|-mthumb' 'cc-option|-finline-limit=100' \
		'cc-option|-fuse-ld=bogus' 'ld-option|-z@bogus' 'cc-option|-mthumb' >"$T/q"
}

# audited TOOLCHAIN DIR: ask the questions with the audit on, log in DIR
audited() {
	ask "$1" overlay "$T/q" KPARITY_OUT="$2" KPARITY_AUDIT=1 >/dev/null
}

@test "probe-audit.sh: one clang build lists where stock 6.1 answers otherwise" {
	audited clang-14 "$T/clang"
	audited clang-14 "$T/clang"
	run -1 --separate-stderr "$AUDIT" "$T/clang"
	assert_output - <<'OUT'
overlay and stock Kbuild disagree (clang-14.0.6):
  cc-option -mthumb: overlay n (unused-argument), stock y
  cc-option -fuse-ld=bogus: overlay n (invalid-value), stock y
overlay and stock Kbuild disagree (lld-14.0.6):
  ld-option -z bogus: overlay n (unknown-option), stock y
summary: 5 questions, 3 overlay/stock disagreements
OUT
	assert_equal "$stderr" ""
}

@test "probe-audit.sh: gcc against clang lists where the compilers answer otherwise" {
	audited gcc "$T/gcc"
	audited clang-14 "$T/clang"
	run -1 "$AUDIT" "$T/gcc" "$T/clang/.kparity/audit.log"
	assert_output - <<'OUT'
overlay and stock Kbuild disagree (clang-14.0.6):
  cc-option -mthumb: overlay n (unused-argument), stock y
  cc-option -fuse-ld=bogus: overlay n (invalid-value), stock y
overlay and stock Kbuild disagree (lld-14.0.6):
  ld-option -z bogus: overlay n (unknown-option), stock y
gcc-12.2.0 and clang-14.0.6 disagree:
  cc-option -finline-limit=100: y (ok), n (ignored-optimization)
gnu-ld-2.40 and lld-14.0.6 disagree:
  ld-option -z bogus: y (unknown-option), n (unknown-option)
summary: 5 questions, 3 overlay/stock disagreements, 2 compiler disagreements
OUT
}

@test "probe-audit.sh: each row is labelled by the tool that answered it" {
	# a linker's row last: the label of every row comes from its own tool
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		cc-option -mthumb clang-14.0.6 n unused-argument live y \
		ld-option '-z bogus' lld-14.0.6 n unknown-option live y >"$T/clang.log"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		cc-option -mthumb gcc-12.2.0 y ok live y \
		ld-option '-z bogus' gnu-ld-2.40 y ok live y >"$T/gcc.log"
	run -1 "$AUDIT" "$T/gcc.log" "$T/clang.log"
	assert_output - <<'OUT'
overlay and stock Kbuild disagree (clang-14.0.6):
  cc-option -mthumb: overlay n (unused-argument), stock y
overlay and stock Kbuild disagree (lld-14.0.6):
  ld-option -z bogus: overlay n (unknown-option), stock y
gcc-12.2.0 and clang-14.0.6 disagree:
  cc-option -mthumb: y (ok), n (unused-argument)
gnu-ld-2.40 and lld-14.0.6 disagree:
  ld-option -z bogus: y (ok), n (unknown-option)
summary: 2 questions, 2 overlay/stock disagreements, 2 compiler disagreements
OUT
}

@test "probe-audit.sh: a gcc build has nothing to report" {
	audited gcc "$T/gcc"
	run -0 "$AUDIT" "$T/gcc"
	assert_output "summary: 5 questions, 0 overlay/stock disagreements"
}

@test "probe-audit.sh: a build without an audit log is trouble" {
	run -2 --separate-stderr "$AUDIT" "$T/none"
	assert_output ""
	assert_equal "$stderr" "probe-audit.sh: cannot read '$T/none' (build with KPARITY_AUDIT=1)"
}

@test "probe-audit.sh: a malformed log is refused with its line" {
	printf 'cc-option\t-x\tgcc-12\ty\tok\tlive\ty\ngarbage\n' >"$T/bad.log"
	run -2 --separate-stderr "$AUDIT" "$T/bad.log"
	assert_equal "$stderr" "probe-audit.sh: '$T/bad.log' line 2: not a kparity audit record"
}

@test "probe-audit.sh: usage errors exit 2" {
	run -2 --separate-stderr "$AUDIT"
	assert_equal "${stderr_lines[0]}" "usage: probe-audit.sh BUILD [OTHER-BUILD]"
	run -2 --separate-stderr "$AUDIT" a b c
	run -2 --separate-stderr "$AUDIT" -x
}
