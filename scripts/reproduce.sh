#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# reproduce.sh - rebuild one cell of a parity report exactly, and say
# whether the vmlinux is the same, byte for byte (Documentation/history.md).
#
# The report names the tree (its version), the series (its checksum, in
# toolchain.json beside the report) and the cell's compiler and linker
# (their Debian package versions and the checksums of their binaries, in
# toolchain.json; the compiler's --version text in report.json itself).
# When the installed compiler, linker, tree or series is not the one
# named, the rebuild is refused with one line. The build's user, host,
# time and number come from the boot's /proc/version, as
# KBUILD_BUILD_USER, KBUILD_BUILD_HOST, KBUILD_BUILD_TIMESTAMP and
# KBUILD_BUILD_VERSION, so that the kernel's version string is the same.
# The rebuild uses the report's own tree (KSRC) and a build directory of
# its own; the absolute paths the debug information holds (the build
# directory, the tree) are mapped to the original's with
# -fdebug-prefix-map in KCFLAGS and KAFLAGS on make's command line (the
# environment's are scrubbed, as for the original), as the kernel's
# Documentation/kbuild/reproducible-builds.rst advises (and, for Clang,
# -fdebug-compilation-dir as well: prefix_maps). The two vmlinux
# are then compared, section by section when they differ.
#
# Exit: 0 rebuilt and the vmlinux identical, 1 refused (the toolchain,
# tree or series differs) or rebuilt and different, 2 trouble.

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=reproduce.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
# shellcheck source=scripts/lib/history.sh
. "$TOPDIR/scripts/lib/history.sh"

