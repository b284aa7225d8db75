#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# farm-cc.sh - one Clang compile on the farm (DIST=distcc or icecc) that
# gives what the same compile gives locally: the object, the warnings and
# the dependency file. ccache runs it (CCACHE_PREFIX), or make in front of
# the compiler, as "farm-cc.sh CC ARGS..."; scripts/lib/farm.sh sets it.
#
# A farm host compiles preprocessed source. Fully preprocessed (-E), the
# source has lost its macros: the host warns in every macro that hides a
# warning in a local compile (the kernel's: -Wunused-value and more), and
# rejects the preprocessor options left on its command line
# (-fmacro-prefix-map under -Werror=unused-command-line-argument). So the
# client here only inlines the #include files (-frewrite-includes, which
# also evaluates #if), and the host expands the macros as a local compile
# does. Diagnostics of the preprocessor that the host repeats (#warning,
# #pragma message) are printed twice, once by each side.
#
# icecc: it does this itself with ICECC_REMOTE_CPP=1. Its one fault is the
# dependency file: it sees -Wp,-MMD,FILE as naming no file and adds its own
# -MF (the object's name with .d), so Kbuild's file is never written. The
# option is given as -MMD -MF FILE -MT OBJ, which clang's driver makes of
# -Wp,-MMD,FILE anyway.
#
# distcc: it has no such mode, and strips -D and -U from what it sends. So
# the rewritten source goes to distcc as a .i file that starts with the
# source's own line marker (the name the debug information gives the unit)
# and the -D and -U options as #define and #undef lines. The host compiles
# it as preprocessed input (it still expands the macros defined in it),
# with -fmacro-prefix-map through -Xclang (the driver drops preprocessor
# options for a .i file) and -fdebug-compilation-dir the client's directory
# (distccd compiles in a temporary directory of its own); --target=T is
# given as -target T, the one spelling distcc sees before it adds a target
# of its own.
#
# Anything but the compile of one C file (assembler, a flag probe without
# -c or with -x) compiles locally.
# GCC goes to the engine as it is: ccache runs farm-cc.sh for GCC on
# icecc too, so that each icecc client logs to a file of its own
# (scripts/lib/farm.sh: dist_log); icecc's log is buffered, and the
# lines of clients sharing one file can tear.
#
# Exit: the compiler's (or the engine's) status; 2 trouble (usage).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=farm-cc.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/farm.sh
. "$TOPDIR/scripts/lib/farm.sh"

usage() {
	cat <<USAGE
usage: $PROG CC ARGS...
Compile with Clang CC on the farm DIST names (distcc or icecc) so that the
object, the warnings and the dependency file are a local compile's; any
other CC goes to the engine as it is.
USAGE
}

# takes_value OPTION: OPTION's value is the next argument (the options of
# this kind the kernel's command lines have, and a few more)
takes_value() {
	case "$1" in
	-o | -include | -imacros | -I | -isystem | -iquote | -idirafter | -D | -U | \
		-MF | -MT | -MQ | -Xclang | -target | --param | -mllvm | -meabi | -arch) return 0 ;;
	esac
	return 1
}

# scan CC ARGS...: set out and in when ARGS compile one C file (-c, -o OUT,
# one input IN.c), and fail otherwise.
scan() {
	local c=0 n=0

	out='' in=''
	shift
	while [ $# -gt 0 ]; do
		case "$1" in
		-c) c=1 ;;
		-o) [ $# -ge 2 ] || return 1; out="$2"; shift ;;
		-x | -E | -S | -M | -MM | -) return 1 ;;
		-*)
			if takes_value "$1"; then
				[ $# -ge 2 ] || return 1
				shift
			fi
			;;
		*.c) in="$1"; n=$((n + 1)) ;;
		*) return 1 ;;
		esac
		shift
	done
	[ "$c" = 1 ] && [ -n "$out" ] && [ "$n" = 1 ]
}

# define NAME[=VALUE]: the #define line of -DNAME[=VALUE]
define() {
	case "$1" in
	*=*) printf '#define %s %s\n' "${1%%=*}" "${1#*=}" ;;
	*) printf '#define %s 1\n' "$1" ;;
	esac
}

# defines ARGS...: the -D and -U options of ARGS as #define and #undef
# lines, in their order
defines() {
	while [ $# -gt 0 ]; do
		case "$1" in
		-D) define "$2"; shift ;;
		-D*) define "${1#-D}" ;;
		-U) printf '#undef %s\n' "$2"; shift ;;
		-U*) printf '#undef %s\n' "${1#-U}" ;;
		*) ! takes_value "$1" || shift ;;
		esac
		shift
	done
}

# rewrite CC ARGS...: the source with its #include files inlined and its
# macros left to the host, on stdout (Clang's -frewrite-includes, GCC's
# -fdirectives-only, which also keeps the #define lines); the dependency
# file as ARGS ask, naming the object
rewrite() {
	local i=0 n=$# a dep=0

	while [ "$i" -lt "$n" ]; do
		a="$1"
		shift
		i=$((i + 1))
		case "$a" in
		-c) ;;
		-o) shift; i=$((i + 1)) ;;
		-Wp,-MD,* | -Wp,-MMD,* | -MD | -MMD) set -- "$@" "$a"; dep=1 ;;
		*) set -- "$@" "$a" ;;
		esac
	done
	if is_clang "$1"; then
		# clang's driver names the object -o gives, -E none
		[ "$dep" = 0 ] || set -- "$@" -MT "$out"
		"$@" -E -frewrite-includes
	else
		# GCC's preprocessor names the object for the source either way
		"$@" -E -fdirectives-only
	fi
}

