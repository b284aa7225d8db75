# SPDX-License-Identifier: GPL-2.0-only
#
# farm.sh - compile on a build farm: DIST=distcc or DIST=icecc puts the
# engine in front of the compiler of every kernel build; sourced, not run,
# after common.sh (it uses PROG, TOPDIR, die and warn).
#
# The hosts are named the engine's own way: DISTCC_HOSTS for distcc (no
# pump mode: its include server cannot follow a kernel tree's generated
# headers), the local iceccd (and through it the scheduler) for icecc.
# ccache stays in front: make's CC is "ccache CC" as without a farm, and
# ccache runs the engine (CCACHE_PREFIX) only for what it must compile, so
# a farm build has the same command lines as a local one and Kbuild does
# not rebuild a tree because the farm came or went. Without ccache CC is
# "distcc CC" or "icecc CC".

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
# shellcheck shell=sh

# dist_engine
# Usage: engine=$(dist_engine) || exit 2
# Prints the engine DIST names (distcc or icecc), nothing when DIST is
# empty or "none"; dies on any other value.
dist_engine() {
	case "${DIST:-}" in
	'' | none) ;;
	distcc | icecc) printf '%s\n' "$DIST" ;;
	*) die "DIST='$DIST' is none of distcc, icecc" ;;
	esac
}

# dist_cc CC
# Usage: CC=$(dist_cc "$cc_bin")
# Prints the CC make is given for the compiler CC: "ccache CC" when ccache
# is used (CCACHE_DISABLE is not 1 and ccache is installed), else
# "PREFIX CC" with a farm (dist_prefix), else CC. The caller runs dist_setup first, which
# exports CCACHE_PREFIX for ccache.
dist_cc() {
	local engine

	engine=$(dist_engine) || exit 2
	if [ "${CCACHE_DISABLE:-}" != 1 ] && command -v ccache >/dev/null; then
		printf 'ccache %s\n' "$1"
	elif [ -n "$engine" ]; then
		printf '%s %s\n' "$(dist_prefix)" "$1"
	else
		printf '%s\n' "$1"
	fi
}

# dist_setup CC BUILDDIR
# Usage: dist_setup "$cc_bin" "$builddir"
# With DIST set: check the engine is installed, its hosts are named and
# can compile with CC (each host is tried with a one-line C file: a host
# that refuses, or lacks CC, is dropped from DISTCC_HOSTS with one warning
# naming it and the cause), and export what ccache needs to run the engine.
# icecc's environment of a cross GCC is kept in $KPARITY_CACHE_DIR/icecc
# (default BUILDDIR/cache/icecc). Dies (exit 2) when no host is left.
# Without DIST, does nothing. Call it again for each compiler.
dist_setup() {
	local engine

	engine=$(dist_engine) || exit 2
	[ -n "$engine" ] || return 0
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" "$engine" || exit 2
	case "$engine" in
	distcc) distcc_setup "$1" ;;
	icecc)
		icecc_env "$1" "$(cache_dir "$2")/icecc"
		icecc_setup "$1"
		;;
	esac
	CCACHE_PREFIX=$(dist_prefix)
	DIST="$engine"
	export CCACHE_PREFIX DIST
}

# dist_log FILE
# Usage: dist_log "$objdir/farm.log"
# With DIST set: the engine's client logs to FILE (emptied) from now on,
# the engine's own record of where each job ran: DISTCC_LOG for distcc
# (its messages, those of a fallback too, go there, not to stderr),
# ICECC_LOGFILE with ICECC_DEBUG=debug for icecc (its debug level names
# the host of each job). icecc writes its log through a buffer, so lines
# of parallel clients sharing one file can tear: scripts/farm-cc.sh has
# each client write its own file in the directory FILE.d, which
# dist_log_end appends to FILE. Without DIST, removes FILE: no farm built
# what follows. Call it after dist_setup, whose probes are no jobs of the
# build.
dist_log() {
	local engine

	engine=$(dist_engine) || exit 2
	rm -rf "$1" "$1.d"
	case "$engine" in
	'') return 0 ;;
	distcc) DISTCC_LOG="$1"; export DISTCC_LOG ;;
	icecc)
		ICECC_LOGFILE="$1" ICECC_DEBUG=debug
		export ICECC_LOGFILE ICECC_DEBUG
		mkdir "$1.d" || die "cannot create '$1.d'"
		;;
	esac
	: >"$1" || die "cannot write '$1'"
}