usage() {
	cat <<USAGE
usage: $PROG [-o OUTDIR] [-n] REPORT.JSON|BUILDDIR CELL
Rebuild CELL of the parity report REPORT.JSON (TARGET/COMPILER, as in
the report's 'reproduce.sh' lines, or the build's name, x86_64/clang-19)
with the toolchain, tree, series and configuration (KCONFIG, KCONFIG_ADD)
the report names, and compare its vmlinux with the report's. A BUILDDIR
names the report of the run's kernel tree and configuration in it:
BUILDDIR/report/report.json, or for a KERNEL other than the default,
BUILDDIR/KERNEL/report/report.json, and config-NAME/ below those for a
KCONFIG or KCONFIG_ADD run.
  -o OUTDIR  where the rebuild goes (default: BUILDDIR/reproduce, BUILDDIR
             the report's build directory)
  -n         check the toolchain, tree and series, print the environment
             and the command; build nothing
USAGE
}

# pin BIN: "sha256 package version" of the command BIN as installed
pin() {
	local real pkg ver=""

	real=$(readlink -f "$(command -v "$1" 2>/dev/null)" 2>/dev/null) || { echo "- - -"; return 0; }
	[ -f "$real" ] || { echo "- - -"; return 0; }
	pkg=$(dpkg-query -S "$real" 2>/dev/null | sed -n '/^diversion/d;s/: .*//;s/:[a-z0-9]*$//;p;q') || pkg=""
	[ -z "$pkg" ] || ver=$(dpkg-query -W -f '${Version}' "$pkg" 2>/dev/null) || ver=""
	echo "$(sha256sum "$real" | cut -c-64) ${pkg:--} ${ver:--}"
}

# check_tool WHAT BIN: refuse unless BIN is the binary toolchain.json pins
check_tool() {
	local what="$1" bin="$2" want have

	want=$(jq -r --arg c "$cellkey" --arg w "$what" \
		'.cells[$c][$w] | "\(.sha256 // "-") \(.package // "-") \(.version // "-")"' "$toolchain")
	[ "${want%% *}" != - ] || return 0
	have=$(pin "$bin")
	[ "${have%% *}" != "${want%% *}" ] || return 0
	echo "$PROG: $cellkey was built with $(echo "$want" | cut -d' ' -f2,3) ($(basename "$(jq -r --arg c "$cellkey" --arg w "$what" '.cells[$c][$w].binary' "$toolchain")") sha256 $(echo "$want" | cut -c-16)), this machine's '$bin' is $(echo "$have" | cut -d' ' -f2,3) (sha256 $(echo "$have" | cut -c-16)): not rebuilt" >&2
	exit 1
}

# build_env: the KBUILD_BUILD_* assignments /proc/version of the boot
# says, one a line: "Linux version V (USER@HOST) (...) #N FLAGS DATE"
build_env() {
	jq -r '.boot.proc_version // ""' "$cell" | awk '
		{
			if (!match($0, /^Linux version [^ ]+ \([^@) ]+@[^) ]+\)/)) exit 1
			s = substr($0, RSTART, RLENGTH)
			sub(/^Linux version [^ ]+ \(/, "", s); sub(/\)$/, "", s)
			user = s; sub(/@.*/, "", user); host = s; sub(/^[^@]*@/, "", host)
			if (!match($0, / #[0-9]+ /)) exit 1
			num = substr($0, RSTART + 2, RLENGTH - 3)
			rest = substr($0, RSTART + RLENGTH)
			while (match(rest, /^(SMP|PREEMPT[A-Z_]*) /))
				rest = substr(rest, RLENGTH + 1)
			printf "KBUILD_BUILD_USER=%s\nKBUILD_BUILD_HOST=%s\nKBUILD_BUILD_VERSION=%s\nKBUILD_BUILD_TIMESTAMP=%s\n", user, host, num, rest
		}'
}

# comp_dirs VMLINUX: "COUNT DIR" for each DW_AT_comp_dir its units name,
# the most named first
comp_dirs() {
	LC_ALL=C readelf --debug-dump=info --dwarf-depth=1 "$1" 2>/dev/null |
		awk '/DW_AT_comp_dir/ { print $NF }' | LC_ALL=C sort | uniq -c | sort -rn || :
}

# comp_dir VMLINUX: the build directory its debug information names (the
# DW_AT_comp_dir of most of its units), or nothing. Units that name
# another are objects ccache served as another build compiled them
# (kernel-build.sh sets CCACHE_NOHASHDIR): said on stderr, since no
# rebuild gives those the same debug information.
comp_dir() {
	local others

	comp_dirs "$1" >"$tmp/dirs"
	others=$(awk 'NR > 1 { n += $1 } END { print n + 0 }' "$tmp/dirs")
	[ "$others" = 0 ] ||
		warn "$others of the $(awk '{ n += $1 } END { print n }' "$tmp/dirs") units of '$1' were compiled in another directory than '$(awk 'NR == 1 { print $2 }' "$tmp/dirs")' (ccache, from another build): their debug information cannot be rebuilt the same"
	awk 'NR == 1 { print $2 }' "$tmp/dirs"
}

# prefix_maps ORIGDIR NEWDIR SRCDIR: the -fdebug-prefix-map options that
# give the rebuild's paths the original's. Clang before 15 does not map
# the directory of the line table of an assembler source (DW_AT_comp_dir
# it maps, the line table's directory 0 it does not), so a Clang
# rebuild is also told the compilation directory itself; GCC has no such
# option, and maps both.
prefix_maps() {
	local was src

	was=$(comp_dir "$1/vmlinux")
	[ -n "$was" ] || return 0
	printf ' -fdebug-prefix-map=%s=%s' "$2" "$was"
	[ -z "$cc_llvm" ] || printf ' -fdebug-compilation-dir=%s' "$was"
	# the tree the original was built from, if it was elsewhere
	src=$(readlink "$1/source" 2>/dev/null) || src=""
	[ -z "$src" ] || [ "$src" = "$3" ] || printf ' -fdebug-prefix-map=%s=%s' "$3" "$src"
}

# sections FILE: "NAME SHA256" of each section of the ELF FILE with bytes
# in the file, from readelf's offsets (any architecture)
sections() {
	LC_ALL=C readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\] *//' |
		awk '$1 ~ /^\./ && $2 != "NOBITS" { print $1, $4, $5 }' |
		while read -r name off size; do
			printf '%s %s\n' "$name" \
				"$(tail -c +$((0x$off + 1)) "$1" | head -c $((0x$size)) | sha256sum | cut -c-16)"
		done
}

