#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# parity.sh - the parity run: for every target, each compiler's cell
# (scripts/parity-cell.sh: built, its layouts checked, booted in QEMU, its
# tests' results read from the console and its warnings counted), then
# the target's cells together (scripts/parity-target.sh: the layout
# comparisons, the swapped boots, the target's row of the report), and the
# report. The stages are scripts of their own; this one holds the options,
# the loops and the report's assembly. Documentation/parity.md describes
# the steps, the matrix of -c all, the farm of DIST= and report.json, from
# which report.sh writes report.md and report.html.
#
# Every cell is attempted; a failed build or boot is recorded and the run
# goes on. What fails the run is read from the stages' results when they
# are assembled (scripts/parity/parity-failures.jq), among them a test that
# passes under one compiler only, unless the kernel tree's list of known
# differences (scripts/trees/TREE.tree, DIFFERENCES) names it with a
# reason. The tree is KERNEL's (default 6.1) or KSRC's. One run at a time
# uses a build directory (BUILDDIR/parity.lock); an interrupted run says
# so and leaves the last complete report as it was. The last line printed is the verdict.
#
# Exit: 0 every cell built and booted, no layout differs incompatibly and
# no test differs, 1 something failed, 2 trouble (usage, unknown target,
# compiler or TESTS, tools, another run on BUILDDIR), 130 interrupted.

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=parity.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
# shellcheck source=scripts/lib/farm.sh
. "$TOPDIR/scripts/lib/farm.sh"
# shellcheck source=scripts/lib/history.sh
. "$TOPDIR/scripts/lib/history.sh"
KNOWN_TESTS="none kunit kselftest all"

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-t TARGETS] [-c COMPILERS] [-T SECONDS] [-k TESTS] [-j JOBS]
Build, boot and compare every target with every compiler; write the report
to BUILDDIR/report/.
  -o BUILDDIR   where build products and the report go (default: build)
  -t TARGETS    targets, separated by spaces or commas, of:
                $(known_targets)
                or all for every one (default: $(default_targets))
  -c COMPILERS  compilers, separated by spaces or commas, of:
                $(known_compilers)
                or all for $(known_compilers all)
                (default: gcc clang, or a newer clang that
                KCONFIG_ADD's fragments need)
  -T SECONDS    time limit for each boot (default: 120)
  -k TESTS      which tests' results to judge, one of: $KNOWN_TESTS
                (default: all, KUnit's at boot and the kselftests from
                each cell's disk)
  -j JOBS       make jobs of each kernel build (default: the number of
                CPUs; on a farm, its slot count)
Environment: LLVM=1|-N|DIR/ selects the clang (default 1), V=1 shows full
commands, KSRC=DIR uses an existing kernel tree, DIST=distcc|icecc builds
on a farm (Documentation/build-farm.md), KCONFIG_ADD=WORDS adds fragments
of kconfig/fragments/ and CONFIG_SYMBOL=VALUE words to every cell
(Documentation/configs.md).
USAGE
}

# assemble: write report.json from the targets' rows (parity-target.sh);
# the failures and findings are read from them (parity-failures.jq).
assemble() {
	local target

	set --
	for target in $targets; do
		set -- "$@" "$cells/$target.target.json"
	done
	jq -s -f "$TOPDIR/scripts/parity/parity-failures.jq" "$@" >"$cells/failures.json"
	for target in $targets; do
		cat "$cells/$target.skipped"
	done |
		jq -R -s 'split("\n") | map(select(. != "") | split("\t")
			| {target: .[0], compiler: .[1], reason: .[2]})' >"$cells/skipped.json"
	jq -s --arg kernel "$kernel" --arg build "$build" \
		--arg targets "$targets" --arg compilers "$compilers" \
		--arg reference "$(matrix_reference "$compilers")" --arg aliases "$aliases" \
		--arg tests "$tests" --arg kinds "$kinds" --arg report_dir "${report#"$abuild"/}" \
		--arg kconfig "${KCONFIG:-}" --arg config_add "$(config_words)" \
		--slurpfile f "$cells/failures.json" --slurpfile sk "$cells/skipped.json" \
		--slurpfile series "$cells/series.json" \
		-f "$TOPDIR/scripts/parity/parity-report.jq" "$@" >"$report/report.json.tmp"
	mv "$report/report.json.tmp" "$report/report.json"
}

# new_patches: $cells/series.new, the "SHA256 NAME" lines of the run's
# series (series_list) that the last complete run's, $report/series.list,
# lacks: patches added or changed since. A first run has none.
new_patches() {
	tree_series_list "${kernel#linux-}" >"$cells/series.list"
	: >"$cells/series.new"
	[ -f "$report/series.list" ] || return 0
	awk 'NR == FNR { old[$0] = 1; next } !($0 in old)' \
		"$report/series.list" "$cells/series.list" >"$cells/series.new"
}

