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
# first).

load common

setup_file() {
	export BUILD=${KPARITY_BUILD:-$TOP/build}
	export STATE="$BUILD/farm/state"
	mkdir -p "$BUILD/farm"
	"$TOP/scripts/farm.sh" -d "$STATE" stop >/dev/null 2>&1 || :
	"$TOP/scripts/farm.sh" -d "$STATE" start >"$BUILD/farm/start.log" 2>&1
	export SRC
	SRC=$(KPARITY_SRC_QUIET=1 "$TOP/scripts/kernel-src.sh" -o "$BUILD")
	local c
	for c in gcc clang; do
		nice -n 10 "$TOP/scripts/kernel-build.sh" -o "$BUILD" -t x86_64 -c "$c" -j 2 >/dev/null 2>&1
	done
}

teardown_file() {
	"$TOP/scripts/farm.sh" -d "$STATE" stop >/dev/null 2>&1 || :
	rm -rf "$BUILD/farm/kernel"
}

setup() {
	need_tool distcc
	need_tool icecc
}

# jobs_now: "NAME JOBS" for every daemon of the farm, one per line.
jobs_now() {
	"$TOP/scripts/farm.sh" -d "$STATE" status | sed 's/^\([^ ]*\) .*, \([0-9]*\) jobs$/\1 \2/'
}

# jobs_of NAME: the jobs NAME has finished so far.
jobs_of() {
	jobs_now | awk -v n="$1" '$1 == n { print $2 }'
}

# farm_cell ENGINE COMPILER [ENV...]: copy the local x86_64 cell of
# COMPILER to $BUILD/farm/kernel/, remove what init/ compiled, and build
# it again with DIST=ENGINE through an empty ccache, the settings of
# farm.sh env, and ENV, in a mount namespace where the copy is mounted
# over the local cell: the same paths, so that the tools' absolute ones
# hold and the debug information can be compared. Leaves kernel-build.sh's
# status in $status and its stderr in $stderr, the cell in $CELL.
farm_cell() {
	local engine="$1"
	export COMPILER="$2"
	shift 2
	CELL="$BUILD/farm/kernel/x86_64-$COMPILER"
	REF="$BUILD/kernel/x86_64-$COMPILER"
	rm -rf "$CELL"
	mkdir -p "$BUILD/farm/kernel"
	cp -a "$REF" "$CELL"
	rm -f "$CELL/.kparity-built"
	find "$CELL/init" -name '*.o' ! -name 'built-in*' -delete
	eval "$(cat "$STATE/env")"
	run --separate-stderr unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh \
		"$CELL" "$REF" env DIST="$engine" KSRC="$SRC" CCACHE_DIR="$BATS_TEST_TMPDIR/ccache" "$@" \
		nice -n 10 "$TOP/scripts/kernel-build.sh" -o "$BUILD" -t x86_64 -c "$COMPILER" -j 2
}

# compiled: the C files the farm cell's build compiled
compiled() {
	grep -c '^  CC      ' "$CELL/build.log" || :
}

# same_code: every object the farm compiled in init/ is byte-identical to
# the local one without its debug information (version-timestamp.o holds
# the time of the link)
same_code() {
	local o
	for o in "$CELL"/init/*.o; do
		case "$o" in */built-in.a | */version-timestamp.o) continue ;; esac
		objcopy --strip-debug "$o" "$BATS_TEST_TMPDIR/farm.o"
		objcopy --strip-debug "$REF/init/${o##*/}" "$BATS_TEST_TMPDIR/local.o"
		cmp "$BATS_TEST_TMPDIR/farm.o" "$BATS_TEST_TMPDIR/local.o" || return 1
	done
}

# scheduled FROM: "SERVER JOBS" for the C files (not the /dev/null probes
# of flags, nor dist_setup's probe of the farm) the icecc scheduler placed
# from line FROM of its log on, that ended well
scheduled() {
	tail -n "+$1" "$STATE/icecc-scheduler/log" | awk '
		$4 == "NEW" && / [^ ]+\.c C [0-9]+$/ && !/\/probe\.c C / { src[$5] = 1 }
		$4 == "END" && src[$5] && / status=0 / { sub(/.* server=/, ""); n[$0]++ }
		END { for (s in n) print s, n[s] }' | sort
}

# scheduled_at FROM: scheduled FROM, each iceccd named by its address, as
# a client's log names it
scheduled_at() {
	local name jobs
	scheduled "$1" | while read -r name jobs; do
		echo "$("$TOP/scripts/farm.sh" -d "$STATE" status | awk -v n="$name" '$1 == n { print $2 }') $jobs"
	done
}

