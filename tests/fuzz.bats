#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/fuzz.sh -c: kabi on corrupted copies of a real input ends in
# exit 0, or exit 1 with one line, every time; anything else fails.

load common

setup() {
	T=$BATS_TEST_TMPDIR
	cc_obj gcc "$T/good.o" tests/fixtures/kabi/layout.c
	mkdir -p "$T/build"
}

@test "fuzz corrupt: corrupted copies of an object are read or refused in one line" {
	ln -s "$KABI" "$T/build/kabi"
	cp "$T/good.o" "$T/before.o"
	run -0 "$TOP/scripts/fuzz.sh" -o "$T/build" -c "$T/good.o" -n 20 -s 7
	assert_line --index 1 --regexp '^corrupt: 20 runs: [0-9]+ read, [0-9]+ refused with one line, 0 bad; '
	run -0 wc -l <"$T/build/fuzz/corrupt.log"
	assert_output 20
	# the input itself is never written
	run -0 cmp "$T/good.o" "$T/before.o"
}

@test "fuzz corrupt: a second line on stderr or a signal fails the run" {
	printf '#!/bin/sh\necho one >&2\necho two >&2\nexit 1\n' >"$T/build/kabi"
	chmod +x "$T/build/kabi"
	run -1 "$TOP/scripts/fuzz.sh" -o "$T/build" -c "$T/good.o" -n 3
	assert_line --index 1 "corrupt: 3 runs: 0 read, 0 refused with one line, 3 bad; $T/build/fuzz/corrupt.log"
	printf '#!/bin/sh\nkill -SEGV $$\n' >"$T/build/kabi"
	run -1 "$TOP/scripts/fuzz.sh" -o "$T/build" -c "$T/good.o" -n 1
	assert_line --index 1 "corrupt: 1 runs: 0 read, 0 refused with one line, 1 bad; $T/build/fuzz/corrupt.log"
}

@test "fuzz corrupt: bad arguments are trouble" {
	run -2 --separate-stderr "$TOP/scripts/fuzz.sh" -o "$T/build" -c "$T/good.o"
	[ "$stderr" = "fuzz.sh: no '$T/build/kabi': run 'make O=$T/build' first" ]
	ln -s "$KABI" "$T/build/kabi"
	run -2 --separate-stderr "$TOP/scripts/fuzz.sh" -o "$T/build" -c "$T/good.o" -n lots
	[ "$stderr" = "fuzz.sh: -n and -s take numbers, not 'lots' and '1'" ]
	echo text >"$T/text"
	run -2 --separate-stderr "$TOP/scripts/fuzz.sh" -o "$T/build" -c "$T/text"
	[ "$stderr" = "fuzz.sh: '$T/text' has no DWARF section kabi reads" ]
}
