#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose.sh - replay a GCC kernel build through Clang's diagnostics: every
# unit of the build's compile_commands.json is run again as
# 'clang -fsyntax-only', with GCC's flags translated or dropped by
# kbuild/flag-translate.sh (once per distinct flag set) and the flags the
# tree gives Clang builds added (kbuild/kernel-clang-flags; --target and
# -fintegrated-as by scripts/Makefile.clang's rules). What Clang says is
# parsed, counted once per distinct diagnostic with the units that reach
# it, and set against what GCC said in the same build: both, only Clang,
# only GCC; a unit Clang cannot parse, or crashes on, is a group of its own.
#
# The report goes to OUTDIR/diagnose.json (Documentation/diagnose.md has
# its schema), diagnose.md and diagnose.html. The build directory is only
# read: a missing or stale compile_commands.json is generated into OUTDIR.
#
# Exit: 0 the replay ran (whatever Clang found), 2 trouble (usage, no build
# directory or no successful build in it, a unit's source gone, no clang,
# no kernel tree).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=diagnose.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
LIB="$TOPDIR/scripts/diagnose"

usage() {
	cat <<USAGE
usage: $PROG [-O ROOT] [-o OUTDIR] [-c clang|clang-N] [-W LEVEL] [-j N] [-s SRCDIR] [-l LOG]
       [-C CELL | BUILD_DIR...]
Replay each GCC kernel build BUILD_DIR (default: the parity GCC cells of
the run's kernel tree, KERNEL=) through clang -fsyntax-only and report
what only Clang, only GCC, or both say.
  -O ROOT    kparity's build directory (default: build)
  -C CELL    the parity cell CELL (x86_64-gcc) of the run's kernel tree
  -o OUTDIR  where the replay and its report go, for one BUILD_DIR
             (default: the tree's diagnose/CELL-CLANG[-wLEVEL] under ROOT,
             CELL being BUILD_DIR's name)
  -c CLANG   clang (the one LLVM=1|-N|DIR/ names, default) or clang-N
  -W LEVEL   the kernel's W= warning level: empty (the build's own), 1, 2
             or 12
  -j N       Clang jobs (default: the number of CPUs)
  -s SRCDIR  the kernel tree (default: BUILD_DIR/source)
  -l LOG     GCC's log of the build, for one BUILD_DIR (default:
             BUILD_DIR/warnings.log, else BUILD_DIR/build.log)
USAGE
}

# check_build DIR: die unless DIR holds a successful kernel build.
check_build() {
	[ -d "$1" ] || die "no build directory '$1'"
	[ -f "$1/.config" ] || die "'$1' is not a kernel build directory (no .config)"
	[ -f "$1/vmlinux" ] || die "'$1' holds no successful build (no vmlinux)"
	# kernel-build.sh's marks: configured, but the last make did not finish
	if [ -f "$1/.kparity-config" ] && [ ! -f "$1/.kparity-built" ]; then
		die "'$1' holds no successful build (its last build failed or did not finish)"
	fi
}

# commands BUILD OUT: print the compile_commands.json to use: BUILD's own
# when it is newer than vmlinux, else one generated into OUT by the tree's
# scripts/clang-tools/gen_compile_commands.py.
commands() {
	local b="$1" out="$2" gen="$srcdir/scripts/clang-tools/gen_compile_commands.py"

	if [ -f "$b/compile_commands.json" ] &&
		[ -n "$(find "$b/compile_commands.json" -prune -newer "$b/vmlinux")" ]; then
		printf '%s\n' "$b/compile_commands.json"
		return 0
	fi
	[ ! -f "$b/compile_commands.json" ] ||
		warn "'$b/compile_commands.json' is older than vmlinux; generating a fresh one"
	[ -f "$gen" ] || die "cannot generate compile_commands.json: no '$gen'"
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" python3 || exit 2
	step GEN "$out/compile_commands.json"
	python3 "$gen" -d "$b" -o "$out/compile_commands.json.tmp" ||
		die "'$gen' failed on '$b'"
	mv "$out/compile_commands.json.tmp" "$out/compile_commands.json"
	printf '%s\n' "$out/compile_commands.json"
}

