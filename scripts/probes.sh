#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# probes.sh - run the known-compiler-bug probes with every installed
# compiler and cross target, and say which results changed.
#
# A probe is one C or assembly file in tests/probes/ whose header records,
# per compiler family and version range, what the compiler did when the
# probe was written (Documentation/probes.md has the tag grammar).  Each
# compile runs under timeout(1); run probes are executed natively or under
# QEMU user mode.  The matrix goes to BUILDDIR/probes/matrix.txt and
# matrix.json and to stdout; progress and malformed probe files go to
# stderr.
#
# Exit: 0 every result is as recorded, 1 a result CHANGED (or nothing is
# recorded for it) or a probe file is malformed, 2 trouble (usage, no
# working compiler, a missing tool).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=probes.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
START_SRC="$TOPDIR/tests/probes/lib/start.c"
TAB=$(printf '\t')

# The user-mode targets, in matrix order, and their data.
USER_TARGETS="$TOPDIR/scripts/targets/user-mode.list"
TARGETS=$(awk '!/^[ \t]*(#|$)/ { printf "%s%s", sep, $1; sep = " " }' "$USER_TARGETS")

# target_data TARGET: set t_triple, t_machine and t_qemu from its line in
# $USER_TARGETS; fail for an unknown TARGET.
target_data() {
	read -r t_triple t_machine t_qemu <<EOF
$(awk -v t="$1" '!/^[ \t]*#/ && $1 == t { print $2, $3, $4; exit }' "$USER_TARGETS")
EOF
	[ -n "$t_qemu" ]
}

# What every probe command gets: kernel-like code generation, no C
# library, static links (so QEMU needs no target sysroot).
PROBE_CFLAGS="-O2 -ffreestanding -fno-pie -fno-stack-protector"
PROBE_LDFLAGS="-static -nostdlib"

usage() {
	cat <<USAGE
usage: $PROG [-o BUILDDIR] [-d DIR] [-t SECONDS] [-j N] [-c COMPILER]...
                 [-T TARGET]... [--json] [PROBE...]
Run every probe in DIR (or the named ones) with every installed compiler
and print the matrix of outcomes; CHANGED marks a result that differs
from the probe's record.
  -o BUILDDIR  where probes/matrix.txt, matrix.json and work files go
               (default: build)
  -d DIR       the probe directory (default: tests/probes)
  -t SECONDS   time limit of each compile and each run (default: 60)
  -j N         compilers probed at once (default: the number of CPUs)
  -c COMPILER  only this compiler: a family (gcc, clang) or a column
               name (gcc-12, clang-19); may be repeated
  -T TARGET    only this target (x86_64, arm, aarch64); may be repeated
  --json       print matrix.json instead of the text matrix
Environment: KABI (default BUILDDIR/kabi) measures layout probes; V=1
shows every command and its diagnostics.
USAGE
}

note() {
	printf '%s: %s\n' "$PROG" "$*" >&2
}

# shquote STRING: STRING as one single-quoted shell word
shquote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# in_list WORD LIST: is WORD one of the words of LIST
in_list() {
	case " $2 " in
	*" $1 "*) return 0 ;;
	*) return 1 ;;
	esac
}

# ---- probe files ------------------------------------------------------

