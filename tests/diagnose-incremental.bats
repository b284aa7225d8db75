#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/diagnose.sh replaying only what changed since its last replay:
# on a small build whose .cmd files list what each unit was made from
# (dep_build), a .c edit, a header edit and a change to nothing compiled,
# each against a full replay of the same build, byte for byte but the
# times; a stale build, and another Clang. Then the tiny x86_64 GCC cell
# with one of its headers touched and the cell built again.

load common
load diagnose

setup() {
	need_tool clang-19
	need_tool jq
	D=$TOP/scripts/diagnose.sh
	T=$BATS_TEST_TMPDIR
	B=$T/b
	S=$T/b.src
}

# replay OUT: diagnose.sh on $B into OUT, its REPLAY line in $replay; the
# replay is then made an hour older, so that later edits come after it
replay() {
	run -0 --separate-stderr "$D" -c clang-19 -j 1 -o "$1" "$B"
	replay=$(printf '%s\n' "$stderr" | sed -n 's/^ *REPLAY  //p')
	at '1 hour ago' "$1/last/stamp"
}

# same_as_full OUT: OUT's diagnose.json is a full replay's of $B, times aside
same_as_full() {
	rm -rf "$T/full"
	run -0 --separate-stderr "$D" -c clang-19 -j 1 -o "$T/full" "$B"
	local times='del(.seconds, .slowest, .replay)'
	run -0 diff <(jq -S "$times" "$T/full/diagnose.json") <(jq -S "$times" "$1/diagnose.json")
}

@test "diagnose, incremental: the first replay runs every unit, the next none when nothing changed" {
	dep_build
	replay "$T/out"
	assert_equal "$replay" "every unit: no earlier replay in '$T/out'"
	run -0 jq -c '[.units.replayed, .counts.clang, [.findings[].units], .replay]' "$T/out/diagnose.json"
	assert_output "[3,1,[[\"a.c\",\"b.c\"]],{\"again\":3,\"kept\":0,\"why\":\"every unit: no earlier replay in '$T/out'\"}]"
	run -0 grep '^Replayed' "$T/out/diagnose.md"
	assert_output "Replayed: every unit: no earlier replay in '$T/out'."
	replay "$T/out"
	assert_equal "$replay" "0 of 3 units again (nothing they depend on changed); 3 kept from the last replay"
	same_as_full "$T/out"
}

@test "diagnose, incremental: a .c edit replays its unit, and the result is a full replay's" {
	dep_build
	replay "$T/out"
	printf '#include "h.h"\nint a;\nint f(int x) { int y; return x; }\n' >"$S/a.c"
	at '30 minutes ago' "$S/a.c"
	at '20 minutes ago' "$B/a.o"
	replay "$T/out"
	assert_equal "$replay" "1 of 3 units again (1 reached by 1 changed file: a.c); 2 kept from the last replay"
	local prog='[.findings[] | [.flag, .units]]'
	run -0 jq -c "$prog" "$T/out/diagnose.json"
	assert_output '[["-Wunused-variable",["a.c"]],["-Wunused-variable",["a.c","b.c"]]]'
	same_as_full "$T/out"
}

@test "diagnose, incremental: a header edit replays the units that include it, and nothing else" {
	dep_build
	replay "$T/out"
	printf 'static inline int h(void) { int h_unused; return 0; }\nstatic inline int g(void) { int g_unused; return 0; }\n' >"$S/include/h.h"
	at '30 minutes ago' "$S/include/h.h"
	at '20 minutes ago' "$B/a.o" "$B/b.o"
	replay "$T/out"
	assert_equal "$replay" "2 of 3 units again (2 reached by 1 changed file: include/h.h); 1 kept from the last replay"
	local prog='[.findings[] | [.line, .units]]'
	run -0 jq -c "$prog" "$T/out/diagnose.json"
	assert_output '[[1,["a.c","b.c"]],[2,["a.c","b.c"]]]'
	same_as_full "$T/out"
}

@test "diagnose, incremental: a change to nothing compiled replays nothing" {
	dep_build
	replay "$T/out"
	echo 'a patch to the documentation' >"$S/README"
	at '30 minutes ago' "$S/README"
	replay "$T/out"
	assert_equal "$replay" "0 of 3 units again (nothing they depend on changed); 3 kept from the last replay"
	same_as_full "$T/out"
}

@test "diagnose, incremental: a source edited after the build is a stale build, one line, exit 2" {
	dep_build
	replay "$T/out"
	echo 'int c2;' >>"$S/c.c"
	at '30 minutes ago' "$S/c.c"
	run -2 --separate-stderr "$D" -c clang-19 -j 1 -o "$T/out" "$B"
	assert_equal "${stderr_lines[-1]}" "diagnose.sh: the build is stale: 'c.c' changed after 'c.o' was built (make the build again, then replay)"
	# the last complete replay is still the one to build on
	at '20 minutes ago' "$B/c.o"
	replay "$T/out"
	assert_equal "$replay" "1 of 3 units again (1 reached by 1 changed file: c.c); 2 kept from the last replay"
}

@test "diagnose, incremental: another Clang than the last replay's replays every unit, and says so" {
	dep_build
	replay "$T/out"
	echo 'Debian clang version 19.0.0 x86_64-linux-gnu' >"$T/out/last/clang"
	replay "$T/out"
	assert_equal "$replay" "every unit: the last replay's Clang was another (Debian clang version 19.0.0 x86_64-linux-gnu; now $(clang-19 --version | head -n 1) x86_64-linux-gnu)"
	run -0 cat "$T/out/last/clang"
	assert_output "$(clang-19 --version | head -n 1) x86_64-linux-gnu"
}

# the header the tiny cell's test touches, and its time before
TOUCHED=include/linux/delay.h

teardown() {
	# the tree is shared: its header gets its time back, older than the
	# cell's objects built since
	[ -z "${touched_was:-}" ] || touch -d "@$touched_was" "$touched"
}

@test "diagnose, incremental: the tiny x86_64 GCC cell with one header touched and built again" {
	local b=${KPARITY_BUILD:-$TOP/build} cell src
	export KPARITY_CACHE_DIR=${KPARITY_CACHE_DIR:-$b/cache}
	echo "# building x86_64/gcc (cached after the first run)" >&3
	cell=$(dirname "$(nice -n 10 "$TOP/scripts/kernel-build.sh" -o "$b" -t x86_64 -c gcc -j 2)")
	src=$(readlink -f "$cell/source")
	run -0 --separate-stderr "$D" -c clang-19 -o "$T/out" "$cell"
	touched=$src/$TOUCHED
	touched_was=$(stat -c %Y "$touched")
	touch "$touched"
	nice -n 10 "$TOP/scripts/kernel-build.sh" -o "$b" -t x86_64 -c gcc -j 2 >/dev/null 2>&1
	run -0 --separate-stderr "$D" -c clang-19 -o "$T/out" "$cell"
	assert_equal "$(printf '%s\n' "$stderr" | sed -n 's/^ *REPLAY  //p')" \
		"81 of 748 units again (81 reached by 1 changed file: $TOUCHED); 667 kept from the last replay"
	run -0 jq -c '[.replay.again, .replay.kept, .units.replayed]' "$T/out/diagnose.json"
	assert_output '[81,667,748]'
}