# triple CC: Clang's --target for the build, as scripts/Makefile.clang
# chooses it: the cross prefix of GCC's name, else the tree's table entry
# for the architecture the .config was made for.
triple() {
	local arch srcarch t

	case "$1" in
	*-gcc | *-gcc-[0-9]*)
		t="${1%-gcc*}"
		printf '%s\n' "${t##*/}"
		return 0
		;;
	esac
	arch=$(sed -n 's/^# Linux\/\([^ ]*\) .*Kernel Configuration$/\1/p' "$bdir/.config" | head -n 1)
	case "$arch" in
	x86_64 | i386 | x86) srcarch=x86 ;;
	*) srcarch="$arch" ;;
	esac
	[ -f "$srcdir/scripts/Makefile.clang" ] ||
		die "cannot tell Clang's target for '$arch': no '$srcdir/scripts/Makefile.clang'"
	t=$(sed -n "s/^CLANG_TARGET_FLAGS_${srcarch}[[:space:]]*:=[[:space:]]*//p" "$srcdir/scripts/Makefile.clang")
	[ -n "$t" ] || die "no Clang target for architecture '$arch' in '$srcdir/scripts/Makefile.clang'"
	printf '%s\n' "$t"
}

# knows FLAG: this clang takes the warning flag FLAG (Kbuild's cc-option).
knows() {
	"$cc_bin" -Werror=unknown-warning-option "$1" -fsyntax-only -x c /dev/null 2>/dev/null
}

# kernel_flags LEVEL...: the words of kbuild/kernel-clang-flags for the
# levels given (clang, gcc, w0, w1, w2), on one line.
kernel_flags() {
	local want=" $* " level when flag rest words=""

	while read -r level when flag rest; do
		case "$level" in '' | '#'*) continue ;; esac
		case "$want" in *" $level "*) ;; *) continue ;; esac
		case "$when" in
		probe) knows "$flag" || continue ;;
		'<'*) [ "$cc_major" -lt "${when#<}" ] || continue ;;
		esac
		words="$words $flag"
	done <"$TOPDIR/kbuild/kernel-clang-flags"
	printf '%s\n' "${words# }"
}

# module_objects: the objects of every module of the build's modules.order
# (each module's .mod file lists them), and the module's MODULE.mod.o,
# compiled from the MODULE.mod.c modpost writes.
module_objects() {
	local ko mod

	[ -f "$bdir/modules.order" ] || return 0
	while IFS= read -r ko; do
		mod="$bdir/${ko%.*}.mod"
		[ -f "$mod" ] || die "'$bdir/modules.order' names '$ko', but there is no '$mod'"
		tr ' ' '\n' <"$mod" | grep -e '\.o$' || :
		printf '%s\n' "${ko%.*}.mod.o"
	done <"$bdir/modules.order"
}

# linked OUT: OUT/linked, the objects the build still uses
# (scripts/diagnose/diagnose-linked.awk): reached from its link commands, the
# archives they name (listed with ar t, until no new archive turns up),
# the modules, and the objects link-vmlinux.sh links itself.
linked() {
	local out="$1" a vl="$srcdir/scripts/link-vmlinux.sh"

	(cd "$bdir" && find . -name '.*.cmd' -type f -exec awk '/^(saved)?cmd_/ { print; nextfile }' {} +) \
		>"$out/cmdlines" || die "cannot read the .cmd files of '$bdir'"
	{
		# shellcheck disable=SC2016 # the script's own ${objs}, not ours
		[ ! -f "$vl" ] || sed -n 's/^[[:space:]]*objs="\${objs} \([^"]*\.o\)"$/\1/p' "$vl"
		module_objects
	} >"$out/roots"
	: >"$out/archives"
	while :; do
		awk -v build="$bdir" -f "$LIB/diagnose-linked.awk" "$out/roots" "$out/cmdlines" >"$out/linked"
		grep -e '\.a$' "$out/linked" | LC_ALL=C sort -u >"$out/archives.new" || :
		for a in $(LC_ALL=C comm -13 "$out/archives" "$out/archives.new"); do
			(cd "$bdir" && ar t "$a") >>"$out/roots" 2>"$out/ar.err" ||
				die "cannot list the archive '$bdir/$a': $(head -n 1 "$out/ar.err")"
		done
		! cmp -s "$out/archives" "$out/archives.new" || break
		mv "$out/archives.new" "$out/archives"
	done
	grep -q -e '\.o$' "$out/linked" ||
		die "'$bdir' links no object: none of its .cmd files holds a link command"
}