# The tag grammar of Documentation/probes.md.  Input: a probe file.
# Output: tab-separated records (name, source, command, targets, measure,
# expect LINE FAMILY RANGES TARGETS KIND SPEC ARG), or only "error LINE
# MESSAGE" records when anything is wrong.
PARSE_AWK=$(cat <<'AWK'
function err(line, msg) { errs[++nerr] = line "\t" msg }
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function once(key, line) {
	if (key in seen)
		err(line, "second 'check-" key "' (first at line " seen[key] ")")
	seen[key] = line
}
function outcome(spec, line, n,   kind, arg, rest) {
	kind = spec; sub(/[ \t].*/, "", kind)
	rest = trim(substr(spec, length(kind) + 1))
	if (kind !~ /^(accept|warn|reject|wrong-code|crash|layout|timeout)$/) {
		err(line, "unknown outcome '" kind "' (known: accept warn reject wrong-code crash layout timeout)")
		return
	}
	arg = rest
	if (kind == "warn" || kind == "reject") {
		if (rest != "" && (rest !~ /^\// || rest !~ /.\/$/ || length(rest) < 3)) {
			err(line, "a pattern is written /ERE/, not '" rest "'")
			return
		}
		if (rest != "")
			arg = substr(rest, 2, length(rest) - 2)
	} else if (kind == "wrong-code" || kind == "crash") {
		if (rest != "" && rest !~ /^[0-9]+$/) {
			err(line, "'" kind "' takes an exit status or signal number, not '" rest "'")
			return
		}
	} else if (kind == "layout") {
		if (rest == "" || rest ~ /[ \t]/) {
			err(line, "'layout' takes one value, e.g. 'layout 4'")
			return
		}
	} else if (rest != "") {
		err(line, "'" kind "' takes no argument")
		return
	}
	ekind[n] = kind; earg[n] = arg
}
function expect(val, line,   sel, spec, w, nw, i, n, fam, cons, tgts) {
	nexpect_tags++
	if (index(val, ":") == 0) {
		err(line, "expected 'check-expect: SELECTOR: OUTCOME'")
		return
	}
	sel = trim(substr(val, 1, index(val, ":") - 1))
	spec = trim(substr(val, index(val, ":") + 1))
	nw = split(sel, w, /[ \t]+/)
	if (nw == 0 || w[1] !~ /^(gcc|clang|\*)$/) {
		err(line, "a selector starts with a compiler family (gcc, clang or *), not '" w[1] "'")
		return
	}
	fam = w[1]; cons = ""; tgts = ""
	for (i = 2; i <= nw; i++) {
		if (w[i] ~ /^(<|<=|>|>=|=)[0-9]+(\.[0-9]+)*$/)
			cons = cons (cons == "" ? "" : " ") w[i]
		else if (index(" " all_targets " ", " " w[i] " "))
			tgts = tgts (tgts == "" ? "" : " ") w[i]
		else {
			err(line, "'" w[i] "' in a selector is neither a version range (<17, >=14.0.6) nor a target (" all_targets ")")
			return
		}
	}
	if (spec == "") {
		err(line, "no outcome after the selector")
		return
	}
	n = ++nexpect
	eline[n] = line; efam[n] = fam; econs[n] = cons; etgt[n] = tgts; espec[n] = spec
	outcome(spec, line, n)
}
function tag(text, line,   key, val) {
	if (text !~ /^check-[a-z-]+:/) {
		err(line, "expected 'check-KEY: VALUE'")
		# no second complaint that this tag is missing
		key = text; sub(/^check-/, "", key); sub(/[^a-z-].*/, "", key)
		value[key] = ""
		return
	}
	key = substr(text, 7, index(text, ":") - 7)
	val = trim(substr(text, index(text, ":") + 1))
	if (val == "") {
		err(line, "'check-" key "' has no value")
		return
	}
	if (key == "name" || key == "command" || key == "targets" || key == "measure")
		once(key, line)
	if (key == "name" || key == "command") {
		value[key] = val
	} else if (key == "source") {
		source[++nsource] = val
	} else if (key == "targets") {
		targets(val, line)
	} else if (key == "measure") {
		measure(val, line)
	} else if (key == "expect") {
		expect(val, line)
	} else {
		err(line, "unknown tag 'check-" key "' (known: name source command targets measure expect)")
	}
}
function targets(val, line,   w, n, i) {
	n = split(val, w, /[ \t]+/)
	for (i = 1; i <= n; i++)
		if (!index(" " all_targets " ", " " w[i] " ")) {
			err(line, "unknown target '" w[i] "' (known: " all_targets ")")
			return
		}
	value["targets"] = val
}
function measure(val, line,   w, n) {
	n = split(val, w, /[ \t]+/)
	if (val == "run" || val == "diagnostics")
		mkind = val
	else if (w[1] == "layout" && n == 4 && w[2] ~ /^(struct|union|enum|typedef)$/ &&
		 w[4] ~ /^(size|align|underlying|resolved)$/)
		mkind = "layout"
	else {
		err(line, "'check-measure' is diagnostics, run, or layout KIND NAME FIELD (KIND struct, union, enum or typedef; FIELD size, align, underlying or resolved)")
		return
	}
	value["measure"] = val
}
BEGIN { state = 0; mkind = "diagnostics" }
state == 0 && /^[ \t]*\/\*/ && !/\*\// {
	state = 1
	start = NR
	if ($0 ~ /check-[a-z-]+:/)
		err(NR, "tag on the line that opens the header")
	next
}
state == 1 && /\*\// {
	state = 2
	if (pending != "") {
		err(pline, "'check-" pkey "' continues past the end of the header")
		value[pkey] = ""
	}
	if ($0 ~ /check-[a-z-]+:/)
		err(NR, "tag on the line that closes the header")
	next
}
state == 1 {
	text = $0
	sub(/^[ \t]*\*?[ \t]?/, "", text)
	text = trim(text)
	if (pending != "") {
		text = pending " " text
		line = pline
		pending = ""
	} else {
		line = NR
		if (text !~ /^check-/)
			next
	}
	if (text ~ /\\$/) {
		pending = trim(substr(text, 1, length(text) - 1))
		pline = line
		pkey = text; sub(/:.*/, "", pkey); sub(/^check-/, "", pkey)
		next
	}
	tag(text, line)
	next
}
/check-[a-z-]+:/ {
	err(NR, state == 0 ? "tag before the header comment" : "tag after the header comment")
}
END {
	if (state == 0) {
		print "error\t1\tno header: a /* ... */ comment with check- tags"
		exit
	}
	if (state == 1)
		err(start, "header comment not closed")
	split("name command", req, " ")
	for (i = 1; i <= 2; i++)
		if (!(req[i] in value))
			err(start, "no 'check-" req[i] "' tag")
	if (!nsource)
		err(start, "no 'check-source' tag: say where the knowledge comes from")
	if (!nexpect_tags)
		err(start, "no 'check-expect' tag")
	allowed["diagnostics"] = "accept warn reject timeout"
	allowed["run"] = "accept reject wrong-code crash timeout"
	allowed["layout"] = "layout reject timeout"
	for (i = 1; i <= nexpect; i++)
		if ((i in ekind) && !index(" " allowed[mkind] " ", " " ekind[i] " "))
			err(eline[i], "outcome '" ekind[i] "' cannot come from 'check-measure: " mkind "' (it gives " allowed[mkind] ")")
	if (nerr) {
		for (i = 1; i <= nerr; i++)
			print "error\t" errs[i]
		exit
	}
	print "name\t" value["name"]
	for (i = 1; i <= nsource; i++)
		print "source\t" source[i]
	print "command\t" value["command"]
	print "targets\t" (("targets" in value) ? value["targets"] : all_targets)
	print "measure\t" (("measure" in value) ? value["measure"] : "diagnostics")
	for (i = 1; i <= nexpect; i++)
		printf "expect\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", eline[i], efam[i], econs[i], etgt[i], ekind[i], espec[i], earg[i]
}
AWK
)

