# SPDX-License-Identifier: GPL-2.0-only
# The build farm suites' helpers: a farm of two distccd, an icecc
# scheduler and two iceccd on the loopback (scripts/farm.sh), and farm
# cells: a local x86_64 cell copied, the objects of init/ removed and
# compiled again on the farm, compared with the local cell. Loaded after
# common.bash.
# shellcheck disable=SC2016,SC2154 # single quotes for the inner shell; bats' run sets status, output and lines

# farm_setup_file: start the farm in $BUILD/farm/state, and build the local
# x86_64 cells of gcc and clang that farm cells are copied from
farm_setup_file() {
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

# farm_teardown_file: stop the farm and remove the farm cells
farm_teardown_file() {
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