# say_stale FILE: one line naming the units no longer built (the first
# three; the report lists all).
say_stale() {
	local n f names=""

	n=$(wc -l <"$1")
	for f in $(head -n 3 "$1"); do
		names="$names ${f#"$srcdir"/}"
	done
	[ "$n" -le 3 ] || names="$names ..."
	step STALE "$n units no longer built, not replayed:$names"
}

# units OUT: OUT/units.tsv (INDEX DIR FILE COMMAND) of the kernel's own
# units: the host programs' commands lack -nostdinc and are not replayed,
# and a unit whose object the build no longer uses (its .cmd file outlived
# the option that built it) is listed in OUT/stale and not replayed.
units() {
	local out="$1" missing

	jq -r 'to_entries[] | [.key, .value.directory, .value.file, .value.command] | @tsv' \
		"$ccjson" >"$out/all.tsv" || die "'$ccjson' is not a compile_commands.json"
	grep -e ' -nostdinc ' "$out/all.tsv" >"$out/kernel.tsv" || :
	[ -s "$out/kernel.tsv" ] || die "'$ccjson' holds no kernel compile command"
	nhost=$(($(wc -l <"$out/all.tsv") - $(wc -l <"$out/kernel.tsv")))
	linked "$out"
	: >"$out/stale"
	awk -F '\t' -v stale="$out/stale" -f "$LIB/diagnose-live.awk" "$out/linked" "$out/kernel.tsv" >"$out/units.tsv"
	[ -s "$out/units.tsv" ] || die "no unit of '$ccjson' is linked into '$bdir' (all $(wc -l <"$out/stale") are left from older builds)"
	[ ! -s "$out/stale" ] || say_stale "$out/stale"
	missing=$(cut -f3 "$out/units.tsv" | while IFS= read -r f; do
		[ -f "$f" ] || printf '%s\n' "$f"
	done)
	[ -z "$missing" ] || die "unit source '$(printf '%s\n' "$missing" | head -n 1)' is gone" \
		"($(printf '%s\n' "$missing" | wc -l) of $(wc -l <"$out/units.tsv") units; the tree changed since the build)"
}

