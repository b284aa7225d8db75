#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# farm.sh - a test build farm on this machine's loopback: distccd daemons
# on 127.0.0.2, 127.0.0.3, ... (port 3632 each), and an icecc scheduler
# with iceccd daemons inside a network namespace of their own, whose only
# interface is its loopback. Nothing listens on any other address.
#
# Everything the farm has lives in STATEDIR: per daemon a directory with
# its log and pid (owned by the user the daemon runs as), and 'env', the
# settings a build needs to use the farm (DIST=... with DISTCC_HOSTS, or
# the iceccd socket). 'stop' ends every daemon 'start' started, and only
# those, by the process group recorded for each.
#
# Exit: 0 ok (status: every daemon runs), 1 status: a daemon is not
# running, 2 trouble (usage, a daemon that does not come up).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=farm.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

# How long a daemon may take to come up (iceccd logs in to the scheduler
# within a few seconds).
START_TIMEOUT=60
# The daemons compile at the niceness kparity's own builds run at, so that
# a loopback farm takes no more of a shared machine than a local build.
NICE=10

usage() {
	cat <<USAGE
usage: $PROG [-d STATEDIR] [-n N] [-e ENGINES] start|stop|status|env
       $PROG [-d STATEDIR] kill-after DAEMON JOBS
Run a test build farm on the loopback (default STATEDIR: build/farm).
  start       start N distccd (127.0.0.2...) and an icecc scheduler with N
              iceccd in a network namespace; wait until they are ready
  stop        stop every daemon of STATEDIR
  status      one line per daemon: name, address, running or stopped, jobs
  env         the shell settings that build on the farm: distcc's, then
              icecc's ('eval "\$($PROG env)"', then DIST=distcc or icecc)
  kill-after  wait until DAEMON (distccd-1, iceccd-2, ...) has finished
              JOBS compile jobs in all (as status counts them), then kill
              it (SIGKILL), for fault tests
  -d STATEDIR  where pids, logs and env live
  -n N         daemons per engine (default 2)
  -e ENGINES   engines to start, of: distcc icecc (default both)
USAGE
}

# daemon_user NAME: the user a daemon started by root runs as: NAME if the
# system has it (the Debian packages create distccd and icecc), else nobody.
daemon_user() {
	if id "$1" >/dev/null 2>&1; then
		printf '%s\n' "$1"
	else
		printf 'nobody\n'
	fi
}

# daemon_dir NAME USER: create STATEDIR/NAME for a daemon running as USER.
daemon_dir() {
	rm -rf "${state:?}/$1"
	mkdir -p "$state/$1"
	[ "$(id -u)" != 0 ] || chown "$2" "$state/$1"
}

# follow FILE SECONDS CMD...: run CMD (at most SECONDS) on FILE's lines as
# they are written, from the first; tail -F wakes on every write, so this
# waits without polling. Returns CMD's status (124: out of time).
follow() {
	local file="$1" limit="$2" fifo tpid rc=0

	shift 2
	fifo=$(mktemp -u "$state/.follow.XXXXXX")
	mkfifo "$fifo"
	tail -n +1 -F "$file" >"$fifo" 2>/dev/null &
	tpid=$!
	timeout "$limit" "$@" <"$fifo" || rc=$?
	kill "$tpid" 2>/dev/null || :
	wait "$tpid" 2>/dev/null || :
	rm -f "$fifo"
	return "$rc"
}

# wait_log FILE TEXT WHAT: wait (at most START_TIMEOUT seconds) until FILE
# has a line containing TEXT; a daemon that logs an error or its exit
# first did not come up, and its last error line says why.
wait_log() {
	follow "$1" "$START_TIMEOUT" grep -q -m 1 -e "$2" -e 'ERROR' -e 'exit: code' || :
	grep -q -e "$2" "$1" 2>/dev/null && return 0
	die "$3 did not come up: $(grep -e ERROR -e rror "$1" 2>/dev/null | tail -n 1 |
		sed 's/^[^]]*\] //; s/^([a-z_]*) //')"
}

