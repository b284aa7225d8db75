#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# compiler-bisect.sh - which compiler version changed a result: walk the
# installed versions of one compiler family (clang-13 ... clang-22, or
# gcc-11 and gcc-12), in order, and name the first whose result of a
# predicate differs from the oldest's (Documentation/history.md).
#
# A predicate is one of
#   probe:CASE[:REGEX]  a case of tests/compiler-bugs/ on a user-mode target
#                       (-t x86_64|arm|aarch64): its outcome and first
#                       diagnostic, or whether they match REGEX
#   unit:FILE[:TEXT]    FILE of the kernel tree compiled (-fsyntax-only) with
#                       the compile command of init/main.o of a GCC cell
#                       (-k), its flags translated for Clang as 'make
#                       diagnose' does, at the warning level -W: the
#                       diagnostics' flags, or whether one contains TEXT
#   build, boot, test:NAME, warning:FLAG, kabi:TYPE
#                       a parity cell's result (-t TARGET), from the history
#                       database; a version without a recorded run is built
#                       and booted by parity.sh (TESTS=kunit), which records it
# Every answer is kept in the history database (a run of kind bisect),
# and a version whose compiler --version the database already answered
# for is not run again. The versions are bisected, on the assumption that
# the result changes once; -a runs them all.
#
# Exit: 0 a version changes the result, 1 none does, 2 trouble.

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG='compiler-bisect'
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
# shellcheck source=scripts/lib/history.sh
. "$TOPDIR/scripts/lib/history.sh"

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-c clang|gcc|NAME,...] [-t TARGET] [-k CELLDIR]
       [-W LEVEL] [-x FLAGS] [-a] PREDICATE
Name the first installed compiler version whose result of PREDICATE
differs from the oldest version's.
  -o BUILDDIR  where work files and BUILDDIR/bisect/ go (default: build)
  -c WHICH     clang (default: clang-13 ... clang-22 as installed), gcc
               (gcc-11, gcc-12), or names of scripts/targets/compilers.list
  -t TARGET    probe: x86_64, arm or aarch64 (default x86_64); the others:
               a parity target (default x86_64)
  -k CELLDIR   unit: the GCC cell whose command is used
               (default BUILDDIR/kernel/TARGET-gcc; BUILDDIR/TREE/kernel/
               for a KERNEL other than the default)
  -W LEVEL     unit: the kernel's W= level, 0 or 1 (default 1)
  -x FLAGS     unit: more flags, as the unit's own Makefile adds them
  -a           run every version, not a bisection
Predicates: probe:CASE[:REGEX], unit:FILE[:TEXT], build, boot, test:NAME,
warning:FLAG, kabi:TYPE.
USAGE
}

# compilers WHICH: the installed compilers of WHICH, oldest first
compilers() {
	local c

	case "$1" in
	clang | gcc)
		known_compilers | tr ' ' '\n' | grep -e "^$1-[0-9]*\$" | sort -t- -k2 -n
		;;
	*)
		printf '%s\n' "$1" | tr ',' ' ' | tr -s ' ' '\n' | sed '/^$/d'
		;;
	esac | while read -r c; do
		[ -n "$(compiler_line "$c")" ] || die "unknown compiler '$c' (known: $(known_compilers))"
		(compiler_select "$c" && command -v "$cc_bin" >/dev/null) && echo "$c"
	done
}

# version COMPILER: what the compiler says it is, for the loaded target
version() {
	(
		compiler_select "$1"
		"$cc_bin" --version 2>/dev/null | head -n 1
	)
}

# ---- evaluators: each prints "RESULT<TAB>DETAIL" for one compiler --------

eval_probe() {
	local c="$1" json

	json="$work/probe-$c.json"
	"$TOPDIR/scripts/compiler-bugs.sh" -o "$work" -c "$c" -T "$target" --json "$case_name" \
		>"$json" 2>"$work/probe.err" || :
	jq -e '.results | length > 0' "$json" >/dev/null 2>&1 ||
		die "compiler-bugs.sh gave no result for '$case_name' with $c on $target: $(tail -n 1 "$work/probe.err")"
	jq -r --arg re "$pattern" '.results[0]
		| (.diagnostic // "" | split("\n")[0] | sub("^[^ :]*:[0-9]+:[0-9]+: "; "")) as $d
		| if $re == "" then ["\(.outcome): \($d)", $d]
		  else [(if ("\(.outcome): \($d)" | test($re)) then "match" else "no match" end), "\(.outcome): \($d)"] end
		| @tsv' "$json"
}

# shellcheck disable=SC2120 # its arguments are the command's words, set by eval
# unit_words: the words of the GCC cell's command of init/main.o, one a
# line, without the compiler, the dependency file, -c, -o and the source
unit_words() {
	local cmd

	cmd=$(sed -n 's/^\(saved\)\{0,1\}cmd_init\/main\.o := //p' "$cell/init/.main.o.cmd" | sed 's/[[:space:]];[[:space:]].*//')
	[ -n "$cmd" ] || die "'$cell/init/.main.o.cmd' holds no compile command"
	eval "set -- $cmd"
	[ "$1" != ccache ] || shift
	shift
	while [ $# -gt 0 ]; do
		case "$1" in
		-Wp,-MMD,* | -c) ;;
		-o) shift ;;
		*/init/main.c | init/main.c) ;;
		*) printf '%s\n' "$1" ;;
		esac
		shift
	done
}