# translate OUT: OUT/commands.tsv, the Clang command of every unit, with
# flag-translate.sh run once per distinct set of judged flags.
translate() {
	local out="$1" n=0 set cc pre level drop

	awk -F '\t' -f "$TOPDIR/kbuild/flag-words.awk" -f "$LIB/diagnose-sets.awk" "$out/units.tsv" >"$out/sets.tsv"
	cut -f2 "$out/sets.tsv" | LC_ALL=C sort -u >"$out/setlist"
	cc=$(head -n 1 "$out/units.tsv" | cut -f4 | awk '{ for (i = 1; i <= NF && $i !~ /^-/; i++) c = $i; print c }')
	target=$(triple "$cc")
	pre="--target=$target"
	if [ "${LLVM_IAS:-1}" = 0 ]; then pre="$pre -fno-integrated-as"; else pre="$pre -fintegrated-as"; fi
	pre="$pre $(kernel_flags clang)"
	case "$wlevel" in
	*1*) level=$(kernel_flags w1) ;;
	*) level=$(kernel_flags w0) ;;
	esac
	case "$wlevel" in *2*) level="$level $(kernel_flags w2)" ;; esac
	drop=$(kernel_flags gcc)
	: >"$out/commands.tsv"
	: >"$out/decisions.tsv"
	: >"$out/outside"
	mkdir -p "$out/sets"
	while IFS= read -r set; do
		n=$((n + 1))
		# shellcheck disable=SC2086 # the set is blank-separated flags
		"$TOPDIR/kbuild/flag-translate.sh" -a -c "$cc_bin" -t "$target" -- $set \
			>"$out/sets/$n.tsv" || die "flag-translate.sh failed on the flags of set $n ('$out/sets/$n.tsv')"
		awk -F '\t' -v s="$set" '$2 == s { print $1 }' "$out/sets.tsv" >"$out/sets/$n.units"
		awk -F '\t' -v n="$n" -v c="$(wc -l <"$out/sets/$n.units")" '{ print n "\t" c "\t" $0 }' \
			"$out/sets/$n.tsv" >>"$out/decisions.tsv"
		awk -F '\t' 'NR == FNR { u[$1] = 1; next } ($1 in u)' "$out/sets/$n.units" "$out/units.tsv" |
			awk -F '\t' -v table="$out/sets/$n.tsv" -v clang="$cc_bin" -v pre="$pre" \
				-v level="$level" -v after=-Wno-packed-not-aligned -v drop="$drop" \
				-v outside="$out/outside" \
				-v post="-Wno-error -fsyntax-only -fno-color-diagnostics -fdiagnostics-parseable-fixits" \
				-f "$TOPDIR/kbuild/flag-words.awk" -f "$LIB/diagnose-cmd.awk" >>"$out/commands.tsv"
	done <"$out/setlist"
	nsets="$n"
	dropped_gcc="$drop"
	LC_ALL=C sort -o "$out/outside" "$out/outside"
	[ -z "$wlevel" ] || [ "$(wc -l <"$out/outside")" -lt "$(wc -l <"$out/units.tsv")" ] ||
		warn "no unit's command has -Wno-packed-not-aligned, where Kbuild adds W=$wlevel's flags: the replay adds them to none"
}

# clang_id: what makes one replay's results another's: the Clang (its
# version line) and its target
clang_id() {
	printf '%s %s\n' "$("$cc_bin" --version | head -n 1)" "$target"
}

# dependencies OUT [any]: OUT/deps.tsv, INDEX TAB FILE for every file each
# unit was made from (Kbuild's .cmd files: diagnose-deps.awk), and
# OUT/objects, INDEX TAB OBJECT; both are kept with the replay
# (diagnose-series.sh reads them). With 'any', a unit without a .cmd file
# is left out (a first replay needs none); else it is trouble.
dependencies() {
	local out="$1" f i

	awk -F '\t' -f "$LIB/diagnose-cmdfile.awk" "$out/units.tsv" >"$out/cmdfiles"
	if [ "${2:-}" = any ]; then
		while IFS='	' read -r f i; do
			[ ! -f "$f" ] || printf '%s\t%s\n' "$f" "$i"
		done <"$out/cmdfiles" >"$out/cmdfiles.found"
		mv "$out/cmdfiles.found" "$out/cmdfiles"
	fi
	awk -F '\t' '{ o = $1; sub(/\/\.[^\/]*$/, "", o); f = $1; sub(/.*\/\./, "", f); sub(/\.cmd$/, "", f)
		print $2 "\t" o "/" f }' "$out/cmdfiles" >"$out/objects"
	cut -f1 "$out/cmdfiles" | xargs -r awk -v build="$bdir" -v map="$out/cmdfiles" \
		-f "$LIB/diagnose-deps.awk" >"$out/deps.tsv" || die "cannot read the .cmd files of '$bdir'"
}

