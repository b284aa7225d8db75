#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# make diagnose on a real cell: the tiny x86_64 GCC build's 748 units
# replayed with clang-19. The replay costs about half a cold Clang build
# (Documentation/diagnose.md, make bench-diagnose), so 'make check-full'
# runs it; tests/diagnose.bats checks every step of the replay on fixtures.

load ../common

setup() {
	D=$TOP/scripts/diagnose.sh
}

# bats test_tags=kernel
@test "diagnose: the tiny x86_64 GCC cell replayed with clang-19" {
	local build=${KPARITY_BUILD:-$TOP/build}

	need_tool clang-19
	echo "# building x86_64/gcc (cached after the first run)" >&3
	"$TOP/scripts/kernel-build.sh" -o "$build" -t x86_64 -c gcc >/dev/null
	run -0 --separate-stderr "$D" -O "$build" -c clang-19 -o "$BATS_TEST_TMPDIR/out" "$build/kernel/x86_64-gcc"
	assert_output --regexp "^diagnose: x86_64-gcc with clang-19: 748 units in [0-9]+s; both 0, only clang 0, only gcc 0, unparsable 0, crashed 0; report in $BATS_TEST_TMPDIR/out/diagnose.html\$"
	# how many units a reconfigured cell left behind depends on its history,
	# and none of them is replayed
	run -0 jq -c '[(.units | del(.stale_not_replayed)), .counts, (.flags.translated | length), .clang.target]' "$BATS_TEST_TMPDIR/out/diagnose.json"
	assert_output '[{"replayed":748,"host_not_replayed":15,"outside_level":28,"flag_sets":10,"ok":748,"unparsable":0,"crashed":0},{"both":0,"clang":0,"gcc":0,"unparsable":0,"crashed":0},17,"x86_64-linux-gnu"]'
	# the units outside Kbuild's warning levels are the setup code's and
	# the decompressor's, whose Makefiles replace KBUILD_CFLAGS
	run -0 jq -c '[.outside_level[] | sub("/[^/]*$"; "")] | group_by(.) | map([.[0], length])' "$BATS_TEST_TMPDIR/out/diagnose.json"
	assert_output '[["arch/x86/boot",20],["arch/x86/boot/compressed",8]]'
}