# spawn DIR CMD...: start CMD in a session of its own (its process group
# is its pid), record the pid in DIR/pid.
spawn() {
	local dir="$1"

	shift
	setsid "$@" </dev/null >>"$dir/stderr" 2>&1 &
	echo "$!" >"$dir/pid"
}

# compilers: the C compilers installed in /usr/bin that a build may name:
# gcc and clang, versioned or not, and the cross GCCs of kparity's targets
compilers() {
	find /usr/bin -maxdepth 1 \( -type f -o -type l \) -printf '%f\n' |
		grep -E '^((x86_64|aarch64|arm)-linux-gnu(eabi|eabihf)?-)?(gcc|clang)(-[0-9.]+)?$' | sort
}

# distcc_whitelist: distccd 3.3 and later runs only the compilers linked
# in /usr/lib/distcc; make the links for every installed compiler (a
# compiler installed after distcc has none), and say which it runs.
distcc_whitelist() {
	local c missing="" runs=""

	for c in $(compilers); do
		[ -e "/usr/lib/distcc/$c" ] || missing="$missing $c"
	done
	if [ -n "$missing" ]; then
		[ "$(id -u)" = 0 ] || die "distccd would not run$missing (no link in /usr/lib/distcc): run update-distcc-symlinks as root"
		update-distcc-symlinks || die "update-distcc-symlinks failed"
	fi
	for c in $(compilers); do
		if [ -e "/usr/lib/distcc/$c" ]; then
			runs="$runs $c"
		else
			warn "distccd will not run '$c': update-distcc-symlinks made no link for it"
		fi
	done
	step DISTCC "runs${runs:- no compiler}"
}

# start_distcc: N distccd, the Kth on 127.0.0.(K+1):3632, 2 jobs each.
start_distcc() {
	local k=1 user dir addr hosts=""

	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" distccd distcc setsid || exit 2
	distcc_whitelist
	user=$(daemon_user distccd)
	while [ "$k" -le "$count" ]; do
		addr="127.0.0.$((k + 1))"
		dir="$state/distccd-$k"
		daemon_dir "distccd-$k" "$user"
		echo "$addr:3632" >"$dir/address"
		set -- distccd --daemon --no-detach --listen "$addr" --port 3632 \
			--allow 127.0.0.0/8 --jobs 2 --nice "$NICE" --log-file "$dir/log" --log-level info
		[ "$(id -u)" != 0 ] || set -- "$@" --user "$user"
		spawn "$dir" "$@"
		hosts="$hosts${hosts:+ }$addr:3632/2"
		k=$((k + 1))
	done
	k=1
	while [ "$k" -le "$count" ]; do
		wait_log "$state/distccd-$k/log" "preforking daemon started" "distccd-$k"
		k=$((k + 1))
	done
	mkdir -p "$state/distcc"
	{
		printf "DISTCC_HOSTS='%s'; export DISTCC_HOSTS\n" "$hosts"
		printf "DISTCC_DIR='%s'; export DISTCC_DIR\n" "$state/distcc"
	} >"$state/env.distcc"
}