# series_walk TARGET: when the series has new patches, the Clang findings
# each of them adds and removes in TARGET's GCC cell (diagnose-series.sh at
# W=1 with the clang LLVM= names, walking back to the first new patch) in
# $cells/TARGET.series.json;
# a walk that cannot run says why in $cells/TARGET.series.err, and the run
# goes on. A subshell: the target and compiler it loads stay in it.
series_walk() (
	t="$1"
	[ -s "$cells/series.new" ] || exit 0
	load_target "$t"
	compiler_select gcc
	cell=$(cell_dir "$abuild")
	cell_built "$cell" || exit 0
	first=$(head -n 1 "$cells/series.new" | cut -d ' ' -f 2)
	# make diagnose-series's own place, so that each replays on the other's
	compiler_select clang
	out="$(tree_root "$abuild")/diagnose/$(basename "$cell")-$cc_suffix-w1"
	if "$TOPDIR/scripts/diagnose-series.sh" -O "$abuild" -W 1 -f "$first" -o "$out" "$cell" \
		>"$cells/$t.series.txt" 2>"$cells/$t.series.log"; then
		cp "$out/series.json" "$cells/$t.series.json"
		step SERIES "$t: $(head -n 1 "$cells/$t.series.txt")"
	else
		tail -n 1 "$cells/$t.series.log" >"$cells/$t.series.err"
		step SERIES "$t: no walk: $(cat "$cells/$t.series.err")"
	fi
)

# series_json: $cells/series.json, the new patches and what each target's
# walk found (parity-series.jq), for report.json's series_new
series_json() {
	local t

	set --
	for t in $targets; do
		[ ! -f "$cells/$t.series.json" ] || set -- "$@" --slurpfile "w_$t" "$cells/$t.series.json"
		[ ! -f "$cells/$t.series.err" ] || set -- "$@" --rawfile "e_$t" "$cells/$t.series.err"
	done
	jq -n -R --rawfile new "$cells/series.new" --arg targets "$targets" "$@" \
		-f "$TOPDIR/scripts/parity/parity-series.jq" >"$cells/series.json"
}

# lock_build: hold BUILDDIR/parity.lock until this run and everything it
# started has ended, or refuse (exit 2) while another run holds it: two runs
# would build, boot and report into the same files.
lock_build() {
	mkdir -p "$build" || die "cannot create '$build'"
	exec 9>"$build/parity.lock" || die "cannot open '$build/parity.lock'"
	flock -n 9 ||
		die "another parity run is using '$build' (it holds '$build/parity.lock'); wait for it to end"
}

# interrupted: the handler of SIGINT and SIGTERM until the report is
# written: report.json, .md and .html are still the last complete run's.
interrupted() {
	trap - INT TERM
	rm -f "$report/report.json.tmp"
	if [ -f "$report/report.json" ]; then
		echo "parity: interrupted; $(tree_root "$build")/report/ holds the last complete run's report"
	else
		echo "parity: interrupted; no report written"
	fi
	exit 130
}

# skip_cells TARGET: a SKIP line for each compiler of the run that TARGET
# cannot have (target_skip), and its line in $cells/TARGET.skipped:
# TARGET, the compiler and why, separated by tabs.
skip_cells() {
	local c why

	load_target "$1"
	: >"$cells/$1.skipped"
	for c in $compilers; do
		why=$(target_skip "$c") || continue
		step SKIP "$1/$c  $why"
		printf '%s\t%s\t%s\n' "$1" "$c" "$why" >>"$cells/$1.skipped"
	done
}

# check_lists: validate $targets and $compilers; exit 2 on an unknown one,
# or a target none of the compilers can build.
check_lists() {
	local t

	for t in $targets; do
		"$TOPDIR/scripts/target-check.sh" -p "$PROG" "$t" >/dev/null || exit 2
	done
	compilers=$(compiler_words "$compilers")
	matrix_dedupe "$compilers" "$targets"
	compilers="$m_compilers"
	aliases="$m_aliases"
	[ -n "$targets" ] || die "no targets (known: $(known_targets))"
	[ -n "$compilers" ] || die "no compilers (known: $(known_compilers))"
	for t in $targets; do
		[ -n "$(target_compilers "$t" "$compilers")" ] ||
			die "no compiler of the run can build $t: $(load_target "$t" && target_skip "${compilers%% *}")"
	done
	case " $KNOWN_TESTS " in
	*" $tests "*) ;;
	*) die "unknown TESTS '$tests' (known: $KNOWN_TESTS)" ;;
	esac
	case "$tests" in
	none) kinds="" ;;
	kunit) kinds=kunit ;;
	kselftest | all) kinds="kunit kselftest" ;;
	esac
	# a malformed list of known differences is found before any build
	differences_list >/dev/null || exit 2
}

