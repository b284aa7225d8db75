#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# compiler-bugs.sh - run the known-compiler-bug cases with every installed
# compiler and cross target, and say which results changed.
#
# A case is one C or assembly file in tests/compiler-bugs/ whose header records,
# per compiler family and version range, what the compiler did when the
# case was written (Documentation/compiler-bugs.md has the tag grammar).  Each
# compile runs under timeout(1); run cases are executed natively or under
# QEMU user mode.  The matrix goes to BUILDDIR/compiler-bugs/matrix.txt and
# matrix.json and to stdout, followed by the history: for each case and
# compiler family whose outcome changes with the version, the first
# version measured with each outcome (also in history.txt). Progress and
# malformed case files go to stderr.
#
# Exit: 0 every result is as recorded, 1 a result CHANGED (or nothing is
# recorded for it) or a case file is malformed, 2 trouble (usage, no
# working compiler, a missing tool).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=compiler-bugs.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
START_SRC="$TOPDIR/tests/compiler-bugs/lib/start.c"
TAB=$(printf '\t')

# The user-mode targets, in matrix order, and their data.
USER_TARGETS="$TOPDIR/scripts/targets/user-mode.list"
TARGETS=$(awk '!/^[ \t]*(#|$)/ { printf "%s%s", sep, $1; sep = " " }' "$USER_TARGETS")

# target_data TARGET: set t_triple, t_machine and t_qemu from its line in
# $USER_TARGETS; fail for an unknown TARGET.
target_data() {
	read -r t_triple t_machine t_qemu <<EOF
$(awk -v t="$1" '!/^[ \t]*#/ && $1 == t { print $2, $3, $4; exit }' "$USER_TARGETS")
EOF
	[ -n "$t_qemu" ]
}

# What every case command gets: kernel-like code generation, no C
# library, static links (so QEMU needs no target sysroot).
CASE_CFLAGS="-O2 -ffreestanding -fno-pie -fno-stack-protector"
CASE_LDFLAGS="-static -nostdlib"

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-d DIR] [-t SECONDS] [-j N] [-c COMPILER]...
                 [-T TARGET]... [--json] [CASE...]
Run every case in DIR (or the named ones) with every installed compiler
and print the matrix of outcomes; CHANGED marks a result that differs
from the case's record.
  -o BUILDDIR  where compiler-bugs/matrix.txt, matrix.json and work files go
               (default: build)
  -d DIR       the case directory (default: tests/compiler-bugs)
  -t SECONDS   time limit of each compile and each run (default: 60)
  -j N         compilers run at once (default: the number of CPUs)
  -c COMPILER  only this compiler: a family (gcc, clang) or a column
               name (gcc-12, clang-19); may be repeated
  -T TARGET    only this target (x86_64, arm, aarch64); may be repeated
  --json       print matrix.json instead of the text matrix
Environment: KABI (default BUILDDIR/kabi) measures layout cases; V=1
shows every command and its diagnostics.
USAGE
}

note() {
	printf '%s: %s\n' "$PROG" "$*" >&2
}

# shquote STRING: STRING as one single-quoted shell word
shquote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# in_list WORD LIST: is WORD one of the words of LIST
in_list() {
	case " $2 " in
	*" $1 "*) return 0 ;;
	*) return 1 ;;
	esac
}

# ---- case files ------------------------------------------------------

# parse_case FILE: the records of FILE's tags (scripts/compiler-bugs/compiler-bugs-parse.awk)
parse_case() {
	awk -v all_targets="$TARGETS" -f "$TOPDIR/scripts/compiler-bugs/compiler-bugs-parse.awk" "$1"
}

# tag_value TAGFILE KEY: the value of a single tag
tag_value() {
	awk -F "$TAB" -v k="$2" '$1 == k { print $2; exit }' "$1"
}