# series_of VERSION: the series of Linux VERSION's tree as the checkout
# holds it (patches/6.1/), or how it is named when scripts/trees/ has no
# file for that tree
series_of() {
	local name

	name=$(printf '%s\n' "$1" | cut -d . -f 1-2)
	if [ -f "$TOPDIR/scripts/trees/$name.tree" ]; then
		(load_tree "$name" && printf '%s/\n' "${k_series#"$TOPDIR"/}")
	else
		printf "Linux %s's series (scripts/trees/ has none)\n" "$1"
	fi
}

# compare A B: say whether two vmlinux are the same, and where not
compare() {
	local a="$1" b="$2" diff

	if cmp -s "$a" "$b"; then
		echo "reproduce: $cellkey: vmlinux identical to the report's (sha256 $(sha256sum "$b" | cut -c-16), $(wc -c <"$b") bytes)"
		return 0
	fi
	sections "$a" >"$out/sections.report"
	sections "$b" >"$out/sections.rebuilt"
	diff=$(LC_ALL=C join -a 1 -a 2 -e none -o 0,1.2,2.2 \
		"$(sort_to "$out/sections.report")" "$(sort_to "$out/sections.rebuilt")" |
		awk '$2 != $3 { printf "%s%s", sep, $1; sep = " " }')
	echo "reproduce: $cellkey: vmlinux differs ($(wc -c <"$a") bytes in the report's, $(wc -c <"$b") rebuilt) in: ${diff:-the ELF headers only}"
	return 1
}

# sort_to FILE: FILE sorted, as FILE.sorted; prints its name
sort_to() {
	LC_ALL=C sort "$1" >"$1.sorted"
	echo "$1.sorted"
}

