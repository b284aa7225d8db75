#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# module-check.sh - compare the types of built modules with the kernel's
# and with those of the modules each one depends on (Documentation/
# distro-modules.md, "Reading the layout check"); scripts/module.sh runs
# it on every .ko a build made.
#
# A module's types fall in three sets: those the kernel's types also name
# (compared with the kernel's), those the kernel lacks but a module it
# depends on defines (compared with that module's: its DWARF, or its
# split BTF on the kernel's), and the rest, which nothing it links
# against defines: its own. The modules depended on are those its
# .modinfo 'depends=' names, and theirs in turn, as long as types are
# left to place. While one is not found, the rest cannot be told from its
# types, so they are counted "not compared", with the module named. A
# module kabi cannot read (no DWARF: built with -g0, or stripped) is
# "not checked", with kabi's reason.
#
# Every module gets one MODULE line with its verdict on stderr; stdout
# carries one summary line for the caller.
#
# Exit: 0 every module checked and nothing differs; 2 trouble (the
# kernel's types unreadable, bad usage); otherwise the bits ORed over the
# modules: 4 a layout changed, 8 incompatibly (kabi's), 16 a module not
# checked, or some of its types not compared.
# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=module-check.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/elf.sh
. "$TOPDIR/scripts/lib/elf.sh"

NOT_COMPARED=16

usage() {
	cat <<USAGE
usage: $PROG -t TYPES -w WORKDIR [-b BTF] [-r RELEASE] [-R ROOT] [-d DIR]... [-k KABI] KO...
Compare each KO's types with the kernel's and with those of the modules
it depends on.
  -t TYPES    the kernel's types: a vmlinux with DWARF, or BTF (raw, or a
              vmlinux with .BTF)
  -b BTF      the kernel BTF that a dependency's split BTF builds on
              (default: TYPES)
  -d DIR      look for the modules a KO depends on under DIR (repeatable,
              the first found wins)
  -r RELEASE  take a dependency only if its vermagic is for RELEASE
  -R ROOT     name each KO by its path below ROOT
  -w WORKDIR  where each comparison's report goes
  -k KABI     the kabi to run (default: kabi)
Exit: 0 all checked and equal, 2 trouble; else bits: 4 a layout changed,
8 incompatibly, 16 a module not checked or some of its types not compared.
USAGE
}

# names FILE [KABI-ARG...]: 'KIND NAME' of every type FILE defines, sorted
names() {
	local file="$1"

	shift
	"$kabi" dump "$@" "$file" >"$work/dump.out" 2>"$work/dump.err" ||
		die "kabi cannot dump '$file': $(head -n 1 "$work/dump.err")"
	awk '/^[a-z]/ { print $1, $2 }' "$work/dump.out" | LC_ALL=C sort -u
	rm -f "$work/dump.out"
}

# summary_field REPORT FIELD: a count from kabi diff's summary line
# (changed, unchanged)
summary_field() {
	sed -n "s/.* \\([0-9][0-9]*\\) $2[ ,(].*/\\1/p" "$1" | tail -n 1
}

# diff_into REPORT OLD NEW KABI-ARG...: kabi diff, layout only, of the
# types both name; prints the report indented, returns kabi's bits, or 1
# with kabi's message in diff_why when kabi cannot compare them
diff_into() {
	local out="$1" old="$2" new="$3" st=0

	shift 3
	"$kabi" diff --only-common --only-layout "$@" "$old" "$new" >"$out" 2>"$work/diff.err" || st=$?
	case "$st" in
	0 | 4 | 8 | 12) ;;
	*)
		diff_why=$(sed -n '1s/^kabi: //p' "$work/diff.err")
		diff_why=${diff_why:-kabi exited $st}
		return 1
		;;
	esac
	sed 's/^/    /' "$out" >&2
	return "$st"
}