# check_patterns TAGFILE: print an error record for every pattern that
# grep -E cannot compile (awk and grep do not agree on every ERE)
check_patterns() {
	awk -F "$TAB" '$1 == "expect" && ($6 == "warn" || $6 == "reject") && $8 != "" { print $2 "\t" $8 }' "$1" |
	while IFS="$TAB" read -r line re; do
		rc=0
		grep -E -e "$re" </dev/null >/dev/null 2>&1 || rc=$?
		[ "$rc" -ne 2 ] || printf 'error\t%s\tgrep -E cannot compile the pattern /%s/\n' "$line" "$re"
	done
}

# load_cases: parse every selected case file into WORK/cases/NAME.tags;
# malformed ones are reported and listed in WORK/malformed.tsv
load_cases() {
	local f name display

	mkdir -p "$work/cases"
	: >"$work/malformed.tsv"
	: >"$work/cases.list"
	printf '%s\n' "$casedir"/*.c "$casedir"/*.S | sort | while IFS= read -r f; do
		[ -f "$f" ] || continue
		name=${f##*/}
		name=${name%.*}
		if [ -n "$only_cases" ] && ! in_list "$name" "$only_cases"; then
			continue
		fi
		display="$casedisp/${f##*/}"
		if [ -f "$work/cases/$name.tags" ]; then
			printf '%s\t1\tanother case is named %s\n' "$display" "$name" >>"$work/malformed.tsv"
			continue
		fi
		parse_case "$f" >"$work/cases/$name.tags"
		check_patterns "$work/cases/$name.tags" >"$work/cases/$name.re"
		cat "$work/cases/$name.re" >>"$work/cases/$name.tags"
		if grep -q "^error$TAB" "$work/cases/$name.tags"; then
			awk -F "$TAB" -v f="$display" '$1 == "error" { print f "\t" $2 "\t" $3 }' \
				"$work/cases/$name.tags" | sort -t "$TAB" -k2,2n >>"$work/malformed.tsv"
			continue
		fi
		printf '%s\t%s\n' "$name" "$display" >>"$work/cases.list"
	done
	while IFS="$TAB" read -r f line msg; do
		note "$f:$line: $msg"
	done <"$work/malformed.tsv"
	if [ -n "$only_cases" ]; then
		for name in $only_cases; do
			[ -f "$work/cases/$name.tags" ] || die "no case '$name' in '$casedisp'"
		done
	fi
}

# ---- compilers -------------------------------------------------------

# versioned PREFIX: the PREFIX-N commands in PATH, e.g. clang-14 clang-19
versioned() {
	local d f old_ifs="$IFS"

	IFS=:
	for d in $PATH; do
		IFS=$old_ifs
		[ -d "$d" ] || continue
		for f in "$d/$1"-[0-9]*; do
			[ -x "$f" ] && printf '%s\n' "${f##*/}"
		done
	done | grep -x -e "$1-[0-9][0-9]*" | sort -u -t - -k "$(($(echo "$1" | tr -cd - | wc -c) + 2))" -n
	IFS=$old_ifs
}

# candidates TARGET: one compiler command per line, versioned names first
# so the record names the exact compiler
candidates() {
	target_data "$1"
	if [ "$native" = "$1" ]; then
		versioned gcc
		echo gcc
		versioned clang
		echo clang
	else
		versioned "$t_triple-gcc"
		echo "$t_triple-gcc"
		versioned clang | sed "s/\$/ --target=$t_triple/"
		echo "clang --target=$t_triple"
	fi
}

# identify CMD: print "FAMILY VERSION" from the compiler's predefined macros
identify() {
	# shellcheck disable=SC2086 # CMD is a command and its arguments
	timeout -k 5 "$tmo" $1 -dM -E -x c /dev/null 2>/dev/null </dev/null | awk '
	$1 == "#define" { m[$2] = $3 }
	END {
		if ("__clang__" in m)
			print "clang", m["__clang_major__"] "." m["__clang_minor__"] "." m["__clang_patchlevel__"]
		else if ("__GNUC__" in m)
			print "gcc", m["__GNUC__"] "." m["__GNUC_MINOR__"] "." m["__GNUC_PATCHLEVEL__"]
	}'
}

