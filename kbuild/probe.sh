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
MAGIC='kparity-probe 1'

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

warn() {
	printf '%s: %s\n' "$PROG" "$*" >&2
}

die() {
	warn "$*"
	exit 2
}

NL='
'

# ---- the tool behind the name --------------------------------------------

# is_wrapper WORD: WORD names a compiler launcher, not a compiler
is_wrapper() {
	case "${1##*/}" in
	ccache | sccache | distcc | icecc | buildcache) return 0 ;;
	esac
	return 1
}

# find_real NAME: set real_run (what to run) and real_path (the binary)
# for NAME, looking past ccache's masquerade symlinks in PATH.
find_real() {
	local name="$1" dir resolved

	case "$name" in
	*/*)
		real_run="$name"
		real_path=$(readlink -f "$name") || return 1
		return 0
		;;
	esac
	local IFS=:
	for dir in $PATH; do
		[ -x "${dir:-.}/$name" ] || continue
		resolved=$(readlink -f "${dir:-.}/$name") || continue
		is_wrapper "$resolved" && continue
		real_run="${dir:-.}/$name"
		real_path="$resolved"
		return 0
	done
	return 1
}

# file_name TEXT: TEXT with '/' and blanks made '_', for a file name
file_name() {
	local IFS='/ 	'

	set -f
	# shellcheck disable=SC2086 # split on the separators on purpose
	set -- $1
	set +f
	IFS=_
	printf '%s\n' "$*"
}

# tool_identity CMD: set tool_run_words and tool_id for the
# command CMD ("ccache clang", "clang-19", "/opt/llvm/bin/clang ..."): the
# real binary, the words to run it with, and what identifies its answers.
tool_identity() {
	local word rest="" seen=""

	tool_id=""
	for word in $1; do
		if [ -z "$seen" ]; then
			case "$word" in
			*=*) continue ;;
			esac
			is_wrapper "$word" && continue
			seen="$word"
		else
			rest="$rest $word"
		fi
	done
	[ -n "$seen" ] || return 1
	find_real "$seen" || return 1
	tool_run_words="$real_run$rest"
	# Path, size, mtime and inode: an upgrade, an update-alternatives
	# switch or a swapped symlink all change at least one of them.
	tool_id="$real_path $(stat -L -c '%s %Y %i' "$real_path")$rest"
}

# tool_facts: set tool_version and tool_machine for tool_run_words, from
# the identity cache when it has them, so a warm cache runs no tool.
tool_facts() {
	local file="" line v="" m="" k=""

	if [ -n "$cachedir" ]; then
		file="$cachedir/tool-$(file_name "$tool_id")"
		if [ -f "$file" ] && [ -r "$file" ]; then
			{
				IFS= read -r line && [ "$line" = "$MAGIC" ] &&
					IFS= read -r k && IFS= read -r v && IFS= read -r m
			} <"$file" || :
			if [ "$k" = "id $tool_id" ] && [ -n "${v#version }" ] && [ -n "${m#machine }" ]; then
				tool_version="${v#version }"
				tool_machine="${m#machine }"
				return 0
			fi
			verbose "ignoring unusable cache entry '$file'"
		fi
	fi
	# shellcheck disable=SC2086 # the tool's words split on purpose
	tool_version=$(LC_ALL=C $tool_run_words --version 2>/dev/null | sed -n 1p) || :
	tool_machine=-
	# The target only matters for the cache key.
	# shellcheck disable=SC2086
	[ -z "$file" ] || tool_machine=$(LC_ALL=C $tool_run_words -dumpmachine 2>/dev/null) || :
	[ -n "$tool_version" ] || tool_version=unknown
	[ -n "$tool_machine" ] || tool_machine=unknown
	[ -z "$file" ] ||
		store "$file" "$MAGIC${NL}id $tool_id${NL}version $tool_version${NL}machine $tool_machine"
}

# tool_kind VERSION-LINE: print clang, gcc, lld, gnu-ld or other
tool_kind() {
	case "$1" in
	*clang*) echo clang ;;
	*LLD*) echo lld ;;
	*"GNU ld"* | *"GNU gold"*) echo gnu-ld ;;
	*gcc* | *GCC*) echo gcc ;;
	*) echo other ;;
	esac
}

# short_version VERSION-LINE KIND: "clang-14.0.6", "gcc-12.2.0": the last
# number with a dot in the line
short_version() {
	local w v=""

	set -f
	for w in $1; do
		w="${w#"${w%%[0-9]*}"}"
		w="${w%%[!0-9.]*}"
		case "$w" in
		[0-9]*.[0-9]*) v="${w%.}" ;;
		esac
	done
	set +f
	printf '%s-%s\n' "$2" "${v:-unknown}"
}

# identify CMD: set tool_run_words, tool_id, tool_version, tool_machine,
# kind and tool_hash (what the cache keys on) for the command CMD; 1 when
# there is no such tool
identify() {
	tool_identity "$1" || return 1
	tool_facts
	kind=$(tool_kind "$tool_version")
	tool_hash=$(printf 'id %s\nversion %s\nmachine %s\n' "$tool_id" "$tool_version" "$tool_machine" | md5sum)
	tool_hash="${tool_hash%% *}"
}

# identities NAME TOOL...: one NAME^=HASH,VERSION line per tool
identities() {
	while [ $# -ge 2 ]; do
		if identify "$2"; then
			printf '%s^=%s,%s\n' "$1" "$tool_hash" "$(short_version "$tool_version" "$kind")"
		else
			printf '%s^=-\n' "$1"
		fi
		shift 2
	done
}

# ---- the cache -------------------------------------------------------------

verbose() {
	[ "$verbose" = 0 ] || warn "$@"
}

# store FILE TEXT: write TEXT to FILE atomically; a concurrent writer of the
# same key writes the same text, and the last rename wins.
store() {
	local file="$1" tmp

	tmp="$file.tmp.$$"
	if ! printf '%s\n' "$2" >"$tmp" 2>/dev/null; then
		rm -f "$tmp"
		verbose "cannot write cache entry '$file'"
		return 0
	fi
	[ -n "$owner" ] || owner_of "$cachedir"
	[ -z "$owner" ] || chown "$owner" "$tmp" 2>/dev/null || :
	# mv would move the file into a directory of that name
	if [ -d "$file" ] || ! mv -f "$tmp" "$file" 2>/dev/null; then
		rm -f "$tmp"
	fi
}

# canon PATH: PATH made absolute and free of symlinks, as far as it exists
canon() {
	local head="$1" tail=""

	case "$head" in
	/*) ;;
	*) head="$PWD/$head" ;;
	esac
	while [ ! -d "$head" ]; do
		tail="/${head##*/}$tail"
		head="${head%/*}"
		[ -n "$head" ] || head=/
	done
	printf '%s%s\n' "$(cd "$head" && pwd -P)" "$tail"
}

