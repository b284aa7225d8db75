#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# parity.sh - the parity run: for every target, build the kernel with GCC
# and with Clang, boot each build in QEMU, count its warnings, diff the two
# vmlinux layouts with kabi, read the tests' results from each console
# (scripts/ktap.sh), and write the report.
#
# With more compilers (-c all: the versions of scripts/targets/compilers.list)
# the run is a matrix: every compiler's layout is compared with the
# reference's (GCC 12), and each Clang with the next Clang version, where
# any layout change is a finding for the report (not a failure).
#
# With DIST=distcc or icecc the kernels compile on a farm, and each cell
# says how many compile jobs ran on which host, from the engine's client
# log (scripts/lib/farm.sh: dist_jobs).
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
# A test that passes under one compiler and not under another fails the
# run, unless scripts/targets/test-differences.list names it with a reason.
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
KNOWN_TESTS="none kunit kselftest all"
DIFFERENCES="$TOPDIR/scripts/targets/test-differences.list"
# the most changed types whose layouts the report draws per comparison
PICTURES=20

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-t TARGETS] [-c COMPILERS] [-T SECONDS] [-k TESTS] [-j JOBS]
Build, boot and compare every target with every compiler; write the report
to BUILDDIR/report/.
  -o BUILDDIR   where build products and the report go (default: build)
  -t TARGETS    targets, separated by spaces or commas
                (default: all of $(known_targets))
  -c COMPILERS  compilers, separated by spaces or commas, of:
                $(known_compilers)
                or all for $(known_compilers all)
                (default: gcc clang)
  -T SECONDS    time limit for each boot (default: 120)
  -k TESTS      which tests' results to judge, one of: $KNOWN_TESTS
                (default: all, KUnit's at boot and the kselftests from
                each cell's disk)
  -j JOBS       make jobs of each kernel build (default: the number of
                CPUs; on a farm, its slot count)
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

# identity COMPILER: its compiler_identity on every target of the run, one
# line; empty when it is missing on one of them.
identity() {
	local t id out=""

	for t in $targets; do
		id=$(load_target "$t" && compiler_identity "$1" 2>/dev/null) || id=""
		[ -n "$id" ] || return 0
		out="$out$t: $id; "
	done
	printf '%s\n' "$out"
}

# in_all COMPILER: COMPILER is one of COMPILERS=all (a versioned name).
in_all() {
	case " $(known_compilers all) " in
	*" $1 "*) return 0 ;;
	*) return 1 ;;
	esac
}