# index_modules: 'NAME PATH' of every module under the -d directories, in
# their order, into $work/modules.idx; NAME with '-' as '_', as the
# kernel's module names compare. A module may be compressed
# (CONFIG_MODULE_COMPRESS: Debian's images from 6.12 on hold .ko.xz).
index_modules() {
	local dir

	: >"$work/modules.idx"
	while IFS= read -r dir; do
		[ -d "$dir" ] || continue
		find "$dir" -type f \( -name '*.ko' -o -name '*.ko.xz' -o -name '*.ko.zst' -o -name '*.ko.gz' \) \
			2>/dev/null | LC_ALL=C sort |
			awk '{ n = $0; sub(/.*\//, "", n); sub(/\.ko(\.(xz|zst|gz))?$/, "", n); gsub(/-/, "_", n); print n, $0 }' \
				>>"$work/modules.idx"
	done <<DIRS
$dirs
DIRS
}

# find_dep NAME: the path of module NAME, or nothing
find_dep() {
	awk -v n="$(echo "$1" | tr - _)" '$1 == n { sub(/^[^ ]* /, ""); print; exit }' "$work/modules.idx"
}

# dep_unpack NAME PATH: sets dep_file to PATH, or for a compressed module
# to its ELF, unpacked once into $work/deps/NAME.ko. Sets dep_why and
# returns 1 when it cannot be unpacked.
dep_unpack() {
	local name="$1" path="$2" tool out

	case "$path" in
	*.ko.xz) tool=xz ;;
	*.ko.zst) tool=zstd ;;
	*.ko.gz) tool=gzip ;;
	*)
		dep_file=$path
		return 0
		;;
	esac
	dep_file="$work/deps/$name.ko"
	[ ! -f "$dep_file" ] || return 0
	mkdir -p "$work/deps"
	if ! "$tool" -dc <"$path" >"$dep_file.tmp" 2>"$work/unpack.err"; then
		dep_why="cannot unpack '$path' with $tool: $(head -n 1 "$work/unpack.err")"
		rm -f "$dep_file.tmp"
		return 1
	fi
	mv "$dep_file.tmp" "$dep_file"
}

# dep_names NAME PATH: the types module NAME's debug data defines, once,
# into $work/deps/NAME.names; its BTF is read split on the kernel's.
# Sets dep_why and returns 1 when they cannot be read.
dep_names() {
	local name="$1" path="$2" release out

	out="$work/deps/$name.names"
	[ ! -f "$out" ] || return 0
	if [ -n "$want_release" ]; then
		release=$(modinfo_field "$path" vermagic | awk '{ print $1 }')
		if [ "$release" != "$want_release" ]; then
			dep_why="'$path' is for ${release:-no kernel release}, not $want_release"
			return 1
		fi
	fi
	mkdir -p "$work/deps"
	if elf_has_section "$path" .debug_info; then
		echo DWARF >"$work/deps/$name.kind"
		names "$path" >"$out.tmp"
	elif elf_has_section "$path" .BTF; then
		echo BTF >"$work/deps/$name.kind"
		if ! "$kabi" dump --base-btf "$base" "$path" >/dev/null 2>"$work/dump.err"; then
			dep_why="kabi cannot read its BTF on '$base': $(head -n 1 "$work/dump.err")"
			return 1
		fi
		names "$path" --base-btf "$base" >"$out.tmp"
	else
		dep_why="'$path' has neither DWARF nor BTF"
		return 1
	fi
	mv "$out.tmp" "$out"
}