# run_binary TARGET FILE: run FILE natively or under QEMU, under timeout
run_binary() {
	target_data "$1"
	if [ "$native" = "$1" ]; then
		timeout -k 5 "$tmo" "$2"
	elif [ -d "/usr/$t_triple" ]; then
		timeout -k 5 "$tmo" "$t_qemu" -L "/usr/$t_triple" "$2"
	else
		timeout -k 5 "$tmo" "$t_qemu" "$2"
	fi
}

# smoke_test CMD TARGET DIR SHOWN: build start.o in DIR and prove that
# the compiler links and runs a trivial program there; SHOWN is DIR as
# messages name it
smoke_test() {
	local cc="$1" target="$2" dir="$3" shown="$4"

	target_data "$target"
	if [ "$native" != "$target" ] && ! command -v "$t_qemu" >/dev/null 2>&1; then
		echo "no $t_qemu to run its binaries"
		return 1
	fi
	printf 'int main(void)\n{\n\treturn 0;\n}\n' >"$dir/smoke.c"
	# shellcheck disable=SC2086 # CMD and the flags are word lists
	if ! { timeout -k 5 "$tmo" $cc $CASE_CFLAGS -c "$START_SRC" -o "$dir/start.o" &&
		timeout -k 5 "$tmo" $cc $CASE_CFLAGS -c "$dir/smoke.c" -o "$dir/smoke.o" &&
		timeout -k 5 "$tmo" $cc $CASE_LDFLAGS "$dir/smoke.o" "$dir/start.o" -o "$dir/smoke"; } \
		</dev/null >"$dir/smoke.log" 2>&1; then
		echo "cannot build a freestanding program (see $shown/smoke.log)"
		return 1
	fi
	if ! run_binary "$target" "$dir/smoke" </dev/null >>"$dir/smoke.log" 2>&1; then
		echo "cannot run what it builds (see $shown/smoke.log)"
		return 1
	fi
}

# selected NAME FAMILY TARGET: did -c and -T ask for this compiler
selected() {
	local c

	if [ -n "$only_targets" ] && ! in_list "$3" "$only_targets"; then
		return 1
	fi
	[ -n "$only_compilers" ] || return 0
	for c in $only_compilers; do
		[ "$c" = "$1" ] || [ "$c" = "$2" ] && return 0
	done
	return 1
}

# find_compilers: WORK/compilers.tsv gets one line per working compiler
# and target (id, name, target, family, version, command); the ones that
# do not work are noted and listed in WORK/skipped.tsv
find_compilers() {
	local target cmd fam ver name id why

	: >"$work/compilers.tsv"
	: >"$work/skipped.tsv"
	: >"$work/tried.list"
	for target in $TARGETS; do
		candidates "$target" | while IFS= read -r cmd; do
			command -v "${cmd%% *}" >/dev/null 2>&1 || continue
			read -r fam ver <<EOF
$(identify "$cmd")
EOF
			[ -n "$fam" ] || continue
			name="$fam-${ver%%.*}"
			id="$target-$name"
			selected "$name" "$fam" "$target" || continue
			# one compiler per name and target: the first that answers
			grep -q -x -e "$id" "$work/tried.list" && continue
			echo "$id" >>"$work/tried.list"
			mkdir -p "$work/$id"
			if why=$(smoke_test "$cmd" "$target" "$work/$id" "$report/work/$id"); then
				printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$name" "$target" "$fam" "$ver" "$cmd" >>"$work/compilers.tsv"
			else
				note "skipping '$cmd' for $target: $why"
				printf '%s\t%s\t%s\t%s\n' "$name" "$target" "$cmd" "$why" >>"$work/skipped.tsv"
			fi
		done
	done
	[ -s "$work/compilers.tsv" ] || die "no working compiler found${only_compilers:+ among:$only_compilers}"
}

# ---- one case, one compiler ------------------------------------------

