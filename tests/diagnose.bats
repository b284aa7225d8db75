#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/diagnose.sh: a GCC kernel build replayed through Clang's
# diagnostics; its parser, triage and diff on recorded Clang output
# (tests/fixtures/diagnose/README says how each was made), its bad inputs,
# and one real replay of the tiny x86_64 GCC cell.

load common

setup() {
	F=$BATS_TEST_DIRNAME/fixtures/diagnose
	D=$TOP/scripts/diagnose.sh
	L=$TOP/scripts/lib
}

# fake_build DIR: a build directory with a .config, a vmlinux, a source
# link to a tree holding one C file, and kernel-build.sh's marks
fake_build() {
	mkdir -p "$1" "$1.src/scripts/clang-tools"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$1.src/Makefile"
	echo 'int x;' >"$1.src/a.c"
	echo '# Linux/x86_64 6.1.0 Kernel Configuration' >"$1/.config"
	: >"$1/vmlinux"
	echo built >"$1/.kparity-config"
	echo built >"$1/.kparity-built"
	ln -s "$1.src" "$1/source"
	jq -n --arg d "$1" --arg f "$1.src/a.c" \
		'[{directory: $d, file: $f, command: "gcc -nostdinc -O2 -c -o a.o \($f)"}]' >"$1/compile_commands.json"
	touch -d '1 minute' "$1/compile_commands.json"
}

@test "diagnose: no build directory, one line, exit 2" {
	run -2 --separate-stderr "$D" -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/nothing"
	assert_equal "$stderr" "diagnose.sh: no build directory '$BATS_TEST_TMPDIR/nothing'"
	assert_output ""
}

@test "diagnose: a build directory with no vmlinux holds no successful build, exit 2" {
	fake_build "$BATS_TEST_TMPDIR/b"
	rm "$BATS_TEST_TMPDIR/b/vmlinux"
	run -2 --separate-stderr "$D" -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "diagnose.sh: '$BATS_TEST_TMPDIR/b' holds no successful build (no vmlinux)"
}

@test "diagnose: a build whose last make failed, exit 2" {
	fake_build "$BATS_TEST_TMPDIR/b"
	rm "$BATS_TEST_TMPDIR/b/.kparity-built"
	run -2 --separate-stderr "$D" -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "diagnose.sh: '$BATS_TEST_TMPDIR/b' holds no successful build (its last build failed or did not finish)"
}

@test "diagnose: a unit whose source has gone, exit 2" {
	need_tool clang-19
	fake_build "$BATS_TEST_TMPDIR/b"
	rm "$BATS_TEST_TMPDIR/b.src/a.c"
	run -2 --separate-stderr "$D" -c clang-19 -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "diagnose.sh: unit source '$BATS_TEST_TMPDIR/b.src/a.c' is gone (1 of 1 units; the tree changed since the build)"
}

@test "diagnose: a stale compile_commands.json is generated afresh, and says so" {
	need_tool clang-19
	fake_build "$BATS_TEST_TMPDIR/b"
	touch -d '1 hour ago' "$BATS_TEST_TMPDIR/b/compile_commands.json"
	cp "$TOP/tests/fixtures/diagnose/gen_compile_commands.py" "$BATS_TEST_TMPDIR/b.src/scripts/clang-tools/"
	run -2 --separate-stderr "$D" -c clang-19 -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "$(printf '%s\n' \
		"diagnose.sh: '$BATS_TEST_TMPDIR/b/compile_commands.json' is older than vmlinux; generating a fresh one" \
		"  GEN     $BATS_TEST_TMPDIR/out/compile_commands.json" \
		"diagnose.sh: '$BATS_TEST_TMPDIR/out/compile_commands.json' holds no kernel compile command")"
}

@test "diagnose: a clang that is not installed, exit 2" {
	fake_build "$BATS_TEST_TMPDIR/b"
	run -2 --separate-stderr "$D" -c clang-77 -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "diagnose.sh: no compiler 'clang-77' (install it, or name another with -c or LLVM=)"
}

@test "diagnose: an unknown warning level, exit 2" {
	run -2 --separate-stderr "$D" -W 3 "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "diagnose.sh: -W takes 1, 2 or 12 (the kernel's W= levels this replays), not '3'"
}