# drop_aliases: drop from $compilers every name that builds, on every
# target of the run, what another name of the run builds (gcc and gcc-12
# on Debian 12), so that no kernel is built twice. The versioned name is
# kept, else the first; $aliases gets "NAME=KEPT" for each dropped name.
drop_aliases() {
	local c d kept="" ids

	aliases=""
	ids=$(for c in $compilers; do printf '%s %s\n' "$c" "$(identity "$c")"; done)
	for c in $compilers; do
		d=$(printf '%s\n' "$ids" | awk -v c="$c" '
			$1 == c { id = substr($0, length(c) + 2) }
			{ name[NR] = $1; line[NR] = substr($0, length($1) + 2) }
			END {
				if (id == "") exit
				for (i = 1; i <= NR; i++)
					if (name[i] != c && line[i] == id) { print name[i]; exit }
			}')
		if [ -n "$d" ] && { { in_all "$d" && ! in_all "$c"; } ||
			{ { in_all "$d" || ! in_all "$c"; } && before "$d" "$c"; }; }; then
			step ALIAS "$c = $d (the same compiler and linker): built once, as $d"
			aliases="$aliases $c=$d"
		else
			kept="$kept $c"
		fi
	done
	compilers="${kept# }"
	aliases="${aliases# }"
}

# before A B: A comes before B in $compilers.
before() {
	case " $compilers " in
	*" $1 "*" $2 "*) return 0 ;;
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
	local vstat="skipped" vsecs=0 verdict="" wlog repro_b repro_v="" qemu="" rc same

	sfx=$(suffix "$compiler")
	kdir="$abuild/kernel/$target-$sfx"
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

	disk=""
	[ "$bstat" != pass ] || cell_disk "$target" "$compiler"
	if [ "$bstat" = pass ] && [ -n "$initrd" ]; then
		start=$(date +%s)
		rc=0
		set -- "$TOPDIR/scripts/kernel-boot.sh" -t "$target" \
			-k "$build/kernel/$target-$sfx" -i "$initrd" ${disk:+-d "$disk"} -T "$limit"
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
		verdict="fail: no initramfs for $target/$sfx"
		failures="$failures$target/$sfx boot: no initramfs
"
	fi
	cell_tests "$target" "$compiler" "$sfx" "$kdir" "$vstat" "$verdict"
	same=$(load_target "$target" && compiler_aliases "$compiler" 2>/dev/null) || same=""

	wlog="$kdir/warnings.log"
	[ "$bstat" = pass ] || wlog="$kdir/build.log"
	# Kconfig's warnings are in config.log, of the configuration in place
	set -- "$wlog"
	[ ! -r "$kdir/config.log" ] || set -- "$kdir/config.log" "$wlog"
	if [ -r "$wlog" ]; then
		"$TOPDIR/scripts/warnings.sh" -j -s "$srcdir" "$@" >"$cells/$target-$compiler.warnings"
	else
		"$TOPDIR/scripts/warnings.sh" -j /dev/null >"$cells/$target-$compiler.warnings"
	fi

	jq -n \
		--arg target "$target" --arg compiler "$compiler" --arg name "$target/$sfx" \
		--arg dir "$(rel "$kdir")" \
		--arg ccver "$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$kdir/.config" 2>/dev/null)" \
		--arg same "$same" \
		--arg bstat "$bstat" --argjson bsecs "$bsecs" --arg breason "$breason" \
		--arg made "$(cat "$kdir/build.seconds" 2>/dev/null || :)" \
		--arg brepro "$repro_b" \
		--arg vstat "$vstat" --argjson vsecs "$vsecs" --arg verdict "$verdict" \
		--arg vrepro "$repro_v" --arg qemu "$qemu" \
		--arg version "$(if [ "$vstat" != skipped ]; then
			sed -n 's/\r$//; s/^kparity-init: version //p' "$kdir/boot.log" 2>/dev/null | head -n 1; fi)" \
		--arg last "$(if [ "$vstat" = fail ]; then tail -n 15 "$kdir/boot.log" 2>/dev/null | tr -d '\r'; fi)" \
		--slurpfile warnings "$cells/$target-$compiler.warnings" \
		--slurpfile tests "$cells/$target-$compiler.tests" \
		--arg farm "$engine" --arg jobs "$(if [ -n "$engine" ]; then dist_jobs "$kdir/farm.log"; fi)" \
		-f "$TOPDIR/scripts/lib/parity-cell.jq" >"$cells/$target-$compiler.json"
}

# cell_disk TARGET COMPILER: the cell's kselftest disk in $disk when the
# kselftests are judged (scripts/kselftest.sh), made once its kernel has
# built; a disk that cannot be made fails the run, and the cell boots
# without it
cell_disk() {
	disk=""
	case " $kinds " in
	*" kselftest "*) ;;
	*) return 0 ;;
	esac
	disk=$("$TOPDIR/scripts/kselftest.sh" -o "$build" -t "$1" -c "$2") && return 0
	disk=""
	failures="$failures$1/$(suffix "$2") kselftest: cannot build the disk (scripts/kselftest.sh -o $build -t $1 -c $2)
"
}

# collections TARGET: the kselftest collections TARGET's disk holds, when
# the kselftests are judged, separated by spaces
collections() {
	case " $kinds " in
	*" kselftest "*) ;;
	*) return 0 ;;
	esac
	awk -v target="$1" -f "$TOPDIR/scripts/lib/kselftest-list.awk" \
		"${KPARITY_KSELFTEST_LIST:-$TOPDIR/scripts/targets/kselftest.list}" |
		awk '!seen[$1]++ { printf "%s%s", sep, $1; sep = " " }'
}

# cell_tests TARGET COMPILER SUFFIX KERNELDIR BOOTSTATUS VERDICT: the
# results of the tests in the cell's console, into $cells/TARGET-COMPILER.tests
# (null when no tests are judged or the cell did not boot). A console
# without KUnit's results fails the cell.
cell_tests() {
	local out="$cells/$1-$2.tests" hang=""

	if [ -z "$kinds" ] || [ "$5" = skipped ]; then
		echo null >"$out"
		return 0
	fi
	case "$6" in
	"fail: hang:"*) hang=-t ;;
	esac
	# a boot that failed before QEMU ran has no log: say so, and go on
	"$TOPDIR/scripts/ktap.sh" $hang "$4/boot.log" >"$out.lines" 2>/dev/null ||
		echo "# no console log '$4/boot.log'" >"$out.lines"
	jq -R -s --arg kinds "$kinds" --arg kselftest "$(collections "$1")" \
		-f "$TOPDIR/scripts/lib/parity-tests.jq" "$out.lines" >"$out"
	if [ "$5" = pass ] && ! grep -q -v '^# ' "$out.lines"; then
		failures="$failures$1/$3 tests: no KUnit results on the console ($(grep -m 1 '^# ' "$out.lines" | cut -c 3-))