# start_icecc: a network namespace with only its loopback, holding the
# client's iceccd (iceccd-0: no jobs of its own, the socket the builds
# talk to), the scheduler, and N iceccd that compile. Every address there
# is 127.0.0.1: the iceccd differ by port (10246...), and the client is
# told to treat 127.0.0.1 as a remote host (ICECC_TEST_REMOTEBUILD).
# The daemons also share a mount namespace in which /proc/stat is a copy
# that never changes: an iceccd reports itself too loaded for remote jobs
# while the CPU has under 10% idle time, and on one machine every other
# daemon's compiles, and the client's own work, count against it.
start_icecc() {
	local k=1 user ns

	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" iceccd icecc-scheduler icecc unshare nsenter ip setsid || exit 2
	[ "$(id -u)" = 0 ] || die "the icecc farm needs root: iceccd compiles in a chroot of each compiler's environment"
	user=$(daemon_user icecc)
	ICECC_TESTS=1
	export ICECC_TESTS
	daemon_dir iceccd-0 "$user"
	cat /proc/stat >"$state/iceccd-0/proc-stat"
	echo "127.0.0.1:10245 (client)" >"$state/iceccd-0/address"
	ICECC_TEST_SOCKET="$state/iceccd-0/socket"
	export ICECC_TEST_SOCKET
	# shellcheck disable=SC2016 # the inner shell expands them
	spawn "$state/iceccd-0" unshare -n -m sh -c \
		'ip link set lo up && mount --bind "$1" /proc/stat && shift && exec "$@"' sh \
		"$state/iceccd-0/proc-stat" \
		iceccd --nice "$NICE" --no-remote -m 0 -s 127.0.0.1 -p 10245 -n kparity -N iceccd-0 \
		-b "$state/iceccd-0/envs" -l "$state/iceccd-0/log" -u "$user" -vvv
	ns=$(cat "$state/iceccd-0/pid")
	wait_log "$state/iceccd-0/log" "ICECREAM daemon" "iceccd-0"
	daemon_dir icecc-scheduler "$user"
	echo "127.0.0.1:8765" >"$state/icecc-scheduler/address"
	spawn "$state/icecc-scheduler" nsenter -t "$ns" -n -m \
		icecc-scheduler -n kparity -l "$state/icecc-scheduler/log" -u "$user" -vvv
	wait_log "$state/icecc-scheduler/log" "scheduler ready" "icecc-scheduler"
	while [ "$k" -le "$count" ]; do
		daemon_dir "iceccd-$k" "$user"
		echo "127.0.0.1:$((10245 + k))" >"$state/iceccd-$k/address"
		ICECC_TEST_SOCKET="$state/iceccd-$k/socket"
		spawn "$state/iceccd-$k" nsenter -t "$ns" -n -m iceccd --nice "$NICE" -m 2 -s 127.0.0.1 -p "$((10245 + k))" \
			-n kparity -N "iceccd-$k" -b "$state/iceccd-$k/envs" \
			-l "$state/iceccd-$k/log" -u "$user" -vvv
		k=$((k + 1))
	done
	k=0
	while [ "$k" -le "$count" ]; do
		wait_log "$state/iceccd-$k/log" "Connected to scheduler" "iceccd-$k"
		k=$((k + 1))
	done
	# icecc sends a job to the iceccd the scheduler chose itself, over
	# TCP: it must run in the namespace too
	printf '#!/bin/sh\nexec nsenter -t %s -n icecc "$@"\n' "$ns" >"$state/icecc"
	chmod +x "$state/icecc"
	{
		printf "ICECC_TEST_SOCKET='%s'; export ICECC_TEST_SOCKET\n" "$state/iceccd-0/socket"
		printf "ICECC_TEST_REMOTEBUILD=1; export ICECC_TEST_REMOTEBUILD\n"
		printf "KPARITY_ICECC='%s'; export KPARITY_ICECC\n" "$state/icecc"
	} >"$state/env.icecc"
}

# daemons: the daemon directories of STATEDIR, one per line.
daemons() {
	local d

	for d in "$state"/distccd-* "$state"/icecc-scheduler "$state"/iceccd-*; do
		[ -f "$d/pid" ] && basename "$d"
	done
	return 0
}

# running NAME: the daemon's process is alive.
running() {
	local pid

	pid=$(cat "$state/$1/pid" 2>/dev/null) || return 1
	kill -0 "$pid" 2>/dev/null
}

# jobs_of NAME: how many compile jobs the daemon finished (its log's word).
jobs_of() {
	case "$1" in
	distccd-*) grep -c 'COMPILE_OK' "$state/$1/log" 2>/dev/null || : ;;
	# the scheduler records where each job ran
	iceccd-*) grep -c -e ": END [0-9]* status=0 .* server=$1\$" "$state/icecc-scheduler/log" 2>/dev/null || : ;;
	*) grep -c ': END [0-9]* status=0 ' "$state/$1/log" 2>/dev/null || : ;;
	esac
}

