#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The farm cells tests/farm.bats does not build: clang on distcc, gcc on
# icecc, and a distccd killed in the middle of a build. Each relinks a
# tiny kernel, so 'make check-full' runs them (tests/farm.bats builds a
# gcc cell on distcc and a clang cell on icecc).

load ../common
load ../farm

setup_file() {
	farm_setup_file
}

teardown_file() {
	farm_teardown_file
}

@test "farm: a clang cell (LLVM=1) built on two distccd has the local cell's layouts, warnings and code" {
	distcc_cell clang
}

@test "farm: a gcc cell built on two iceccd has the local cell's layouts, warnings and code" {
	icecc_cell gcc
}

@test "farm: a distccd killed mid-build: the build finishes with the same code, the jobs are counted" {
	local before1 before2 n killer fell
	before1=$(jobs_of distccd-1)
	before2=$(jobs_of distccd-2)
	# kill-after follows the daemon's log, whose jobs it counts from the
	# first: it kills as the third job of this build ends (its probe,
	# then two of init/: distcc fills the first host first); should it
	# not, it is ended after the build, and the test fails on its output
	setsid "$TOP/scripts/farm.sh" -d "$STATE" kill-after distccd-1 $((before1 + 3)) >"$BATS_TEST_TMPDIR/killer" 2>&1 &
	killer=$!
	farm_cell distcc gcc
	kill -- "-$killer" 2>/dev/null || :
	wait "$killer" || :
	assert_equal "$status" 0
	run -0 cat "$BATS_TEST_TMPDIR/killer"
	assert_output "  KILLED  distccd-1 after $((before1 + 3)) jobs"
	# killed mid-build, not before it (a job of its second slot may end
	# between the third and the kill)
	assert [ "$(($(jobs_of distccd-1) - before1))" -ge 3 ]
	run -1 "$TOP/scripts/farm.sh" -d "$STATE" status
	assert_line -n 0 --regexp '^distccd-1 127\.0\.0\.2:3632 stopped, [0-9]+ jobs$'
	n=$(compiled)
	# where the jobs ran, by the client's log: distccd-2's as it counts
	# them (less its probe), and every one somewhere
	run -0 client_jobs
	assert_line "127.0.0.3:3632 $(($(jobs_of distccd-2) - before2 - 1))"
	assert_equal "$(printf '%s\n' "${lines[@]}" | awk '{ s += $2 } END { print s }')" "$n"
	fell=$(printf '%s\n' "${lines[@]}" | awk '$1 == "local" { print $2 }')
	echo "compiled $n; distccd-1 $(($(jobs_of distccd-1) - before1)) (killed), distccd-2 $(($(jobs_of distccd-2) - before2)), locally after the kill $fell" >&3
	assert [ "$(($(jobs_of distccd-2) - before2))" -gt 0 ]
	run -0 same_code
	run -0 same_layouts
	# no object was left half-written: a local rebuild compiles nothing
	# and links the same kernel
	rm -f "$CELL/.kparity-built"
	run -0 --separate-stderr unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh \
		"$CELL" "$REF" env KSRC="$SRC" nice -n 10 "$TOP/scripts/kernel-build.sh" -o "$BUILD" -t x86_64 -c gcc -j 2
	assert_equal "$(compiled)" 0
	run -0 same_code
}
