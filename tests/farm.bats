#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# Kernel builds on a build farm (DIST=distcc|icecc), against real daemons
# on the loopback started by scripts/farm.sh: two distccd, an icecc
# scheduler with two iceccd. A farm cell is a local x86_64 cell (gcc, clang)
# copied, with the objects of init/ removed and compiled again on the farm
# (an empty ccache, so that every one is compiled, and DISTCC_FALLBACK=0,
# so that a compile distcc does not send fails), then linked: it must have
# the local cell's layouts, warnings and code. The local cells are the
# ones the kabi and parity suites use (built here when this suite runs
# first). This suite builds a gcc cell on distcc and a clang cell on
# icecc; the other two and a distccd killed mid-build are
# tests/full/farm-cells.bats.

load common
load farm

setup_file() {
	farm_setup_file
}

teardown_file() {
	farm_teardown_file
}

@test "farm: status names every daemon and its address" {
	run -0 "$TOP/scripts/farm.sh" -d "$STATE" status
	assert_equal "${#lines[@]}" 6
	assert_line -n 0 --regexp '^distccd-1 127\.0\.0\.2:3632 running, [0-9]+ jobs$'
	assert_line -n 1 --regexp '^distccd-2 127\.0\.0\.3:3632 running, [0-9]+ jobs$'
	assert_line -n 2 --regexp '^icecc-scheduler 127\.0\.0\.1:8765 running, [0-9]+ jobs$'
	assert_line -n 3 --regexp '^iceccd-0 127\.0\.0\.1:10245 \(client\) running, [0-9]+ jobs$'
	assert_line -n 4 --regexp '^iceccd-1 127\.0\.0\.1:10246 running, [0-9]+ jobs$'
}

@test "farm: the daemons listen on loopback addresses only" {
	local pid
	run -0 ss -Hltnp
	refute_line --regexp 'distccd.* (0\.0\.0\.0|\*|\[::\]):'
	assert_line --regexp '127\.0\.0\.2:3632 .*distccd'
	assert_line --regexp '127\.0\.0\.3:3632 .*distccd'
	refute_line --partial 'iceccd'
	refute_line --partial 'icecc-scheduler'
	# the icecc daemons' namespace has no interface but its loopback
	pid=$(cat "$STATE/iceccd-0/pid")
	run -0 nsenter -t "$pid" -n ip -o link show
	assert_equal "${#lines[@]}" 1
	assert_line -n 0 --regexp '^1: lo: '
}

@test "farm: a state directory that does not exist is named" {
	run -2 --separate-stderr "$TOP/scripts/farm.sh" -d "$BATS_TEST_TMPDIR/none/farm" status
	assert_equal "$stderr" "farm.sh: '$BATS_TEST_TMPDIR/none/farm': no such directory"
}

@test "farm: a second start on a running farm is refused" {
	run -2 --separate-stderr "$TOP/scripts/farm.sh" -d "$STATE" start
	assert_equal "$stderr" "farm.sh: a farm is running in '$STATE' ('farm.sh -d $STATE stop' first)"
}

@test "farm: kill-after takes a daemon it knows and a number" {
	run -2 --separate-stderr "$TOP/scripts/farm.sh" -d "$STATE" kill-after distccd-9 3
	assert_equal "$stderr" "farm.sh: no running daemon 'distccd-9' in '$STATE'"
	run -2 --separate-stderr "$TOP/scripts/farm.sh" -d "$STATE" kill-after distccd-1 x
	assert_equal "$stderr" "farm.sh: kill-after needs a positive number of jobs, not 'x'"
	run -2 --separate-stderr "$TOP/scripts/farm.sh" -d "$STATE" kill-after icecc-scheduler 1
	assert_equal "$stderr" "farm.sh: kill-after counts the jobs of a distccd or iceccd, not 'icecc-scheduler'"
}

@test "farm: DIST must name an engine" {
	run -2 --separate-stderr env DIST=sccache "$TOP/scripts/kernel-build.sh" -o "$BUILD/farm" -t x86_64 -c gcc
	assert_equal "$stderr" "kernel-build.sh: DIST='sccache' is none of distcc, icecc"
}