# measure TAGS OUT TARGET: run the case's command (in the case directory,
# with the variables of Documentation/compiler-bugs.md) and set m_kind and m_arg
# from what happened.  The command's stderr is OUT.stderr.
measure() {
	local tags="$1" out="$2" target="$3" rc=0 cmd what

	cmd=$(tag_value "$tags" command)
	what=$(tag_value "$tags" measure)
	m_arg=
	(
		cd "$casedir"
		CC=$cc CFLAGS=$CASE_CFLAGS LDFLAGS=$CASE_LDFLAGS SRC=$src OUT=$out \
		START=$cdir/start.o TARGET=$target TMPDIR=$work/tmp LC_ALL=C \
			timeout -k 5 "$tmo" sh -c "$cmd"
	) </dev/null >"$out.stdout" 2>"$out.stderr" || rc=$?
	if [ "${V:-}" = 1 ]; then
		printf '  (cd %s && CC=%s CFLAGS=%s LDFLAGS=%s SRC=%s OUT=%s START=%s TARGET=%s sh -c %s)\n' \
			"$(shquote "$casedir")" "$(shquote "$cc")" "$(shquote "$CASE_CFLAGS")" \
			"$(shquote "$CASE_LDFLAGS")" "$(shquote "$src")" "$(shquote "$out")" \
			"$(shquote "$cdir/start.o")" "$target" "$(shquote "$cmd")" >&2
		cat "$out.stderr" >&2
	fi
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		m_kind=timeout
		return
	fi
	if [ "$rc" -ne 0 ]; then
		m_kind=reject
		return
	fi
	case "$what" in
	run)
		rc=0
		run_binary "$target" "$out" </dev/null >"$out.run.stdout" 2>"$out.run.stderr" || rc=$?
		if [ "$rc" -eq 0 ]; then
			m_kind=accept
		elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
			m_kind=timeout
		elif [ "$rc" -gt 128 ]; then
			m_kind=crash m_arg=$((rc - 128))
		else
			m_kind=wrong-code m_arg=$rc
		fi
		;;
	layout*)
		# shellcheck disable=SC2086 # "layout KIND NAME FIELD", one word each
		set -- $what
		m_kind=layout
		# Every type of the kind, then the one named: kabi refuses a
		# --type that selects nothing, and "missing" is an answer here.
		if m_arg=$("$kabi" dump --json --kind "$2" "$out" 2>>"$out.stderr"); then
			m_arg=$(printf '%s\n' "$m_arg" | jq -r --arg t "$3" --arg f "$4" \
				'[.types[] | select(.name == $t)][0][$f] // "missing"') || m_arg=error
		else
			m_arg=error
		fi
		;;
	*)
		if [ -s "$out.stderr" ]; then
			m_kind=warn
		else
			m_kind=accept
		fi
		;;
	esac
}

# recorded TAGS FAMILY VERSION TARGET: "LINE<TAB>KIND<TAB>SPEC<TAB>ARG"
# of the first check-expect whose selector holds, or "0<TAB>none"
recorded() {
	awk -F "$TAB" -v fam="$2" -v ver="$3" -v tgt="$4" \
		-f "$TOPDIR/scripts/compiler-bugs/compiler-bugs-recorded.awk" "$1"
}