cmd_start() {
	local e

	[ "$(daemons)" = "" ] || die "a farm is running in '$state' ('$PROG -d $state stop' first)"
	mkdir -p "$state"
	rm -f "$state/env" "$state/env.distcc" "$state/env.icecc"
	trap 'cmd_stop >/dev/null 2>&1' EXIT
	for e in $engines; do
		case "$e" in
		distcc) start_distcc ;;
		icecc) start_icecc ;;
		*) die "unknown engine '$e' (known: distcc icecc)" ;;
		esac
	done
	trap - EXIT
	cat "$state"/env.* >"$state/env"
	cmd_status
}

cmd_stop() {
	local name pid

	for name in $(daemons); do
		pid=$(cat "$state/$name/pid")
		kill -KILL "-$pid" 2>/dev/null || :
		# the group is gone once its leader is reaped; tail wakes on it
		timeout 10 tail --pid="$pid" -f /dev/null || :
		rm -f "$state/$name/pid"
		step STOP "$name"
	done
}

cmd_status() {
	local name rc=0

	for name in $(daemons); do
		if running "$name"; then
			printf '%s %s running, %s jobs\n' "$name" "$(cat "$state/$name/address")" "$(jobs_of "$name")"
		else
			printf '%s %s stopped, %s jobs\n' "$name" "$(cat "$state/$name/address")" "$(jobs_of "$name")"
			rc=1
		fi
	done
	return "$rc"
}

cmd_env() {
	[ -f "$state/env" ] || die "no farm in '$state' ('$PROG -d $state start' first)"
	cat "$state/env"
}

# cmd_kill_after NAME JOBS: block until NAME's log shows JOBS finished
# jobs, then kill its process group.
cmd_kill_after() {
	local name="$1" n="$2" pattern pid

	is_positive "$n" || die "kill-after needs a positive number of jobs, not '$n'"
	running "$name" || die "no running daemon '$name' in '$state'"
	case "$name" in
	distccd-*) pattern='COMPILE_OK' ;;
	iceccd-*) pattern='Remote compilation completed with exit code 0' ;;
	*) die "kill-after counts the jobs of a distccd or iceccd, not '$name'" ;;
	esac
	# a day: the build that feeds it is what ends it. The shell's read
	# takes each line as it arrives; mawk waits for a full buffer of the
	# pipe, and grep -m N into /dev/null reads on past the Nth match, for
	# as long as the last jobs of a build may take
	# shellcheck disable=SC2016 # the inner shell expands them
	follow "$state/$name/log" 86400 sh -c 'c=0
		while IFS= read -r l; do
			case "$l" in *"$1"*) c=$((c + 1)); [ "$c" -lt "$2" ] || exit 0 ;; esac
		done
		exit 1' sh "$pattern" "$n"
	pid=$(cat "$state/$name/pid")
	kill -KILL "-$pid" 2>/dev/null || :
	timeout 10 tail --pid="$pid" -f /dev/null || :
	step KILLED "$name after $n jobs"
}

main() {
	local opt cmd abs

	state=build/farm
	count=2
	engines="distcc icecc"
	while getopts d:e:hn: opt; do
		case "$opt" in
		d) state="$OPTARG" ;;
		e) engines="$OPTARG" ;;
		n) count="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -ge 1 ] || { usage >&2; exit 2; }
	is_positive "$count" || die "-n needs a positive number, not '$count'"
	[ "$count" -le 8 ] || die "-n: at most 8 daemons per engine, not '$count'"
	# a fresh tree has no build/ yet: start makes STATEDIR
	[ "$1" != start ] || mkdir -p "$state" || die "cannot create '$state'"
	abs=$(abspath "$state") || die "'$state': no such directory"
	state="$abs"
	cmd="$1"
	shift
	case "$cmd" in
	start | stop | status | env)
		[ $# -eq 0 ] || { usage >&2; exit 2; }
		"cmd_$cmd"
		;;
	kill-after)
		[ $# -eq 2 ] || { usage >&2; exit 2; }
		cmd_kill_after "$1" "$2"
		;;
	*) usage >&2; exit 2 ;;
	esac
}

main "$@"
