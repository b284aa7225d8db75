# SPDX-License-Identifier: GPL-2.0-only
#
# measure.sh - timing commands under GNU time for the benchmarks,
# reading the rows back, and the numbers of a table; sourced, not run.
# The caller sets TIME (GNU time's path), work (a scratch directory) and
# results (the file of rows, one "TAG status wall cpu rss_kb" a run), and
# sources common.sh first (median).

# shellcheck disable=SC3043,SC2154 # every /bin/sh kparity runs on has 'local'; the caller sets work and results
# shellcheck shell=sh

# measure TAG OUT CMD...: run CMD under GNU time, stdout to OUT; append
# "TAG status wall cpu rss_kb" to $results. A status over 128 is a signal.
measure() {
	local tag="$1" out="$2" st=0 line

	shift 2
	"$TIME" -q -f '%e %U %S %M' -o "$work/time" "$@" >"$out" 2>"$work/$tag.err" || st=$?
	line=$(tail -n 1 "$work/time")
	echo "$tag $st $line" | awk '{ printf "%s %d %.2f %.2f %d\n", $1, $2, $3, $4 + $5, $6 }' >>"$results"
}

# measure_rep TAG OUT K CMD...: as measure, CMD run K times in a row
# under one GNU time; wall and CPU are per run, the RSS the largest run's.
# The first failing run ends the row with its status.
measure_rep() {
	local tag="$1" out="$2" k="$3" st=0 line

	shift 3
	# shellcheck disable=SC2016 # the loop's own variables
	"$TIME" -q -f '%e %U %S %M' -o "$work/time" sh -c \
		'k=$1 out=$2; shift 2; while [ "$k" -gt 0 ]; do "$@" >"$out" || exit; k=$((k - 1)); done' \
		sh "$k" "$out" "$@" 2>"$work/$tag.err" || st=$?
	line=$(tail -n 1 "$work/time")
	echo "$tag $st $line" |
		awk -v k="$k" '{ printf "%s %d %.4f %.4f %d\n", $1, $2, $3 / k, ($4 + $5) / k, $6 }' >>"$results"
}

# run_median TAG FIELD: median of FIELD (3 wall, 4 cpu, 5 rss) over TAG's runs
run_median() {
	# shellcheck disable=SC2046 # one number a word
	median $(awk -v t="$1" -v f="$2" '$1 == t { print $f }' "$results")
}

# status TAG: the exit status of TAG's first run
status() {
	awk -v t="$1" '$1 == t { print $2; exit }' "$results"
}

# result TAG: ok, timeout, crash (signal N) or exit N
result() {
	local st

	st=$(status "$1")
	case "$st" in
	0) echo ok ;;
	124) echo timeout ;;
	*)
		if [ "$st" -gt 128 ]; then
			echo "crashed: signal $((st - 128)) (exit $st)"
		else
			echo "exit $st"
		fi
		;;
	esac
}

# ratio A B: A / B to three places, or - when either is missing
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "-"; else printf "%.3f\n", a / b }'
}

# le A B: A <= B (numbers)
le() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a != "-" && a + 0 <= b + 0) }'
}

# mb KB: KB in MB, rounded, or - when it is missing
mb() {
	awk -v k="$1" 'BEGIN { if (k == "") print "-"; else printf "%.0f", k / 1024 }'
}

# jnum V: V, or null when it is empty or "-"
jnum() {
	case "$1" in
	'' | -) echo null ;;
	*) echo "$1" ;;
	esac
}