# parse_probe FILE: the records of PARSE_AWK for FILE
parse_probe() {
	awk -v all_targets="$TARGETS" "$PARSE_AWK" "$1"
}

# tag_value TAGFILE KEY: the value of a single tag
tag_value() {
	awk -F "$TAB" -v k="$2" '$1 == k { print $2; exit }' "$1"
}

# check_patterns TAGFILE: print an error record for every pattern that
# grep -E cannot compile (awk and grep do not agree on every ERE)
check_patterns() {
	awk -F "$TAB" '$1 == "expect" && ($6 == "warn" || $6 == "reject") && $8 != "" { print $2 "\t" $8 }' "$1" |
	while IFS="$TAB" read -r line re; do
		rc=0
		grep -E -e "$re" </dev/null >/dev/null 2>&1 || rc=$?
		[ "$rc" -ne 2 ] || printf 'error\t%s\tgrep -E cannot compile the pattern /%s/\n' "$line" "$re"
	done
}

# load_probes: parse every selected probe file into WORK/probes/NAME.tags;
# malformed ones are reported and listed in WORK/malformed.tsv
load_probes() {
	local f name display

	mkdir -p "$work/probes"
	: >"$work/malformed.tsv"
	: >"$work/probes.list"
	printf '%s\n' "$probedir"/*.c "$probedir"/*.S | sort | while IFS= read -r f; do
		[ -f "$f" ] || continue
		name=${f##*/}
		name=${name%.*}
		if [ -n "$only_probes" ] && ! in_list "$name" "$only_probes"; then
			continue
		fi
		display="$probedisp/${f##*/}"
		if [ -f "$work/probes/$name.tags" ]; then
			printf '%s\t1\tanother probe is named %s\n' "$display" "$name" >>"$work/malformed.tsv"
			continue
		fi
		parse_probe "$f" >"$work/probes/$name.tags"
		check_patterns "$work/probes/$name.tags" >"$work/probes/$name.re"
		cat "$work/probes/$name.re" >>"$work/probes/$name.tags"
		if grep -q "^error$TAB" "$work/probes/$name.tags"; then
			awk -F "$TAB" -v f="$display" '$1 == "error" { print f "\t" $2 "\t" $3 }' \
				"$work/probes/$name.tags" | sort -t "$TAB" -k2,2n >>"$work/malformed.tsv"
			continue
		fi
		printf '%s\t%s\n' "$name" "$display" >>"$work/probes.list"
	done
	while IFS="$TAB" read -r f line msg; do
		note "$f:$line: $msg"
	done <"$work/malformed.tsv"
	if [ -n "$only_probes" ]; then
		for name in $only_probes; do
			[ -f "$work/probes/$name.tags" ] || die "no probe '$name' in '$probedisp'"
		done
	fi
}