# in_srctree PATH: PATH lies inside the kernel source tree
in_srctree() {
	[ -n "$srctree" ] || return 1
	case "$(canon "$1")/" in
	"$(canon "$srctree")"/*) return 0 ;;
	esac
	return 1
}

# owner_of DIR: set owner to the owner of DIR's nearest existing
# ancestor when running as root and that is someone else, and top to it.
# Run as root in a user's build tree (make modules_install), new files go
# to the tree's owner, so the next build as that user can still write.
owner_of() {
	owner=""
	top="$1"
	while [ ! -d "$top" ]; do
		top=$(dirname "$top")
	done
	[ "$(id -u)" = 0 ] || return 0
	owner=$(stat -c '%u:%g' "$top")
	[ "$owner" != 0:0 ] || owner=""
}

# make_dir DIR: mkdir -p DIR, created directories going to $owner
make_dir() {
	local d="$1"

	owner_of "$d"
	mkdir -p "$d" 2>/dev/null || return 1
	[ -n "$owner" ] || return 0
	while [ "$d" != "$top" ] && [ "$d" != / ] && [ "$d" != . ]; do
		chown "$owner" "$d" 2>/dev/null || :
		d=$(dirname "$d")
	done
}

# cache_setup DIR: use DIR for the cache unless it lies in the source tree
cache_setup() {
	local dir="$1"

	cachedir=""
	owner=""
	[ -n "$dir" ] || return 0
	if in_srctree "$dir"; then
		verbose "not caching in the source tree ('$dir')"
		return 0
	fi
	[ -d "$dir" ] || make_dir "$dir" || { verbose "cannot create cache '$dir'"; return 0; }
	cachedir=$(cd "$dir" 2>/dev/null && pwd -P) || {
		cachedir=""
		verbose "cannot use cache '$dir'"
	}
}

# unreadable DIR: an unread^=NAME line for each entry of the cache in DIR
# that make's $(file <) could not read (it stops make on an open or read
# error, and blocks on a FIFO): anything but a readable regular file.
# unread^=* when the whole cache is unusable or holds a name make would not
# ask for; make then leaves the reading to this script, which ignores them.
unreadable() {
	local dir="$1" f name

	[ -n "$dir" ] && [ -e "$dir" ] || return 0
	if [ -z "$cachedir" ] || [ ! -r "$cachedir" ]; then
		verbose "ignoring unreadable cache '$dir'"
		echo 'unread^=*'
		return 0
	fi
	for f in "$cachedir"/*; do
		[ -f "$f" ] && [ -r "$f" ] && continue
		[ -e "$f" ] || [ -L "$f" ] || continue
		name="${f##*/}"
		verbose "ignoring unreadable cache entry '$f'"
		case "$name" in
		*[!A-Za-z0-9._,+=:-]*)
			echo 'unread^=*'
			return 0
			;;
		esac
		printf 'unread^=%s\n' "$name"
	done
}

