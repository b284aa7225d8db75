# SPDX-License-Identifier: GPL-2.0-only
#
# target.sh - targets and compilers for the scripts; sourced, not run,
# after common.sh (it uses PROG, TOPDIR and die).
#
# A target is one data file, scripts/targets/NAME.target, checked by the
# executable scripts/target-check.sh before it is sourced. A compiler is a line
# of scripts/targets/compilers.list (gcc, gcc-11, clang-19, clang-gas, ...);
# which clang "clang" means is the kernel's LLVM= variable: 1 (default,
# clang), -N (clang-N) or DIR/ (DIR/clang).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
# shellcheck shell=sh
# shellcheck disable=SC2034 # the t_* and cc_* variables are for the caller

# shellcheck source=scripts/lib/tree.sh
. "$TOPDIR/scripts/lib/tree.sh"

# The keys a target file must set, and those it may set; scripts/target-check.sh
# checks them and documents each.
TARGET_REQUIRED="ARCH BASE_CONFIG FRAGMENTS IMAGE QEMU QEMU_MACHINE CONSOLE"
TARGET_OPTIONAL="SRCARCH CROSS_COMPILE DEFCONFIGS DTB QEMU_CPU QEMU_MEMORY APPEND DISK DISK_DEV PACKAGES NO_COMPILERS LLD_MIN DEFAULT DEBIAN CLANG_CROSS"
# A host target, scripts/targets/host/NAME.target, runs as a process of the
# host (User-Mode Linux), not under QEMU: it has no QEMU keys, and is not
# among known_targets, so that no matrix takes it unasked.
TARGET_HOST_REQUIRED="ARCH BASE_CONFIG FRAGMENTS IMAGE"
TARGET_HOST_OPTIONAL="SRCARCH APPEND"

# known_targets
# Usage: die "no targets (known: $(known_targets))"
# Prints the target names on one line, sorted, separated by spaces.
known_targets() {
	"$TOPDIR/scripts/target-check.sh" -l | tr '\n' ' ' | sed 's/ $//'
}

# default_targets
# Usage: [ -n "$targets" ] || targets=$(default_targets)
# Prints, like known_targets, the targets a run that names none takes:
# every one whose file does not say DEFAULT=n.
default_targets() {
	local t out=""

	for t in $(known_targets); do
		(load_target "$t" && [ "$t_default" != n ]) || continue
		out="$out $t"
	done
	printf '%s\n' "${out# }"
}

# target_words LIST
# Usage: targets=$(target_words "$TARGETS")
# Prints LIST (names separated by spaces or commas) on one line, 'all'
# replaced by every known target and 'default' by the default ones
# (default_targets), repeats dropped, order kept. The names themselves
# are checked by load_target.
target_words() {
	local t out=""

	for t in $(printf '%s\n' "$1" | tr ',' ' '); do
		case "$t" in
		all) t=$(known_targets) ;;
		default) t=$(default_targets) ;;
		esac
		out="$out $t"
	done
	printf '%s\n' "$out" | tr -s ' ' '\n' | awk 'NF && !seen[$0]++' | paste -s -d ' ' -
}

# target_skip COMPILER
# Usage: load_target "$t"; if why=$(target_skip gcc-11); then ...
# Prints why the loaded target has no cell of COMPILER and succeeds, or
# fails when it may have one: Debian ships no such cross compiler for it
# (the target's NO_COMPILERS).
target_skip() {
	case " $t_no_compilers " in
	*" $1 "*)
		printf 'Debian has no %s for %s (NO_COMPILERS in %s.target)\n' "$1" "$t_arch" "$t_name"
		return 0
		;;
	esac
	return 1
}

# fragment_needs FRAGMENT
# Usage: set -- $(fragment_needs "$f"); min=$1; shift; symbols="$*"
# Prints what a configuration fragment says only Clang builds, from its
# line '# kparity-needs: clang N SYMBOL...': the oldest Clang major version
# N, then the symbols that need it; nothing for a fragment any compiler
# builds whole.
fragment_needs() {
	sed -n 's/^# kparity-needs: clang \([0-9][0-9]*\)\(.*\)$/\1\2/p' "$1" | head -n 1
}