# ---- compilers -------------------------------------------------------

# versioned PREFIX: the PREFIX-N commands in PATH, e.g. clang-14 clang-19
versioned() {
	local d f old_ifs="$IFS"

	IFS=:
	for d in $PATH; do
		IFS=$old_ifs
		[ -d "$d" ] || continue
		for f in "$d/$1"-[0-9]*; do
			[ -x "$f" ] && printf '%s\n' "${f##*/}"
		done
	done | grep -x -e "$1-[0-9][0-9]*" | sort -u -t - -k "$(($(echo "$1" | tr -cd - | wc -c) + 2))" -n
	IFS=$old_ifs
}

# candidates TARGET: one compiler command per line, versioned names first
# so the record names the exact compiler
candidates() {
	target_data "$1"
	if [ "$native" = "$1" ]; then
		versioned gcc
		echo gcc
		versioned clang
		echo clang
	else
		versioned "$t_triple-gcc"
		echo "$t_triple-gcc"
		versioned clang | sed "s/\$/ --target=$t_triple/"
		echo "clang --target=$t_triple"
	fi
}

# identify CMD: print "FAMILY VERSION" from the compiler's predefined macros
identify() {
	# shellcheck disable=SC2086 # CMD is a command and its arguments
	timeout -k 5 "$tmo" $1 -dM -E -x c /dev/null 2>/dev/null </dev/null | awk '
	$1 == "#define" { m[$2] = $3 }
	END {
		if ("__clang__" in m)
			print "clang", m["__clang_major__"] "." m["__clang_minor__"] "." m["__clang_patchlevel__"]
		else if ("__GNUC__" in m)
			print "gcc", m["__GNUC__"] "." m["__GNUC_MINOR__"] "." m["__GNUC_PATCHLEVEL__"]
	}'
}

# run_binary TARGET FILE: run FILE natively or under QEMU, under timeout
run_binary() {
	target_data "$1"
	if [ "$native" = "$1" ]; then
		timeout -k 5 "$tmo" "$2"
	elif [ -d "/usr/$t_triple" ]; then
		timeout -k 5 "$tmo" "$t_qemu" -L "/usr/$t_triple" "$2"
	else
		timeout -k 5 "$tmo" "$t_qemu" "$2"
	fi
}

# smoke_test CMD TARGET DIR SHOWN: build start.o in DIR and prove that
# the compiler links and runs a trivial program there; SHOWN is DIR as
# messages name it
smoke_test() {
	local cc="$1" target="$2" dir="$3" shown="$4"

	target_data "$target"
	if [ "$native" != "$target" ] && ! command -v "$t_qemu" >/dev/null 2>&1; then
		echo "no $t_qemu to run its binaries"
		return 1
	fi
	printf 'int main(void)\n{\n\treturn 0;\n}\n' >"$dir/smoke.c"
	# shellcheck disable=SC2086 # CMD and the flags are word lists
	if ! { timeout -k 5 "$tmo" $cc $PROBE_CFLAGS -c "$START_SRC" -o "$dir/start.o" &&
		timeout -k 5 "$tmo" $cc $PROBE_CFLAGS -c "$dir/smoke.c" -o "$dir/smoke.o" &&
		timeout -k 5 "$tmo" $cc $PROBE_LDFLAGS "$dir/smoke.o" "$dir/start.o" -o "$dir/smoke"; } \
		</dev/null >"$dir/smoke.log" 2>&1; then
		echo "cannot build a freestanding program (see $shown/smoke.log)"
		return 1
	fi
	if ! run_binary "$target" "$dir/smoke" </dev/null >>"$dir/smoke.log" 2>&1; then
		echo "cannot run what it builds (see $shown/smoke.log)"
		return 1
	fi
}

# selected NAME FAMILY TARGET: did -c and -T ask for this compiler
selected() {
	local c

	if [ -n "$only_targets" ] && ! in_list "$3" "$only_targets"; then
		return 1
	fi
	[ -n "$only_compilers" ] || return 0
	for c in $only_compilers; do
		[ "$c" = "$1" ] || [ "$c" = "$2" ] && return 0
	done
	return 1
}