# stale_check OUT: die when a changed file a unit depends on is newer than
# the unit's object: the tree changed and the build was not made again,
# so GCC's log and the replay would describe two trees
stale_check() {
	local out="$1" i f obj

	awk -F '\t' 'NR == FNR { o[$1] = $2; next } { print $1 "\t" $2 "\t" o[$1] }' \
		"$out/objects" "$out/hits" >"$out/hits.obj"
	while IFS='	' read -r i f obj; do
		[ -z "$obj" ] || [ -z "$(find "$f" -prune -newer "$obj" 2>/dev/null)" ] ||
			die "the build is stale: '${f#"$srcdir"/}' changed after '${obj#"$bdir"/}' was built (make the build again, then replay)"
	done <"$out/hits.obj"
}

# plan OUT: OUT/plan.tsv, what each unit of this replay does
# (diagnose-plan.awk): keep the last complete replay's result (OUT/last/),
# or replay, and why. Without a last replay, or with another Clang, every
# unit is replayed. Says which in a REPLAY line.
plan() {
	local out="$1" last="$1/last" old

	: >"$out/hits"
	if [ ! -f "$last/stamp" ]; then
		# what each unit was made from, for diagnose-series.sh's walk
		dependencies "$out" any
		awk -F '\t' '{ print $1 "\treplay\tfirst" }' "$out/commands.tsv" >"$out/plan.tsv"
		planned "every unit: no earlier replay in '$out'"
		return 0
	fi
	old=$(cat "$last/clang")
	if [ "$old" != "$(clang_id)" ]; then
		dependencies "$out" any
		awk -F '\t' '{ print $1 "\treplay\tclang" }' "$out/commands.tsv" >"$out/plan.tsv"
		planned "every unit: the last replay's Clang was another ($old; now $(clang_id))"
		return 0
	fi
	dependencies "$out"
	find "$srcdir/" "$bdir/" -newer "$last/stamp" -type f >"$out/changed" 2>/dev/null || :
	awk -F '\t' 'NR == FNR { c[$0] = 1; next } ($2 in c)' "$out/changed" "$out/deps.tsv" >"$out/hits"
	stale_check "$out"
	find "$last/units" -name '*.rc' | sed 's|.*/||; s|\.rc$||' >"$out/done"
	awk -F '\t' -f "$LIB/diagnose-plan.awk" "$last/commands.tsv" "$out/done" "$out/hits" \
		"$out/commands.tsv" >"$out/plan.tsv"
	planned "$(awk -F '\t' -v src="$srcdir/" -f "$LIB/diagnose-planned.awk" "$out/plan.tsv")"
}

# planned WHY: say what the replay runs again and why, and keep it for
# the report (OUT/replay.why)
planned() {
	step REPLAY "$1"
	printf '%s\n' "$1" >"$out/replay.why"
}

# keep OUT: the kept units' results, copied from the last replay under
# this replay's indexes
keep() {
	local out="$1" i prev st f

	awk -F '\t' '$2 == "keep" { print $1 "\t" $3 }' "$out/plan.tsv" |
		while IFS='	' read -r i prev; do
			cp "$out/last/units/$prev.out" "$out/units/$i.out"
			cp "$out/last/units/$prev.cpu" "$out/units/$i.cpu"
			IFS='	' read -r _ st f <"$out/last/units/$prev.rc"
			printf '%s\t%s\t%s\n' "$i" "$st" "$f" >"$out/units/$i.rc"
		done
}

# keep_last OUT: this replay, complete, is the next one's last: its
# commands, results, Clang and the time it started
keep_last() {
	local out="$1"

	rm -rf "$out/last.new"
	mkdir -p "$out/last.new"
	cp "$out/commands.tsv" "$out/last.new/commands.tsv"
	cp -R "$out/units" "$out/last.new/units"
	clang_id >"$out/last.new/clang"
	mv "$out/stamp.new" "$out/last.new/stamp"
	rm -rf "$out/last"
	mv "$out/last.new" "$out/last"
}

