#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# probe.sh - answer one Kbuild probe ("does this tool accept this flag?")
# truthfully, cache the answer, and record it for the audit.
#
# kbuild/overlay.mk calls this through $(shell) for cc-option, as-option,
# as-instr, ld-option and try-run. It prints 'y' or 'n' and nothing else on
# stdout; Make turns that into the macro's result, so nothing read from the
# cache is ever used as Make code or shell code.
#
# Why not just the exit status, as stock Kbuild does: Clang warns about a
# flag it does not know or does not use and still exits 0, and 6.1 hides
# even the warning for unused arguments (-Qunused-arguments). A flag is
# supported when the tool accepts it, in the mode where it will be used,
# without a diagnostic about that flag. GCC and GNU ld answers are left
# exactly as stock Kbuild gives them; LLVM tools get the strict answer.
#
# Exit: 0 answered (y or n), 2 trouble (usage).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=kparity-probe
# Run as a command, the checkout is above this file; sourced (by the
# overlay's $(shell), to save a process) the caller sets TOPDIR.
case "$0" in
*probe.sh) TOPDIR="${0%probe.sh}.." ;;
esac
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=kbuild/probe-ident.sh
. "$TOPDIR/kbuild/probe-ident.sh"
# shellcheck source=kbuild/probe-cache.sh
. "$TOPDIR/kbuild/probe-cache.sh"
# shellcheck source=kbuild/probe-judge.sh
. "$TOPDIR/kbuild/probe-judge.sh"

usage() {
	cat <<USAGE
usage: probe.sh [-a AUDITLOG] [-d CACHEDIR] [-l LD] [-s SRCTREE] [-n] [-v] [-S]
                [-f FLAG] [-b BUCKET -k KEY -t HASH -T HASH]
                MACRO TOOL [BASEFLAG...] -- [OPTION...]
       probe.sh [-d CACHEDIR] [-s SRCTREE] [-v] -i NAME TOOL [NAME TOOL...]
Answer whether TOOL accepts OPTION on top of BASEFLAG..., print y or n.
MACRO is the Kbuild macro asking: cc-option, cc-option-yn, __cc-option,
cc-disable-warning, as-option, as-instr, ld-option or try-run. For as-instr
OPTION is the instruction text; for try-run it is the whole command.
  -a AUDITLOG  append one line per probe to AUDITLOG
  -d CACHEDIR  keep tool identities and answers in CACHEDIR (never inside
               SRCTREE)
  -f FLAG      the option as the audit log shows it (default: OPTION)
  -b BUCKET    the cache file in CACHEDIR that holds the answer to KEY
  -k KEY       the answer's record key, as kbuild/overlay.mk builds it
  -t HASH      the identity of TOOL that KEY names; -T that of LD
  -l LD        the linker, for try-run
  -n           stock answers only (no strict checking)
  -s SRCTREE   the kernel source tree, which must stay untouched
  -v           report ignored cache entries on stderr
  -S           also compute stock Kbuild's answer (for the audit)
  -i           print NAME^=HASH,VERSION (or NAME^=- when there is no such
               tool) for each tool command, HASH naming its identity, then
               unread^=BUCKET for each cache entry make must not read
USAGE
}

# verbose MSG...: warn only with -v
verbose() {
	[ "$verbose" = 0 ] || warn "$@"
}

# base_rejected: say once per build directory that the tool rejects the
# base flags themselves, so that every probe's n is not the option's fault
base_rejected() {
	local mark="${dir:+$dir/base-rejected}"

	[ -z "$mark" ] || [ ! -f "$mark" ] || return 0
	warn "$tool_run_words rejects the base flags alone, so every $macro probe answers n: $base_err (a GCC kernel's flags for another compiler: kbuild/flag-translate.sh)"
	[ -z "$mark" ] || : >"$mark" 2>/dev/null || :
}

# answer_probe: answer one probe, from the cache when it has the answer
answer_probe() {
	local file="" store=0 ld_hash=-

	cache_setup "$dir"
	identify "$tool" || {
		warn "cannot find the tool in '$tool'"
		echo n
		exit 0
	}
	if [ -n "$cachedir" ] && [ -n "$key" ] && valid_bucket "$bucket"; then
		file="$cachedir/$bucket"
		if [ "$macro" = try-run ] && [ -n "$ld" ]; then
			ld_hash=$(identify "$ld" && echo "$tool_hash") || ld_hash=-
		fi
		# Store only under the identities the key names: a tool that
		# changed since make learnt them is answered, not cached.
		[ "$tool_hash" != "$want_hash" ] || [ "$ld_hash" != "$want_ld" ] || store=1
	fi
	if [ "$store" = 1 ] && cache_read "$file" &&
		{ [ "$want_stock" = 0 ] || [ "$c_stock" != - ]; }; then
		answer="$c_answer" reason="$c_reason" stock="$c_stock"
		audit_line cached
		echo "$answer"
		return 0
	fi
	live
	[ "$reason" != base-rejected ] || base_rejected
	[ "$store" = 0 ] || cache_write "$file" "$answer:$reason:$stock"
	audit_line live
	echo "$answer"
}

main() {
	local o ident=0

	auditlog="" dir="" ld="" srctree="" strict=1 verbose=0 want_stock=0
	shown="" bucket="" key="" want_hash="" want_ld=-
	while getopts a:b:d:f:hik:l:ns:t:T:vS o; do
		case "$o" in
		a) auditlog="$OPTARG" ;;
		b) bucket="$OPTARG" ;;
		d) dir="$OPTARG" ;;
		f) shown="$OPTARG" ;;
		i) ident=1 ;;
		k) key="$OPTARG" ;;
		l) ld="$OPTARG" ;;
		n) strict=0 ;;
		s) srctree="$OPTARG" ;;
		t) want_hash="$OPTARG" ;;
		T) want_ld="$OPTARG" ;;
		v) verbose=1 ;;
		S) want_stock=1 ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ "$ident" = 1 ]; then
		if [ $# -lt 2 ] || [ $(($# % 2)) != 0 ]; then
			usage >&2
			exit 2
		fi
		cache_setup "$dir"
		identities "$@"
		unreadable "$dir"
		return 0
	fi
	[ $# -ge 2 ] || { usage >&2; exit 2; }
	macro="$1" tool="$2"
	shift 2
	case ",$kp_cache_macros," in
	*",$macro,"*) ;;
	*) die "unknown macro '$macro'" ;;
	esac
	if [ -n "$auditlog" ] && in_srctree "$auditlog"; then
		verbose "not writing an audit log in the source tree ('$auditlog')"
		auditlog=""
	fi
	[ -z "$auditlog" ] || want_stock=1
	base=""
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		base="$base $1"
		shift
	done
	[ $# -gt 0 ] || { usage >&2; exit 2; }
	shift
	opt="$*"
	[ -n "$shown" ] || shown="$opt"
	case "$macro" in
	as-instr | try-run) opt_words="" ;;
	*) opt_words="$opt" ;;
	esac
	answer_probe
}

main "$@"