# level_flags CC: the flags of W=$wlevel for CC (kbuild/kernel-clang-flags'
# w0 and w1 rows; clang's own rows too for Clang)
level_flags() {
	local cc="$1" major want level when flag rest

	major=$("$cc" -dumpversion | cut -d. -f1)
	want=" w0 "
	[ "$wlevel" = 0 ] || want=" w1 "
	case "$cc" in *clang*) want="$want clang " ;; esac
	while read -r level when flag rest; do
		case "$level" in '' | '#'*) continue ;; esac
		case "$want" in *" $level "*) ;; *) continue ;; esac
		case "$when" in
		probe) "$cc" -Werror=unknown-warning-option "$flag" -fsyntax-only -x c /dev/null 2>/dev/null || continue ;;
		'<'*) [ "$major" -lt "${when#<}" ] || continue ;;
		esac
		printf '%s\n' "$flag"
	done <"$TOPDIR/kbuild/kernel-clang-flags"
}

eval_unit() {
	local c="$1" words log

	compiler_select "$c"
	words="$work/words"
	log="$work/unit-$c.log"
	# shellcheck disable=SC2119 # the words come from the .cmd file
	unit_words >"$words.gcc"
	case "$cc_llvm" in
	'')
		cp "$words.gcc" "$words"
		;;
	*)
		# GCC's flags as Clang takes them, as make diagnose translates them
		# shellcheck disable=SC2046 # one word per line
		"$TOPDIR/kbuild/flag-translate.sh" -c "$cc_bin" -t "$(clang_triple)" -o -- $(cat "$words.gcc") \
			>"$words" 2>"$work/translate.err" ||
			die "cannot translate the GCC flags for $c: $(head -n 1 "$work/translate.err")"
		;;
	esac
	level_flags "$cc_bin" >>"$words"
	# shellcheck disable=SC2086 # the extra flags are words
	[ -z "$extra" ] || printf '%s\n' $extra >>"$words"
	# one word a line: split on newlines only, no globbing
	# shellcheck disable=SC2046
	(cd "$cell" && IFS='
' && set -f && "$cc_bin" $(cat "$words") -fsyntax-only -fno-color-diagnostics "$srcdir/$unit") \
		>"$log" 2>&1 || :
	grep -e ': \(warning\|error\): ' "$log" | sed "s|^$srcdir/||" | LC_ALL=C sort -u >"$log.diag" || :
	if [ -n "$pattern" ]; then
		if grep -q -F -e "$pattern" "$log.diag"; then
			printf 'present\t%s\n' "$(grep -c -F -e "$pattern" "$log.diag") diagnostics"
		else
			printf 'absent\t%s\n' "$(wc -l <"$log.diag") other diagnostics"
		fi
	else
		printf '%s\t%s\n' "$(sed -n 's/.*\[\(-W[^]]*\)\]$/\1/p' "$log.diag" | sort -u | tr '\n' ' ' | sed 's/ $//')" \
			"$(wc -l <"$log.diag") diagnostics"
	fi
}

# clang_triple: --target for the cell's architecture, from its .config
clang_triple() {
	local arch

	arch=$(sed -n 's/^# Linux\/\([^ ]*\) .*Kernel Configuration$/\1/p' "$cell/.config" | head -n 1)
	case "$arch" in
	x86_64 | x86) echo x86_64-linux-gnu ;;
	arm) echo arm-linux-gnueabi ;;
	arm64) echo aarch64-linux-gnu ;;
	*) die "cannot tell Clang's target for '$arch' ('$cell/.config')" ;;
	esac
}