# is_clang CC: CC is a Clang
is_clang() {
	case "${1##*/}" in
	clang | clang-[0-9]*) return 0 ;;
	esac
	return 1
}

# distcc_compile FILE CC ARGS...: compile the rewritten source FILE with
# distcc, ARGS without what the rewriting did (includes, macros, the
# dependency file)
distcc_compile() {
	local file="$1" cc="$2" i=0 n a

	shift
	n=$#
	while [ "$i" -lt "$n" ]; do
		a="$1"
		shift
		i=$((i + 1))
		case "$a" in
		-include | -imacros | -I | -isystem | -iquote | -idirafter | -D | -U | -MF | -MT | -MQ)
			shift
			i=$((i + 1))
			;;
		-D* | -U* | -I* | -nostdinc | -Wp,* | -MD | -MMD | -MP | -MG) ;;
		-fmacro-prefix-map=*)
			! is_clang "$cc" || set -- "$@" -Xclang
			set -- "$@" "$a"
			;;
		-ffile-prefix-map=*)
			set -- "$@" "$a"
			! is_clang "$cc" || set -- "$@" -Xclang "-fmacro-prefix-map=${a#-ffile-prefix-map=}"
			;;
		# distcc gives clang a -target of the client's machine unless
		# it sees one, and it knows only this spelling
		--target=*) set -- "$@" -target "${a#--target=}" ;;
		"$in") set -- "$@" "$file" ;;
		*)
			if takes_value "$a"; then
				set -- "$@" "$a" "$1"
				shift
				i=$((i + 1))
			else
				set -- "$@" "$a"
			fi
			;;
		esac
	done
	if is_clang "$cc"; then
		distcc "$@" "-fdebug-compilation-dir=$(pwd -P)"
	else
		# the host expands the macros the rewriting kept
		distcc "$@" -fpreprocessed -fdirectives-only
	fi
}

# distcc_clang CC ARGS...
distcc_clang() {
	local tmp name rc=0

	tmp=$(mktemp -d "${TMPDIR:-/tmp}/kparity-farm-cc.XXXXXX") || die "cannot create a temporary directory"
	# shellcheck disable=SC2064 # the directory is known now
	trap "rm -rf '$tmp'" EXIT
	name=${in##*/}
	name="$tmp/${name%.c}.i"
	{
		printf '# 1 "%s"\n# 1 "<command line>" 1\n' "$in"
		defines "$@"
		printf '# 1 "%s" 2\n' "$in"
	} >"$name"
	rewrite "$@" >>"$name" || return
	distcc_compile "$name" "$@" || rc=$?
	return "$rc"
}

# distcc_gcc CC ARGS...
distcc_gcc() {
	local tmp name a

	# -fdirectives-only refuses -Wunused-macros: compile locally
	for a; do
		[ "$a" != -Wunused-macros ] || exec "$@"
	done
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/kparity-farm-cc.XXXXXX") || die "cannot create a temporary directory"
	# shellcheck disable=SC2064 # the directory is known now
	trap "rm -rf '$tmp'" EXIT
	name=${in##*/}
	name="$tmp/${name%.c}.i"
	rewrite "$@" >"$name" || return
	distcc_compile "$name" "$@"
}

# icecc_clang CC ARGS...
icecc_clang() {
	local i=0 n=$# a dep=0

	# with -Wunused-macros icecc sends fully preprocessed source
	# (-frewrite-includes would have the host warn of the macros of the
	# command line): compile locally
	for a; do
		[ "$a" != -Wunused-macros ] || exec "$@"
	done
	while [ "$i" -lt "$n" ]; do
		a="$1"
		shift
		i=$((i + 1))
		case "$a" in
		-Wp,-MMD,*) set -- "$@" -MMD -MF "${a#-Wp,-MMD,}"; dep=1 ;;
		-Wp,-MD,*) set -- "$@" -MD -MF "${a#-Wp,-MD,}"; dep=1 ;;
		*) set -- "$@" "$a" ;;
		esac
	done
	[ "$dep" = 0 ] || [ -z "$out" ] || set -- "$@" -MT "$out"
	ICECC_REMOTE_CPP=1
	export ICECC_REMOTE_CPP
	exec "$(dist_command)" "$@"
}

# icecc_log: with the directory of dist_log there, this client's log
# goes to a file of its own in it
icecc_log() {
	if [ -n "${ICECC_LOGFILE:-}" ] && [ -d "$ICECC_LOGFILE.d" ]; then
		ICECC_LOGFILE="$ICECC_LOGFILE.d/$$"
		export ICECC_LOGFILE
	fi
}

main() {
	local engine

	[ $# -ge 1 ] || { usage >&2; exit 2; }
	engine=$(dist_engine) || exit 2
	[ -n "$engine" ] || exec "$@"
	[ "$engine" != icecc ] || icecc_log
	if is_clang "$1"; then
		scan "$@" || exec "$@"
		"${engine}_clang" "$@"
	elif [ "$engine" = distcc ] && scan "$@"; then
		distcc_gcc "$@"
	else
		# icecc keeps GCC's macros for the host by itself
		exec "$(dist_command)" "$@"
	fi
}

main "$@"