# fragment_gcc FRAGMENT
# Usage: words=$(fragment_gcc "$f")
# Prints the CONFIG_SYMBOL=VALUE words FRAGMENT's line '# kparity-gcc:
# WORDS' gives: GCC builds the fragment's needs with them (randstruct's
# plugins), and only GCC cells take them.
fragment_gcc() {
	sed -n 's/^# kparity-gcc: *//p' "$1" | paste -s -d ' ' -
}

# fragment_arch FRAGMENT
# Usage: sym=$(fragment_arch "$f")
# Prints the Kconfig symbol an architecture selects to offer FRAGMENT's
# feature, from its line '# kparity-arch: SYMBOL' (kCFI's
# ARCH_SUPPORTS_CFI_CLANG), or nothing.
fragment_arch() {
	sed -n 's/^# kparity-arch: *\([A-Z0-9_]*\) *$/\1/p' "$1" | head -n 1
}

# fragment_unoffered FRAGMENT SRCDIR
# Usage: if why=$(fragment_unoffered "$f" "$srcdir"); then ...
# Prints why the loaded target's architecture does not offer FRAGMENT's
# feature in the kernel tree SRCDIR and succeeds: its arch/SRCARCH/Kconfig
# selects no fragment_arch symbol (a select with a condition counts as
# one). Fails when it does, or the fragment names no symbol. The list of
# architectures is the tree's: 6.12 offers kCFI on more than 6.1.
fragment_unoffered() {
	local sym kc="$2/arch/$t_srcarch/Kconfig"

	sym=$(fragment_arch "$1")
	[ -n "$sym" ] && [ -f "$kc" ] || return 1
	! grep -q -E "^[[:space:]]*select[[:space:]]+$sym([[:space:]]|\$)" "$kc" || return 1
	printf '%s of Linux %s does not select %s\n' "$t_srcarch" "$(tree_version "$2")" "$sym"
}

# fragment_unfit FRAGMENT [SRCDIR]
# Usage: compiler_select "$c"; if why=$(fragment_unfit "$f" "$srcdir"); then ...
# Prints why the loaded target and the selected compiler cannot build
# FRAGMENT's needed symbols (fragment_needs) and succeeds, or fails when
# they can: the cell is then a control, built without them
# (kernel-build.sh). With SRCDIR, the target cannot where the tree does
# not offer the feature on its architecture (fragment_unoffered). GCC can
# when the fragment says how (fragment_gcc).
fragment_unfit() {
	local frag="$1" min v

	[ -z "${2:-}" ] || ! fragment_unoffered "$frag" "$2" || return 0
	# shellcheck disable=SC2046 # a version and symbol names
	set -- $(fragment_needs "$1")
	[ "$#" -gt 0 ] || return 1
	min=$1
	if [ -z "$cc_llvm" ] && [ -n "$(fragment_gcc "$frag")" ]; then
		return 1
	elif [ -z "$cc_llvm" ]; then
		printf 'needs clang %s, and %s is GCC\n' "$min" "$cc_suffix"
		return 0
	fi
	v=$("$cc_bin" -dumpversion 2>/dev/null) || return 1
	[ "${v%%.*}" -lt "$min" ] || return 1
	printf 'needs clang %s, and %s is clang %s\n' "$min" "$cc_suffix" "${v%%.*}"
}

# seed_of FRAGMENT
# Usage: seed=$(seed_of "$f")
# Prints the seed FRAGMENT gives ('# kparity-seed: HEX', randstruct's), or
# nothing.
seed_of() {
	sed -n 's/^# kparity-seed: *\([0-9a-f]*\) *$/\1/p' "$1" 2>/dev/null
}

# seed_fragment
# Usage: f=$(seed_fragment)
# Prints the path of the loaded target's last fragment that gives a seed
# (seed_of), or nothing.
seed_fragment() {
	local frag

	for frag in $t_fragments; do
		[ -z "$(seed_of "$TOPDIR/kconfig/fragments/$frag")" ] || printf '%s\n' "$TOPDIR/kconfig/fragments/$frag"
	done | tail -n 1
}

# fragment_seed
# Usage: seed=$(fragment_seed)
# Prints the seed of the loaded target's last fragment that gives one
# (seed_fragment), or nothing.
fragment_seed() {
	local f

	f=$(seed_fragment)
	[ -z "$f" ] || seed_of "$f"
}