@test "farm: DIST=distcc without hosts, or with pump mode, says so before building" {
	run -2 --separate-stderr env -u DISTCC_HOSTS DIST=distcc "$TOP/scripts/kernel-build.sh" -o "$BUILD/farm" -t x86_64 -c gcc
	assert_equal "$stderr" "kernel-build.sh: DIST=distcc needs DISTCC_HOSTS (for example '127.0.0.2/2 127.0.0.3/2'; scripts/farm.sh env prints a test farm's)"
	run -2 --separate-stderr env DIST=distcc DISTCC_HOSTS='127.0.0.2:3632/2,cpp,lzo' "$TOP/scripts/kernel-build.sh" -o "$BUILD/farm" -t x86_64 -c gcc
	assert_equal "$stderr" "kernel-build.sh: DISTCC_HOSTS '127.0.0.2:3632/2,cpp,lzo' asks for pump mode (,cpp), which cannot build a kernel tree"
}

# farm_lib SCRIPT ARG...: the sh SCRIPT, with ARGs as its "$@", after
# scripts/lib/farm.sh is sourced as kernel-build.sh sources it
farm_lib() {
	PROG=kernel-build.sh TOPDIR="$TOP" sh -c '. "$TOPDIR/scripts/lib/common.sh" &&
		. "$TOPDIR/scripts/lib/farm.sh" && script="$1" && shift && eval "$script"' sh "$@"
}

# dist_setup_sh CC VAR=VALUE...: dist_setup CC as kernel-build.sh runs
# it, in the environment VAR=VALUE..., then the hosts it kept
dist_setup_sh() {
	local cc="$1"
	shift
	(
		export "$@"
		farm_lib 'dist_setup "$1" "$2" && echo "$DISTCC_HOSTS"' "$cc" "$BUILD/farm"
	)
}

@test "farm: a host that refuses connections is named and dropped, the others kept" {
	run -0 --separate-stderr dist_setup_sh gcc DIST=distcc DISTCC_HOSTS='127.0.0.9:3632/2 127.0.0.2:3632/2'
	assert_output "127.0.0.2:3632/2"
	assert_equal "$stderr" "kernel-build.sh: distcc host '127.0.0.9:3632/2' cannot compile with 'gcc': nonblocking connect to 127.0.0.9:3632 failed: Connection refused; building without it"
}

@test "farm: with no host left, the build stops before make, naming each" {
	run -2 --separate-stderr env DIST=distcc DISTCC_HOSTS='127.0.0.9:3632/2' "$TOP/scripts/kernel-build.sh" -o "$BUILD/farm" -t x86_64 -c gcc
	assert_output ""
	assert_equal "${#stderr_lines[@]}" 2
	assert_equal "${stderr_lines[0]}" "kernel-build.sh: distcc host '127.0.0.9:3632/2' cannot compile with 'gcc': nonblocking connect to 127.0.0.9:3632 failed: Connection refused; building without it"
	assert_equal "${stderr_lines[1]}" "kernel-build.sh: no distcc host of '127.0.0.9:3632/2' can compile with 'gcc'"
}

@test "farm: a host without the compiler is named" {
	local bin="$BATS_TEST_TMPDIR/bin"
	# a name no distccd runs: not among the compilers of /usr/lib/distcc
	mkdir -p "$bin"
	ln -s "$(command -v gcc)" "$bin/kparity-gcc"
	run -2 --separate-stderr dist_setup_sh kparity-gcc PATH="$bin:$PATH" DIST=distcc DISTCC_HOSTS='127.0.0.2:3632/2'
	assert_equal "${stderr_lines[0]}" "kernel-build.sh: distcc host '127.0.0.2:3632/2' cannot compile with 'kparity-gcc': the host hung up: its distccd does not run 'kparity-gcc' (no /usr/lib/distcc/kparity-gcc there) or does not allow this client; building without it"
	assert_equal "${stderr_lines[1]}" "kernel-build.sh: no distcc host of '127.0.0.2:3632/2' can compile with 'kparity-gcc'"
}

@test "farm: a gcc cell built on two distccd has the local cell's layouts, warnings and code" {
	distcc_cell gcc
}