# dist_log_end FILE
# Usage: dist_log_end "$objdir/farm.log"
# After the build (done or failed): append the clients' own logs in
# FILE.d (dist_log) to FILE, client by client, and remove FILE.d.
dist_log_end() {
	local f

	[ -d "$1.d" ] || return 0
	for f in "$1.d"/*; do
		[ ! -f "$f" ] || cat "$f"
	done >>"$1" || die "cannot write '$1'"
	rm -rf "$1.d"
}

# dist_jobs FILE
# Usage: dist_jobs "$kdir/farm.log" >jobs
# Prints where the compile jobs of the client log FILE (dist_log) ran:
# "HOST JOBS" per host, then "local JOBS" (scripts/farm/farm-jobs.awk). A
# missing FILE is a build that compiled nothing: "local 0".
dist_jobs() {
	if [ -e "$1" ]; then
		awk -f "$TOPDIR/scripts/farm/farm-jobs.awk" "$1"
	else
		echo "local 0"
	fi
}

# dist_prefix
# Usage: CCACHE_PREFIX=$(dist_prefix)
# The command put in front of the compiler: scripts/farm-cc.sh, which sends a
# host the source with its macros unexpanded, as a local compile sees
# them (Documentation/build-farm.md), and gives each icecc client a log
# of its own (dist_log).
dist_prefix() {
	echo "$TOPDIR/scripts/farm-cc.sh"
}

# dist_command
# Usage: CCACHE_PREFIX=$(dist_command)
# The command that runs the engine: distcc, or icecc unless KPARITY_ICECC
# names another (the test farm's, which runs icecc in its namespace).
dist_command() {
	case "$(dist_engine)" in
	distcc) echo distcc ;;
	icecc) echo "${KPARITY_ICECC:-icecc}" ;;
	esac
}

# distcc_setup CC: the distcc half of dist_setup.
distcc_setup() {
	local host good="" why probe

	[ -n "${DISTCC_HOSTS:-}" ] ||
		die "DIST=distcc needs DISTCC_HOSTS (for example '127.0.0.2/2 127.0.0.3/2'; scripts/farm.sh env prints a test farm's)"
	case " $DISTCC_HOSTS " in
	*,cpp*) die "DISTCC_HOSTS '$DISTCC_HOSTS' asks for pump mode (,cpp), which cannot build a kernel tree" ;;
	esac
	probe=$(mktemp -d "${TMPDIR:-/tmp}/kparity-distcc.XXXXXX") || die "cannot create a temporary directory"
	printf 'int kparity_probe(int x) { return x + 1; }\n' >"$probe/probe.c"
	for host in $DISTCC_HOSTS; do
		case "$host" in
		--randomize | --localslots=* | --localslots_cpp=*) good="$good $host"; continue ;;
		esac
		if why=$(distcc_probe "$probe" "$host" "$1"); then
			good="$good $host"
		else
			warn "distcc host '$host' cannot compile with '$1': $why; building without it"
		fi
	done
	rm -rf "$probe"
	case "$good" in
	*[!\ ]*) ;;
	*) die "no distcc host of '$DISTCC_HOSTS' can compile with '$1'" ;;
	esac
	DISTCC_HOSTS="${good# }"
	export DISTCC_HOSTS
}

# distcc_probe DIR HOST CC: compile DIR/probe.c with CC on HOST alone, no
# fallback; on failure print distcc's reason (its last ERROR line).
distcc_probe() {
	local out rc=0

	out=$(cd "$1" && DISTCC_HOSTS="$2" DISTCC_FALLBACK=0 DISTCC_DIR="$1" \
		distcc "$3" -c probe.c -o probe.o 2>&1) || rc=$?
	case "$rc" in
	0) return 0 ;;
	# distcc's exit codes (exitcode.h): the daemon found no such
	# compiler, or its whitelist (/usr/lib/distcc) lacks it
	110) echo "the host has no '$3' (distcc exit 110)"; return 1 ;;
	esac
	# a distccd hangs up on a compiler its whitelist lacks, and on a
	# client it does not allow; distcc's own message lists every cause
	case "$out" in
	*"server provided no answer"*)
		echo "the host hung up: its distccd does not run '$3' (no /usr/lib/distcc/$3 there) or does not allow this client"
		return 1
		;;
	esac
	printf '%s\n' "$out" | sed -n 's/^distcc\[[0-9]*\] \(([a-z_]*) \)\{0,1\}ERROR: //p' |
		grep -v 'failed to distribute and fallbacks are disabled' | tail -n 1 | grep . ||
		printf '%s\n' "$out" | tail -n 1
	return 1
}

# icecc_env CC DIR
# Usage: icecc_env "$cc_bin" "$cachedir/icecc"
# icecc hands a host the environment (compiler, assembler, libraries) of
# the local gcc or clang by itself, but a cross GCC's only when
# ICECC_VERSION names one: without it, icecc compiles locally. For a cross
# GCC (its -dumpmachine is not this machine's) export ICECC_VERSION as
# "ENV=PREFIX": ENV is DIR/CC.tar.gz, made by icecc-create-env (again when
# CC or its cc1 is newer), PREFIX is CC's name up to its last '-', as
# icecc reads a compiler's target from its name, so that no other
# compiler gets ENV. For any other CC, unset what an earlier call set. An
# ICECC_VERSION of the caller's is left as it is.
icecc_env() {
	local name path cc1 dir

	if [ -n "${ICECC_VERSION:-}" ] && [ "$ICECC_VERSION" != "${dist_icecc_version:-}" ]; then
		return 0
	fi
	unset ICECC_VERSION
	dist_icecc_version=""
	name=${1##*/}
	case "$name" in
	*-gcc | *-gcc-[0-9]*) ;;
	*) return 0 ;;
	esac
	case "$("$1" -dumpmachine)" in
	"$(uname -m)"-*) return 0 ;;
	esac
	path=$(command -v "$1") || die "cannot find the compiler '$1'"
	cc1=$("$1" -print-prog-name=cc1)
	mkdir -p "$2" || die "cannot create '$2'"
	dir=$(cd "$2" && pwd)
	if [ ! -s "$dir/$name.tar.gz" ] ||
		[ -n "$(find -L "$path" "$cc1" -newer "$dir/$name.tar.gz")" ]; then
		icecc_create_env "$path" "$dir/$name.tar.gz"
	fi
	ICECC_VERSION="$dir/$name.tar.gz=${name%-*}"
	dist_icecc_version="$ICECC_VERSION"
	export ICECC_VERSION
}