# plain_words
# Usage: KCONFIG_ADD=$(plain_words) kernel-build.sh ...
# Prints the words of KCONFIG_ADD but the fragments that give a seed: the
# run's configuration without randomized layouts.
plain_words() {
	local w

	for w in $(config_words); do
		[ -n "$(seed_of "$TOPDIR/kconfig/fragments/$w.config")" ] || printf '%s\n' "$w"
	done | paste -s -d ' ' -
}

# config_clang
# Usage: compilers="gcc $(config_clang)"
# Prints the Clang of a run whose compilers are not named: clang, unless
# a fragment of KCONFIG_ADD needs a newer Clang (fragment_needs) than the
# default clang is: then the oldest versioned clang of compilers.list that
# is installed and new enough, so that the run has a cell with the whole
# fragment (clang when none is: its cells are then controls).
config_clang() {
	local w min=0 m c v

	for w in $(config_words); do
		[ -f "$TOPDIR/kconfig/fragments/$w.config" ] || continue
		# shellcheck disable=SC2046 # a version and symbol names
		set -- $(fragment_needs "$TOPDIR/kconfig/fragments/$w.config")
		[ "$#" -eq 0 ] || [ "$1" -le "$min" ] || min=$1
	done
	v=$(clang -dumpversion 2>/dev/null) || v=0
	if [ "${v%%.*}" -ge "$min" ]; then
		echo clang
		return 0
	fi
	for c in $(compiler_lines | awk '$1 ~ /^clang-[0-9]+$/ { print $1 }'); do
		m=${c#clang-}
		if [ "$m" -ge "$min" ] && command -v "$c" >/dev/null; then
			step CONFIG "KCONFIG_ADD needs clang $min: $c in place of clang (clang ${v%%.*})"
			echo "$c"
			return 0
		fi
	done
	echo clang
}

# load_target NAME
# Usage: load_target "$target"
# Checks scripts/targets/NAME.target and sets t_name and one t_* variable
# per key, in lower case (t_arch, t_cross for CROSS_COMPILE, t_base for
# BASE_CONFIG, t_qemu_machine, ...): an optional key that is not set is
# empty, but t_srcarch defaults to t_arch and t_default to y. t_host is 1
# for a host target (its QEMU keys empty), else empty. t_fragments ends with the
# FRAGMENTS of the run's kernel tree (tree_name), when it has a data file:
# what only that tree offers, for every target, and then the fragments
# KCONFIG_ADD names (config_words); t_base is KCONFIG when it is set; its CONFIG_SYMBOL=VALUE words are in
# t_config_set, separated by spaces. The keys themselves are
# left unset, so that none leaks into a make run. Exits 2 (target.sh has
# said why) on an unknown target or a bad file.
load_target() {
	local file w

	file=$("$TOPDIR/scripts/target-check.sh" -p "$PROG" "$1") || exit 2
	# shellcheck disable=SC2086 # one word per key
	unset $TARGET_REQUIRED $TARGET_OPTIONAL
	# shellcheck disable=SC1090 # checked by target.sh just now
	. "$file"
	t_name="$1"
	case "$file" in
	*/host/"$1".target) t_host=1 ;;
	*) t_host="" ;;
	esac
	t_arch="$ARCH"
	t_srcarch="${SRCARCH:-$ARCH}"
	t_cross="${CROSS_COMPILE:-}"
	t_base="$BASE_CONFIG"
	t_fragments="$FRAGMENTS"
	t_defconfigs="${DEFCONFIGS:-}"
	t_image="$IMAGE"
	t_dtb="${DTB:-}"
	t_qemu="${QEMU:-}"
	t_qemu_machine="${QEMU_MACHINE:-}"
	t_qemu_cpu="${QEMU_CPU:-}"
	t_qemu_memory="${QEMU_MEMORY:-}"
	t_console="${CONSOLE:-}"
	t_append="${APPEND:-}"
	t_disk="${DISK:-}"
	t_disk_dev="${DISK_DEV:-}"
	t_packages="${PACKAGES:-}"
	t_no_compilers="${NO_COMPILERS:-}"
	t_lld_min="${LLD_MIN:-}"
	t_default="${DEFAULT:-y}"
	t_debian="${DEBIAN:-}"
	t_clang_cross="${CLANG_CROSS:-}"
	# shellcheck disable=SC2086 # one word per key
	unset $TARGET_REQUIRED $TARGET_OPTIONAL
	! tree_known || t_fragments="$t_fragments$(load_tree "$(tree_name)" && printf '%s' "${k_fragments:+ $k_fragments}")"
	[ -z "${KCONFIG:-}" ] || t_base="$KCONFIG"
	# what Debian's packaging gives its build beside the configuration
	[ "$t_base" != debian ] || t_fragments="debian.config $t_fragments"
	t_config_set=""
	for w in $(config_words); do
		case "$w" in
		CONFIG_*) config_set "$w" ;;
		*) config_fragment "$w" ;;
		esac
	done
}

