#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# parity-cell.sh - one cell of a parity run: a target built with one
# compiler (scripts/kernel-build.sh), its units' layouts checked
# (scripts/kernel-check.sh), its kselftest disk made (scripts/kselftest.sh),
# booted with the initramfs its own compiler built (scripts/initramfs.sh,
# scripts/kernel-boot.sh), the tests' results read from its console
# (scripts/ktap.sh) and its warnings counted (scripts/warnings.sh). The
# cell is CELLS/TARGET-COMPILER.json (Documentation/parity.md), written by
# scripts/parity/parity-cell.jq from the stages' results. parity.sh runs
# it for each cell; it also runs alone, to redo one cell of a run.
#
# Nothing a stage finds fails it: a failed build or boot is in the JSON,
# and parity-failures.jq reads it from there.
#
# Exit: 0 the cell's JSON is written; 2 trouble (usage, unknown target
# or compiler, a stage that could not run).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=parity-cell.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
# shellcheck source=scripts/lib/farm.sh
. "$TOPDIR/scripts/lib/farm.sh"

usage() {
	cat <<USAGE
usage: $PROG -o BUILDDIR -t TARGET -c COMPILER -s SRCDIR [-k KINDS] [-T SECONDS] [-j JOBS] CELLS
Build, check, boot and read one cell; write CELLS/TARGET-COMPILER.json.
  -s SRCDIR   the kernel tree (kernel-src.sh), patched
  -k KINDS    the tests judged: empty, 'kunit' or 'kunit kselftest'
              (default: kunit kselftest)
  -T SECONDS  time limit of the boot (default: 120)
  -j JOBS     make jobs of the kernel build
Environment: as for parity.sh (LLVM, KCONFIG_ADD, KERNEL, KSRC, DIST, V).
Exit: 0 written, 2 trouble.
USAGE
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

# build_cell TARGET COMPILER: build and boot one cell, read its console
# and count its warnings; write its JSON to $cells/TARGET-COMPILER.json.
# Nothing here fails the run: what failed is in the JSON.
build_cell() {
	local target="$1" compiler="$2" kdir name start bstat="fail" bsecs breason=""
	local vstat="skipped" vsecs=0 verdict="" repro_b repro_v="" qemu="" rc same

	load_target "$target"
	compiler_select "$compiler"
	kdir=$(cell_dir "$abuild")
	name="$target/$cc_suffix"
	repro_b="scripts/kernel-build.sh -o $build -t $target -c $compiler"
	[ "$compiler" != clang ] || [ "${LLVM:-1}" = 1 ] || repro_b="LLVM=$LLVM $repro_b"
	[ -z "$engine" ] || repro_b="DIST=$engine $repro_b"

	start=$(date +%s)
	rc=0
	logged "$cells/$target-$compiler.err" \
		"$TOPDIR/scripts/kernel-build.sh" -o "$build" -t "$target" -c "$compiler" ${jobs:+-j "$jobs"} || rc=$?
	bsecs=$(seconds_since "$start")
	if [ "$rc" -eq 0 ]; then
		bstat=pass
	else
		# the first message of kernel-build.sh or a script it ran says why
		breason=$(stage_reason "$cells/$target-$compiler.err" "$rc" kernel-build.sh)
	fi
	# kernel-build.sh says why a make failed; trouble before make is ours
	# to report.
	[ "$rc" -le 1 ] || step BUILD "$name  FAIL"

	cell_check "$target" "$compiler" "$bstat"
	cell_disk "$target" "$compiler" "$bstat"
	if [ "$bstat" = pass ] && [ -n "$initrd" ]; then
		start=$(date +%s)
		rc=0
		set -- "$TOPDIR/scripts/kernel-boot.sh" -t "$target" \
			-k "$(cell_dir "$build")" -i "$initrd" ${disk:+-d "$disk"} -T "$limit"
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
		fi
	elif [ "$bstat" = pass ]; then
		vstat=fail
		verdict="fail: no initramfs for $name"
	fi
	cell_tests "$target" "$compiler" "$kdir" "$vstat" "$verdict"
	same=$(compiler_aliases "$compiler" 2>/dev/null) || same=""

	cell_warnings "$target" "$compiler" "$kdir" "$bstat"

	jq -n \
		--arg target "$target" --arg compiler "$compiler" --arg name "$name" \
		--arg dir "$(rel "$kdir")" \
		--arg ccver "$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$kdir/.config" 2>/dev/null)" \
		--arg same "$same" \
		--arg bstat "$bstat" --argjson bsecs "$bsecs" --arg breason "$breason" \
		--arg made "$(cat "$kdir/build.seconds" 2>/dev/null || :)" \
		--arg brepro "$repro_b" \
		--arg dstat "$dstat" --arg dreason "$dreason" \
		--arg vstat "$vstat" --argjson vsecs "$vsecs" --arg verdict "$verdict" \
		--arg vrepro "$repro_v" --arg qemu "$qemu" \
		--arg proof "$(cat "$kdir/build.proof" 2>/dev/null
			if [ "$vstat" = pass ]; then cat "$kdir/boot.proof" 2>/dev/null; fi)" \
		--arg version "$(if [ "$vstat" != skipped ]; then
			sed -n 's/\r$//; s/^kparity-init: version //p' "$kdir/boot.log" 2>/dev/null | head -n 1; fi)" \
		--arg last "$(if [ "$vstat" = fail ]; then tail -n 15 "$kdir/boot.log" 2>/dev/null | tr -d '\r'; fi)" \
		--slurpfile warnings "$cells/$target-$compiler.warnings" \
		--slurpfile tests "$cells/$target-$compiler.tests" \
		--slurpfile check "$cells/$target-$compiler.check" \
		--arg farm "$engine" --arg jobs "$(if [ -n "$engine" ]; then dist_jobs "$kdir/farm.log"; fi)" \
		-f "$TOPDIR/scripts/parity/parity-cell.jq" >"$cells/$target-$compiler.json"
}

