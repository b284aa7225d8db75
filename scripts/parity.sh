#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# parity.sh - the parity run: for every target, build the kernel with GCC
# and with Clang, boot each build in QEMU, count its warnings, diff the two
# vmlinux layouts with kabi, and write the report.
#
# Every cell (target x compiler) is attempted; a failed build or boot is
# recorded and the run goes on. The results are written as
# BUILDDIR/report/report.json (Documentation/parity.md describes it), from
# which report.sh writes report.md and report.html. The last line printed
# is the verdict and the report's path.
#
# One run at a time uses a build directory: a second is refused while the
# first holds BUILDDIR/parity.lock. An interrupted run (SIGINT, SIGTERM)
# says so and leaves the last complete report as it was.
#
# Exit: 0 every cell built and booted and no layout differs incompatibly,
# 1 something failed, 2 trouble (usage, unknown target or compiler, tools,
# another run on BUILDDIR), 130 interrupted.

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=parity.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
KNOWN_COMPILERS="gcc clang"

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-t TARGETS] [-c COMPILERS] [-T SECONDS]
Build, boot and compare every target with every compiler; write the report
to BUILDDIR/report/.
  -o BUILDDIR   where build products and the report go (default: build)
  -t TARGETS    targets, separated by spaces or commas
                (default: all of $(known_targets))
  -c COMPILERS  compilers, of: $KNOWN_COMPILERS (default: both)
  -T SECONDS    time limit for each boot (default: 120)
Environment: LLVM=1|-N|DIR/ selects the clang (default 1), V=1 shows full
commands, KSRC=DIR uses an existing kernel tree, DIST=distcc|icecc builds
on a farm (Documentation/build-farm.md).
USAGE
}

# words LIST: LIST with commas as spaces, duplicates dropped, order kept.
words() {
	printf '%s\n' "$1" | tr ',' ' ' | tr -s ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' ' | sed 's/ $//'
}

# suffix COMPILER: the build directory suffix kernel-build.sh uses.
suffix() {
	compiler_select "$1"
	printf '%s\n' "$cc_suffix"
}

# has_compiler NAME: NAME is among the compilers of this run.
has_compiler() {
	case " $compilers " in
	*" $1 "*) return 0 ;;
	*) return 1 ;;
	esac
}

# newer A B: A exists and was modified after B.
newer() {
	[ -e "$1" ] && [ -n "$(find "$1" -prune -newer "$2")" ]
}

# seconds_since START: whole seconds from START (date +%s) to now.
seconds_since() {
	echo $(($(date +%s) - $1))
}