"
	fi
}

# target_tests TARGET: add the tests compared across compilers to
# $cells/TARGET.target.json; a test that differs and is not a known
# difference fails the run.
target_tests() {
	local file="$cells/$1.target.json" first n

	jq --rawfile known "$DIFFERENCES" -f "$TOPDIR/scripts/lib/parity-tests-target.jq" \
		"$file" >"$file.tmp" || die "cannot compare the tests of $1"
	mv "$file.tmp" "$file"
	n=$(jq '.tests.differs // 0' "$file")
	[ "$n" -gt 0 ] || return 0
	first=$(jq -r '.tests.rows[0] | "\(.test) (\(.status | to_entries | map("\(.key) \(.value)") | join(", ")))"' "$file")
	failures="$failures$1 tests: $n differ between compilers, first $first
"
}

# compare TARGET OLD NEW KIND: diff the vmlinux of TARGET built with
# compiler OLD and with compiler NEW with kabi; write $cells/TARGET.OLD.NEW.kabi.json
# with the summary and, for each type whose layout differs incompatibly
# and each changed type the report draws (at most PICTURES), the findings
# and both layouts. KIND says what a difference is: ref (NEW against the
# reference compiler: an incompatible one fails the run) or version (one
# Clang against the next: every change is a finding, none fails the run).
compare() {
	local target="$1" c_old="$2" c_new="$3" kind="$4" old new txt json rc=0 status=pass reason=""
	local names pictured id="$1.$2.$3"

	old="$abuild/kernel/$target-$(suffix "$c_old")/vmlinux"
	new="$abuild/kernel/$target-$(suffix "$c_new")/vmlinux"
	txt="$report/$id.kabi.txt"
	json="$report/$id.kabi.json"
	set -- "$build/kabi" diff --root "$srcdir"
	jq -n --arg r "$build/kabi diff --root $(shown "$srcdir") $(shown "$old") $(shown "$new")" \
		'$r' >"$cells/$id.kabi.repro"

	if ! jq -e '.build.status == "pass"' "$cells/$target-$c_old.json" >/dev/null ||
		! jq -e '.build.status == "pass"' "$cells/$target-$c_new.json" >/dev/null; then
		jq -n --slurpfile r "$cells/$id.kabi.repro" --arg old "$c_old" --arg new "$c_new" \
			'{old: $old, new: $new, status: "skipped", reason: "a build failed", summary: null,
			  incompatible: [], reproduce: $r[0]}' >"$cells/$id.kabi.json"
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
		step KABI "$target $c_old vs $c_new  $(tail -n 1 "$txt")"
		names=$(jq -r '.types[] | select(.incompatible) | "\(.kind) \(.name)"' "$json")
		if [ "$kind" = version ]; then
			[ "$(jq '.summary.changed + .summary.incompatible' "$json")" -eq 0 ] ||
				findings="$findings$target $c_old -> $c_new: $(jq -r '"\(.summary.changed) types changed, \(.summary.incompatible) incompatibly"' "$json")
"
		elif [ -n "$names" ]; then
			status=fail
			reason="layouts differ incompatibly"
			failures="$failures$target kabi $c_old vs $c_new: $(printf '%s\n' "$names" | wc -l) types differ incompatibly
"
		fi
		pictured=$(jq -r -L "$TOPDIR/scripts/lib" --argjson cap "$PICTURES" \
			'include "kabi-pictured"; pictured($cap)[] | "\(.kind) \(.name)"' "$json")
		layouts "$old" "$cells/$id.old.layout" "$pictured"
		layouts "$new" "$cells/$id.new.layout" "$pictured"
		jq -L "$TOPDIR/scripts/lib" --arg status "$status" --arg reason "$reason" \
			--argjson cap "$PICTURES" --slurpfile r "$cells/$id.kabi.repro" \
			--slurpfile gcc "$cells/$id.old.layout" \
			--slurpfile clang "$cells/$id.new.layout" \
			-f "$TOPDIR/scripts/lib/parity-kabi.jq" "$json" |
			jq --arg old "$c_old" --arg new "$c_new" '{old: $old, new: $new} + .' \
			>"$cells/$id.kabi.json"
	else
		failures="$failures$target kabi $c_old vs $c_new: $reason