# farm_unit ENGINE NAME [FLAG...]: compile tests/fixtures/farm/warn.c with
# $FARM_CC (default clang) in
# $BATS_TEST_TMPDIR/unit as Kbuild would (-Wp,-MMD, -fmacro-prefix-map,
# -D, -U, DWARF 5), with FLAGs, locally for ENGINE "local", else through
# farm-cc.sh on ENGINE; keep the object as NAME.o, its dependency file as
# NAME.d, its debug information as NAME.info, the stderr's diagnostics
# (sorted) as NAME.diag, and the status in NAME.status.
farm_unit() {
	local engine="$1" name="$2" dir="$BATS_TEST_TMPDIR/unit" rc=0
	shift 2
	mkdir -p "$dir"
	cp "$TOP/tests/fixtures/farm/warn.c" "$TOP/tests/fixtures/farm/macros.h" "$dir"
	# GCC: the source by its absolute name, as Kbuild gives it with O=
	# (GCC counts a warning's column in tabs read from the source file,
	# which a host finds only by that name)
	case "${FARM_CC:-clang}" in
	clang*) set -- "${FARM_CC:-clang}" -Werror=unused-command-line-argument "$@" warn.c ;;
	*) set -- "$FARM_CC" "$@" "$dir/warn.c" ;;
	esac
	set -- "$@" -Wall -Wundef "-fmacro-prefix-map=$dir/=" \
		-DFARM_N=3 -DFARM_DROPPED -UFARM_DROPPED -g -gdwarf-5 -Wp,-MMD,.warn.o.d -c -o warn.o
	[ "$engine" = local ] || set -- env DIST="$engine" DISTCC_FALLBACK=0 "$TOP/scripts/farm-cc.sh" "$@"
	(eval "$(cat "$STATE/env")" && cd "$dir" && rm -f warn.o .warn.o.d && "$@") 2>"$dir/$name.err" || rc=$?
	echo "$rc" >"$dir/$name.status"
	grep -E ': (warning|error): ' "$dir/$name.err" | sort -u >"$dir/$name.diag" || :
	[ "$rc" != 0 ] || {
		mv "$dir/.warn.o.d" "$dir/$name.d"
		# file names, not the indexes of the line table's files:
		# without the files' MD5 (a host cannot read them) the main
		# file is entry 1 of the table, not 0
		llvm-dwarfdump --debug-info "$dir/warn.o" | tail -n +2 >"$dir/$name.info"
		llvm-objcopy --strip-debug "$dir/warn.o" "$dir/$name.o"
	}
}

# farm_jobs ENGINE: the jobs the engine's daemons have run so far
farm_jobs() {
	case "$1" in
	distcc) jobs_now | awk '$1 ~ /^distccd-/ { s += $2 } END { print s + 0 }' ;;
	icecc) jobs_now | awk '$1 == "icecc-scheduler" { print $2 }' ;;
	esac
}

# same_as_local CC [FLAG...]: a compile of the fixture with CC and FLAGs
# on each engine is the local one
same_as_local() {
	local e before d="$BATS_TEST_TMPDIR/unit"
	export FARM_CC="$1"
	shift
	farm_unit local local "$@"
	assert_equal "$(cat "$d/local.status")" 0
	run -0 cat "$d/local.diag"
	assert_output "warn.c:12:5: warning: 'FARM_UNDEFINED' is not defined, evaluates to 0 [-Wundef]
warn.c:18:2: warning: \"a warning of the preprocessor\" [-W#warnings]
warn.c:25:4: warning: equality comparison result unused [-Wunused-comparison]"
	for e in distcc icecc; do
		before=$(farm_jobs "$e")
		farm_unit "$e" "$e" "$@"
		assert_equal "$FARM_CC $e $(cat "$d/$e.status")" "$FARM_CC $e 0"
		# compiled by a host, not locally
		assert_equal "$FARM_CC $e $(($(farm_jobs "$e") - before))" "$FARM_CC $e 1"
		run -0 diff "$d/local.diag" "$d/$e.diag"
		run -0 cmp "$d/local.d" "$d/$e.d"
		run -0 cmp "$d/local.o" "$d/$e.o"
		run -0 diff "$d/local.info" "$d/$e.info"
	done
}

@test "farm-cc: a clang compile on distcc and on icecc is the local one: warnings, dependency file, object, debug information" {
	need_tool clang
	need_tool llvm-dwarfdump
	same_as_local clang
}

@test "farm-cc: so is a compile with a versioned clang" {
	need_tool clang-19
	need_tool llvm-dwarfdump
	same_as_local clang-19
}

@test "farm-cc: so is an ARM compile, with the ARM kernel's options" {
	need_tool clang
	need_tool llvm-dwarfdump
	# distcc knows "-target T" only, and "-meabi gnu" takes a value
	same_as_local clang --target=arm-linux-gnueabi -meabi gnu -Wa,-mimplicit-it=always -march=armv7-a
}