# icecc_create_env GCC FILE: make icecc's environment of GCC as FILE,
# through a temporary directory of FILE's (icecc-create-env writes into
# the current directory, under a name of its own). It wants a C++ driver
# too, which a kernel never runs and a cross toolchain may lack: GCC
# stands in for it.
icecc_create_env() {
	local tmp env

	tmp=$(mktemp -d "${2%/*}/new.XXXXXX") || die "cannot create a directory in '${2%/*}'"
	if ! (cd "$tmp" && icecc-create-env --gcc "$1" "$1") >"$tmp/log" 2>&1; then
		env=$(tail -n 1 "$tmp/log")
		rm -rf "$tmp"
		die "icecc-create-env cannot make an environment of '$1': $env"
	fi
	for env in "$tmp"/*.tar.gz; do
		mv "$env" "$2" || { rm -rf "$tmp"; die "cannot write '$2'"; }
	done
	rm -rf "$tmp"
}

# icecc_setup CC: the icecc half of dist_setup, after icecc_env. icecc
# asks the local iceccd, which asks the scheduler.
icecc_setup() {
	local sock probe why

	sock="${ICECC_TEST_SOCKET:-/var/run/icecc/iceccd.socket}"
	[ -S "$sock" ] ||
		die "DIST=icecc needs a running iceccd: no socket '$sock' (scripts/farm.sh env prints a test farm's)"
	# icecc compiles locally, silently, what its iceccd finds no host
	# for: try a one-line file with its log on
	probe=$(mktemp -d "${TMPDIR:-/tmp}/kparity-icecc.XXXXXX") || die "cannot create a temporary directory"
	printf 'int kparity_probe(int x) { return x + 1; }\n' >"$probe/probe.c"
	(cd "$probe" && ICECC_DEBUG=debug ICECC_LOGFILE="$probe/log" \
		"$(dist_command)" "$1" -c probe.c -o probe.o) >/dev/null 2>&1 || :
	if ! grep -q 'Have to use host' "$probe/log" 2>/dev/null; then
		# icecc's own word when it is ICECC_VERSION's fault
		why=$(sed -n 's/^ICECC\[[0-9]*\] [^ ]* [^ ]*: \(.*ICECC_VERSION.*\)$/\1/p' "$probe/log" 2>/dev/null | head -n 1)
		[ -n "$why" ] || why="the iceccd of '$sock' has no scheduler, or its scheduler no other host for '$1'"
		warn "icecc compiled its probe with '$1' locally: $why; building on what it finds"
	fi
	rm -rf "$probe"
}