"
		jq -n --arg reason "$reason" --slurpfile r "$cells/$id.kabi.repro" \
			--arg old "$c_old" --arg new "$c_new" \
			'{old: $old, new: $new, status: "fail", reason: $reason, summary: null,
			  incompatible: [], reproduce: $r[0]}' >"$cells/$id.kabi.json"
	fi
}

# reference: the compiler every other one is compared with: GCC 12 (gcc-12,
# or gcc, its old name) when the run has it, else the run's first.
reference() {
	local c

	for c in gcc-12 gcc; do
		has_compiler "$c" && { printf '%s\n' "$c"; return 0; }
	done
	printf '%s\n' "${compilers%% *}"
}

# clang_versions: the run's clang-N, one a line, oldest first.
clang_versions() {
	local c

	for c in $compilers; do
		case "$c" in
		clang-[0-9]*) printf '%s\n' "$c" ;;
		esac
	done | sort -t - -k 2n
}

# ias_twin COMPILER: the compiler of the run that is COMPILER with Clang's
# integrated assembler (for clang-gas, clang: the same CC and LLVM in
# compilers.list, IAS '-'), under the name the run kept it by; or nothing.
ias_twin() {
	local t a

	t=$(awk -v n="$1" '!/^[ \t]*(#|$)/ { k++; nm[k] = $1; cc[$1] = $2; ll[$1] = $3; ia[$1] = $4 }
		END {
			if (!(n in cc) || ia[n] == "-") exit
			for (i = 1; i <= k; i++)
				if (nm[i] != n && cc[nm[i]] == cc[n] && ll[nm[i]] == ll[n] && ia[nm[i]] == "-") {
					print nm[i]
					exit
				}
		}' "$COMPILERS_LIST")
	[ -n "$t" ] || return 0
	for a in $aliases; do
		[ "${a%%=*}" != "$t" ] || t="${a#*=}"
	done
	! has_compiler "$t" || printf '%s\n' "$t"
}

# compare_all TARGET: every compiler of the run against the reference and,
# with more than two compilers, each clang-N against the next version; and
# a Clang with GNU as against the same Clang with its own assembler. Write
# $cells/TARGET.kabi.json (the first comparison, the report's kabi
# column), TARGET.vs-ref.json and TARGET.versions.json (the Clang pairs,
# where any change is a finding).
compare_all() {
	local target="$1" ref c prev=""

	ref=$(reference)
	set --
	for c in $compilers; do
		[ "$c" != "$ref" ] || continue
		compare "$target" "$ref" "$c" ref
		set -- "$@" "$cells/$target.$ref.$c.kabi.json"
	done
	if [ $# -gt 0 ]; then
		jq 'del(.old, .new)' "$1" >"$cells/$target.kabi.json"
		jq -s '.' "$@" >"$cells/$target.vs-ref.json"
	else
		echo '[]' >"$cells/$target.vs-ref.json"
	fi
	set --
	if [ "$(echo "$compilers" | wc -w)" -gt 2 ]; then
		for c in $(clang_versions); do
			if [ -n "$prev" ]; then
				compare "$target" "$prev" "$c" version
				set -- "$@" "$cells/$target.$prev.$c.kabi.json"
			fi
			prev="$c"
		done
	fi
	for c in $compilers; do
		prev=$(ias_twin "$c")
		if [ -n "$prev" ] && [ "$prev" != "$ref" ]; then
			compare "$target" "$prev" "$c" version
			set -- "$@" "$cells/$target.$prev.$c.kabi.json"
		fi
	done
	if [ $# -gt 0 ]; then
		jq -s '.' "$@" >"$cells/$target.versions.json"
	else
		echo '[]' >"$cells/$target.versions.json"
	fi
}

# layouts VMLINUX OUT NAMES: kabi dump --json of the types NAMES (one
# "KIND NAME" per line) from VMLINUX into OUT; an empty model without names.
layouts() {
	local vmlinux="$1" out="$2" names="$3" line

	if [ -z "$names" ]; then
		echo '{"version":1,"types":[]}' >"$out"
		return 0
	fi
	set -- "$build/kabi" dump --json --root "$srcdir"
	while IFS= read -r line; do
		set -- "$@" --type "$line"
	done <<EOF
$names
EOF
	if ! "$@" "$vmlinux" >"$out"; then
		warn "kabi dump of the changed types of $vmlinux failed; the report draws none"
		echo '{"version":1,"types":[]}' >"$out"
	fi
}

# assemble: write report.json from the cell and kabi files.
assemble() {
	local target compiler kabi_file

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
			-f "$TOPDIR/scripts/lib/parity-target.jq" "$@" |
			jq --slurpfile vr "$cells/$target.vs-ref.json" \
				--slurpfile vv "$cells/$target.versions.json" \
				'. + {kabi_vs_ref: $vr[0], kabi_versions: $vv[0]}' >"$cells/$target.target.json"
		target_tests "$target"
	done
	# after the targets: comparing their tests may add failures
	jq -n --arg kernel "$kernel" --arg build "$build" \
		--arg targets "$targets" --arg compilers "$compilers" \
		--arg failures "$failures" --arg findings "$findings" \
		--arg reference "$(reference)" --arg aliases "$aliases" '
		{version: 1, kernel: $kernel, builddir: $build,
		 compilers: ($compilers | split(" ")),
		 aliases: ($aliases | split(" ") | map(select(. != "") | split("=") | {(.[0]): .[1]}) | add // {}),
		 reference: $reference,
		 targets: ($targets | split(" ")),
		 failures: ($failures | split("\n") | map(select(. != ""))),
		 findings: ($findings | split("\n") | map(select(. != "")))}' >"$cells/head.json"
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
	local t c err

	for t in $targets; do
		"$TOPDIR/scripts/target.sh" -p "$PROG" "$t" >/dev/null || exit 2
	done
	compilers=$(compiler_words "$compilers")
	drop_aliases
	[ -n "$targets" ] || die "no targets (known: $(known_targets))"
	[ -n "$compilers" ] || die "no compilers (known: $(known_compilers))"
	case " $KNOWN_TESTS " in
	*" $tests "*) ;;
	*) die "unknown TESTS '$tests' (known: $KNOWN_TESTS)" ;;
	esac
	case "$tests" in
	none) kinds="" ;;
	kunit) kinds=kunit ;;
	kselftest | all) kinds="kunit kselftest" ;;
	esac
	# a malformed list would otherwise only be found after every build
	[ -r "$DIFFERENCES" ] || die "cannot read '$DIFFERENCES'"
	err=$(echo '{"name": "", "cells": [{"compiler": "", "tests": {"results": [], "counts": {}}}]}' |
		jq --rawfile known "$DIFFERENCES" -f "$TOPDIR/scripts/lib/parity-tests-target.jq" 2>&1 >/dev/null) ||
		die "'$DIFFERENCES': $(printf '%s\n' "$err" | sed -n 's/^jq: error ([^)]*): //p' | head -n 1)"
}