@test "farm-cc: a gcc compile on distcc is the local one: what macros hide stays hidden" {
	local before d="$BATS_TEST_TMPDIR/unit"
	need_tool llvm-dwarfdump
	export FARM_CC=gcc
	farm_unit local local
	assert_equal "$(cat "$d/local.status")" 0
	run -0 cat "$d/local.diag"
	assert_output "$d/macros.h:4:20: warning: statement with no effect [-Wunused-value]
$d/warn.c:12:5: warning: \"FARM_UNDEFINED\" is not defined, evaluates to 0 [-Wundef]
$d/warn.c:18:2: warning: #warning \"a warning of the preprocessor\" [-Wcpp]
$d/warn.c:25:11: warning: statement with no effect [-Wunused-value]"
	# a host that cannot read the source counts columns in bytes, a
	# tab as one: line 25's warning is at 25:4 there (the parity
	# report compares warnings by file and line)
	farm_unit local bytes -fdiagnostics-column-unit=byte
	run -1 diff "$d/local.diag" "$d/bytes.diag"
	assert_output "4c4
< $d/warn.c:25:11: warning: statement with no effect [-Wunused-value]
---
> $d/warn.c:25:4: warning: statement with no effect [-Wunused-value]"
	before=$(farm_jobs distcc)
	farm_unit distcc distcc
	assert_equal "$(cat "$d/distcc.status")" 0
	assert_equal "$(($(farm_jobs distcc) - before))" 1
	# fully preprocessed, PEEK would say "the comparison will always
	# evaluate as 'true'" [-Waddress]
	run -0 diff "$d/bytes.diag" "$d/distcc.diag"
	run -0 cmp "$d/local.d" "$d/distcc.d"
	run -0 cmp "$d/local.o" "$d/distcc.o"
	# the one difference: the host's GCC records -fdirectives-only
	# among its options (DW_AT_producer)
	run -1 diff "$d/local.info" "$d/distcc.info"
	sed 's/ -fdirectives-only//' "$d/distcc.info" >"$d/distcc.info-"
	run -0 diff "$d/local.info" "$d/distcc.info-"
}

@test "farm-cc: a gcc compile a host warned about is compiled again locally by icecc" {
	local d="$BATS_TEST_TMPDIR/unit"
	export FARM_CC=gcc
	farm_unit local local
	ICECC_DEBUG=debug ICECC_LOGFILE="$d/icecc.log" farm_unit icecc icecc
	assert_equal "$(cat "$d/icecc.status")" 0
	# GCC prints a warning's source line, which a host cannot read:
	# icecc's "caret workaround"
	run -0 grep -c ': command needs stdout/stderr workaround, recompiling locally$' "$d/icecc.log"
	assert_output 1
	run -0 awk -f "$TOP/scripts/farm/farm-jobs.awk" "$d/icecc.log"
	assert_output "local 1"
	run -0 diff "$d/local.diag" "$d/icecc.diag"
	run -0 cmp "$d/local.d" "$d/icecc.d"
	run -0 cmp "$d/local.o" "$d/icecc.o"
	run -0 diff "$d/local.info" "$d/icecc.info"
}

@test "farm-cc: with -Werror a clang compile fails on the farm as it does locally" {
	local e d="$BATS_TEST_TMPDIR/unit"
	need_tool clang
	farm_unit local local -Werror
	assert_equal "$(cat "$d/local.status")" 1
	for e in distcc icecc; do
		farm_unit "$e" "$e" -Werror
		assert_equal "$e $(cat "$d/$e.status")" "$e 1"
		# the client's preprocessing stops the compile at its errors
		run -0 cat "$d/$e.diag"
		assert_output "warn.c:12:5: error: 'FARM_UNDEFINED' is not defined, evaluates to 0 [-Werror,-Wundef]
warn.c:18:2: error: \"a warning of the preprocessor\" [-Werror,-W#warnings]"
	done
	run -0 cat "$d/local.diag"
	assert_line -n 0 "warn.c:12:5: error: 'FARM_UNDEFINED' is not defined, evaluates to 0 [-Werror,-Wundef]"
	assert_equal "${#lines[@]}" 3
}

@test "farm-cc: what is not the compile of one C file compiles locally" {
	local before
	need_tool clang
	before=$(farm_jobs distcc)
	eval "$(cat "$STATE/env")"
	run -0 --separate-stderr env DIST=distcc "$TOP/scripts/farm-cc.sh" clang -Werror -x c -c /dev/null -o "$BATS_TEST_TMPDIR/probe.o"
	run -0 --separate-stderr env DIST=distcc "$TOP/scripts/farm-cc.sh" clang -E "$TOP/tests/fixtures/farm/macros.h"
	assert_equal "$(farm_jobs distcc)" "$before"
	run -2 --separate-stderr "$TOP/scripts/farm-cc.sh"
	assert_equal "${stderr_lines[0]}" "usage: farm-cc.sh CC ARGS..."
}