# parity_answer COMPILER VERSION: the cell's result from the newest parity
# run of the run's kernel tree (tree_name) recorded with this compiler
# version, or nothing
parity_answer() {
	[ -f "$db" ] || return 0
	sqlite3 -json "$db" "SELECT r.id AS run, r.tree, c.name, c.build, c.compiler_version, x.kind, x.key, x.state, x.detail
		FROM run r JOIN cell c ON c.run = r.id LEFT JOIN result x ON x.cell = c.id
		WHERE r.kind = 'parity' AND c.target = '$target' ORDER BY r.id;" 2>/dev/null |
		jq -r --arg c "$1" --arg v "$2" --arg kind "$pkind" --arg key "$pkey" --arg tree "linux-$(tree_name)." '
			[.[] | select(.compiler_version == $v and ((.tree // "") | startswith($tree))
				and (.name == "\(.name | split("/")[0])/\($c)" or (.build | split("/")[1]) == $c))]
			| (map(.run) | max) as $run | map(select(.run == $run))
			| if length == 0 then empty else
			  ([.[] | select(.kind == $kind and .key == $key)][0]) as $x
			  | if $x == null then "absent\t\trun \($run)" else "\($x.state)\t\($x.detail // "")\trun \($run)" end end'
}

eval_parity() {
	local c="$1" v="$2" a

	a=$(parity_answer "$c" "$v")
	if [ -z "$a" ]; then
		step PARITY "$target/$c: no recorded run with $v; running one"
		"$TOPDIR/scripts/parity.sh" -o "$build" -t "$target" -c "$c" -k kunit >&2 || :
		a=$(parity_answer "$c" "$v")
		[ -n "$a" ] || die "parity.sh recorded no result for $target/$c in '$db'"
	fi
	printf '%s\n' "$a"
}

# bisect_answer COMPILER VERSION: the answer an earlier bisection recorded
bisect_answer() {
	[ -f "$db" ] || return 0
	sqlite3 -json "$db" "SELECT r.id AS run, r.tree, r.series, c.name, c.compiler_version, x.key, x.state, x.detail
		FROM run r JOIN cell c ON c.run = r.id JOIN result x ON x.cell = c.id
		WHERE r.kind = 'bisect' AND x.kind = 'predicate' ORDER BY r.id DESC;" 2>/dev/null |
		jq -r --arg name "$target/$1" --arg v "$2" --arg key "$key" --arg series "$series" --arg probe "$is_probe" '
			[.[] | select(.name == $name and .compiler_version == $v and .key == $key
				and ($probe == "1" or .series == $series))][0]
			| select(. != null) | "\(.state)\t\(.detail // "")\trun \(.run)"'
}

# answer COMPILER: RESULT<TAB>DETAIL<TAB>FROM for one compiler, cached
answer() {
	local c="$1" v a

	if [ -f "$work/answer.$c" ]; then
		cat "$work/answer.$c"
		return 0
	fi
	v=$(version "$c")
	[ -n "$v" ] || die "'$c' says nothing to --version"
	case "$kind" in
	probe | unit)
		a=$(bisect_answer "$c" "$v")
		if [ -z "$a" ]; then
			a="$(eval_"$kind" "$c")	ran"
			printf '%s\t%s\t%s\n' "$c" "$v" "$a" >>"$work/ran.tsv"
		fi
		;;
	*)
		a=$(eval_parity "$c" "$v")
		;;
	esac
	printf '%s\n' "$a" >"$work/answer.$c"
	step BISECT "$c ($(echo "$v" | grep -o -e '[0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*' | head -n 1)): $(printf '%s' "$a" | cut -f1) [$(printf '%s' "$a" | cut -f3-)]"
	printf '%s\n' "$a"
}

result_of() {
	answer "$1" | cut -f1
}

# record_answers: this bisection's new answers as a run of kind bisect
record_answers() {
	local out

	out="$build/bisect/$(printf '%s' "$key@$target" | tr -c 'A-Za-z0-9._-' '_').json"

	[ -s "$work/ran.tsv" ] || return 0
	mkdir -p "$build/bisect"
	jq -R -s --arg key "$key" --arg target "$target" --arg tree "$tree" '
		{version: 1, kind: "bisect", kernel: $tree, predicate: $key, target: $target,
		 steps: [split("\n")[] | select(. != "") | split("\t")
			| {compiler: .[0], compiler_version: .[1], result: .[2], detail: .[3]}]}' \
		"$work/ran.tsv" >"$out.tmp" && mv "$out.tmp" "$out"
	"$TOPDIR/scripts/history.sh" record "$out" || :
}

cleanup() {
	rm -rf "$work"
}