# config_set WORD: add KCONFIG_ADD's CONFIG_SYMBOL=VALUE WORD to the loaded
# target's t_config_set
config_set() {
	t_config_set="$t_config_set${t_config_set:+ }$1"
}

# config_fragment NAME: add the fragment NAME of KCONFIG_ADD to the loaded
# target: to t_fragments, and its '# kparity-append: WORDS' to the
# kernel's command line (t_append)
config_fragment() {
	local f="$TOPDIR/kconfig/fragments/$1.config" a

	t_fragments="$t_fragments $1.config"
	[ -f "$f" ] || return 0
	a=$(sed -n 's/^# kparity-append: *//p' "$f" | paste -s -d ' ' -)
	t_append="$t_append${t_append:+${a:+ }}$a"
}

# The compilers kparity knows: one line each, NAME CC LLVM IAS ALL
# PACKAGES... (the file documents the columns).
COMPILERS_LIST="$TOPDIR/scripts/targets/compilers.list"

# compiler_lines
# Usage: compiler_lines | awk '$5 == "y"'
# Prints the lines of compilers.list that name a compiler, in its order,
# comments and blank lines left out: NAME CC LLVM IAS ALL PACKAGES... Every
# other reader of the file reads it through this.
compiler_lines() {
	awk '!/^[ \t]*(#|$)/' "$COMPILERS_LIST"
}

# compiler_line NAME
# Usage: line=$(compiler_line gcc-11)
# Prints NAME's line of compilers.list, or nothing for an unknown NAME.
compiler_line() {
	compiler_lines | awk -v n="$1" '$1 == n { print; exit }'
}

# known_compilers [all]
# Usage: die "unknown compiler (known: $(known_compilers))"
# Prints the names of compilers.list on one line, in its order; with
# 'all', only those of COMPILERS=all.
known_compilers() {
	compiler_lines | awk -v all="${1:-}" 'all == "" || $5 == "y" {
		printf "%s%s", sep, $1; sep = " " } END { print "" }'
}

# compiler_words LIST
# Usage: compilers=$(compiler_words "$COMPILERS")
# Prints LIST (names separated by spaces or commas) on one line, 'all'
# replaced by the compilers of COMPILERS=all, repeats dropped, order
# kept. Dies on an unknown name.
compiler_words() {
	local c out=""

	for c in $(printf '%s\n' "$1" | tr ',' ' '); do
		[ "$c" != all ] || c=$(known_compilers all)
		out="$out $c"
	done
	for c in $out; do
		[ -n "$(compiler_line "$c")" ] ||
			die "unknown compiler '$c' (known: $(known_compilers) all)"
	done
	printf '%s\n' "$out" | tr -s ' ' '\n' | awk 'NF && !seen[$0]++' | paste -s -d ' ' -
}

# compiler_packages NAME CROSS
# Usage: pkgs=$(compiler_packages gcc-11 arm-linux-gnueabi-)
# Prints the Debian packages NAME needs for a target whose cross prefix is
# CROSS (empty for a native one), one a line. Dies on an unknown NAME.
compiler_packages() {
	local line

	line=$(compiler_line "$1")
	[ -n "$line" ] || die "unknown compiler '$1' (known: $(known_compilers))"
	printf '%s\n' "$line" | awk -v t="${2%-}" '{
		for (i = 6; i <= NF; i++) {
			p = $i
			if (p ~ /%t/) {
				if (t == "")
					continue
				gsub(/%t/, t, p)
			}
			print p
		} }'
}

# target_compilers TARGET COMPILERS
# Usage: for c in $(target_compilers "$target" "$compilers"); do ...
# Prints the names of COMPILERS that TARGET may have a cell of (those
# target_skip lets through), in their order, on one line.
target_compilers() {
	local c out=""

	load_target "$1"
	for c in $2; do
		target_skip "$c" >/dev/null || out="$out $c"
	done
	printf '%s\n' "${out# }"
}