# find_compilers: WORK/compilers.tsv gets one line per working compiler
# and target (id, name, target, family, version, command); the ones that
# do not work are noted and listed in WORK/skipped.tsv
find_compilers() {
	local target cmd fam ver name id why

	: >"$work/compilers.tsv"
	: >"$work/skipped.tsv"
	: >"$work/tried.list"
	for target in $TARGETS; do
		candidates "$target" | while IFS= read -r cmd; do
			command -v "${cmd%% *}" >/dev/null 2>&1 || continue
			read -r fam ver <<EOF
$(identify "$cmd")
EOF
			[ -n "$fam" ] || continue
			name="$fam-${ver%%.*}"
			id="$target-$name"
			selected "$name" "$fam" "$target" || continue
			# one compiler per name and target: the first that answers
			grep -q -x -e "$id" "$work/tried.list" && continue
			echo "$id" >>"$work/tried.list"
			mkdir -p "$work/$id"
			if why=$(smoke_test "$cmd" "$target" "$work/$id" "$report/work/$id"); then
				printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$name" "$target" "$fam" "$ver" "$cmd" >>"$work/compilers.tsv"
			else
				note "skipping '$cmd' for $target: $why"
				printf '%s\t%s\t%s\t%s\n' "$name" "$target" "$cmd" "$why" >>"$work/skipped.tsv"
			fi
		done
	done
	[ -s "$work/compilers.tsv" ] || die "no working compiler found${only_compilers:+ among:$only_compilers}"
}

# ---- one probe, one compiler ------------------------------------------

# measure TAGS OUT TARGET: run the probe's command (in the probe directory,
# with the variables of Documentation/probes.md) and set m_kind and m_arg
# from what happened.  The command's stderr is OUT.stderr.
measure() {
	local tags="$1" out="$2" target="$3" rc=0 cmd what

	cmd=$(tag_value "$tags" command)
	what=$(tag_value "$tags" measure)
	m_arg=
	(
		cd "$probedir"
		CC=$cc CFLAGS=$PROBE_CFLAGS LDFLAGS=$PROBE_LDFLAGS SRC=$src OUT=$out \
		START=$cdir/start.o TARGET=$target TMPDIR=$work/tmp LC_ALL=C \
			timeout -k 5 "$tmo" sh -c "$cmd"
	) </dev/null >"$out.stdout" 2>"$out.stderr" || rc=$?
	if [ "${V:-}" = 1 ]; then
		printf '  (cd %s && CC=%s CFLAGS=%s LDFLAGS=%s SRC=%s OUT=%s START=%s TARGET=%s sh -c %s)\n' \
			"$(shquote "$probedir")" "$(shquote "$cc")" "$(shquote "$PROBE_CFLAGS")" \
			"$(shquote "$PROBE_LDFLAGS")" "$(shquote "$src")" "$(shquote "$out")" \
			"$(shquote "$cdir/start.o")" "$target" "$(shquote "$cmd")" >&2
		cat "$out.stderr" >&2
	fi
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		m_kind=timeout
		return
	fi
	if [ "$rc" -ne 0 ]; then
		m_kind=reject
		return
	fi
	case "$what" in
	run)
		rc=0
		run_binary "$target" "$out" </dev/null >"$out.run.stdout" 2>"$out.run.stderr" || rc=$?
		if [ "$rc" -eq 0 ]; then
			m_kind=accept
		elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
			m_kind=timeout
		elif [ "$rc" -gt 128 ]; then
			m_kind=crash m_arg=$((rc - 128))
		else
			m_kind=wrong-code m_arg=$rc
		fi
		;;
	layout*)
		# shellcheck disable=SC2086 # "layout KIND NAME FIELD", one word each
		set -- $what
		m_kind=layout
		m_arg=$("$kabi" dump --json --kind "$2" --type "$3" "$out" 2>>"$out.stderr" |
			jq -r --arg f "$4" '.types[0][$f] // "missing"') || m_arg=error
		;;
	*)
		if [ -s "$out.stderr" ]; then
			m_kind=warn
		else
			m_kind=accept
		fi
		;;
	esac
}

# recorded TAGS FAMILY VERSION TARGET: "LINE<TAB>KIND<TAB>SPEC<TAB>ARG"
# of the first check-expect whose selector holds, or "0<TAB>none"
recorded() {
	awk -F "$TAB" -v fam="$2" -v ver="$3" -v tgt="$4" '
	function vcmp(have, want,   h, w, n, i) {
		n = split(want, w, ".")
		split(have, h, ".")
		for (i = 1; i <= n; i++)
			if (h[i] + 0 != w[i] + 0)
				return h[i] + 0 < w[i] + 0 ? -1 : 1
		return 0
	}
	function holds(c,   op, r) {
		match(c, /^[<>=]+/)
		op = substr(c, 1, RLENGTH)
		r = vcmp(ver, substr(c, RLENGTH + 1))
		return op == "<" ? r < 0 : op == "<=" ? r <= 0 : op == ">" ? r > 0 : op == ">=" ? r >= 0 : r == 0
	}
	function selects(   c, n, i) {
		if ($3 != "*" && $3 != fam)
			return 0
		if ($5 != "" && !index(" " $5 " ", " " tgt " "))
			return 0
		n = split($4, c, " ")
		for (i = 1; i <= n; i++)
			if (!holds(c[i]))
				return 0
		return 1
	}
	$1 == "expect" && selects() { print $2 "\t" $6 "\t" $7 "\t" $8; found = 1; exit }
	END { if (!found) print "0\tnone\t\t" }' "$1"
}