main() {
	local opt which=clang all=0 list n lo hi mid first last r0 rl

	build=build
	target=""
	cell=""
	wlevel=1
	extra=""
	while getopts ac:hk:o:t:W:x: opt; do
		case "$opt" in
		a) all=1 ;;
		c) which="$OPTARG" ;;
		k) cell="$OPTARG" ;;
		o) build="$OPTARG" ;;
		t) target="$OPTARG" ;;
		W) wlevel="$OPTARG" ;;
		x) extra="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 1 ] || { usage >&2; exit 2; }
	case "$wlevel" in 0 | 1) ;; *) die "-W takes 0 or 1, not '$wlevel'" ;; esac
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq sqlite3 || exit 2
	mkdir -p "$build" || die "cannot create '$build'"
	build=$(cd "$build" && pwd)
	db=$(history_db)
	key="$1"
	pattern=""
	is_probe=0
	case "$1" in
	probe:*)
		kind=probe
		is_probe=1
		case_name=${1#probe:}
		case "$case_name" in *:*) pattern=${case_name#*:}; case_name=${case_name%%:*} ;; esac
		[ -f "$TOPDIR/tests/compiler-bugs/$case_name.c" ] || [ -f "$TOPDIR/tests/compiler-bugs/$case_name.S" ] ||
			die "no compiler-bug case '$case_name' in tests/compiler-bugs/"
		target=${target:-x86_64}
		;;
	unit:*)
		kind=unit
		unit=${1#unit:}
		case "$unit" in *:*) pattern=${unit#*:}; unit=${unit%%:*} ;; esac
		target=${target:-x86_64}
		load_target "$target"
		[ -n "$cell" ] || cell=$(compiler_select gcc && cell_dir "$build")
		[ -f "$cell/init/.main.o.cmd" ] || die "'$cell' is no built GCC cell (no init/.main.o.cmd)"
		cell=$(cd "$cell" && pwd)
		srcdir=$(readlink -f "$cell/source") || die "'$cell' has no 'source' link to its tree"
		[ -f "$srcdir/$unit" ] || die "no '$unit' in the tree '$srcdir'"
		key="$1 W=$wlevel${extra:+ $extra}"
		;;
	build | boot) kind=parity; pkind="$1"; pkey="" ;;
	test:* | warning:* | kabi:*)
		kind=parity
		pkind=${1%%:*}
		pkey=${1#*:}
		;;
	*) die "unknown predicate '$1' (probe:CASE, unit:FILE, build, boot, test:NAME, warning:FLAG, kabi:TYPE)" ;;
	esac
	if [ "$kind" = parity ]; then
		target=${target:-x86_64}
		load_target "$target"
	elif [ "$kind" = probe ]; then
		t_cross=""
	fi
	tree=""
	series=""
	[ "$kind" != unit ] || tree="linux-$(tree_version "$srcdir")"
	# the series of the unit's tree, else of the run's (KERNEL, KSRC)
	series=$(tree_series_sum "${tree#linux-}")
	work=$(mktemp -d)
	trap cleanup EXIT
	trap 'exit 130' INT TERM

	list=$(compilers "$which")
	n=$(printf '%s\n' "$list" | grep -c .) || n=0
	[ "$n" -ge 2 ] || die "fewer than two installed compilers of '$which' to walk: $(echo "$list" | tr '\n' ' ' | sed 's/ *$//')"
	first=$(printf '%s\n' "$list" | head -n 1)
	last=$(printf '%s\n' "$list" | tail -n 1)
	r0=$(result_of "$first")
	if [ "$all" = 1 ]; then
		for c in $list; do result_of "$c" >/dev/null; done
	fi
	rl=$(result_of "$last")
	if [ "$r0" = "$rl" ] && [ "$all" = 0 ]; then
		record_answers
		echo "compiler-bisect: $key on $target: $first and $last agree ($r0); no change found"
		exit 1
	fi
	# the first index whose result differs from the oldest's
	lo=1
	hi=$n
	if [ "$all" = 1 ]; then
		hi=""
		i=0
		for c in $list; do
			i=$((i + 1))
			[ "$(result_of "$c")" = "$r0" ] || { hi=$i; break; }
		done
		[ -n "$hi" ] || { record_answers; echo "compiler-bisect: $key on $target: every version agrees ($r0)"; exit 1; }
	else
		while [ $((hi - lo)) -gt 1 ]; do
			mid=$(((lo + hi) / 2))
			c=$(printf '%s\n' "$list" | sed -n "${mid}p")
			if [ "$(result_of "$c")" = "$r0" ]; then lo=$mid; else hi=$mid; fi
		done
	fi
	record_answers
	c=$(printf '%s\n' "$list" | sed -n "${hi}p")
	prev=$(printf '%s\n' "$list" | sed -n "$((hi - 1))p")
	echo "compiler-bisect: $key on $target changes at $c ($(version "$c")): $prev '$(result_of "$prev")' -> $c '$(result_of "$c")'"
}

main "$@"