# compiler_select COMPILER
# Usage: load_target "$target"; compiler_select clang
# Sets, for COMPILER (a NAME of compilers.list; clang follows the
# caller's LLVM):
#   cc_bin     the compiler to run (arm-linux-gnueabi-gcc-11, clang-19, ...)
#   ld_bin     its linker
#   cc_cross   CROSS_COMPILE for make (GCC, Clang with GNU as, and Clang
#              on a target with CLANG_CROSS=y: the target's prefix)
#   cc_llvm    LLVM= for make (Clang only: 1, -N or DIR/)
#   cc_ias     LLVM_IAS= for make (empty: the kernel's default)
#   cc_suffix  the name of the build: NAME, but clang with LLVM=-N is
#              clang-N, as is clang with an LLVM=DIR/ whose clang is N.x
# Build directories are named TARGET-SUFFIX (x86_64-clang-19). GCC's
# cross prefix is the loaded target's (none before load_target). Dies on
# an unknown compiler or LLVM value, or a DIR/ without clang.
compiler_select() {
	local line name cc llvm ias

	line=$(compiler_line "$1")
	[ -n "$line" ] || die "unknown compiler '$1' (known: $(known_compilers))"
	read -r name cc llvm ias _ <<EOF
$line
EOF
	cc_cross=""
	cc_llvm=""
	cc_ias=""
	cc_suffix="$name"
	if [ "$llvm" = - ]; then
		cc_bin="${t_cross:-}$cc"
		ld_bin="${t_cross:-}ld"
		cc_cross="${t_cross:-}"
		return 0
	fi
	[ "$name" != clang ] || llvm="${LLVM:-1}"
	if [ "$ias" != - ]; then
		cc_ias="$ias"
		cc_cross="${t_cross:-}"
	fi
	# the binutils a Clang build still runs by the cross prefix
	[ "${t_clang_cross:-}" != y ] || cc_cross="${t_cross:-}"
	case "$llvm" in
	1)
		cc_bin=clang
		ld_bin=ld.lld
		;;
	-[0-9]*)
		cc_bin="clang$llvm"
		ld_bin="ld.lld$llvm"
		[ "$name" != clang ] || cc_suffix="clang$llvm"
		;;
	*/)
		cc_bin="${llvm}clang"
		ld_bin="${llvm}ld.lld"
		[ -x "$cc_bin" ] || die "cannot find '$cc_bin' (LLVM=$llvm)"
		cc_suffix="clang-$("$cc_bin" -dumpversion | cut -d. -f1)"
		;;
	*)
		die "LLVM='$llvm' is none of 1, -VERSION, DIR/"
		;;
	esac
	cc_llvm="$llvm"
}

# compiler_identity COMPILER
# Usage: load_target "$target"; id=$(compiler_identity gcc)
# Prints what a build with COMPILER runs, every symbolic link followed:
# the compiler, the linker, LLVM_IAS and the cross prefix. Two names of
# one identity build the same kernel (on Debian 12 gcc is gcc-12 and
# clang is clang-14). Prints nothing when the compiler or its linker is
# not installed. Call it in $( ): it runs compiler_select.
compiler_identity() {
	local cc ld

	compiler_select "$1"
	cc=$(command -v "$cc_bin") || return 0
	ld=$(command -v "$ld_bin") || return 0
	printf '%s %s ias=%s cross=%s\n' "$(readlink -f "$cc")" "$(readlink -f "$ld")" \
		"$cc_ias" "$cc_cross"
}

# compiler_aliases COMPILER
# Usage: load_target "$target"; same=$(compiler_aliases gcc)
# Prints the other names of compilers.list that build what COMPILER
# builds for the loaded target (the same compiler_identity), on one line:
# "gcc-12" for gcc on Debian 12. Empty when there are none, or when
# COMPILER is not installed.
compiler_aliases() {
	local id c out=""

	id=$(compiler_identity "$1")
	[ -n "$id" ] || return 0
	for c in $(known_compilers); do
		[ "$c" != "$1" ] || continue
		[ "$(compiler_identity "$c" 2>/dev/null)" = "$id" ] || continue
		out="$out $c"
	done
	printf '%s\n' "${out# }"
}