main() {
	local opt outdir="" dry=0 report build key compiler suffix target dir srcdir tree want_series env maps
	local rtree have_series

	while getopts hno: opt; do
		case "$opt" in
		n) dry=1 ;;
		o) outdir="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 2 ] || { usage >&2; exit 2; }
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq readelf || exit 2
	report="$1"
	[ ! -d "$report" ] || report="$(tree_root "$report")/report/report.json"
	report=$(abspath "$report") || die "cannot read '$report'"
	key="$2"
	[ -r "$report" ] || die "cannot read '$report'"
	jq -e '.version == 1 and (.matrix | type) == "array"' "$report" >/dev/null 2>&1 ||
		die "'$report' is not a version 1 parity report"
	# the report is in its kernel tree's and configuration's place in
	# BUILDDIR (tree_root, the report's report_dir); the tree is the
	# report's, unless KERNEL or KSRC name one, and the configuration is
	# the report's (KCONFIG, KCONFIG_ADD)
	rtree=$(jq -r '.kernel // "" | tostring | sub("^linux-"; "")' "$report" | cut -d . -f 1-2)
	rdir=$(jq -r '.report_dir // ""' "$report")
	if [ -n "$rdir" ]; then
		build=${report%/"$rdir"/report.json}
		[ "$build" != "$report" ] || die "'$report' is not in its place, BUILDDIR/$rdir/"
	else
		build=$(dirname "$(dirname "$report")")
		[ -z "$rtree" ] || [ "$rtree" = "$DEFAULT_TREE" ] || build=$(dirname "$build")
	fi
	KCONFIG=$(jq -r '.kconfig // ""' "$report")
	KCONFIG_ADD=$(jq -r '.config_add // [] | join(" ")' "$report")
	export KCONFIG KCONFIG_ADD
	config_check
	if [ -z "${KERNEL:-}" ] && [ -z "${KSRC:-}" ] && [ -n "$rtree" ] &&
		[ -f "$TOPDIR/scripts/trees/$rtree.tree" ]; then
		KERNEL="$rtree"
		export KERNEL
	fi
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	cell="$tmp/cell.json"
	jq --arg k "$key" 'first(.matrix[].cells[] | select("\(.target)/\(.compiler)" == $k or .name == $k)) // empty' \
		"$report" >"$cell"
	[ -s "$cell" ] || die "no cell '$key' in '$report' (its cells: $(jq -r '[.matrix[].cells[] | "\(.target)/\(.compiler)"] | join(" ")' "$report"))"
	target=$(jq -r .target "$cell")
	compiler=$(jq -r .compiler "$cell")
	cellkey="$target/$compiler"
	suffix=$(jq -r '.name | split("/")[1]' "$cell")
	dir=$(jq -r '.dir' "$cell")
	load_target "$target"
	# the build's own name is the compiler exactly (clang with LLVM=-19 built clang-19)
	if [ -n "$(compiler_line "$suffix")" ]; then
		compiler="$suffix"
	fi
	compiler_select "$compiler"

	toolchain="$(dirname "$report")/toolchain.json"
	if [ ! -f "$toolchain" ] ||
		[ "$(jq -r '.report_sha256 // ""' "$toolchain" 2>/dev/null)" != "$(sha256sum "$report" | cut -c-64)" ]; then
		toolchain=""
	fi
	if [ -n "$toolchain" ]; then
		check_tool cc "$cc_bin"
		check_tool ld "$ld_bin"
	fi
	# without pins, the compiler's own words are all there is to compare
	have=$("$cc_bin" --version 2>/dev/null | head -n 1) || have=""
	[ "$have" = "$(jq -r .compiler_version "$cell")" ] || {
		echo "$PROG: $cellkey was built with '$(jq -r .compiler_version "$cell")', this machine's '$cc_bin' says '${have:-nothing}': not rebuilt" >&2
		exit 1
	}

	srcdir=$(KPARITY_SRC_QUIET=1 "$TOPDIR/scripts/kernel-src.sh" -o "$build") || exit 2
	tree="linux-$(tree_version "$srcdir")"
	[ "$tree" = "$(jq -r .kernel "$report")" ] ||
		{ echo "$PROG: the report is of $(jq -r .kernel "$report"), the tree '$srcdir' is $tree: not rebuilt" >&2; exit 1; }
	if [ -n "$toolchain" ]; then
		want_series=$(jq -r '.series // ""' "$toolchain")
		have_series=$(tree_series_sum "${tree#linux-}")
		[ "$want_series" = "$have_series" ] ||
			{ echo "$PROG: the report's series is ${want_series:-empty}, $(series_of "${tree#linux-}") is ${have_series:-empty}: not rebuilt" >&2; exit 1; }
	fi
	env=$(build_env) || die "the report has no /proc/version of $cellkey's boot: its build user, host and time are unknown"

	out="${outdir:-$build/reproduce}"
	if [ "$dry" = 1 ]; then
		maps=$(prefix_maps "$build/$dir" "$(abspath "$out")/$dir" "$srcdir")
		printf '%s\n' "$env"
		[ -z "$KCONFIG" ] || printf 'KCONFIG=%s\n' "$KCONFIG"
		[ -z "$KCONFIG_ADD" ] || printf "KCONFIG_ADD='%s'\n" "$KCONFIG_ADD"
		printf 'KSRC=%s\n' "$srcdir"
		printf 'scripts/kernel-build.sh -o %s -t %s -c %s' "$out" "$target" "$compiler"
		[ -z "$maps" ] || printf " '%s'" "KCFLAGS=${maps# }" "KAFLAGS=${maps# }"
		echo
		exit 0
	fi
	mkdir -p "$out" || die "cannot create '$out'"
	out=$(cd "$out" && pwd)
	[ "$out" != "$build" ] || die "the rebuild needs a directory other than the report's '$build'"
	maps=$(prefix_maps "$build/$dir" "$out/$dir" "$srcdir")
	# shellcheck disable=SC2046 # one assignment a line, no spaces but the timestamp's
	(
		IFS='
'
		export $(printf '%s\n' "$env")
		KSRC="$srcdir"
		export KSRC
		unset IFS
		# kernel-make.sh scrubs the environment's KCFLAGS: the maps
		# go on make's command line, as the original's had none
		set -- -o "$out" -t "$target" -c "$compiler"
		[ -z "$maps" ] || set -- "$@" "KCFLAGS=${maps# }" "KAFLAGS=${maps# }"
		step REBUILD "$cellkey in $out ($(printf '%s' "$env" | tr '\n' ' '))"
		"$TOPDIR/scripts/kernel-build.sh" "$@" >/dev/null
	) || { echo "$PROG: rebuilding $cellkey failed; see '$out/${dir}/build.log'" >&2; exit 1; }
	compare "$build/$dir/vmlinux" "$out/$dir/vmlinux"
}

main "$@"