# run_cell NAME DISPLAY: one probe with the current compiler; appends a
# result line to the compiler's results.tsv
run_cell() {
	local name="$1" display="$2" tags out e_line e_kind e_spec e_arg mark shown diag

	tags="$work/probes/$name.tags"
	in_list "$ctarget" "$(tag_value "$tags" targets)" || return 0
	out="$cdir/$name"
	src=${display##*/}
	measure "$tags" "$out" "$ctarget"
	IFS="$TAB" read -r e_line e_kind e_spec e_arg <<EOF
$(recorded "$tags" "$cfam" "$cver" "$ctarget")
EOF
	mark=CHANGED
	if [ "$e_kind" = "$m_kind" ]; then
		case "$m_kind" in
		warn | reject)
			if [ -z "$e_arg" ] || grep -E -q -e "$e_arg" "$out.stderr"; then
				mark=expected
			fi
			;;
		*)
			if [ -z "$e_arg" ] || [ "$e_arg" = "$m_arg" ]; then
				mark=expected
			fi
			;;
		esac
	fi
	shown=$m_kind${m_arg:+ $m_arg}
	[ "$e_kind" != none ] || e_spec=
	diag=$(grep -E 'error|warning|undefined|multiple definition' "$out.stderr" | head -n 1 | tr '\t' ' ')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$ctarget" "$cname" "$shown" \
		"$mark" "$e_spec" "$e_line" "$display" "$cver" "$diag" >>"$cdir/results.tsv"
}

# run_compiler ID NAME TARGET FAMILY VERSION CMD: every applicable probe
run_compiler() {
	local name display

	cid=$1 cname=$2 ctarget=$3 cfam=$4 cver=$5 cc=$6
	cdir="$work/$cid"
	: >"$cdir/results.tsv"
	step PROBES "$ctarget $cname"
	while IFS="$TAB" read -r name display; do
		run_cell "$name" "$display"
	done <"$work/probes.list"
}

# run_stripe K: the compilers whose line number is K modulo the job count
run_stripe() {
	local n=0 id name target fam ver cmd

	while IFS="$TAB" read -r id name target fam ver cmd; do
		n=$((n + 1))
		[ $((n % jobs)) -eq "$1" ] || continue
		run_compiler "$id" "$name" "$target" "$fam" "$ver" "$cmd"
	done <"$work/compilers.tsv"
}

