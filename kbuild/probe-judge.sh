# SPDX-License-Identifier: GPL-2.0-only
#
# probe-judge.sh - asking the tool and judging its reply: stock Kbuild's
# question (the exit status decides), or for LLVM tools the strict one
# (any diagnostic that names the option rejects it).
#
# Sourced by kbuild/probe.sh (which sets PROG and TOPDIR, sources
# scripts/lib/common.sh and owns the option variables); not run.

# shellcheck shell=sh
# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
# shellcheck disable=SC2034,SC2154 # state shared with probe.sh and its other parts

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
	base_alone "$tmp" "$b"
}

# base_alone TMP BASE: a compile probe that failed without naming its
# option is asked again without it; when the base flags alone fail, the
# answer is n for every option, and the reason says so (base-rejected,
# with the diagnostic in base_err) rather than blaming the option
base_alone() {
	local rc0="$rc" err0="$err"

	[ "$reason" = failed ] || return 0
	case "$macro" in
	cc-option | cc-option-yn | __cc-option | cc-disable-warning)
		# shellcheck disable=SC2086 # flag lists split on whitespace
		run_capture $tool_run_words $2 -Wno-error -c -x c /dev/null -o "$1" ;;
	as-option)
		# shellcheck disable=SC2086
		run_capture $tool_run_words $2 -Wno-error -c -x assembler-with-cpp /dev/null -o "$1" ;;
	*) return 0 ;;
	esac
	if [ "$rc" -ne 0 ]; then
		base_err=$(printf '%s\n' "$err" | grep -m1 -E 'error|unknown|unrecognized' || printf '%s\n' "$err" | head -n 1)
		reason=base-rejected
	fi
	rc="$rc0" err="$err0"
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
