#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# flag-translate.sh - turn a GCC build's compiler flags into flags Clang
# takes: each flag Clang rejects is translated (kbuild/gcc-flags says how)
# or dropped, with the reason and what dropping it changes.
#
# Clang is the judge: the flags are compiled together on a one-line C file
# and every flag a diagnostic names is rejected, round after round, until
# Clang says nothing about any. Paths, macros and the file arguments
# (-I, -D, -include FILE, -MF FILE, sources...) are passed through untested.
#
# Exit: 0 done, 2 trouble (usage, no such compiler, or the flags fail with
# a diagnostic that names none of them: the base flags themselves).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=flag-translate.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

ROUNDS=6

usage() {
	cat <<USAGE
usage: $PROG [-c CC] [-t TRIPLE] [-a] [-n] [-o] [--] FLAG...
Decide, for each GCC FLAG, whether CC (default clang) takes it as it is,
takes a translation of it, or must go without it. Prints one line per
flag that is not kept, tab-separated:
  translate FLAG NEW CLASS WHY     (NEW: the words joined by commas)
  drop      FLAG -   CLASS WHY
CLASS is abi, security, tracing, codegen, diag or unknown (kbuild/gcc-flags).
  -c CC      the compiler to ask (default clang)
  -t TRIPLE  compile for TRIPLE (--target=TRIPLE), as a cross build does
  -a         print the flags kept as they are too (keep FLAG - - -)
  -n         translate nothing: drop each flag CC rejects (CC is another
             GCC; kbuild/gcc-flags' translations are Clang's words)
  -o         print the translated command line instead, one word per line
  -d FILE    do not judge: apply the decisions FILE holds (this script's
             output, with or without -a); flags it does not name are kept.
             With -o this is the compiler wrapper's fast path.
USAGE
}

# words ARG...: ARG one a line
words() {
	[ "$#" -eq 0 ] || printf '%s\n' "$@"
}

# split_args FILE ARG...: the flags to judge, one per line, in FILE
# (kbuild/flag-words.awk tells them from paths, macros and the like)
split_args() {
	local out="$1"

	shift
	words "$@" | awk -f "$TOPDIR/kbuild/flag-words.awk" \
		-f "$TOPDIR/kbuild/flag-split.awk" >"$out"
}

# judge CC TRIPLE FLAGFILE DECISIONS: the rounds
judge() {
	local cc="$1" triple="$2" flags="$3" out="$4" dir round final

	dir=$(dirname "$out")
	echo 'int kparity_flag_probe;' >"$dir/probe.c"
	awk '!seen[$0]++ { print $0 "\t" $0 }' "$flags" >"$dir/state"
	: >"$out"
	round=0
	final=0
	while :; do
		round=$((round + 1))
		# shellcheck disable=SC2046 # one flag per line, no spaces in flags
		set -- $(cut -f2 "$dir/state")
		# LC_ALL=C: GCC quotes a flag it names with ASCII quotes only then
		if LC_ALL=C "$cc" ${triple:+"--target=$triple"} ${unknown_warning:+"$unknown_warning"} \
			-c "$dir/probe.c" -o /dev/null "$@" >"$dir/diag" 2>&1; then
			rc=0
		else
			rc=$?
		fi
		awk -v final="$final" -v try="$try" -f "$TOPDIR/kbuild/flag-step.awk" \
			"$TOPDIR/kbuild/gcc-flags" "$dir/diag" "$dir/state" >"$dir/step"
		grep '^@decision ' "$dir/step" | sed 's/^@decision //' >>"$out" || :
		grep -v '^@decision ' "$dir/step" >"$dir/state.new" || :
		[ "$final" = 1 ] && break
		if cmp -s "$dir/state" "$dir/state.new"; then
			[ "$rc" = 0 ] || die "$cc rejects the flags without naming one: $(grep -m1 'error' "$dir/diag" || head -n1 "$dir/diag")"
			final=1
		fi
		mv "$dir/state.new" "$dir/state"
		[ "$round" -lt "$ROUNDS" ] || die "$cc: flags still rejected after $ROUNDS rounds: $(head -n1 "$dir/diag")"
	done
}

# command_line DECISIONS ARG...: the translated words, one per line; a
# flag DECISIONS does not name is kept (with -d, a flag the saved
# decisions never met: the probes' own options, a file's extra flags)
command_line() {
	local decisions="$1"

	shift
	words "$@" | awk -v table="$decisions" -f "$TOPDIR/kbuild/flag-words.awk" \
		-f "$TOPDIR/kbuild/flag-apply.awk"
}

main() {
	local cc=clang triple="" all=0 cmdline=0 saved=""

	try=1 unknown_warning=-Werror=unknown-warning-option
	while getopts c:t:anod:h opt; do
		case "$opt" in
		n) try=0 unknown_warning="" ;;
		d) saved="$OPTARG" ;;
		c) cc="$OPTARG" ;;
		t) triple="$OPTARG" ;;
		a) all=1 ;;
		o) cmdline=1 ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ -n "$saved" ]; then
		[ -r "$saved" ] || die "cannot read the decisions '$saved'"
		[ "$cmdline" = 1 ] || die "-d applies saved decisions to a command line: give -o too"
		command_line "$saved" "$@"
		return 0
	fi
	command -v "$cc" >/dev/null 2>&1 || die "no compiler '$cc' (install it, or name another with -c)"

	# global: the EXIT trap removes it
	ft_tmp=$(mktemp -d "${TMPDIR:-/tmp}/kparity-flags.XXXXXX")
	trap 'rm -rf "$ft_tmp"' EXIT
	split_args "$ft_tmp/flags" "$@"
	judge "$cc" "$triple" "$ft_tmp/flags" "$ft_tmp/decisions"
	if [ "$cmdline" = 1 ]; then
		command_line "$ft_tmp/decisions" "$@"
	else
		# in the order the flags were given
		awk -F '\t' -v all="$all" 'NR == FNR { d[$1] = $0; next }
			($0 in d) && !seen[$0]++ && (all || d[$0] !~ /^[^\t]*\tkeep\t/) { print d[$0] }' \
			"$ft_tmp/decisions" "$ft_tmp/flags"
	fi
}

main "$@"