# run_cell NAME DISPLAY: one case with the current compiler; appends a
# result line to the compiler's results.tsv
run_cell() {
	local name="$1" display="$2" tags out e_line e_kind e_spec e_arg mark shown diag

	tags="$work/cases/$name.tags"
	in_list "$ctarget" "$(tag_value "$tags" targets)" || return 0
	out="$cdir/$name"
	src=${display##*/}
	measure "$tags" "$out" "$ctarget"
	IFS="$TAB" read -r e_line e_kind e_spec e_arg <<EOF
$(recorded "$tags" "$cfam" "$cver" "$ctarget")
EOF
	mark=CHANGED
	if [ "$e_kind" = "$m_kind" ]; then
		case "$m_kind" in
		warn | reject)
			if [ -z "$e_arg" ] || grep -E -q -e "$e_arg" "$out.stderr"; then
				mark=expected
			fi
			;;
		*)
			if [ -z "$e_arg" ] || [ "$e_arg" = "$m_arg" ]; then
				mark=expected
			fi
			;;
		esac
	fi
	shown=$m_kind${m_arg:+ $m_arg}
	[ "$e_kind" != none ] || e_spec=
	diag=$(grep -E 'error|warning|undefined|multiple definition' "$out.stderr" | head -n 1 | tr '\t' ' ')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$ctarget" "$cname" "$shown" \
		"$mark" "$e_spec" "$e_line" "$display" "$cver" "$diag" >>"$cdir/results.tsv"
}

# run_compiler ID NAME TARGET FAMILY VERSION CMD: every applicable case
run_compiler() {
	local name display

	cid=$1 cname=$2 ctarget=$3 cfam=$4 cver=$5 cc=$6
	cdir="$work/$cid"
	: >"$cdir/results.tsv"
	step CASES "$ctarget $cname"
	while IFS="$TAB" read -r name display; do
		run_cell "$name" "$display"
	done <"$work/cases.list"
}

# run_stripe K: the compilers whose line number is K modulo the job count
run_stripe() {
	local n=0 id name target fam ver cmd

	while IFS="$TAB" read -r id name target fam ver cmd; do
		n=$((n + 1))
		[ $((n % jobs)) -eq "$1" ] || continue
		run_compiler "$id" "$name" "$target" "$fam" "$ver" "$cmd"
	done <"$work/compilers.tsv"
}

run_all() {
	local k=0 pids="" pid rc=0

	mkdir -p "$work/tmp"
	while [ "$k" -lt "$jobs" ]; do
		run_stripe "$k" &
		pids="$pids $!"
		k=$((k + 1))
	done
	for pid in $pids; do
		wait "$pid" || rc=1
	done
	[ "$rc" -eq 0 ] || die "a case run failed (see the messages above)"
	sort -t "$TAB" -k1,1 -k2,2 -k3,3 "$work"/*/results.tsv >"$work/results.tsv"
}

# ---- reports ----------------------------------------------------------

# text_matrix: the grid (a row per case and target, a column per
# compiler), then the CHANGED and malformed details and the summary
text_matrix() {
	awk -F "$TAB" -v targets="$TARGETS" -v ncases="$(wc -l <"$work/cases.list")" \
		-f "$TOPDIR/scripts/compiler-bugs/compiler-bugs-matrix.awk" \
		"$work/compilers.tsv" "$work/malformed.tsv" "$work/results.tsv"
}

# history: for each case and compiler family whose outcome changes from
# one version to another, the first version of each outcome
# (scripts/compiler-bugs/compiler-bugs-history.awk)
history() {
	awk -F "$TAB" '{ f = $3; sub(/-.*/, "", f); print $1 "\t" f "\t" $2 "\t" $9 "\t" $4 }' \
		"$work/results.tsv" | sort -t "$TAB" -k1,1 -k2,2 -k3,3 -k4,4V |
		awk -F "$TAB" -f "$TOPDIR/scripts/compiler-bugs/compiler-bugs-history.awk"
}

# json_matrix: the same, as one JSON object for reports
json_matrix() {
	local p name display

	while IFS="$TAB" read -r name display; do
		p="$work/cases/$name.tags"
		awk -F "$TAB" -v n="$name" -v f="$display" '
		$1 == "name" { title = $2 }
		$1 == "targets" { targets = $2 }
		$1 == "source" { src = src (src == "" ? "" : "\037") $2 }
		END { print n "\t" f "\t" title "\t" targets "\t" src }' "$p"
	done <"$work/cases.list" >"$work/cases.tsv"
	jq -n \
		--rawfile compilers "$work/compilers.tsv" \
		--rawfile skipped "$work/skipped.tsv" \
		--rawfile cases "$work/cases.tsv" \
		--rawfile results "$work/results.tsv" \
		--rawfile malformed "$work/malformed.tsv" \
		-f "$TOPDIR/scripts/compiler-bugs/compiler-bugs-matrix.jq"
}