# controls_only: a CONFIG line for each fragment of KCONFIG_ADD that needs
# a compiler none of the run's is (fragment_unfit): every cell of the run
# is its control, and the run shows nothing of the feature itself
controls_only() {
	local w f c why

	for w in $(config_words); do
		f="$TOPDIR/kconfig/fragments/$w.config"
		[ -f "$f" ] || continue
		[ -n "$(fragment_needs "$f")" ] || continue
		why=""
		for c in $compilers; do
			compiler_select "$c"
			why=$(fragment_unfit "$f") || { why=""; break; }
		done
		[ -z "$why" ] ||
			step CONFIG "KCONFIG_ADD $w: no compiler of the run can build it ($why): every cell is a control"
	done
}

# unoffered: once the tree is at hand, a CONFIG line for each target and
# fragment of KCONFIG_ADD whose feature the tree does not offer on the
# target's architecture (fragment_unoffered): that target's cells are all
# controls. A subshell: the targets it loads stay in it.
unoffered() (
	for t in $targets; do
		load_target "$t"
		for w in $(config_words); do
			f="$TOPDIR/kconfig/fragments/$w.config"
			[ -f "$f" ] || continue
			! why=$(fragment_unoffered "$f" "$srcdir") ||
				step CONFIG "KCONFIG_ADD $w on $t: $why: every cell is a control"
		done
	done
)

main() {
	local opt target compiler n more

	build=build
	targets=""
	compilers=""
	limit=120
	tests=all
	jobs=""
	while getopts c:hj:k:o:t:T: opt; do
		case "$opt" in
		j) jobs="$OPTARG" ;;
		k) tests="$OPTARG" ;;
		c) compilers="$OPTARG" ;;
		o) build="$OPTARG" ;;
		t) targets=$(target_words "$OPTARG") ;;
		T) limit="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ "$#" -eq 0 ] || { usage >&2; exit 2; }
	[ -z "$jobs" ] || is_positive "$jobs" || die "-j needs a positive number, not '$jobs'"
	[ -n "$targets" ] || targets=$(default_targets)
	config_check
	[ -n "$compilers" ] || compilers="gcc $(config_clang)"
	check_lists
	controls_only
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq timeout flock || exit 2
	# a DIST that names no engine is refused before anything is built
	dist_engine >/dev/null || exit 2
	[ -x "$build/kabi" ] || die "no '$build/kabi': run 'make' first"
	lock_build
	abuild=$(cd "$build" && pwd)
	report="$(tree_root "$abuild")/report"
	trap interrupted INT TERM

	srcdir=$("$TOPDIR/scripts/kernel-src.sh" -o "$build") || exit 2
	# The tree is at hand now; the scripts below need not say so again.
	KPARITY_SRC_QUIET=1
	export KPARITY_SRC_QUIET
	"$TOPDIR/scripts/kernel-patch.sh" -s "$srcdir" || exit
	kernel=$(tree_version "$srcdir") ||
		die "'$srcdir/Makefile' has no usable VERSION/PATCHLEVEL/SUBLEVEL"
	kernel="linux-$kernel"
	unoffered
	cells="$report/cells"
	rm -rf "$cells"
	mkdir -p "$cells"
	new_patches

	for target in $targets; do
		skip_cells "$target"
		for compiler in $(target_compilers "$target" "$compilers"); do
			"$TOPDIR/scripts/parity-cell.sh" -o "$build" -t "$target" -c "$compiler" \
				-s "$srcdir" -k "$kinds" -T "$limit" ${jobs:+-j "$jobs"} "$cells" || exit 2
		done
		"$TOPDIR/scripts/parity-target.sh" -o "$build" -t "$target" -c "$compilers" \
			-a "$aliases" -k "$kinds" -s "$srcdir" -T "$limit" "$cells" || exit 2
		series_walk "$target" || step SERIES "$target: no walk (see above)"
	done
	series_json

	# The report is written whole, or not at all: seconds of jq, which a
	# Ctrl-C from now on no longer stops.
	trap '' INT TERM
	assemble
	"$TOPDIR/scripts/history.sh" record "$report/report.json" || :
	"$TOPDIR/scripts/report.sh" "$report/report.json" "$report" || exit 2
	# the next run's new patches are those this run had not
	cp "$cells/series.list" "$report/series.list"
	n=$(jq '.failures | length' "$report/report.json")
	more=$(jq -r '.skipped | length | if . > 0 then " (\(.) not built, Debian has no compiler for them)" else "" end' "$report/report.json")
	if [ "$n" -eq 0 ]; then
		echo "parity: PASS $(echo "$targets" | wc -w) targets x $(echo "$compilers" | wc -w) compilers built and booted$more, no incompatible layout difference; report in $(tree_root "$build")/report/report.html"
	else
		more=""
		[ "$n" -eq 1 ] || more=" (and $((n - 1)) more)"
		echo "parity: FAIL $(jq -r '.failures[0]' "$report/report.json")$more; report in $(tree_root "$build")/report/report.html"
		exit 1
	fi
}

main "$@"