run_all() {
	local k=0 pids="" pid rc=0

	mkdir -p "$work/tmp"
	while [ "$k" -lt "$jobs" ]; do
		run_stripe "$k" &
		pids="$pids $!"
		k=$((k + 1))
	done
	for pid in $pids; do
		wait "$pid" || rc=1
	done
	[ "$rc" -eq 0 ] || die "a probe run failed (see the messages above)"
	sort -t "$TAB" -k1,1 -k2,2 -k3,3 "$work"/*/results.tsv >"$work/results.tsv"
}

# ---- reports ----------------------------------------------------------

# text_matrix: the grid (a row per probe and target, a column per
# compiler), then the CHANGED and malformed details and the summary
text_matrix() {
	awk -F "$TAB" -v targets="$TARGETS" -v nprobes="$(wc -l <"$work/probes.list")" '
	FILENAME ~ /compilers.tsv$/ {
		if (!($2 in col)) {
			col[$2] = ++ncol
			cname[ncol] = $2
			cfam[ncol] = $4
			split($5, v, ".")
			cmaj[ncol] = v[1] + 0
		}
		ncomp++
		next
	}
	FILENAME ~ /malformed.tsv$/ {
		mal[++nmal] = "malformed " $1 ":" $2 ": " $3
		malfile[$1] = 1
		next
	}
	{
		row = $1 SUBSEP tidx[$2]
		if (!(row in seenrow)) {
			seenrow[row] = 1
			rows[++nrow] = row
			rprobe[nrow] = $1
			rtarget[nrow] = $2
		}
		c = $4 ($5 == "CHANGED" ? " CHANGED" : "")
		cell[row, $3] = c
		nres++
		if ($5 == "CHANGED") {
			nchanged++
			if ($6 != "")
				why = "recorded " $6 " (" $8 ":" $7 ")"
			else
				why = "nothing recorded for " $3 " (" $9 ", " $8 ")"
			chg[row, $3] = "CHANGED " $1 " " $2 " " $3 ": " $4 ", " why
			if ($10 != "")
				chg[row, $3] = chg[row, $3] "\n\t" $10
		}
	}
	BEGIN {
		nt = split(targets, t, " ")
		for (i = 1; i <= nt; i++)
			tidx[t[i]] = i
	}
	END {
		# columns: gcc before clang, then by major version
		for (i = 1; i <= ncol; i++)
			order[i] = i
		for (i = 2; i <= ncol; i++)
			for (j = i; j > 1 && before(order[j], order[j - 1]); j--) {
				k = order[j]; order[j] = order[j - 1]; order[j - 1] = k
			}
		wp = length("probe"); wt = length("target")
		for (r = 1; r <= nrow; r++) {
			if (length(rprobe[r]) > wp) wp = length(rprobe[r])
			if (length(rtarget[r]) > wt) wt = length(rtarget[r])
		}
		for (i = 1; i <= ncol; i++) {
			w[i] = length(cname[i])
			for (r = 1; r <= nrow; r++)
				if (length(cell[rows[r], cname[i]]) > w[i])
					w[i] = length(cell[rows[r], cname[i]])
		}
		line = sprintf("%-" wp "s  %-" wt "s", "probe", "target")
		for (i = 1; i <= ncol; i++)
			line = line sprintf("  %-" w[order[i]] "s", cname[order[i]])
		print rtrim(line)
		for (i = 2; i <= nrow; i++)
			for (j = i; j > 1 && rowbefore(j, j - 1); j--) {
				k = rows[j]; rows[j] = rows[j - 1]; rows[j - 1] = k
				k = rprobe[j]; rprobe[j] = rprobe[j - 1]; rprobe[j - 1] = k
				k = rtarget[j]; rtarget[j] = rtarget[j - 1]; rtarget[j - 1] = k
			}
		for (r = 1; r <= nrow; r++) {
			line = sprintf("%-" wp "s  %-" wt "s", rprobe[r], rtarget[r])
			for (i = 1; i <= ncol; i++) {
				c = cell[rows[r], cname[order[i]]]
				line = line sprintf("  %-" w[order[i]] "s", c == "" ? "-" : c)
			}
			print rtrim(line)
		}
		for (r = 1; r <= nrow; r++)
			for (i = 1; i <= ncol; i++)
				if ((rows[r], cname[order[i]]) in chg)
					print chg[rows[r], cname[order[i]]]
		for (i = 1; i <= nmal; i++)
			print mal[i]
		nm = 0
		for (f in malfile)
			nm++
		printf "probes: %d result%s from %d probe%s and %d compiler%s: %d expected, %d CHANGED, %d malformed\n",
			nres, nres == 1 ? "" : "s", nprobes, nprobes == 1 ? "" : "s", ncomp, ncomp == 1 ? "" : "s",
			nres - nchanged, nchanged, nm
	}
	function before(a, b) {
		if (cfam[a] != cfam[b])
			return cfam[a] == "gcc"
		return cmaj[a] < cmaj[b]
	}
	function rowbefore(a, b) {
		if (rprobe[a] != rprobe[b])
			return rprobe[a] < rprobe[b]
		return tidx[rtarget[a]] < tidx[rtarget[b]]
	}
	function rtrim(s) { sub(/ +$/, "", s); return s }
	' "$work/compilers.tsv" "$work/malformed.tsv" "$work/results.tsv"
}

# json_matrix: the same, as one JSON object for reports
json_matrix() {
	local p name display

	while IFS="$TAB" read -r name display; do
		p="$work/probes/$name.tags"
		awk -F "$TAB" -v n="$name" -v f="$display" '
		$1 == "name" { title = $2 }
		$1 == "targets" { targets = $2 }
		$1 == "source" { src = src (src == "" ? "" : "\037") $2 }
		END { print n "\t" f "\t" title "\t" targets "\t" src }' "$p"
	done <"$work/probes.list" >"$work/probes.tsv"
	jq -n \
		--rawfile compilers "$work/compilers.tsv" \
		--rawfile skipped "$work/skipped.tsv" \
		--rawfile probes "$work/probes.tsv" \
		--rawfile results "$work/results.tsv" \
		--rawfile malformed "$work/malformed.tsv" '
	def rows($s): $s | split("\n") | map(select(length > 0) | split("\t"));
	(rows($results) | map({probe: .[0], target: .[1], compiler: .[2],
		outcome: .[3], mark: .[4],
		recorded: (if .[5] == "" then null else .[5] end),
		recorded_at: (if .[6] == "0" then null else "\(.[7]):\(.[6])" end),
		version: .[8], diagnostic: (.[9] // "")})) as $r
	| (rows($malformed) | map({file: .[0], line: (.[1] | tonumber), message: .[2]})) as $m
	| {version: 1,
	   compilers: (rows($compilers) | map({name: .[1], target: .[2], family: .[3],
		version: .[4], command: .[5]})),
	   skipped: (rows($skipped) | map({name: .[0], target: .[1], command: .[2], reason: .[3]})),
	   probes: (rows($probes) | map({name: .[0], file: .[1], title: .[2],
		targets: (.[3] | split(" ")), sources: (.[4] // "" | split("\u001f"))})),
	   results: $r,
	   malformed: $m,
	   summary: {probes: (rows($probes) | length),
		compilers: (rows($compilers) | length),
		results: ($r | length),
		expected: ($r | map(select(.mark == "expected")) | length),
		changed: ($r | map(select(.mark == "CHANGED")) | length),
		malformed: ($m | map(.file) | unique | length)}}'
}

main() {
	local build=build json=0 rc

	# one collation and plain ASCII diagnostics for every tool we run
	LC_ALL=C
	export LC_ALL

	probedir="$TOPDIR/tests/probes"
	probedisp=tests/probes
	tmo=60
	jobs=$(nproc 2>/dev/null || echo 1)
	only_compilers=
	only_targets=
	while [ "$#" -gt 0 ]; do
		case "$1" in
		-o | -d | -t | -j | -c | -T)
			[ "$#" -ge 2 ] || { usage >&2; exit 2; }
			case "$1" in
			-o) build=$2 ;;
			-d) probedir=$2 probedisp=$2 ;;
			-t) tmo=$2 ;;
			-j) jobs=$2 ;;
			-c) only_compilers="$only_compilers $2" ;;
			-T) only_targets="$only_targets $2" ;;
			esac
			shift 2
			;;
		--json) json=1; shift ;;
		-h | --help) usage; exit 0 ;;
		--) shift; break ;;
		-*) usage >&2; exit 2 ;;
		*) break ;;
		esac
	done
	only_probes="$*"
	case "$tmo" in '' | *[!0-9]* | 0) die "the time limit must be a positive number of seconds, not '$tmo'" ;; esac
	case "$jobs" in '' | *[!0-9]* | 0) die "the job count must be a positive number, not '$jobs'" ;; esac
	for t in $only_targets; do
		in_list "$t" "$TARGETS" || die "unknown target '$t' (known: $TARGETS)"
	done
	[ -d "$probedir" ] || die "no probe directory '$probedisp'"
	probedir=$(cd "$probedir" && pwd)
	command -v jq >/dev/null 2>&1 || die "no 'jq': run 'scripts/deps.sh check'"
	command -v timeout >/dev/null 2>&1 || die "no 'timeout' (coreutils)"

	native=
	for t in $TARGETS; do
		target_data "$t"
		# shellcheck disable=SC2254 # t_machine is a pattern
		case "$(uname -m)" in $t_machine) native=$t ;; esac
	done

	# a crashing probe is an outcome, not a core file
	# shellcheck disable=SC3045 # dash and bash have -c; elsewhere this is skipped
	ulimit -c 0 2>/dev/null || :

	report="$build/probes"
	work="$report/work"
	rm -rf "$work"
	mkdir -p "$work"
	case "$work" in /*) ;; *) work="$(pwd)/$work" ;; esac

	load_probes
	[ -s "$work/probes.list" ] || [ -s "$work/malformed.tsv" ] || die "no probes in '$probedisp'"
	kabi=${KABI:-$build/kabi}
	if grep -q "^measure${TAB}layout" "$work"/probes/*.tags && [ ! -x "$kabi" ]; then
		die "no '$kabi' for the layout probes: run 'make' first"
	fi
	case "$kabi" in /*) ;; *) kabi="$(pwd)/$kabi" ;; esac
	find_compilers
	if [ -s "$work/probes.list" ]; then
		run_all
	else
		: >"$work/results.tsv"
	fi

	text_matrix >"$report/matrix.txt"
	json_matrix >"$report/matrix.json"
	step MATRIX "$report/matrix.txt"
	if [ "$json" = 1 ]; then
		cat "$report/matrix.json"
	else
		cat "$report/matrix.txt"
	fi
	rc=0
	! grep -q "${TAB}CHANGED$TAB" "$work/results.tsv" || rc=1
	[ ! -s "$work/malformed.tsv" ] || rc=1
	exit "$rc"
}

main "$@"
