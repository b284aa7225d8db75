# SPDX-License-Identifier: GPL-2.0-only
#
# common.sh - the helpers every kparity script shares; sourced, not run.
#
# The caller sets PROG (the name its messages start with) before calling
# any of these, and TOPDIR (the checkout) when it uses what needs it.
# Exit codes follow the scripts' rule: 0 ok, 1 the answer is "no" or a
# check failed, 2 trouble (usage, bad input, a missing tool).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
# shellcheck shell=sh

# die MSG...
# Usage: die "cannot read '$file': no such file"
# Prints "PROG: MSG" on stderr and exits 2.
die() {
	printf '%s: %s\n' "$PROG" "$*" >&2
	exit 2
}

# warn MSG...
# Usage: warn "'$dir' has no .config; configuring afresh"
# Prints "PROG: MSG" on stderr and goes on.
warn() {
	printf '%s: %s\n' "$PROG" "$*" >&2
}

# step TAG TEXT
# Usage: step BUILD "x86_64-clang"
# One quiet progress line on stderr, in Kbuild's column layout.
step() {
	printf '  %-7s %s\n' "$1" "$2" >&2
}

# run_logged LOG CMD...
# Usage: run_logged "$objdir/build.log" make -C "$srcdir" ...
# Runs CMD with its output appended to LOG; with V=1 the command and its
# output are shown on stderr too. Returns CMD's exit status.
run_logged() {
	local log="$1" rc

	shift
	if [ "${V:-0}" = 1 ]; then
		printf '%s\n' "$*" >&2
		rm -f "$log.failed"
		{ "$@" 2>&1 || echo "$?" >"$log.failed"; } | tee -a "$log" >&2
		if [ -e "$log.failed" ]; then
			rc=$(cat "$log.failed")
			rm -f "$log.failed"
			return "$rc"
		fi
	else
		"$@" >>"$log" 2>&1
	fi
}

# stage_reason LOG RC NAME [last]
# Usage: reason=$(stage_reason "$cells/$t.swap.err" "$rc" kernel-swap.sh last)
# Why a stage that exited RC failed, for a report: the first (with last,
# the last) "SCRIPT.sh: ..." message in LOG, the stage's or one it ran;
# "NAME exited RC" when there is none.
stage_reason() {
	local r

	if [ "${4:-}" = last ]; then
		r=$(grep '^[a-z0-9_-]*\.sh: ' "$1" 2>/dev/null | tail -n 1) || :
	else
		r=$(grep -m 1 '^[a-z0-9_-]*\.sh: ' "$1" 2>/dev/null) || :
	fi
	r=${r%:}
	printf '%s\n' "${r:-$3 exited $2}"
}

# fmt_time SECONDS
# Usage: took=$(fmt_time 133)
# Prints a duration as 2m13s, or 9s under a minute.
fmt_time() {
	if [ "$1" -ge 60 ]; then
		printf '%dm%02ds\n' $(($1 / 60)) $(($1 % 60))
	else
		printf '%ds\n' "$1"
	fi
}

# json_str S
# Usage: printf '{"name":%s}' "$(json_str "$name")"
# Prints S as a JSON string: quotes, backslashes and every control
# character escaped (tab, CR and newline by name, the rest as \u00XX).
# Needs jq.
json_str() {
	printf '%s' "$1" | jq -R -s .
}

# median N...
# Usage: m=$(median 3 1 2)
# Prints the median of the numbers given, nothing when none is.
median() {
	[ $# -gt 0 ] || return 0
	printf '%s\n' "$@" | LC_ALL=C sort -g | awk '
		{ v[NR] = $1 }
		END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# is_positive VALUE
# Usage: is_positive "$jobs" || die "-j needs a positive number, not '$jobs'"
# Succeeds when VALUE is a whole number above zero, written in digits only.
is_positive() {
	case "$1" in
	'' | *[!0-9]*) return 1 ;;
	*[1-9]*) return 0 ;;
	*) return 1 ;;
	esac
}

# tree_version DIR
# Usage: have=$(tree_version "$srcdir") || die "'$srcdir' is not a kernel tree"
# Prints VERSION.PATCHLEVEL.SUBLEVEL of DIR's top Makefile. Prints nothing
# and returns 1 when DIR has no Makefile or it lacks any of the three.
tree_version() {
	[ -f "$1/Makefile" ] || return 1
	awk -F' *= *' '
		$1 == "VERSION" { v = $2 }
		$1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { s = $2 }
		$1 == "EXTRAVERSION" { exit }
		END {
			if (v !~ /^[0-9]+$/ || p !~ /^[0-9]+$/ || s !~ /^[0-9]+$/)
				exit 1
			print v "." p "." s
		}' "$1/Makefile"
}

# report_file BUILDDIR OUT NAME
# Usage: out=$(report_file "$abuild" "$out" codegen.json) || exit
# Prints OUT made absolute, or BUILDDIR/report/NAME when OUT is empty
# (creating BUILDDIR/report); one line and exit 2 when neither can be.
report_file() {
	if [ -z "$2" ]; then
		mkdir -p "$1/report" || die "cannot create '$1/report'"
		echo "$1/report/$3"
		return 0
	fi
	abspath "$2" || die "cannot write '$2': no such directory"
}

# abspath PATH
# Usage: out=$(abspath "$out") || die "'$out': no such directory"
# Prints PATH made absolute without resolving symlinks in its last part;
# PATH's directory must exist.
abspath() {
	local dir

	case "$1" in
	/*) dir=$(dirname "$1") ;;
	*) dir=$(dirname "$PWD/$1") ;;
	esac
	dir=$(cd "$dir" 2>/dev/null && pwd) || return 1
	case "$(basename "$1")" in
	.) printf '%s\n' "$dir" ;;
	..) dirname "$dir" ;;
	*) printf '%s/%s\n' "${dir%/}" "$(basename "$1")" ;;
	esac
}

# cache_dir BUILDDIR
# Usage: cache=$(cache_dir "$builddir")
# Prints the directory that keeps what is fetched or made once per machine
# (Debian packages, icecc environments): $KPARITY_CACHE_DIR, or
# BUILDDIR/cache. The directory is created, and printed as an absolute
# path, so that it still names the same place after a cd. Dies (exit 2)
# when it cannot be created.
cache_dir() {
	local dir="${KPARITY_CACHE_DIR:-$1/cache}"

	mkdir -p "$dir" 2>/dev/null || die "cannot create the cache directory '$dir'"
	abspath "$dir" || die "cannot create the cache directory '$dir'"
}

# words LIST
# Usage: targets=$(words "$TARGETS")
# Prints LIST (words separated by spaces or commas) on one line, separated
# by single spaces, repeats dropped, order kept.
words() {
	printf '%s\n' "$1" | tr ',' ' ' | tr -s ' ' '\n' | awk 'NF && !seen[$0]++' | paste -s -d ' ' -
}

# logged FILE CMD...
# Usage: logged "$dir/build.err" scripts/kernel-build.sh -o "$build" ...
# Runs CMD with its standard output dropped and its standard error both
# shown (on stderr) and kept in FILE, so that a report can quote it.
# Returns CMD's exit status.
logged() {
	local file="$1" rc=0 tee_pid

	shift
	rm -f "$file.fifo"
	mkfifo "$file.fifo"
	tee "$file" <"$file.fifo" >&2 &
	tee_pid=$!
	"$@" >/dev/null 2>"$file.fifo" || rc=$?
	wait "$tee_pid" || :
	rm -f "$file.fifo"
	return "$rc"
}