@test "farm: a clang cell (LLVM=1) built on two iceccd has the local cell's layouts, warnings and code" {
	icecc_cell clang
}

# cross_sh DIR CC...: dist_setup with DIST=icecc and the cache in DIR for
# each CC in turn, as a bisect over compilers calls it, and after each
# "CC ICECC_VERSION" (or "CC unset")
cross_sh() {
	(
		export DIST=icecc KPARITY_CACHE_DIR="$1/cache"
		farm_lib 'dir="$1"
			shift
			for cc in "$@"; do
				dist_setup "$cc" "$dir" && echo "$cc ${ICECC_VERSION:-unset}"
			done' "$@"
	)
}

# cross_cc DIR CC: compile DIR/a.c with CC on icecc as DIR/farm.o, after
# dist_setup, icecc's log in DIR/log
cross_cc() {
	(
		export DIST=icecc KPARITY_CACHE_DIR="$1/cache"
		farm_lib 'dist_setup "$2" "$1" && cd "$1" &&
			ICECC_DEBUG=debug ICECC_LOGFILE=log "$(dist_command)" "$2" -O2 -c a.c -o farm.o' "$@"
	)
}

@test "farm: a cross GCC compiles on an iceccd, in an environment made once for it alone" {
	local d="$BATS_TEST_TMPDIR" env before inode
	need_tool arm-linux-gnueabi-gcc
	eval "$(cat "$STATE/env")"
	env="$d/cache/icecc/arm-linux-gnueabi-gcc.tar.gz"
	before=$(farm_jobs icecc)
	run -0 --separate-stderr cross_sh "$d" arm-linux-gnueabi-gcc gcc clang arm-linux-gnueabi-gcc
	assert_output "arm-linux-gnueabi-gcc $env=arm-linux-gnueabi
gcc unset
clang unset
arm-linux-gnueabi-gcc $env=arm-linux-gnueabi"
	assert_equal "$stderr" ""
	# each setup's probe compiled on a host
	assert_equal "$(($(farm_jobs icecc) - before))" 4
	printf 'int triple(int x)\n{\n\treturn x * 3;\n}\n' >"$d/a.c"
	run -0 --separate-stderr cross_cc "$d" arm-linux-gnueabi-gcc
	run -0 grep -c 'Have to use host' "$d/log"
	assert_output 1
	arm-linux-gnueabi-gcc -O2 -c "$d/a.c" -o "$d/local.o"
	run -0 cmp "$d/farm.o" "$d/local.o"
	# made once: another setup keeps the file
	inode=$(stat -c %i "$env")
	run -0 --separate-stderr cross_sh "$d" arm-linux-gnueabi-gcc
	assert_equal "$(stat -c %i "$env")" "$inode"
	run -0 ls "$d/cache/icecc"
	assert_output arm-linux-gnueabi-gcc.tar.gz
}

@test "farm: a caller's ICECC_VERSION is kept, and icecc's complaint about it named" {
	local d="$BATS_TEST_TMPDIR"
	need_tool arm-linux-gnueabi-gcc
	eval "$(cat "$STATE/env")"
	export ICECC_VERSION=/nonexistent.tar.gz
	run -0 --separate-stderr cross_sh "$d" arm-linux-gnueabi-gcc
	assert_output "arm-linux-gnueabi-gcc /nonexistent.tar.gz"
	assert_equal "$stderr" "kernel-build.sh: icecc compiled its probe with 'arm-linux-gnueabi-gcc' locally: \$ICECC_VERSION has to point to an existing file to be installed /nonexistent.tar.gz; building on what it finds"
	assert [ ! -e "$d/cache/icecc" ]
}

# The fault tests come last: each leaves a daemon of the farm dead.

@test "farm: with the icecc scheduler gone, the build says so in one line and compiles locally" {
	kill -KILL -- "-$(cat "$STATE/icecc-scheduler/pid")"
	eval "$(cat "$STATE/env")"
	run -0 --separate-stderr dist_setup_sh gcc DIST=icecc
	assert_equal "$stderr" "kernel-build.sh: icecc compiled its probe with 'gcc' locally: the iceccd of '$STATE/iceccd-0/socket' has no scheduler, or its scheduler no other host for 'gcc'; building on what it finds"
}