# ---- the compiler matrix of a run ---------------------------------------
# A run (parity.sh) builds every target with several compilers of the
# list. These say which names build the same kernel, which compiler the
# others are compared with, and which pairs are compared.

# matrix_identity COMPILER TARGETS
# Usage: id=$(matrix_identity gcc "x86_64 arm64-virt")
# Prints COMPILER's compiler_identity on each of TARGETS, on one line;
# nothing when it is not installed for one of them.
matrix_identity() {
	local t id out=""

	for t in $2; do
		id=$(load_target "$t" && compiler_identity "$1" 2>/dev/null) || id=""
		[ -n "$id" ] || return 0
		out="$out$t: $id; "
	done
	printf '%s\n' "$out"
}

# __in_all NAME: NAME is one of COMPILERS=all (a versioned name)
__in_all() {
	case " $(known_compilers all) " in
	*" $1 "*) return 0 ;;
	*) return 1 ;;
	esac
}

# __before A B LIST: A comes before B in LIST
__before() {
	case " $3 " in
	*" $1 "*" $2 "*) return 0 ;;
	*) return 1 ;;
	esac
}

# matrix_dedupe COMPILERS TARGETS
# Usage: matrix_dedupe "$compilers" "$targets"; compilers=$m_compilers
# Sets m_compilers to COMPILERS less every name that builds, on every one
# of TARGETS, what another of them builds (gcc and gcc-12 on Debian 12),
# so that no kernel is built twice: the versioned name is kept, else the
# first. Sets m_aliases to "NAME=KEPT ..." for the names dropped, and says
# each in an ALIAS step.
matrix_dedupe() {
	local c d ids kept=""

	m_aliases=""
	ids=$(for c in $1; do printf '%s %s\n' "$c" "$(matrix_identity "$c" "$2")"; done)
	for c in $1; do
		d=$(printf '%s\n' "$ids" | awk -v c="$c" '
			$1 == c { id = substr($0, length(c) + 2) }
			{ name[NR] = $1; line[NR] = substr($0, length($1) + 2) }
			END {
				if (id == "") exit
				for (i = 1; i <= NR; i++)
					if (name[i] != c && line[i] == id) { print name[i]; exit }
			}')
		if [ -n "$d" ] && { { __in_all "$d" && ! __in_all "$c"; } ||
			{ { __in_all "$d" || ! __in_all "$c"; } && __before "$d" "$c" "$1"; }; }; then
			step ALIAS "$c = $d (the same compiler and linker): built once, as $d"
			m_aliases="$m_aliases $c=$d"
		else
			kept="$kept $c"
		fi
	done
	m_compilers="${kept# }"
	m_aliases="${m_aliases# }"
}

# matrix_reference COMPILERS
# Usage: ref=$(matrix_reference "$compilers")
# Prints the compiler every other one is compared with: GCC 12 (gcc-12,
# or gcc, its old name) when COMPILERS has it, else the first.
matrix_reference() {
	local c

	for c in gcc-12 gcc; do
		case " $1 " in
		*" $c "*) printf '%s\n' "$c"; return 0 ;;
		esac
	done
	printf '%s\n' "${1%% *}"
}

# __ias_twin NAME COMPILERS ALIASES: the compiler of COMPILERS that is NAME
# with Clang's integrated assembler (for clang-gas, clang: the same CC and
# LLVM, IAS '-'), under the name ALIASES kept it by; or nothing
__ias_twin() {
	local t a

	t=$(compiler_lines | awk -v n="$1" '{ k++; nm[k] = $1; cc[$1] = $2; ll[$1] = $3; ia[$1] = $4 }
		END {
			if (!(n in cc) || ia[n] == "-") exit
			for (i = 1; i <= k; i++)
				if (nm[i] != n && cc[nm[i]] == cc[n] && ll[nm[i]] == ll[n] && ia[nm[i]] == "-") {
					print nm[i]
					exit
				}
		}')
	[ -n "$t" ] || return 0
	for a in $3; do
		[ "${a%%=*}" != "$t" ] || t="${a#*=}"
	done
	case " $2 " in
	*" $t "*) printf '%s\n' "$t" ;;
	esac
}

