#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# history.sh - the results of every run, kept in one SQLite database, and
# what they say over time (Documentation/history.md).
#
# 'record' reads a run's own report (a parity report.json, a make diagnose
# diagnose.json, a series-survey build's PHASE.status and PHASE.diag, a
# compiler-bisect answer) and writes the
# run, its cells and every result of each cell in one transaction;
# beside the report it writes toolchain.json (each cell's compiler and
# linker pinned by Debian package version and checksum), since.json
# (each cell against its previous run, for the report's "since last run"
# column), and the run as KCIDB and TuxMake JSON (scripts/report-export.sh). 'show' says, per cell and result, what is new in a run, what
# is gone, what has always been so and for how many runs, what is flaky,
# and where a result changed, with what changed between those two runs.
#
# The database's schema is versioned (PRAGMA user_version) and migrated
# by the numbered files of scripts/history/schema/, inside the recording
# transaction; a database of a newer schema is refused. Two recorders at
# once are serialized by SQLite itself (BEGIN IMMEDIATE, a busy timeout);
# one killed mid-way leaves the database as it was.
#
# Exit: 0 ok, 1 'show' found nothing recorded, 2 trouble (usage, an
# unreadable report, a database that cannot be read or written).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=history
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
# shellcheck source=scripts/lib/history.sh
. "$TOPDIR/scripts/lib/history.sh"
HDIR="$TOPDIR/scripts/history"

usage() {
	cat <<USAGE
usage: $PROG [-d DB] record [-n] [-k KIND] REPORT
       $PROG [-d DB] show [--json] [--all] [-r RUN] [-n RUNS] [-k KIND] [CELL...]
       $PROG [-d DB] runs [--json]
Keep every run's results in DB and say what changed between runs.
  record REPORT  record a run's report (a parity report.json, a
                 diagnose.json); for a parity run, write
                 toolchain.json and since.json beside it; -n prints the
                 transaction's SQL instead of running it
  show           per cell and result of the last run (or RUN): new, gone,
                 always since N runs, flaky (k of n), where it changed and
                 what changed then; only what is not a plain pass unless
                 --all; --json for all of it as JSON
  runs           the runs recorded, one a line
  -d DB          the database (default: \$KPARITY_HISTORY_DB, else
                 \${XDG_DATA_HOME:-~/.local/share}/kparity/results.db)
  -k KIND        the kind of run (parity, diagnose, survey, bisect; default:
                 from the report)
  -n RUNS        how many runs of the kind to look back over (default 50)
Environment: KPARITY_HISTORY_TIMEOUT how long, in milliseconds, to wait
for another recorder (default 60000).
USAGE
}