# check_dep KO REL NAME: compare KO's types that the kernel lacks and
# module NAME defines with NAME's; those leave $work/rest. Sets dep_rc
# to kabi's bits, dep_path to NAME's file (empty when not found) and
# dep_file to its ELF (unpacked, when NAME is compressed), and appends
# to compared or missing.
check_dep() {
	local ko="$1" rel="$2" name="$3" kind n

	dep_rc=0
	dep_path=$(find_dep "$name")
	if [ -z "$dep_path" ]; then
		missing="$missing${missing:+, }$name (not found)"
		printf '%s\n' "$name" >>"$work/missing"
		return 0
	fi
	if ! dep_unpack "$name" "$dep_path" || ! dep_names "$name" "$dep_file"; then
		missing="$missing${missing:+, }$name ($dep_why)"
		printf '%s\n' "$name" >>"$work/missing"
		dep_path=""
		return 0
	fi
	LC_ALL=C comm -12 "$work/rest" "$work/deps/$name.names" >"$work/shared"
	n=$(wc -l <"$work/shared")
	[ "$n" -gt 0 ] || return 0
	compared="$compared, $n with $name.ko's"
	kind=$(cat "$work/deps/$name.kind")
	step CHECK "$rel against $name.ko's $kind ($dep_path)"
	# one --type per shared type
	set --
	while IFS= read -r t; do
		set -- "$@" --type "$t"
	done <"$work/shared"
	[ "$kind" = DWARF ] || set -- "$@" --base-btf "$base"
	diff_into "$work/report/$rel.$name.txt" "$dep_file" "$ko" "$@" || dep_rc=$?
	if [ "$dep_rc" = 1 ]; then
		# both were read on their own: this is kabi's trouble
		die "kabi cannot compare '$ko' with '$dep_path': $diff_why"
	fi
	LC_ALL=C comm -23 "$work/rest" "$work/shared" >"$work/rest.new"
	mv "$work/rest.new" "$work/rest"
}

# check_deps KO REL: every module KO depends on, and those they depend
# on, breadth first, while KO has types left to place; sets deps_rc to
# the bits ORed
check_deps() {
	local ko="$1" rel="$2" queue seen=" " dep more

	deps_rc=0
	queue=$(modinfo_field "$ko" depends | tr ',' ' ')
	while [ -s "$work/rest" ]; do
		# shellcheck disable=SC2086 # module names, one word each
		set -- $queue
		[ $# -gt 0 ] || break
		dep=$1
		shift
		queue=$*
		case "$seen" in
		*" $dep "*) continue ;;
		esac
		seen="$seen$dep "
		check_dep "$ko" "$rel" "$dep"
		deps_rc=$((deps_rc | dep_rc))
		[ -n "$dep_path" ] || continue
		more=$(modinfo_field "$dep_file" depends | tr ',' ' ')
		queue="$queue $more"
	done
}

# verdict_line REL BITS VERDICT DETAIL: one module's verdict, on stderr
# and in $work/verdicts.tsv
verdict_line() {
	step MODULE "$1: $3: $4"
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$work/verdicts.tsv"
}