# replay OUT JOBS: run the Clang command of every unit plan.tsv replays,
# JOBS at a time, after copying the kept ones' results.
replay() {
	local out="$1" jobs="$2" start

	# what changes from now on is the next replay's to see
	touch "$out/stamp.new"
	rm -rf "$out/units" "$out/crash" "$out/replay.log"
	mkdir -p "$out/units" "$out/crash"
	keep "$out"
	awk -F '\t' 'NR == FNR { if ($2 == "replay") r[$1] = 1; next } ($1 in r)' \
		"$out/plan.tsv" "$out/commands.tsv" >"$out/replayed.tsv"
	awk -F '\t' -v out="$out" -v verbose="${V:-0}" -f "$LIB/diagnose-mk.awk" \
		"$out/replayed.tsv" >"$out/replay.mk"
	step CLANG "$(wc -l <"$out/replayed.tsv") units with $cc_bin, -j$jobs"
	start=$(date +%s)
	# with V=1 the commands are shown (and kept in replay.log) as they run
	run_logged "$out/replay.log" make -k -j "$jobs" -f "$out/replay.mk" ||
		die "the replay's make failed; see '$out/replay.log'"
	replay_secs=$(($(date +%s) - start))
}

# triage OUT BUILD: parse, compare with GCC's log, write diagnose.json.
triage() {
	local out="$1" b="$2" glog

	cat "$out"/units/*.rc >"$out/status.tsv"
	find "$out/units" -name '*.out' -print | LC_ALL=C sort -V >"$out/outputs"
	# shellcheck disable=SC2046 # plain file names, one per unit
	awk -v src="$srcdir" -f "$LIB/diagnose-parse.awk" "$out/status.tsv" $(cat "$out/outputs") >"$out/clang.tsv"
	# shellcheck disable=SC2046 # plain file names, one per unit
	awk -f "$LIB/diagnose-cpu.awk" "$out/status.tsv" $(sed 's/\.out$/.cpu/' "$out/outputs") >"$out/cpu.tsv"
	glog="$opt_log"
	[ -n "$glog" ] || glog="$b/warnings.log"
	[ -f "$glog" ] || glog="$b/build.log"
	if [ -f "$glog" ]; then
		"$TOPDIR/scripts/warnings.sh" -l -s "$srcdir" "$glog" >"$out/gcc.tsv"
	else
		warn "'$b' has no build.log; nothing to compare with GCC"
		: >"$out/gcc.tsv"
	fi
	jq -n -R \
		--arg kernel "$(tree_version "$srcdir" || :)" --arg build "$b" --arg cell "$(basename "$b")" \
		--arg clang "$cc_bin" --arg clang_version "$("$cc_bin" --version | head -n 1)" \
		--arg target "$target" --arg level "$wlevel" --arg src "$srcdir" \
		--argjson host "$nhost" --argjson sets "$nsets" --arg dropped_gcc "$dropped_gcc" \
		--rawfile stale "$out/stale" --rawfile outside "$out/outside" \
		--argjson replay_secs "$replay_secs" \
		--arg build_secs "$(cat "$b/build.seconds" 2>/dev/null || :)" \
		--rawfile clang_tsv "$out/clang.tsv" --rawfile gcc_tsv "$out/gcc.tsv" \
		--rawfile decisions "$out/decisions.tsv" --rawfile commands "$out/commands.tsv" \
		--rawfile cpu "$out/cpu.tsv" \
		--rawfile replay_why "$out/replay.why" \
		--argjson again "$(grep -c '	replay	' "$out/plan.tsv" || :)" \
		--argjson kept "$(grep -c '	keep	' "$out/plan.tsv" || :)" \
		-L "$LIB" -f "$LIB/diagnose.jq" >"$out/diagnose.json.tmp"
	mv "$out/diagnose.json.tmp" "$out/diagnose.json"
}

# diagnose_one BUILD_DIR OUTDIR: replay one build and write its report.
diagnose_one() {
	local b="$1" out="$2" start

	check_build "$b"
	bdir=$(cd "$b" && pwd)
	srcdir="$opt_src"
	[ -n "$srcdir" ] || srcdir=$(readlink -f "$bdir/source" 2>/dev/null) ||
		die "'$b' has no 'source' link to its kernel tree; name the tree with -s"
	[ -f "$srcdir/Makefile" ] || die "'$srcdir' is not a kernel tree (no Makefile)"
	[ -n "$out" ] || out="$(tree_root "$root")/diagnose/$(basename "$bdir")-$cc_suffix${wlevel:+-w$wlevel}"
	mkdir -p "$out" || die "cannot create '$out'"
	out=$(cd "$out" && pwd)

	ccjson=$(commands "$bdir" "$out")
	units "$out"
	step FLAGS "$(basename "$bdir"): $(wc -l <"$out/units.tsv") units"
	translate "$out"
	plan "$out"
	replay "$out" "$jobs"
	start=$(date +%s)
	triage "$out" "$bdir"
	keep_last "$out"
	"$TOPDIR/scripts/diagnose-report.sh" "$out/diagnose.json" "$out" || exit 2
	"$TOPDIR/scripts/history.sh" record "$out/diagnose.json" || :
	step TRIAGE "$(fmt_time $(($(date +%s) - start)))"
	jq -r --arg report "$out/diagnose.html" -L "$LIB" -f "$LIB/diagnose-line.jq" "$out/diagnose.json"
}

# default_cells: the parity GCC cells of the run's tree built under ROOT
default_cells() {
	local t

	for t in $(known_targets); do
		load_target "$t"
		compiler_select gcc
		[ ! -d "$(cell_dir "$root")" ] || cell_dir "$root"
	done
}

main() {
	local opt out="" b cells compiler=clang cell=""

	jobs=$(nproc)
	opt_src=""
	opt_log=""
	wlevel=""
	root=build
	while getopts C:c:hj:l:o:O:s:W: opt; do
		case "$opt" in
		C) cell="$OPTARG" ;;
		c) compiler="$OPTARG" ;;
		j) jobs="$OPTARG" ;;
		l) opt_log="$OPTARG" ;;
		o) out="$OPTARG" ;;
		O) root="$OPTARG" ;;
		s) opt_src="$OPTARG" ;;
		W) wlevel="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ -n "$cell" ]; then
		[ $# -eq 0 ] || die "-C names the cell to replay; no BUILD_DIR with it"
		cell=$(named_cell "$root" "$cell") || exit 2
		set -- "$cell"
	fi
	[ $# -le 1 ] || [ -z "$out" ] || die "-o names the output of one build directory, not $#"
	[ $# -le 1 ] || [ -z "$opt_log" ] || die "-l names the log of one build directory, not $#"
	[ -z "$opt_log" ] || [ -f "$opt_log" ] || die "no GCC log '$opt_log'"
	is_positive "$jobs" || die "-j needs a positive number, not '$jobs'"
	case "$wlevel" in
	'' | 1 | 2 | 12 | 21) ;;
	*) die "-W takes 1, 2 or 12 (the kernel's W= levels this replays), not '$wlevel'" ;;
	esac
	compiler_select "$compiler"
	command -v "$cc_bin" >/dev/null 2>&1 || die "no compiler '$cc_bin' (install it, or name another with -c or LLVM=)"
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" jq make ar || exit 2
	cc_major=$("$cc_bin" -dumpversion | cut -d. -f1)

	if [ $# -eq 0 ]; then
		cells=$(default_cells)
		[ -n "$cells" ] || die "no GCC cell built under '$root/kernel' (make parity, or name a build directory)"
		# shellcheck disable=SC2086 # directory names without blanks
		set -- $cells
	fi
	for b in "$@"; do
		diagnose_one "$b" "$out"
	done
}

main "$@"