# The answers: bucket files of records, one a line after the magic line
# "kparity-probe-cache-2". A record is eight tab-separated fields: r,
# strict (0|1), macro, tool hash, linker hash (or -), base flags, option
# (both escaped: no tab or newline), and answer:reason:stock. The first
# seven, with a tab after each, are the key; kbuild/overlay.mk builds it
# and reads buckets too.
BUCKET_MAGIC=kparity-probe-cache-2
REASONS='ok|unknown-option|unknown-warning|ignored-optimization|unused-argument|option-ignored|unsupported-target|invalid-value|failed|rejected|driver-only'
MACROS='cc-option|cc-option-yn|__cc-option|cc-disable-warning|as-option|as-instr|ld-option|try-run'

# scan_bucket MODE FILE: with MODE find, print the answer field of $key's
# record; with MODE keep, print every valid record but $key's. Exit 3
# when FILE holds anything that is not a valid record.
scan_bucket() {
	KP_KEY="$key" awk -F '\t' -v mode="$1" -v magic="$BUCKET_MAGIC" \
		-v reasons="^([yn]):($REASONS):([yn-])\$" -v macros="^($MACROS)\$" '
	function hash(h) { return length(h) == 32 && h !~ /[^0-9a-f]/ }
	BEGIN { key = ENVIRON["KP_KEY"]; n = 0; bad = 0 }
	NR == 1 { if ($0 != magic) { bad = 2; exit } next }
	NF == 8 && $1 == "r" && $2 ~ /^[01]$/ && $3 ~ macros && hash($4) && ($5 == "-" || hash($5)) && $8 ~ reasons {
		if (substr($0, 1, length(key)) == key && length($0) == length(key) + length($8)) {
			n++
			found = $8
		} else if (mode == "keep") {
			print
		}
		next
	}
	{ bad = 1 }
	END {
		if (mode == "find" && bad != 2 && n == 1)
			print found
		exit bad ? 3 : 0
	}' "$2"
}

# cache_read FILE: set c_answer, c_reason, c_stock from $key's record in
# FILE; anything else is a miss.
cache_read() {
	local file="$1" field rc=0

	[ -e "$file" ] || return 1
	if [ ! -f "$file" ] || [ ! -r "$file" ]; then
		verbose "ignoring unreadable cache entry '$file'"
		return 1
	fi
	field=$(scan_bucket find "$file" 2>/dev/null) || rc=$?
	[ "$rc" = 0 ] || verbose "ignoring corrupt cache entry '$file'"
	[ -n "$field" ] || return 1
	c_answer="${field%%:*}"
	c_stock="${field##*:}"
	c_reason="${field#*:}"
	c_reason="${c_reason%:*}"
}

# cache_write FILE FIELD: put $key's record, answer field FIELD, in FILE.
# Writers of one cache take turns (flock on the directory) and replace the
# file by renaming, so readers see the old file or the new one, never half
# of one, and no writer's record is lost.
cache_write() {
	local file="$1" tmp="$1.tmp.$$"

	[ -n "$owner" ] || owner_of "$cachedir"
	(
		if command -v flock >/dev/null 2>&1; then
			flock -x 9 || :
		fi
		{
			printf '%s\n' "$BUCKET_MAGIC"
			[ ! -f "$file" ] || scan_bucket keep "$file" 2>/dev/null || :
			printf '%s%s\n' "$key" "$2"
		} >"$tmp" 2>/dev/null || { rm -f "$tmp"; exit 1; }
		[ -z "$owner" ] || chown "$owner" "$tmp" 2>/dev/null || :
		if [ -d "$file" ] || ! mv -f "$tmp" "$file" 2>/dev/null; then
			rm -f "$tmp"
			exit 1
		fi
	) 9<"$cachedir" || verbose "cannot write cache entry '$file'"
}

# ---- running the tool --------------------------------------------------------