# rel PATH: PATH relative to the build directory, for the report.
rel() {
	case "$1" in
	"$abuild"/*) printf '%s\n' "${1#"$abuild"/}" ;;
	*) printf '%s\n' "$1" ;;
	esac
}

# shown PATH: PATH as the user named the build directory, for commands.
shown() {
	case "$1" in
	"$abuild"/*) printf '%s/%s\n' "$build" "${1#"$abuild"/}" ;;
	*) printf '%s\n' "$1" ;;
	esac
}

# logged FILE CMD...: run CMD with its stdout dropped and its stderr both
# shown and kept in FILE, so that the report can quote it.
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

# build_cell TARGET COMPILER: build, boot and count warnings for one cell;
# write its JSON to $cells/TARGET-COMPILER.json.
build_cell() {
	local target="$1" compiler="$2" sfx kdir start bstat="fail" bsecs breason=""
	local vstat="skipped" vsecs=0 verdict="" wlog repro_b repro_v="" qemu="" rc

	sfx=$(suffix "$compiler")
	kdir="$abuild/kernel/$target-$sfx"
	repro_b="scripts/kernel-build.sh -o $build -t $target -c $compiler"
	[ "$compiler" != clang ] || [ "${LLVM:-1}" = 1 ] || repro_b="LLVM=$LLVM $repro_b"

	start=$(date +%s)
	rc=0
	logged "$cells/$target-$compiler.err" \
		"$TOPDIR/scripts/kernel-build.sh" -o "$build" -t "$target" -c "$compiler" || rc=$?
	bsecs=$(seconds_since "$start")
	if [ "$rc" -eq 0 ]; then
		bstat=pass
	else
		# the first message of kernel-build.sh or a script it ran says why
		breason=$(grep -m 1 '^[a-z0-9_-]*\.sh: ' "$cells/$target-$compiler.err" |
			sed 's/:$//') || :
		[ -n "$breason" ] || breason="kernel-build.sh exited $rc"
	fi
	# kernel-build.sh says why a make failed; trouble before make is ours
	# to report.
	[ "$rc" -le 1 ] || step BUILD "$target/$sfx  FAIL"
	if [ "$rc" -ne 0 ]; then
		failures="$failures$target/$sfx build: $breason
"
	fi

	if [ "$bstat" = pass ] && [ -n "$initrd" ]; then
		start=$(date +%s)
		rc=0
		set -- "$TOPDIR/scripts/kernel-boot.sh" -t "$target" \
			-k "$build/kernel/$target-$sfx" -i "$initrd" -T "$limit"
		verdict=$("$@") || rc=$?
		vsecs=$(seconds_since "$start")
		shift
		repro_v="scripts/kernel-boot.sh $*"
		qemu=$(cat "$kdir/boot.cmd" 2>/dev/null || :)
		if [ "$rc" -eq 0 ]; then
			vstat=pass
		else
			vstat=fail
			[ -n "$verdict" ] || verdict="fail: kernel-boot.sh exited $rc"
			failures="$failures$target/$sfx boot: ${verdict#fail: }
"
		fi
	elif [ "$bstat" = pass ]; then
		vstat=fail
		verdict="fail: no initramfs for $target"
		failures="$failures$target/$sfx boot: no initramfs
"
	fi

	wlog="$kdir/warnings.log"
	[ "$bstat" = pass ] || wlog="$kdir/build.log"
	if [ -r "$wlog" ]; then
		"$TOPDIR/scripts/warnings.sh" -j -s "$srcdir" "$wlog" >"$cells/$target-$compiler.warnings"
	else
		echo '{"warnings":0,"errors":0,"by_flag":{},"by_file":{}}' >"$cells/$target-$compiler.warnings"
	fi

	jq -n \
		--arg target "$target" --arg compiler "$compiler" --arg name "$target/$sfx" \
		--arg dir "$(rel "$kdir")" \
		--arg ccver "$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$kdir/.config" 2>/dev/null)" \
		--arg bstat "$bstat" --argjson bsecs "$bsecs" --arg breason "$breason" \
		--arg made "$(cat "$kdir/build.seconds" 2>/dev/null || :)" \
		--arg brepro "$repro_b" \
		--arg vstat "$vstat" --argjson vsecs "$vsecs" --arg verdict "$verdict" \
		--arg vrepro "$repro_v" --arg qemu "$qemu" \
		--arg version "$(if [ "$vstat" != skipped ]; then
			sed -n 's/\r$//; s/^kparity-init: version //p' "$kdir/boot.log" 2>/dev/null | head -n 1; fi)" \
		--arg last "$(if [ "$vstat" = fail ]; then tail -n 15 "$kdir/boot.log" 2>/dev/null | tr -d '\r'; fi)" \
		--slurpfile warnings "$cells/$target-$compiler.warnings" \
		-f "$TOPDIR/scripts/lib/parity-cell.jq" >"$cells/$target-$compiler.json"
}

# compare TARGET: diff the gcc and clang vmlinux of TARGET with kabi; write
# $cells/TARGET.kabi.json with the summary and, for each type whose layout
# differs incompatibly, the findings and both layouts.
compare() {
	local target="$1" old new txt json rc=0 status=pass reason="" names

	old="$abuild/kernel/$target-$(suffix gcc)/vmlinux"
	new="$abuild/kernel/$target-$(suffix clang)/vmlinux"
	txt="$report/$target.kabi.txt"
	json="$report/$target.kabi.json"
	set -- "$build/kabi" diff --root "$srcdir"
	jq -n --arg r "$build/kabi diff --root $(shown "$srcdir") $(shown "$old") $(shown "$new")" \
		'$r' >"$cells/$target.kabi.repro"

	if ! jq -e '.build.status == "pass"' "$cells/$target-gcc.json" >/dev/null ||
		! jq -e '.build.status == "pass"' "$cells/$target-clang.json" >/dev/null; then
		jq -n --slurpfile r "$cells/$target.kabi.repro" \
			'{status: "skipped", reason: "a build failed", summary: null,
			  incompatible: [], reproduce: $r[0]}' >"$cells/$target.kabi.json"
		return 0
	fi

	# kabi reads both images in full; skip it when its report is newer
	# than both images and than kabi itself.
	if ! newer "$json" "$old" || ! newer "$json" "$new" ||
		! newer "$json" "$build/kabi" || [ ! -s "$txt" ]; then
		rm -f "$txt" "$json"
		"$@" -o "$txt" "$old" "$new" || rc=$?
		if [ "$rc" -eq 1 ] || [ "$rc" -eq 2 ]; then
			status=fail
			reason="kabi diff failed (exit $rc)"
		else
			"$@" --json -o "$json" "$old" "$new" || :
		fi
	fi
	if [ "$status" = pass ]; then
		step KABI "$target  $(tail -n 1 "$txt")"
		names=$(jq -r '.types[] | select(.incompatible) | "\(.kind) \(.name)"' "$json")
		if [ -n "$names" ]; then
			status=fail
			reason="layouts differ incompatibly"
			failures="$failures$target kabi: $(printf '%s\n' "$names" | wc -l) types differ incompatibly
"
		fi
		layouts "$old" "$cells/$target.gcc.layout" "$names"
		layouts "$new" "$cells/$target.clang.layout" "$names"
		jq --arg status "$status" --arg reason "$reason" \
			--slurpfile r "$cells/$target.kabi.repro" \
			--slurpfile gcc "$cells/$target.gcc.layout" \
			--slurpfile clang "$cells/$target.clang.layout" \
			-f "$TOPDIR/scripts/lib/parity-kabi.jq" "$json" >"$cells/$target.kabi.json"
	else
		failures="$failures$target kabi: $reason
"
		jq -n --arg reason "$reason" --slurpfile r "$cells/$target.kabi.repro" \
			'{status: "fail", reason: $reason, summary: null, incompatible: [],
			  reproduce: $r[0]}' >"$cells/$target.kabi.json"
	fi
}

# layouts VMLINUX OUT NAMES: kabi dump --json of the types NAMES (one
# "KIND NAME" per line) from VMLINUX into OUT; an empty model without names.
layouts() {
	local vmlinux="$1" out="$2" line

	if [ -z "$3" ]; then
		echo '{"version":1,"types":[]}' >"$out"
		return 0
	fi
	set -- "$build/kabi" dump --json --root "$srcdir"
	while IFS= read -r line; do
		set -- "$@" --type "$line"
	done <<EOF
$3
EOF
	"$@" "$vmlinux" >"$out" || echo '{"version":1,"types":[]}' >"$out"
}

# assemble: write report.json from the cell and kabi files.
assemble() {
	local target compiler kabi_file

	set --
	for target in $targets; do
		set -- "$@" "$target"
	done
	jq -n --arg kernel "$kernel" --arg build "$build" \
		--arg targets "$targets" --arg compilers "$compilers" \
		--arg failures "$failures" --arg cells "$cells" '
		{version: 1, kernel: $kernel, builddir: $build,
		 compilers: ($compilers | split(" ")),
		 targets: ($targets | split(" ")),
		 failures: ($failures | split("\n") | map(select(. != "")))}' >"$cells/head.json"
	for target in $targets; do
		set --
		for compiler in $compilers; do
			set -- "$@" "$cells/$target-$compiler.json"
		done
		if [ -f "$cells/$target.kabi.json" ]; then
			kabi_file="$cells/$target.kabi.json"
		else
			echo 'null' >"$cells/$target.nokabi.json"
			kabi_file="$cells/$target.nokabi.json"
		fi
		jq -s --arg target "$target" --slurpfile kabi "$kabi_file" \
			-f "$TOPDIR/scripts/lib/parity-target.jq" "$@" >"$cells/$target.target.json"
	done
	set --
	for target in $targets; do
		set -- "$@" "$cells/$target.target.json"
	done
	jq -s --slurpfile head "$cells/head.json" '
		$head[0] + {verdict: (if ($head[0].failures | length) == 0 then "pass" else "fail" end),
			    matrix: .}' "$@" >"$report/report.json.tmp"
	mv "$report/report.json.tmp" "$report/report.json"
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
	rm -f "$abuild/report/report.json.tmp"
	if [ -f "$abuild/report/report.json" ]; then
		echo "parity: interrupted; $build/report/ holds the last complete run's report"
	else
		echo "parity: interrupted; no report written"
	fi
	exit 130
}

# check_lists: validate $targets and $compilers; exit 2 on an unknown one.
check_lists() {
	local t c

	for t in $targets; do
		"$TOPDIR/scripts/target.sh" -p "$PROG" "$t" >/dev/null || exit 2
	done
	for c in $compilers; do
		case " $KNOWN_COMPILERS " in
		*" $c "*) ;;
		*) die "unknown compiler '$c' (known: $KNOWN_COMPILERS)" ;;
		esac
	done
	[ -n "$targets" ] || die "no targets (known: $(known_targets))"
	[ -n "$compilers" ] || die "no compilers (known: $KNOWN_COMPILERS)"
}

main() {
	local opt target compiler initrd_ok n more

	build=build
	targets=""
	compilers=""
	limit=120
	while getopts c:ho:t:T: opt; do
		case "$opt" in
		c) compilers=$(words "$OPTARG") ;;
		o) build="$OPTARG" ;;
		t) targets=$(words "$OPTARG") ;;
		T) limit="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ "$#" -eq 0 ] || { usage >&2; exit 2; }
	[ -n "$targets" ] || targets=$(known_targets)
	[ -n "$compilers" ] || compilers="$KNOWN_COMPILERS"
	check_lists
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq timeout flock || exit 2
	[ -x "$build/kabi" ] || die "no '$build/kabi': run 'make' first"
	lock_build
	abuild=$(cd "$build" && pwd)
	trap interrupted INT TERM

	srcdir=$("$TOPDIR/scripts/kernel-src.sh" -o "$build") || exit 2
	# The tree is at hand now; the scripts below need not say so again.
	KPARITY_SRC_QUIET=1
	export KPARITY_SRC_QUIET
	"$TOPDIR/scripts/kernel-patch.sh" -s "$srcdir" || exit
	kernel=$(tree_version "$srcdir") ||
		die "'$srcdir/Makefile' has no usable VERSION/PATCHLEVEL/SUBLEVEL"
	kernel="linux-$kernel"
	report="$abuild/report"
	cells="$report/cells"
	rm -rf "$cells"
	mkdir -p "$cells"
	failures=""

	for target in $targets; do
		initrd_ok=0
		initrd=$("$TOPDIR/scripts/initramfs.sh" -o "$build" -t "$target") && initrd_ok=1
		[ "$initrd_ok" = 1 ] || initrd=""
		initrd="${initrd:+$build/initramfs/$target/initramfs.cpio}"
		for compiler in $compilers; do
			build_cell "$target" "$compiler"
		done
		if has_compiler gcc && has_compiler clang; then
			compare "$target"
		fi
	done

	# The report is written whole, or not at all: seconds of jq, which a
	# Ctrl-C from now on no longer stops.
	trap '' INT TERM
	assemble
	"$TOPDIR/scripts/report.sh" "$report/report.json" "$report" || exit 2
	if [ -z "$failures" ]; then
		echo "parity: PASS $(echo "$targets" | wc -w) targets x $(echo "$compilers" | wc -w) compilers built and booted, no incompatible layout difference; report in $build/report/report.html"
	else
		n=$(printf '%s' "$failures" | grep -c .)
		more=""
		[ "$n" -eq 1 ] || more=" (and $((n - 1)) more)"
		echo "parity: FAIL $(printf '%s' "$failures" | head -n 1)$more; report in $build/report/report.html"
		exit 1
	fi
}

main "$@"