# matrix_pairs COMPILERS ALIASES
# Usage: matrix_pairs "$compilers" "$aliases" | while read -r old new kind; do ...
# Prints the layout comparisons of a run, one "OLD NEW KIND" a line: every
# compiler against the reference (KIND ref: an incompatible difference
# fails the run); with more than two compilers, each clang-N against the
# next version; and a Clang with GNU as against the same Clang with its
# own assembler (KIND version: every difference is a finding).
matrix_pairs() {
	local ref c prev=""

	ref=$(matrix_reference "$1")
	for c in $1; do
		[ "$c" = "$ref" ] || printf '%s %s ref\n' "$ref" "$c"
	done
	if [ "$(echo "$1" | wc -w)" -gt 2 ]; then
		for c in $(printf '%s\n' "$1" | tr ' ' '\n' | grep '^clang-[0-9]' | sort -t - -k 2n); do
			[ -z "$prev" ] || printf '%s %s version\n' "$prev" "$c"
			prev="$c"
		done
	fi
	for c in $1; do
		prev=$(__ias_twin "$c" "$1" "$2")
		[ -z "$prev" ] || [ "$prev" = "$ref" ] || printf '%s %s version\n' "$prev" "$c"
	done
}

# cell_dir BUILDDIR [PART]
# Usage: load_target x86_64; compiler_select clang; kdir=$(cell_dir "$builddir")
# Prints where PART of the cell of the loaded target and the selected
# compiler lives: ROOT/PART/TARGET-SUFFIX, PART kernel (the default),
# initramfs, kselftest, toybox or swap (its kernel booted with other
# cells' disks, kernel-swap.sh), ROOT the run's kernel tree's place in
# BUILDDIR (tree_root; toybox, which no kernel tree changes, is always in
# BUILDDIR). Every script names a cell's directories through it.
cell_dir() {
	local root

	root=$(tree_root "$1")
	[ "${2:-kernel}" != toybox ] || root="$1"
	printf '%s/%s/%s-%s\n' "$root" "${2:-kernel}" "$t_name" "$cc_suffix"
}

# named_cell ROOT CELL
# Usage: dir=$(named_cell "$root" "$cell") || exit
# Prints the build directory of the parity cell CELL (x86_64-gcc) of the
# run's tree under kparity's build directory ROOT; dies (exit 2) on a name
# that is not a cell's, or a cell not built there.
named_cell() {
	case "$2" in
	'' | */* | .*) die "-C takes a cell's name (x86_64-gcc), not '$2'" ;;
	esac
	[ -d "$(tree_root "$1")/kernel/$2" ] ||
		die "no cell '$2' in '$(tree_root "$1")/kernel' (make parity first)"
	printf '%s\n' "$(tree_root "$1")/kernel/$2"
}

# cell_dtb KERNELDIR
# Usage: load_target "$t"; dtb=$(cell_dtb "$kdir") || die "no device tree"
# Prints the device tree the loaded target's build in KERNELDIR made: its
# DTB, or the file of that name in a directory below DTB's (from Linux
# 6.5 on, arch/arm/boot/dts/ keeps each vendor's in its own: vexpress's
# in arm/); nothing for a target without DTB. Fails when there is none.
cell_dtb() {
	local f

	[ -n "$t_dtb" ] || return 0
	for f in "$1/$t_dtb" "$1/$(dirname "$t_dtb")"/*/"$(basename "$t_dtb")"; do
		[ -f "$f" ] || continue
		printf '%s\n' "$f"
		return 0
	done
	return 1
}

# user_ld
# Usage: load_target "$t"; compiler_select "$c"; ld=$(user_ld)
# Prints the -fuse-ld= linker of the selected cell's static user space
# (toybox, the kselftests): lld for Clang, unless the target needs a
# newer lld than the cell's (its LLD_MIN: riscv64's static glibc has
# R_RISCV_ALIGN relocations, which lld links from 15 on), when it is the
# cross GNU ld (bfd), as for GCC.
user_ld() {
	local v

	[ -n "$cc_llvm" ] || { echo bfd; return 0; }
	[ -n "$t_lld_min" ] || { echo lld; return 0; }
	v=$("$ld_bin" --version | sed -n 's/^[^0-9]*\([0-9][0-9]*\)\..*/\1/p' | head -n 1)
	if [ -n "$v" ] && [ "$v" -ge "$t_lld_min" ]; then
		echo lld
	else
		echo bfd
	fi
}