# run_capture CMD...: run CMD with stdin from $stdin_text (or /dev/null),
# set rc and err (its stderr)
run_capture() {
	rc=0
	if [ -n "$stdin_text" ]; then
		err=$(printf '%b\n' "$stdin_text" | LC_ALL=C "$@" 2>&1 >/dev/null) || rc=$?
	else
		err=$(LC_ALL=C "$@" 2>&1 >/dev/null </dev/null) || rc=$?
	fi
}

# needles: the strings a diagnostic about the probed option would quote:
# each option word, and the parts of -Wl,/-Wa,/-Xassembler lists.
needles() {
	local w IFS=' '

	for w in $opt_words; do
		printf '%s\n' "$w"
		case "$w" in
		-Wl,* | -Wa,* | -Wp,*)
			printf '%s\n' "${w#-W?,}" | tr ',' '\n'
			;;
		-W*=* | -f*=* | -m*=* | --*=*)
			printf '%s\n' "${w%%=*}="
			;;
		esac
	done | sed '/^$/d'
}

# about_option LINE: LINE is a diagnostic that names the probed option
about_option() {
	local n

	for n in $needle_list; do
		case "$1" in
		*"'$n'"* | *"‘$n’"* | *"'$n"* | *"‘$n"* | *" $n "* | *" $n" | *"$n:"*) return 0 ;;
		esac
	done
	return 1
}

# classify LINE: print the reason a diagnostic line gives
classify() {
	case "$1" in
	*"optimization flag"* | *ignored-optimization-argument*) echo ignored-optimization ;;
	*"unknown warning option"*) echo unknown-warning ;;
	*"argument unused during compilation"* | *"input unused"* | *unused-command-line-argument*) echo unused-argument ;;
	*"ignoring '"* | *option-ignored*) echo option-ignored ;;
	*"unsupported option"* | *"not supported for target"* | *"unsupported argument"* | *"is not supported"*) echo unsupported-target ;;
	*"unknown argument"* | *"unrecognized command"* | *"unrecognized option"* | *"unrecognized argument"* | *"unknown -z value"* | *" ignored"*) echo unknown-option ;;
	*invalid*) echo invalid-value ;;
	*) echo rejected ;;
	esac
}

# judge: from rc and err, set answer and reason. Strict: any diagnostic
# that names the option rejects it. Stock: the exit status alone.
judge() {
	local line why=""

	needle_list=$(needles | tr '\n' ' ')
	while IFS= read -r line; do
		case "$line" in
		*error:* | *warning:* | *error\ :* | *"unknown argument"* | *"unrecognized option"*) ;;
		*) continue ;;
		esac
		case "$macro" in
		as-instr)
			case "$line" in
			*"<stdin>"* | *"{standard input}"*) why=$(classify "$line"); break ;;
			esac
			;;
		*)
			if about_option "$line"; then
				why=$(classify "$line")
				break
			fi
			;;
		esac
	done <<EOF
$err
EOF
	if [ "$rc" -eq 0 ] && [ -z "$why" ]; then
		answer=y
		reason=ok
	elif [ "$rc" -ne 0 ] && [ -z "$why" ]; then
		answer=n
		reason=failed
	else
		answer=n
		reason="$why"
	fi
	[ "$strict" = 1 ] || answer=$([ "$rc" -eq 0 ] && echo y || echo n)
}

# stock_cmd: set the command stock Kbuild would run, in "$@" style words
# of cmd_words (newline separated), for the macro being answered.
stock_run() {
	local tmp="$1"

	stdin_text=""
	# shellcheck disable=SC2086 # flag lists split on whitespace, as in Kbuild
	case "$macro" in
	cc-option | cc-option-yn | __cc-option | cc-disable-warning)
		run_capture $tool_run_words -Werror $base $opt -c -x c /dev/null -o "$tmp" ;;
	as-option)
		run_capture $tool_run_words -Werror $base $opt -c -x assembler-with-cpp /dev/null -o "$tmp" ;;
	as-instr)
		stdin_text="$opt"
		run_capture $tool_run_words -Werror $base -c -x assembler-with-cpp -o "$tmp" - ;;
	ld-option)
		run_capture $tool_run_words $base $opt -v ;;
	esac
}

# without_q: base flags minus -Qunused-arguments, which 6.1 adds for clang
# and which would hide the very warning strict probing looks for.
without_q() {
	local w out=""

	for w in $base; do
		[ "$w" = -Qunused-arguments ] || out="$out $w"
	done
	printf '%s\n' "$out"
}