# c_objects KO: the objects of KO compiled from C, one a line, by their
# path below the root, each after '+' when it has DWARF, '-' when it has
# none but has code or data (kabi sees no type of its); an empty one,
# which Clang gives no DWARF (a file all of whose code a configuration
# leaves out), is not listed. Kbuild lists a module's objects in
# KO.mod; without it, nothing. The .mod.o that Kbuild adds is not listed:
# it has DWARF whatever the module's flags say, so that a module compiled
# with -g0 still has some.
c_objects() {
	local list="${1%.ko}.mod" obj

	[ -f "$list" ] || return 0
	while IFS= read -r obj; do
		case "$obj" in
		/*) ;;
		*) obj="$root/$obj" ;;
		esac
		if [ ! -f "$obj" ] || [ ! -f "${obj%.o}.c" ]; then
			continue
		elif elf_has_section "$obj" .debug_info; then
			printf '+ %s\n' "${obj#"$root"/}"
		elif elf_has_content "$obj"; then
			printf -- '- %s\n' "${obj#"$root"/}"
		fi
	done <"$list"
}

# check_one KO: every comparison of KO; its bits
check_one() {
	local ko="$1" rel st=0 n verdict objs blind

	rel=${ko#"$root"/}
	mkdir -p "$(dirname "$work/report/$rel")"
	objs=$(c_objects "$ko")
	blind=$(printf '%s\n' "$objs" | sed -n 's/^- //p' | paste -s -d' ' -)
	if [ -n "$blind" ] && ! printf '%s\n' "$objs" | grep -q '^+ '; then
		verdict_line "$rel" "$NOT_COMPARED" "NOT CHECKED" "no DWARF in $blind (compiled without -g?): kabi sees none of its types"
		return "$NOT_COMPARED"
	fi
	step CHECK "$rel against the kernel's $kernel_kind ($types)"
	diff_into "$work/report/$rel.kernel.txt" "$types" "$ko" || st=$?
	if [ "$st" = 1 ]; then
		verdict_line "$rel" "$NOT_COMPARED" "NOT CHECKED" "$diff_why"
		return "$NOT_COMPARED"
	fi
	n=$(($(summary_field "$work/report/$rel.kernel.txt" unchanged) + $(summary_field "$work/report/$rel.kernel.txt" changed)))
	compared="$n types compared with the kernel's"
	missing=""
	names "$ko" >"$work/module.names"
	LC_ALL=C comm -23 "$work/module.names" "$work/kernel.names" >"$work/rest"
	check_deps "$ko" "$rel"
	st=$((st | deps_rc))
	n=$(wc -l <"$work/rest")
	if [ -n "$missing" ] && [ "$n" -gt 0 ]; then
		st=$((st | NOT_COMPARED))
		compared="$compared; $n the kernel lacks not compared, for want of $missing"
	else
		compared="$compared, $n its own"
	fi
	if [ -n "$blind" ]; then
		st=$((st | NOT_COMPARED))
		compared="$compared; no DWARF in $blind (compiled without -g?): its types not compared"
	fi
	if [ $((st & 12)) -ne 0 ]; then
		verdict="LAYOUTS DIFFER (kabi bits $((st & 12)))"
	elif [ $((st & NOT_COMPARED)) -ne 0 ]; then
		verdict="NOT FULLY CHECKED"
	else
		verdict=PASS
	fi
	verdict_line "$rel" "$st" "$verdict" "$compared"
	return "$st"
}

main() {
	local opt ko rc=0 st nl='
'

	types="" base="" dirs="" want_release="" root="" work="" kabi=kabi
	while getopts t:b:d:r:R:w:k:h opt; do
		case "$opt" in
		t) types=$OPTARG ;;
		b) base=$OPTARG ;;
		d) dirs="$dirs${dirs:+$nl}$OPTARG" ;;
		r) want_release=$OPTARG ;;
		R) root=$OPTARG ;;
		w) work=$OPTARG ;;
		k) kabi=$OPTARG ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ $# -eq 0 ] || [ -z "$types" ] || [ -z "$work" ]; then
		usage >&2
		exit 2
	fi
	[ -r "$types" ] || die "cannot read the kernel's types '$types'"
	base=${base:-$types}
	kernel_kind=BTF
	! elf_has_section "$types" .debug_info || kernel_kind=DWARF
	mkdir -p "$work"
	work=$(abspath "$work")
	rm -rf "$work/report" "$work/deps"
	mkdir -p "$work/report"
	: >"$work/verdicts.tsv"
	: >"$work/missing"
	names "$types" >"$work/kernel.names"
	index_modules
	for ko in "$@"; do
		[ -f "$ko" ] || die "no module '$ko'"
		st=0
		check_one "$ko" || st=$?
		rc=$((rc | st))
	done
	LC_ALL=C sort -u "$work/missing" | paste -s -d, - | sed 's/,/, /g' >"$work/missing.line"
	awk -F '\t' -v missing="$(cat "$work/missing.line")" \
		-f "$TOPDIR/scripts/module/module-summary.awk" "$work/verdicts.tsv"
	exit "$rc"
}

main "$@"