main() {
	local opt target compiler initrd_ok n more

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
		t) targets=$(words "$OPTARG") ;;
		T) limit="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ "$#" -eq 0 ] || { usage >&2; exit 2; }
	[ -z "$jobs" ] || is_positive "$jobs" || die "-j needs a positive number, not '$jobs'"
	[ -n "$targets" ] || targets=$(known_targets)
	[ -n "$compilers" ] || compilers="gcc clang"
	check_lists
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq timeout flock || exit 2
	# the farm the cells are built on (kernel-build.sh), named in the report
	engine=$(dist_engine) || exit 2
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
	findings=""

	for target in $targets; do
		for compiler in $compilers; do
			# each cell boots the user space its own compiler built
			initrd_ok=0
			initrd=$("$TOPDIR/scripts/initramfs.sh" -o "$build" -t "$target" -c "$compiler") &&
				initrd_ok=1
			[ "$initrd_ok" = 1 ] || initrd=""
			initrd="${initrd:+$build/initramfs/$target-$(suffix "$compiler")/initramfs.cpio}"
			build_cell "$target" "$compiler"
		done
		compare_all "$target"
	done

	# The report is written whole, or not at all: seconds of jq, which a
	# Ctrl-C from now on no longer stops.
	trap '' INT TERM
	assemble
	"$TOPDIR/scripts/history.sh" record "$report/report.json" || :
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