main() {
	local build=build json=0 rc

	# one collation and plain ASCII diagnostics for every tool we run
	LC_ALL=C
	export LC_ALL

	casedir="$TOPDIR/tests/compiler-bugs"
	casedisp=tests/compiler-bugs
	tmo=60
	jobs=$(nproc 2>/dev/null || echo 1)
	only_compilers=
	only_targets=
	while [ "$#" -gt 0 ]; do
		case "$1" in
		-o | -d | -t | -j | -c | -T)
			[ "$#" -ge 2 ] || { usage >&2; exit 2; }
			case "$1" in
			-o) build=$2 ;;
			-d) casedir=$2 casedisp=$2 ;;
			-t) tmo=$2 ;;
			-j) jobs=$2 ;;
			-c) only_compilers="$only_compilers $2" ;;
			-T) only_targets="$only_targets $2" ;;
			esac
			shift 2
			;;
		--json) json=1; shift ;;
		-h | --help) usage; exit 0 ;;
		--) shift; break ;;
		-*) usage >&2; exit 2 ;;
		*) break ;;
		esac
	done
	only_cases="$*"
	is_positive "$tmo" || die "the time limit must be a positive number of seconds, not '$tmo'"
	is_positive "$jobs" || die "the job count must be a positive number, not '$jobs'"
	for t in $only_targets; do
		in_list "$t" "$TARGETS" || die "unknown target '$t' (known: $TARGETS)"
	done
	[ -d "$casedir" ] || die "no case directory '$casedisp'"
	casedir=$(cd "$casedir" && pwd)
	command -v jq >/dev/null 2>&1 || die "no 'jq': run 'scripts/deps.sh check'"
	command -v timeout >/dev/null 2>&1 || die "no 'timeout' (coreutils)"

	native=
	for t in $TARGETS; do
		target_data "$t"
		# shellcheck disable=SC2254 # t_machine is a pattern
		case "$(uname -m)" in $t_machine) native=$t ;; esac
	done

	# a crashing case is an outcome, not a core file
	# shellcheck disable=SC3045 # dash and bash have -c; elsewhere this is skipped
	ulimit -c 0 2>/dev/null || :

	report="$build/compiler-bugs"
	work="$report/work"
	rm -rf "$work"
	mkdir -p "$work"
	case "$work" in /*) ;; *) work="$(pwd)/$work" ;; esac

	load_cases
	[ -s "$work/cases.list" ] || [ -s "$work/malformed.tsv" ] || die "no cases in '$casedisp'"
	kabi=${KABI:-$build/kabi}
	if grep -q "^measure${TAB}layout" "$work"/cases/*.tags && [ ! -x "$kabi" ]; then
		die "no '$kabi' for the layout cases: run 'make' first"
	fi
	case "$kabi" in /*) ;; *) kabi="$(pwd)/$kabi" ;; esac
	find_compilers
	if [ -s "$work/cases.list" ]; then
		run_all
	else
		: >"$work/results.tsv"
	fi

	text_matrix >"$report/matrix.txt"
	json_matrix >"$report/matrix.json"
	history >"$report/history.txt"
	step MATRIX "$report/matrix.txt"
	step HISTORY "$report/history.txt"
	if [ "$json" = 1 ]; then
		cat "$report/matrix.json"
	else
		cat "$report/matrix.txt"
		if [ -s "$report/history.txt" ]; then
			printf '\nhistory: the first version measured with each outcome\n'
			cat "$report/history.txt"
		fi
	fi
	rc=0
	! grep -q "${TAB}CHANGED$TAB" "$work/results.tsv" || rc=1
	[ ! -s "$work/malformed.tsv" ] || rc=1
	exit "$rc"
}

main "$@"