# client_jobs: where the farm cell's compile jobs ran, from the engine's
# client log in the cell (farm-jobs.awk, as parity.sh reads it)
client_jobs() {
	awk -f "$TOP/scripts/farm/farm-jobs.awk" "$CELL/farm.log"
}

# daemon_jobs LOCAL DAEMON JOBS...: the lines client_jobs prints when each
# DAEMON ran JOBS of the cell's compiles, by its own count, and LOCAL ran
# locally: the daemon's address for JOBS > 0, sorted, then local
daemon_jobs() {
	local n="$1"
	shift
	while [ $# -gt 0 ]; do
		[ "$2" -eq 0 ] || echo "$(cat "$STATE/$1/address") $2"
		shift 2
	done | LC_ALL=C sort
	echo "local $n"
}

# same_layouts: kabi dumps of the two vmlinux are identical
same_layouts() {
	"$KABI" dump --root "$SRC" "$CELL/vmlinux" >"$BATS_TEST_TMPDIR/farm.kabi"
	"$KABI" dump --root "$SRC" "$REF/vmlinux" >"$BATS_TEST_TMPDIR/local.kabi"
	diff -u "$BATS_TEST_TMPDIR/local.kabi" "$BATS_TEST_TMPDIR/farm.kabi"
}

# warnings_of LOG: warnings.sh's list for LOG's init/ files
warnings_of() {
	"$TOP/scripts/warnings.sh" -l -s "$SRC" "$1" | grep -E ' init/' || :
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

@test "farm: a clang cell (LLVM=1) built on two distccd has the local cell's layouts, warnings and code" {
	distcc_cell clang
}

# distcc_cell COMPILER: the cell of COMPILER built on the two distccd, and
# the jobs of each, by its own count and by the client's log
distcc_cell() {
	local before1 before2 n
	before1=$(jobs_of distccd-1)
	before2=$(jobs_of distccd-2)
	farm_cell distcc "$1" DISTCC_FALLBACK=0
	assert_equal "$status" 0
	n=$(compiled)
	echo "compiled $n; distccd-1 $(($(jobs_of distccd-1) - before1)), distccd-2 $(($(jobs_of distccd-2) - before2))" >&3
	assert [ "$n" -ge 8 ]
	# and each host's probe compile (dist_setup)
	assert_equal "$(($(jobs_of distccd-1) - before1 + $(jobs_of distccd-2) - before2))" "$((n + 2))"
	# the client's log says what the daemons say, without the probes
	run -0 client_jobs
	assert_output "$(daemon_jobs 0 distccd-1 $(($(jobs_of distccd-1) - before1 - 1)) \
		distccd-2 $(($(jobs_of distccd-2) - before2 - 1)))"
	run -0 same_layouts
	run -0 same_code
	run -0 warnings_of "$CELL/build.log"
	assert_output "$(warnings_of "$REF/warnings.log")"
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

@test "farm: a gcc cell built on two iceccd has the local cell's layouts, warnings and code" {
	icecc_cell gcc
}

@test "farm: a clang cell (LLVM=1) built on two iceccd has the local cell's layouts, warnings and code" {
	icecc_cell clang
}

# icecc_cell COMPILER: the cell of COMPILER built on the two iceccd, and
# the jobs of each, by the scheduler's count
icecc_cell() {
	local from n
	from=$(($(wc -l <"$STATE/icecc-scheduler/log") + 1))
	farm_cell icecc "$1"
	assert_equal "$status" 0
	n=$(compiled)
	run -0 scheduled "$from"
	echo "compiled $n; $(printf '%s, ' "${lines[@]}")" >&3
	assert_equal "$(printf '%s\n' "${lines[@]}" | awk '{ s += $2 } END { print s }')" "$n"
	# the clients' logs, as the report reads them: one file a client,
	# so no line is lost to another client's write
	run -0 client_jobs
	assert_output "$(scheduled_at "$from")
local 0"
	run -0 same_code
	run -0 same_layouts
	run -0 warnings_of "$CELL/build.log"
	assert_output "$(warnings_of "$REF/warnings.log")"
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

@test "farm: with the icecc scheduler gone, the build says so in one line and compiles locally" {
	kill -KILL -- "-$(cat "$STATE/icecc-scheduler/pid")"
	eval "$(cat "$STATE/env")"
	run -0 --separate-stderr dist_setup_sh gcc DIST=icecc
	assert_equal "$stderr" "kernel-build.sh: icecc compiled its probe with 'gcc' locally: the iceccd of '$STATE/iceccd-0/socket' has no scheduler, or its scheduler no other host for 'gcc'; building on what it finds"
}