# cell_warnings TARGET COMPILER KERNELDIR BUILDSTATUS: the cell's
# warnings counted (scripts/warnings.sh) into $cells/TARGET-COMPILER.warnings:
# the build's, or the failed build's log, and Kconfig's in config.log, of
# the configuration in place
cell_warnings() {
	local out="$cells/$1-$2.warnings" kdir="$3" wlog="$3/warnings.log"

	[ "$4" = pass ] || wlog="$kdir/build.log"
	set -- "$wlog"
	[ ! -r "$kdir/config.log" ] || set -- "$kdir/config.log" "$wlog"
	if [ -r "$wlog" ]; then
		"$TOPDIR/scripts/warnings.sh" -j -s "$srcdir" "$@" >"$out"
	else
		"$TOPDIR/scripts/warnings.sh" -j /dev/null >"$out"
	fi
}

# cell_check TARGET COMPILER BUILDSTATUS: the cell's kabi check
# (scripts/kernel-check.sh) into $cells/TARGET-COMPILER.check, null when
# the build failed; a check that failed says so in its result
cell_check() {
	local out="$cells/$1-$2.check"

	echo null >"$out"
	[ "$3" = pass ] || return 0
	"$TOPDIR/scripts/kernel-check.sh" -o "$build" -t "$1" -c "$2" -s "$srcdir" -O "$out" ||
		[ $? -eq 1 ] || die "the check stage failed on $1/$2"
}

# cell_disk TARGET COMPILER BUILDSTATUS: the cell's kselftest disk in
# $disk (scripts/kselftest.sh), made once its kernel has built and when
# the kselftests are judged; $dstat is pass, fail or none, $dreason why
# it failed. The cell boots without a disk that cannot be made.
cell_disk() {
	disk=""
	dstat=none
	dreason=""
	case " $kinds " in
	*" kselftest "*) [ "$3" = pass ] || return 0 ;;
	*) return 0 ;;
	esac
	if disk=$("$TOPDIR/scripts/kselftest.sh" -o "$build" -t "$1" -c "$2"); then
		dstat=pass
		return 0
	fi
	disk=""
	dstat=fail
	dreason="cannot build the disk (scripts/kselftest.sh -o $build -t $1 -c $2)"
}

# collections TARGET: the kselftest collections TARGET's disk holds, when
# the kselftests are judged, separated by spaces
collections() {
	case " $kinds " in
	*" kselftest "*) kselftest_collections "$1" | paste -s -d ' ' - ;;
	esac
}

# cell_tests TARGET COMPILER KERNELDIR BOOTSTATUS VERDICT: the results of
# the tests in the cell's console, into $cells/TARGET-COMPILER.tests (null
# when no tests are judged or the cell did not boot)
cell_tests() {
	local out="$cells/$1-$2.tests" hang=""

	if [ -z "$kinds" ] || [ "$4" = skipped ]; then
		echo null >"$out"
		return 0
	fi
	case "$5" in
	"fail: hang:"*) hang=-t ;;
	esac
	# a boot that failed before QEMU ran has no log: say so, and go on
	"$TOPDIR/scripts/ktap.sh" $hang "$3/boot.log" >"$out.lines" 2>/dev/null ||
		echo "# no console log '$3/boot.log'" >"$out.lines"
	jq -R -s --arg kinds "$kinds" --arg kselftest "$(collections "$1")" \
		-f "$TOPDIR/scripts/parity/parity-tests.jq" "$out.lines" >"$out"
}

main() {
	local opt target="" compiler=""

	build=""
	srcdir=""
	kinds="kunit kselftest"
	limit=120
	jobs=""
	while getopts c:hj:k:o:s:t:T: opt; do
		case "$opt" in
		c) compiler="$OPTARG" ;;
		j) jobs="$OPTARG" ;;
		k) kinds="$OPTARG" ;;
		o) build="$OPTARG" ;;
		s) srcdir="$OPTARG" ;;
		t) target="$OPTARG" ;;
		T) limit="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ -z "$build" ] || [ -z "$target" ] || [ -z "$compiler" ] || [ -z "$srcdir" ] ||
		[ "$#" -ne 1 ]; then
		usage >&2
		exit 2
	fi
	cells="$1"
	[ -d "$cells" ] || die "no cells directory '$cells'"
	[ -d "$build" ] || die "no build directory '$build'"
	abuild=$(cd "$build" && pwd)
	# the farm the cell is built on (kernel-build.sh), named in its JSON
	engine=$(dist_engine) || exit 2
	load_target "$target"
	compiler_select "$compiler"
	# the cell boots the user space its own compiler built
	initrd=""
	if "$TOPDIR/scripts/initramfs.sh" -o "$build" -t "$target" -c "$compiler" >/dev/null; then
		initrd="$(cell_dir "$build" initramfs)/initramfs.cpio"
	fi
	build_cell "$target" "$compiler"
}

main "$@"