# link_only: every option word only matters when linking
link_only() {
	local w

	[ -n "$opt_words" ] || return 1
	for w in $opt_words; do
		case "$w" in
		-fuse-ld=* | --ld-path=* | -Wl,* | -rtlib=* | -unwindlib=* | -rdynamic | -static-libgcc | -nostartfiles | -nodefaultlibs) ;;
		*) return 1 ;;
		esac
	done
}

# strict_run TMP: probe an LLVM tool in the mode the option is used in
strict_run() {
	local tmp="$1" b rc0 err0

	b=$(without_q)
	stdin_text=""
	# shellcheck disable=SC2086
	case "$macro" in
	cc-option | cc-option-yn | __cc-option | cc-disable-warning)
		if link_only; then
			run_capture $tool_run_words $b $opt -nostdlib -x c /dev/null -o "$tmp"
			judge
			[ "$rc" -ne 0 ] && [ "$reason" = failed ] || return 0
			# The link failed without naming the option: did it
			# fail without the option too (no linker for the target)?
			rc0="$rc" err0="$err"
			run_capture $tool_run_words $b -nostdlib -x c /dev/null -o "$tmp"
			if [ "$rc" -eq 0 ]; then
				rc="$rc0" err="$err0"
				judge
				return 0
			fi
			run_capture $tool_run_words $b $opt -### -nostdlib -x c /dev/null -o "$tmp"
			judge
			[ "$answer" = n ] || reason=driver-only
			return 0
		fi
		run_capture $tool_run_words $b $opt -Wno-error -c -x c /dev/null -o "$tmp" ;;
	as-option)
		run_capture $tool_run_words $b $opt -Wno-error -c -x assembler-with-cpp /dev/null -o "$tmp" ;;
	as-instr)
		stdin_text="$opt"
		run_capture $tool_run_words $b -Wno-error -c -x assembler-with-cpp -o "$tmp" - ;;
	ld-option)
		run_capture $tool_run_words $b $opt -v ;;
	esac
	judge
}

# try_run TMPDIR: stock try-run: the command's exit status decides
try_run() {
	# shellcheck disable=SC2034 # the command refers to $TMP
	local TMP="$1/tmp"

	rc=0
	(set -e; eval "$opt") >/dev/null 2>&1 </dev/null || rc=$?
	err=""
	answer=$([ "$rc" -eq 0 ] && echo y || echo n)
	reason=$([ "$rc" -eq 0 ] && echo ok || echo failed)
	stock=$answer
}

# live: run the probe; set answer, reason, stock ('-' if not computed)
live() {
	local t

	t=$(mktemp -d "${TMPDIR:-/tmp}/kparity-probe.XXXXXX")
	# shellcheck disable=SC2064 # the directory is fixed now
	trap "rm -rf '$t'" EXIT
	if [ "$macro" = try-run ]; then
		try_run "$t"
	elif [ "$strict" = 1 ] && { [ "$kind" = clang ] || [ "$kind" = lld ]; }; then
		strict_run "$t/tmp"
		stock=-
		if [ "$want_stock" = 1 ]; then
			local a="$answer" r="$reason"
			stock_run "$t/tmp"
			stock=$([ "$rc" -eq 0 ] && echo y || echo n)
			answer="$a" reason="$r"
		fi
	else
		# GCC and GNU binutils: stock Kbuild's own question and answer
		stock_run "$t/tmp"
		judge
		answer=$([ "$rc" -eq 0 ] && echo y || echo n)
		stock="$answer"
	fi
	rm -rf "$t"
	trap - EXIT
}

# audit_line SOURCE: one tab-separated audit record
audit_line() {
	local flag

	[ -n "$auditlog" ] || return 0
	flag=$(printf '%s' "$shown" | tr '\t\n' '  ')
	if [ ! -e "$auditlog" ]; then
		make_dir "$(dirname "$auditlog")" || :
		: >>"$auditlog" 2>/dev/null || :
		[ -z "$owner" ] || chown "$owner" "$auditlog" 2>/dev/null || :
	fi
	# One short line in O_APPEND mode: concurrent makes do not mix lines.
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$macro" "$flag" \
		"$(short_version "$tool_version" "$kind")" "$answer" "$reason" "$1" "$stock" \
		>>"$auditlog" 2>/dev/null || verbose "cannot append to audit log '$auditlog'"
}

# valid_bucket NAME: NAME is a plain file name
valid_bucket() {
	case "$1" in
	'' | . | .. | */* | tool-*) return 1 ;;
	esac
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
	case "$macro" in
	cc-option | cc-option-yn | __cc-option | cc-disable-warning | as-option | as-instr | ld-option | try-run) ;;
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