# cell_built KERNELDIR
# Usage: cell_built "$(cell_dir "$builddir")" || echo "no kernel"
# Succeeds when the last build in KERNELDIR (a cell_dir) succeeded:
# kernel-build.sh marks it so, and removes the mark before it builds.
cell_built() {
	[ -f "$1/.kparity-built" ] && [ -f "$1/vmlinux" ]
}

# dwarf_unfaithful DIR
# Usage: if why=$(dwarf_unfaithful "$dir"); then skip "$why"; fi
# Prints why the DWARF of the build in DIR does not describe its layouts,
# and succeeds; fails when it does. GCC's randstruct plugin shuffles a
# structure's members after GCC has written its debugging information:
# the DWARF keeps the declared order and offsets while the code uses the
# randomized ones (Linux keeps BTF off for such builds, lib/Kconfig.debug).
# Clang writes the layout it made.
dwarf_unfaithful() {
	grep -qx 'CONFIG_GCC_PLUGIN_RANDSTRUCT=y' "$1/.config" 2>/dev/null || return 1
	echo "GCC's randstruct plugin leaves the DWARF in declared order, not the randomized layout"
}

# cell_opts ARG...
# Usage: main() { local builddir target compiler; cell_opts "$@"; ... }
# Parses the options every per-cell script takes, -o BUILDDIR -t TARGET
# [-c COMPILER] (default gcc) and -h, into the caller's builddir, target
# and compiler, then loads the target and selects the compiler
# (cell_select). -h prints the caller's usage() and exits 0; anything else
# wrong, usage() on stderr and exit 2.
cell_opts() {
	local opt

	builddir="" target="" compiler=gcc
	OPTIND=1
	while getopts c:ho:t: opt; do
		case "$opt" in
		c) compiler="$OPTARG" ;;
		o) builddir="$OPTARG" ;;
		t) target="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ $# -ne 0 ] || [ -z "$builddir" ] || [ -z "$target" ]; then
		usage >&2
		exit 2
	fi
	load_target "$target"
	cell_select "$compiler"
}

# cell_select COMPILER
# Usage: load_target "$target"; cell_select "$compiler"
# compiler_select for a cell of the loaded target: dies (one line, exit
# 2) when the target cannot have a cell of COMPILER (target_skip).
cell_select() {
	local why

	compiler_select "$1"
	! why=$(target_skip "$1") || die "no $t_name/$cc_suffix cell: $why"
}

# kselftest_programs TARGET
# Usage: runs=$(kselftest_programs "$target") || exit 2
# The lines of the kselftest list (scripts/targets/kselftest.list, or
# $KPARITY_KSELFTEST_LIST) for TARGET, as scripts/kselftest/kselftest-list.awk
# checks them: it names the file and line of a malformed one.
kselftest_programs() {
	local list="${KPARITY_KSELFTEST_LIST:-$TOPDIR/scripts/targets/kselftest.list}"

	awk -v target="$1" -v file="$list" -f "$TOPDIR/scripts/kselftest/kselftest-list.awk" "$list"
}

# kselftest_collections TARGET
# Usage: colls=$(kselftest_collections "$target")
# The kselftest collections TARGET's disks hold, one a line, in the list's
# order.
kselftest_collections() {
	kselftest_programs "$1" | awk '!seen[$1]++ { print $1 }'
}

# differences_list
# Usage: known=$(differences_list) || exit 2
# The file of the tests known to differ between compilers on the run's
# kernel tree (its tree file's DIFFERENCES; /dev/null for a KSRC tree of a
# kernel kparity has no data for), or $KPARITY_TEST_DIFFERENCES, checked
# the way parity-tests-target.jq reads it, so that a malformed one is
# found before any build: dies naming the file and its first fault.
differences_list() {
	local f="${KPARITY_TEST_DIFFERENCES:-}" err

	if [ -z "$f" ]; then
		f=/dev/null
		if tree_known; then
			load_tree "$(tree_name)"
			f="${k_differences:-/dev/null}"
		fi
	fi
	[ -r "$f" ] || die "cannot read '$f'"
	err=$(echo '{"name": "", "cells": [{"compiler": "", "tests": {"results": [], "counts": {}}}]}' |
		jq --rawfile known "$f" -f "$TOPDIR/scripts/parity/parity-tests-target.jq" 2>&1 >/dev/null) ||
		die "'$f': $(printf '%s\n' "$err" | sed -n 's/^jq: error ([^)]*): //p' | head -n 1)"
	printf '%s\n' "$f"
}