# migration_number FILE: the number a migration's name starts with (002-x.sql: 2)
migration_number() {
	local n

	n=${1##*/}
	n=${n%%-*}
	n=${n#"${n%%[!0]*}"}
	echo "${n:-0}"
}

# schema_latest: the number of the newest migration
schema_latest() {
	local f n=0

	for f in "$HDIR"/schema/[0-9][0-9][0-9]-*.sql; do
		n=$(migration_number "$f")
	done
	echo "$n"
}

# sqlite_error ERRFILE: sqlite3's first complaint, without its line number
sqlite_error() {
	sed -n '/./{s/^\(Parse\|Runtime\) error near line [0-9]*: //;s/^Error: \(near line [0-9]*: \)\{0,1\}//;s/^\(stepping\|in prepare\), //;s/ ([0-9]*)$//;p;q}' "$1"
}

# db_version: the schema version of $db (0 for a new one); fails with one
# line when it cannot be read
db_version() {
	local v

	if [ ! -e "$db" ]; then
		echo 0
		return 0
	fi
	if ! v=$(sqlite3 -bail -cmd ".timeout $timeout" "$db" 'PRAGMA user_version;' 2>"$tmp/err"); then
		warn "cannot read '$db': $(sqlite_error "$tmp/err")"
		return 2
	fi
	case "$v" in
	'' | *[!0-9]*)
		warn "cannot read '$db': no schema version"
		return 2
		;;
	esac
	echo "$v"
}

# check_version V: V is a schema this kparity knows
check_version() {
	[ "$1" -le "$latest" ] && return 0
	warn "'$db' has schema $1, newer than this kparity's $latest; not touched"
	return 2
}

# sha FILE: its sha256, or nothing
sha() {
	[ -f "$1" ] || return 0
	sha256sum "$1" | cut -d' ' -f1
}

# cell_pins BUILDDIR: a TSV line per cell of the parity report $report:
# its name, the sha256 of its .config, its compiler's and its linker's
# binaries, every link followed. A compiler whose --version now says
# other than the report is left out, with a line: pinned wrongly is worse
# than not pinned.
cell_pins() {
	jq -r '.matrix[].cells[] | [.target, .compiler, (.name | split("/")[1]), .dir, .compiler_version] | @tsv' "$report" |
		while IFS="$(printf '\t')" read -r t c suffix dir version; do
			(
				load_target "$t" 2>/dev/null || exit 0
				if [ -n "$(compiler_line "$suffix" 2>/dev/null)" ]; then
					compiler_select "$suffix"
				else
					compiler_select "$c"
				fi
				now=$("$cc_bin" --version 2>/dev/null | head -n 1) || now=""
				cc="" ld=""
				if [ "$now" = "$version" ]; then
					cc=$(readlink -f "$(command -v "$cc_bin")" 2>/dev/null) || cc=""
					ld=$(readlink -f "$(command -v "$ld_bin")" 2>/dev/null) || ld=""
				else
					warn "'$cc_bin --version' says '$now', the report '$version': $t/$c not pinned"
				fi
				printf '%s/%s\t%s\t%s\t%s\n' "$t" "$c" "$(sha "$1/$dir/.config")" "$cc" "$ld"
			) || warn "cannot tell $t/$c's toolchain: not pinned"
		done
}

# binary_pins CELLS.tsv: {BINARY: {sha256, package, version}} of the
# binaries cell_pins named, with one dpkg-query for all (each call reads
# dpkg's whole database)
binary_pins() {
	cut -f3,4 "$1" | tr '\t' '\n' | sed '/^$/d' | LC_ALL=C sort -u >"$tmp/bins"
	: >"$tmp/sums"
	: >"$tmp/owners"
	: >"$tmp/versions"
	if [ -s "$tmp/bins" ]; then
		# Debian's binaries have no space in their paths
		xargs sha256sum <"$tmp/bins" >"$tmp/sums" 2>/dev/null || :
		xargs dpkg-query -S <"$tmp/bins" 2>/dev/null | sed '/^diversion /d' >"$tmp/owners" || :
		sed 's/: .*//; s/, /\n/g' "$tmp/owners" | sed 's/:[a-z0-9]*$//' | LC_ALL=C sort -u |
			xargs -r dpkg-query -W -f "\${Package}\t\${Version}\n" >"$tmp/versions" 2>/dev/null || :
	fi
	jq -n --rawfile sums "$tmp/sums" --rawfile owners "$tmp/owners" --rawfile versions "$tmp/versions" '
		def lines($s): $s | split("\n") | map(select(. != ""));
		(lines($versions) | map(split("\t") | {(.[0]): .[1]}) | add // {}) as $v
		| (lines($owners) | map(capture("^(?<p>[^:,]+)[^ ]*: (?<f>.*)$") | {(.f): .p}) | add // {}) as $o
		| lines($sums) | map(capture("^(?<s>[0-9a-f]{64}) [ *](?<f>.*)$")
			| {(.f): {sha256: .s, package: $o[.f], version: $v[$o[.f] // ""]}}) | add // {}'
}

# report_tree: the kernel tree of the run recorded (scripts/lib/tree.sh):
# the VERSION.PATCHLEVEL of the kernel its report names, else the run's
# tree (tree_name)
report_tree() {
	local v

	v=$(jq -r '.kernel // "" | tostring | sub("^linux-"; "")' "$input" 2>/dev/null) || v=""
	case "$v" in
	[0-9]*.[0-9]*) printf '%s\n' "$v" | cut -d . -f 1-2 ;;
	*) tree_name ;;
	esac
}

# context KIND BUILDDIR TREE: the run's CONTEXT JSON for record.jq; the
# source package and the series are TREE's (none for a tree scripts/trees/
# has no file for)
context() {
	local kind="$1" tp="" pkg=""

	[ ! -f "$TOPDIR/scripts/trees/$3.tree" ] || pkg=$(load_tree "$3" && printf '%s\n' "$k_package")
	[ -z "$pkg" ] || tp=$(dpkg-query -W -f '${Package} ${Version}' "$pkg" 2>/dev/null) || tp=""
	: >"$tmp/cells.tsv"
	[ "$kind" != parity ] || cell_pins "$2" >"$tmp/cells.tsv"
	binary_pins "$tmp/cells.tsv" >"$tmp/pins.json"
	jq -R -s \
		--slurpfile pins "$tmp/pins.json" \
		--arg kind "$kind" \
		--arg recorded "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
		--arg report "$report" \
		--arg sum "$(sha "$report")" \
		--arg tp "$tp" \
		--arg series "$(tree_series_sum "$3")" \
		--arg kparity "$(git -C "$TOPDIR" describe --always --dirty 2>/dev/null || :)" '
		def nul: if . == "" then null else . end;
		$pins[0] as $pins
		| {kind: $kind, recorded: $recorded, report: $report, report_sha256: $sum,
		 tree_package: ($tp | nul), series: ($series | nul), kparity: ($kparity | nul),
		 cells: ([split("\n")[] | select(. != "") | split("\t") | map(nul)
			| ($pins[.[2] // ""] // {}) as $cc | ($pins[.[3] // ""] // {}) as $ld
			| {(.[0]): {config: .[1],
				    cc_binary: .[2], cc_sha256: $cc.sha256, cc_package: $cc.package, cc_package_version: $cc.version,
				    ld_binary: .[3], ld_sha256: $ld.sha256, ld_package: $ld.package, ld_package_version: $ld.version}}]
			| add // {})}' "$tmp/cells.tsv"
}

# toolchain_json CTX: toolchain.json, each cell's pinned compiler and linker
toolchain_json() {
	jq --slurpfile r "$report" '
		def tool($p; $t): {binary: $p["\($t)_binary"], sha256: $p["\($t)_sha256"],
			package: $p["\($t)_package"], version: $p["\($t)_package_version"]};
		. as $c
		| {version: 1, report_sha256: .report_sha256, recorded: .recorded, series: .series, tree: $r[0].kernel,
		   tree_package: .tree_package,
		   cells: ([$r[0].matrix[].cells[] | (.target + "/" + .compiler) as $n
			| ($c.cells[$n] // {}) as $p
			| {($n): {build: .name, compiler_version: .compiler_version, config: $p.config,
				  cc: tool($p; "cc"), ld: tool($p; "ld")}}] | add // {})}' "$1"
}

# survey_json STATUS: one build of series-survey.sh as JSON for record.jq:
# its PHASE.status, the PHASE.diag beside it, and the compiler its
# .config names
survey_json() {
	local dir name phase

	dir=$(dirname "$1")
	name=$(basename "$dir")
	phase=$(basename "$1" .status)
	jq -R -s --rawfile status "$1" --arg name "$name" --arg phase "$phase" \
		--arg version "$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$dir/.config" 2>/dev/null)" '
		($status | split(" ") | map(select(. != "")) | [range(0; length; 2) as $i | {(.[$i]): .[$i + 1]}] | add) as $s
		| {kind: "survey", name: $name, phase: $phase, exit: ($s.exit | tonumber? // null),
		   seconds: ($s.seconds | tonumber? // null),
		   compiler_version: (if $version == "" then null else $version end),
		   diag: [split("\n")[] | select(. != "")]}' "$dir/$phase.diag" 2>/dev/null ||
		jq -n --arg name "$name" --arg phase "$phase" '{kind: "survey", name: $name, phase: $phase, diag: []}'
}

# transaction V CTX: the SQL that migrates $db from schema V and records
# the report; it fails, changing nothing, if the schema is no longer V
transaction() {
	local f n

	printf '.bail on\n.timeout %s\nPRAGMA foreign_keys = ON;\nBEGIN IMMEDIATE;\n' "$timeout"
	printf 'CREATE TEMP TABLE schema_was (v INTEGER CHECK (v = %s));\n' "$1"
	printf 'INSERT INTO schema_was SELECT user_version FROM pragma_user_version;\n'
	for f in "$HDIR"/schema/[0-9][0-9][0-9]-*.sql; do
		n=$(migration_number "$f")
		[ "$n" -gt "$1" ] || continue
		cat "$f"
	done
	printf 'PRAGMA user_version = %s;\n' "$latest"
	jq -r --slurpfile ctx "$2" -f "$HDIR/record.jq" "$input"
	printf 'CREATE TEMP TABLE recorded AS SELECT max(id) AS run FROM run;\nCOMMIT;\n'
	printf 'SELECT run FROM temp.recorded;\n'
}

# write_atomic FILE: stdin to FILE, through a temporary name
write_atomic() {
	cat >"$1.tmp" && mv "$1.tmp" "$1"
}

# classify RUN KIND WINDOW [CELL...]: classify.jq's JSON for RUN
classify() {
	local run="$1" kind="$2" window="$3"

	shift 3
	sqlite3 -bail -json -cmd ".timeout $timeout" \
		-cmd ".param set :kind '$kind'" -cmd ".param set :run $run" \
		-cmd ".param set :window $window" \
		"$db" <"$HDIR/rows.sql" 2>"$tmp/err" >"$tmp/rows.json" || {
		warn "cannot read '$db': $(sqlite_error "$tmp/err")"
		return 2
	}
	jq -s --argjson run "$run" -f "$HDIR/classify.jq" "$tmp/rows.json" |
		jq --args 'if $ARGS.positional | length == 0 then .
			else .cells |= map(select(.cell as $c | $ARGS.positional | index($c) != null)) end' "$@"
}

# since_json CLASSIFIED: since.json, the report's "since last run" column
since_json() {
	jq --arg sum "$(sha "$report")" '{version: 1, report_sha256: $sum, run: .run,
	     cells: ([.cells[] | {(.cell): {previous,
		new: [.items[] | select(.class == "new") | {kind, key, state, was}],
		gone: [.items[] | select(.class == "gone") | {kind, key, was}]}}] | add // {})}' "$1"
}

cmd_record() {
	local opt kind="" build v try=1 run out dry=0 input tree

	OPTIND=1
	while getopts hk:n opt; do
		case "$opt" in
		k) kind="$OPTARG" ;;
		n) dry=1 ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 1 ] || { usage >&2; exit 2; }
	report=$(abspath "$1") || die "cannot read '$1': no such directory"
	out=$(dirname "$report")
	# a since.json left from an earlier run must not speak for this one
	[ "$dry" = 1 ] || rm -f "$out/since.json"
	[ -r "$report" ] || die "cannot read '$report'"
	if [ -z "$kind" ]; then
		kind=$(jq -r 'if .version == 1 and (.matrix | type) == "array" then "parity"
			elif .version == 1 and .kind == "bisect" then "bisect"
			elif .schema == 1 and (.findings | type) == "array" then "diagnose" else "" end' "$report" 2>/dev/null) || kind=""
		case "$kind:$report" in
		:*.status) grep -q '^exit [0-9-]* seconds ' "$report" && kind=survey ;;
		esac
		[ -n "$kind" ] || die "'$report' is not a report history knows (a parity report.json, a diagnose.json)"
	fi
	input="$report"
	if [ "$kind" = survey ]; then
		input="$tmp/survey.json"
		survey_json "$report" >"$input" || die "cannot read '$report'"
	fi
	case "$kind" in
	parity | bisect | diagnose | survey) ;;
	*) die "unknown kind '$kind' (known: parity, bisect, diagnose, survey)" ;;
	esac
	# a parity report is in its tree's place in BUILDDIR (tree_root)
	tree=$(report_tree)
	build=$(dirname "$out")
	[ "$kind" != parity ] || [ "$tree" = "$DEFAULT_TREE" ] || build=$(dirname "$build")

	context "$kind" "$build" "$tree" >"$tmp/ctx.json" || die "cannot read '$report'"
	if [ "$dry" = 0 ] && [ "$kind" = parity ]; then
		toolchain_json "$tmp/ctx.json" | write_atomic "$out/toolchain.json" ||
			warn "cannot write '$out/toolchain.json'"
		# the run in KCIDB's and TuxMake's formats; it says why if it cannot
		"$TOPDIR/scripts/report-export.sh" "$report" || :
	fi

	mkdir -p "$(dirname "$db")" 2>/dev/null || die "cannot create the directory of '$db'"
	while :; do
		v=$(db_version) || exit 2
		check_version "$v" || exit 2
		if [ "$dry" = 1 ]; then
			transaction "$v" "$tmp/ctx.json"
			return 0
		fi
		# SQL cut short has no COMMIT: sqlite3 then rolls back, prints no run
		run=$(transaction "$v" "$tmp/ctx.json" | sqlite3 "$db" 2>"$tmp/err") && [ -n "$run" ] && break
		[ -s "$tmp/err" ] || echo "the recording was cut short" >"$tmp/err"
		# another recorder migrated the schema first: once more from its version
		if [ "$try" = 1 ] && grep -q 'CHECK constraint failed: ' "$tmp/err"; then
			try=2
			continue
		fi
		die "not recorded in '$db': $(sqlite_error "$tmp/err")"
	done
	# the previous run of each cell, however many runs of other cells came between
	if [ "$kind" = parity ] && classify "$run" "$kind" 50 >"$tmp/since.json"; then
		since_json "$tmp/since.json" | write_atomic "$out/since.json" ||
			warn "cannot write '$out/since.json'"
	fi
	step HISTORY "run $run in $db"
}

cmd_show() {
	local json=0 all=0 run="" window=50 kind=parity arg

	while [ $# -gt 0 ]; do
		case "$1" in
		--json) json=1 ;;
		--all) all=1 ;;
		-r) run="${2:-}"; shift ;;
		-n) window="${2:-}"; shift ;;
		-k) kind="${2:-}"; shift ;;
		-h) usage; exit 0 ;;
		-*) usage >&2; exit 2 ;;
		*) break ;;
		esac
		shift
	done
	is_positive "$window" || die "-n needs a positive number, not '$window'"
	[ -z "$run" ] || is_positive "$run" || die "-r needs a run number, not '$run'"
	[ -e "$db" ] || { warn "no runs recorded: no '$db'"; exit 1; }
	v=$(db_version) || exit 2
	check_version "$v" || exit 2
	case "$kind" in
	*[!a-z-]*) die "unknown kind '$kind'" ;;
	esac
	if [ -z "$run" ]; then
		run=$(sqlite3 -bail -cmd ".timeout $timeout" "$db" \
			"SELECT max(id) FROM run WHERE kind = '$kind';" 2>"$tmp/err") ||
			die "cannot read '$db': $(sqlite_error "$tmp/err")"
		[ -n "$run" ] || { warn "no $kind run recorded in '$db'"; exit 1; }
	fi
	classify "$run" "$kind" "$window" "$@" >"$tmp/show.json" || exit 2
	for arg in "$@"; do
		jq -e --arg c "$arg" 'any(.cells[]; .cell == $c)' "$tmp/show.json" >/dev/null ||
			die "no cell '$arg' in run $run"
	done
	jq -e '.cells | length > 0' "$tmp/show.json" >/dev/null ||
		{ warn "no cell recorded in run $run"; exit 1; }
	if [ "$json" = 1 ]; then
		jq . "$tmp/show.json"
	else
		jq -r --argjson all "$all" -f "$HDIR/text.jq" "$tmp/show.json"
	fi
}

cmd_runs() {
	local mode=list

	[ "${1:-}" != --json ] || mode=json
	[ -e "$db" ] || { warn "no runs recorded: no '$db'"; exit 1; }
	v=$(db_version) || exit 2
	check_version "$v" || exit 2
	sqlite3 -bail -"$mode" -cmd ".timeout $timeout" "$db" \
		"SELECT r.id AS run, r.kind, r.recorded, r.tree, r.verdict, count(c.id) AS cells,
			group_concat(c.name || ' ' || coalesce(c.compiler_version, '-'), '; ') AS compilers
		 FROM run r LEFT JOIN cell c ON c.run = r.id GROUP BY r.id ORDER BY r.id;" 2>"$tmp/err" ||
		die "cannot read '$db': $(sqlite_error "$tmp/err")"
}

cleanup() {
	rm -rf "$tmp"
}

main() {
	local verb

	db=$(history_db)
	if [ "${1:-}" = -d ]; then
		[ $# -ge 2 ] || { usage >&2; exit 2; }
		db="$2"
		shift 2
	fi
	[ $# -ge 1 ] || { usage >&2; exit 2; }
	verb="$1"
	shift
	case "$verb" in
	-h | --help) usage; exit 0 ;;
	record | show | runs) ;;
	*) usage >&2; exit 2 ;;
	esac
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" sqlite3 jq || exit 2
	timeout="${KPARITY_HISTORY_TIMEOUT:-60000}"
	case "$timeout" in
	'' | *[!0-9]*) die "KPARITY_HISTORY_TIMEOUT needs milliseconds, not '$timeout'" ;;
	esac
	case "$db" in
	/*) ;;
	*) db="$PWD/$db" ;;
	esac
	latest=$(schema_latest)
	tmp=$(mktemp -d)
	# a file over the size limit fails its write instead of killing us
	trap '' XFSZ
	trap cleanup EXIT
	trap 'exit 130' INT TERM
	"cmd_$verb" "$@"
}

main "$@"
