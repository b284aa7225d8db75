#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/bench.sh: options, the table, the checks and bench.json, on two
# small objects (--tiny-only, one run); the distro pair is 'make bench'.

load common

BENCH=$TOP/scripts/bench.sh

setup() {
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/b"
	ln -s "$KABI" "$T/b/kabi"
}

# small_pair: old.o and new.o from the bench fixture, built with gcc
small_pair() {
	cc_obj gcc "$T/old.o" tests/fixtures/bench/changed.c
	cc_obj gcc "$T/new.o" tests/fixtures/bench/changed.c -DV2
}

# small_btf: new.btf, pahole's BTF of the bench fixture, and the tools
# the BTF rows need
small_btf() {
	need_anchors
	need_tool bpftool
	need_tool jq
	cc_obj gcc "$T/new.o" tests/fixtures/bench/changed.c -DV2
	pahole -J --btf_encode_detached="$T/new.btf" "$T/new.o"
}

# need_anchors: the tools bench.sh measures kabi against
need_anchors() {
	need_tool pahole
	need_tool codiff
	need_tool abidiff
	[ -x /usr/bin/time ] || need_tool /usr/bin/time
}

@test "bench: -h prints the usage" {
	run -0 "$BENCH" -h
	assert_line --index 0 "usage: bench.sh [-o BUILDDIR] [-n RUNS] [-t SECONDS] [--tiny-only | --btf-only] [OLD NEW | BTF]"
}

@test "bench: -n takes a positive number" {
	run -2 --separate-stderr "$BENCH" -o "$T/b" -n 0 --tiny-only
	assert_equal "$stderr" "bench.sh: -n needs a positive number, not '0'"
	run -2 --separate-stderr "$BENCH" -o "$T/b" -t x --tiny-only
	assert_equal "$stderr" "bench.sh: -t needs a positive number of seconds, not 'x'"
}

@test "bench: an unknown option or one input is a usage error" {
	run -2 --separate-stderr "$BENCH" --fast
	assert_equal "${stderr_lines[0]}" "usage: bench.sh [-o BUILDDIR] [-n RUNS] [-t SECONDS] [--tiny-only | --btf-only] [OLD NEW | BTF]"
	run -2 --separate-stderr "$BENCH" -o "$T/b" --tiny-only only-one
	assert_equal "${stderr_lines[0]}" "usage: bench.sh [-o BUILDDIR] [-n RUNS] [-t SECONDS] [--tiny-only | --btf-only] [OLD NEW | BTF]"
}

@test "bench: --btf-only takes one BTF file at most, and not with --tiny-only" {
	run -2 --separate-stderr "$BENCH" -o "$T/b" --btf-only a b
	assert_equal "${stderr_lines[0]}" "usage: bench.sh [-o BUILDDIR] [-n RUNS] [-t SECONDS] [--tiny-only | --btf-only] [OLD NEW | BTF]"
	run -2 --separate-stderr "$BENCH" -o "$T/b" --btf-only --tiny-only
	assert_equal "${stderr_lines[0]}" "usage: bench.sh [-o BUILDDIR] [-n RUNS] [-t SECONDS] [--tiny-only | --btf-only] [OLD NEW | BTF]"
}

@test "bench: --btf-only measures and checks kabi, pahole and bpftool on a BTF file" {
	small_btf
	run -0 --separate-stderr "$BENCH" -o "$T/b" -n 2 --btf-only "$T/new.btf"
	assert_line --index 0 "row             wall s   cpu s  rss MB | anchor   wall s   cpu s  rss MB |  wall x  rss x  verdict"
	assert_line --index 1 --regexp '^dump btf +[0-9.]+ +[0-9.]+ +[0-9]+ \| pahole +[0-9.]+ +[0-9.]+ +[0-9]+ \| +([0-9.]+|-) +([0-9.]+|-)  info$'
	assert_line --index 2 --regexp '^dump btf +[0-9.]+ +[0-9.]+ +[0-9]+ \| bpftool +[0-9.]+ +[0-9.]+ +[0-9]+ \| +([0-9.]+|-) +([0-9.]+|-)  info$'
	assert_line --index 3 "check PASS btf: kabi dump byte-identical over 2 runs"
	assert_line --index 4 "bench: PASS; $T/b/bench/bench.json"
	[ "${#lines[@]}" -eq 5 ]
	local q='[.runs, [.rows[] | .id, .anchor.result], [.checks[].result], .verdict]'
	run -0 jq -c "$q" "$T/b/bench/bench.json"
	assert_output '[2,["dump-btf-pahole","ok","dump-btf-bpftool","ok"],["pass"],"PASS"]'
	run -2 --separate-stderr "$BENCH" -o "$T/b" --btf-only "$T/nope.btf"
	assert_equal "$stderr" "bench.sh: no '$T/nope.btf'"
}

@test "bench: a BTF measurement is 20 runs in a row, kabi's kept output one more" {
	small_btf
	rm "$T/b/kabi" # the link to the real one
	printf '#!/bin/sh\necho "$*" >>"%s"\necho "struct s"\n' "$T/calls" >"$T/b/kabi"
	chmod +x "$T/b/kabi"
	run -0 --separate-stderr "$BENCH" -o "$T/b" -n 2 --btf-only "$T/new.btf"
	run -0 grep -c -x "dump $T/new.btf" "$T/calls"
	assert_output 42
	run -0 jq -c '[.runs, .btf_repeat]' "$T/b/bench/bench.json"
	assert_output '[2,20]'
}

@test "bench: the timed DWARF runs write into /dev/null, the checks read runs of their own" {
	need_anchors
	small_pair
	rm "$T/b/kabi" # the link to the real one
	# a kabi that notes each call and where its output went, then runs the real one
	printf '#!/bin/sh\necho "$* > $(readlink /proc/$$/fd/1)" >>"%s"\nexec "%s" "$@"\n' \
		"$T/calls" "$KABI" >"$T/b/kabi"
	chmod +x "$T/b/kabi"
	run -0 --separate-stderr "$BENCH" -o "$T/b" -n 2 -t 60 --tiny-only "$T/old.o" "$T/new.o"
	run -0 sed -e "s#$T/b/bench/[^ ]*#WORK#" -e "s#$T/##g" "$T/calls"
	assert_output "$(printf '%s\n' \
		'dump new.o > /dev/null' 'check new.o > /dev/null' 'diff old.o new.o > /dev/null' \
		'dump new.o > WORK' 'diff old.o new.o > WORK' \
		'dump new.o > /dev/null' 'check new.o > /dev/null' 'diff old.o new.o > /dev/null' \
		'dump new.o > WORK' 'diff old.o new.o > WORK' \
		'dump --stats new.o > /dev/null' \
		'dump --threads 1 new.o > WORK' 'diff --threads 1 old.o new.o > WORK' \
		'dump --reader libdw new.o > WORK' 'diff --reader libdw old.o new.o > WORK' \
		'dump --type struct alike --type union alike --type struct file_scope --type union file_scope --type struct local_only --type union local_only old.o new.o > WORK')"
}

@test "bench: a missing kabi or input is trouble" {
	run -2 --separate-stderr "$BENCH" -o "$T/empty" --tiny-only a b
	assert_equal "$stderr" "bench.sh: no '$T/empty/kabi': run 'make' first"
	need_anchors
	run -2 --separate-stderr "$BENCH" -o "$T/b" --tiny-only "$T/nope.o" "$T/nope.o"
	assert_equal "$stderr" "bench.sh: no '$T/nope.o' (make parity builds the tiny kernel)"
}

@test "bench: --tiny-only measures, checks and reports a small pair" {
	need_anchors
	need_tool jq
	small_pair
	run -0 --separate-stderr "$BENCH" -o "$T/b" -n 1 -t 60 --tiny-only "$T/old.o" "$T/new.o"
	assert_line --index 0 "row             wall s   cpu s  rss MB | anchor   wall s   cpu s  rss MB |  wall x  rss x  verdict"
	assert_line --index 1 --regexp '^dump tiny +[0-9.]+ +[0-9.]+ +[0-9]+ \| pahole +[0-9.]+ +[0-9.]+ +[0-9]+ \| +([0-9.]+|-) +([0-9.]+|-)  info$'
	assert_line --index 2 --regexp '^check tiny +[0-9.]+ +[0-9.]+ +[0-9]+ \| dump +[0-9.]+ +[0-9.]+ +[0-9]+ \| +([0-9.]+|-) +([0-9.]+|-)  info$'
	assert_line --index 3 --regexp '^diff tiny +[0-9.]+ +[0-9.]+ +[0-9]+ \| codiff +[0-9.]+ +[0-9.]+ +[0-9]+ \| +([0-9.]+|-) +([0-9.]+|-)  info$'
	assert_line --index 4 --regexp '^diff tiny +[0-9.]+ +[0-9.]+ +[0-9]+ \| abidiff +[0-9.]+ +[0-9.]+ +[0-9]+ \| +([0-9.]+|-) +([0-9.]+|-)  info$'
	assert_line --index 5 --regexp '^kabi dump peak RSS: tiny [0-9]+ MB \(\.debug_info 0 MB\);$'
	assert_line --index 6 --regexp '^kabi dump DIEs: tiny [0-9]+, decoded [0-9]+ \([0-9]+%\), stepped over [0-9]+, not reached [0-9]+ \([0-9]+%\);$'
	assert_line --index 7 "check PASS tiny: kabi dump and diff byte-identical over 1 runs, --threads 1 and --reader libdw"
	assert_line --index 8 "check PASS tiny: kabi dump --stats counts the DIEs libdw walks"
	assert_line --index 9 "check PASS tiny: every struct codiff reports as changed is reported by kabi"
	assert_line --index 10 "           reported: file_scope; explained: local_only (no file-scope definition in either input: defined inside a function, which kabi does not read; codiff pairs same-name local structs of different functions) and 1 laid out alike by pahole in both, every member at its offset with its size (codiff lists a struct where a unit uses it in one input only, or where only the types of its members changed)"
	assert_line --index 11 "bench: PASS; $T/b/bench/bench.json"
	[ "${#lines[@]}" -eq 12 ]
}

@test "bench: bench.json holds the rows, the memory and the checks" {
	need_anchors
	need_tool jq
	small_pair
	run -0 "$BENCH" -o "$T/b" -n 1 -t 60 --tiny-only "$T/old.o" "$T/new.o"
	local shape='[.version, .runs, .abidiff_timeout_s, [.rows[] | .id, .anchor.tool, .anchor.result, .verdict], (.memory.tiny | keys), (.dies.tiny | keys), [.checks[].result], .verdict] | tostring'
	run -0 jq -r "$shape" "$T/b/bench/bench.json"
	assert_output '[1,1,60,["dump-tiny","pahole","ok","info","check-tiny","dump","ok","info","diff-tiny-codiff","codiff","ok","info","diff-tiny-abidiff","abidiff","exit 4","info"],["debug_info_bytes","kabi_dump_rss_kb"],["decoded","dies","not_reached","stepped_over"],["pass","pass","pass"],"PASS"]'
	# what kabi dump --stats says, in numbers
	local sum='.dies.tiny | .dies == .decoded + .stepped_over + .not_reached and .not_reached > 0'
	run -0 jq -r "$sum" "$T/b/bench/bench.json"
	assert_output true
	local numbers='[.rows[] | .kabi.wall_s, .kabi.cpu_s, .kabi.rss_kb, .anchor.wall_s] | map(type == "number") | all'
	run -0 jq -r "$numbers" "$T/b/bench/bench.json"
	assert_output true
	run -0 find "$T/b/bench" -maxdepth 1 -name '.bench.json.*'
	assert_output ""
}

@test "bench: a crashed or timed-out anchor is a result, not trouble" {
	need_anchors
	need_tool jq
	small_pair
	mkdir -p "$T/bin"
	printf '#!/bin/sh\nkill -SEGV $$\n' >"$T/bin/codiff"
	# what timeout(1) returns when the limit is reached, without waiting
	printf '#!/bin/sh\nexit 124\n' >"$T/bin/abidiff"
	chmod +x "$T/bin/codiff" "$T/bin/abidiff"
	PATH="$T/bin:$PATH" run -0 --separate-stderr "$BENCH" -o "$T/b" -n 1 -t 1 --tiny-only "$T/old.o" "$T/new.o"
	assert_line --index 4 "               codiff: crashed: signal 11 (exit 139)"
	assert_line --index 5 --regexp '^diff tiny +[0-9.]+ +[0-9.]+ +[0-9]+ \| abidiff +>1 +- +- \| +<[0-9.]+ +-  info$'
	assert_line --index 6 "               abidiff: timeout"
	assert_line "check SKIP tiny: every struct codiff reports as changed is reported by kabi"
	assert_line "           codiff: crashed: signal 11 (exit 139)"
	local results='[.rows[].anchor.result] | tostring'
	run -0 jq -r "$results" "$T/b/bench/bench.json"
	assert_output '["ok","ok","crashed: signal 11 (exit 139)","timeout"]'
}

@test "bench: a DIE count that is not libdw's fails its check" {
	need_anchors
	need_tool jq
	small_pair
	rm "$T/b/kabi" # the link to the real one
	# the real kabi, but --stats counts one DIE
	printf '#!/bin/sh\n[ "$1 $2" = "dump --stats" ] || exec "%s" "$@"\necho "kabi: '"'"'$3'"'"': 1 units, 1 DIEs: 1 decoded, 0 stepped over, 0 not reached" >&2\n' \
		"$KABI" >"$T/b/kabi"
	chmod +x "$T/b/kabi"
	run -1 --separate-stderr "$BENCH" -o "$T/b" -n 1 -t 60 --tiny-only "$T/old.o" "$T/new.o"
	assert_line "check FAIL tiny: kabi dump --stats counts the DIEs libdw walks"
	assert_line --regexp '^           kabi: 1, dwalk: [0-9]{2,}$'
	assert_line "bench: FAIL (1 missed); $T/b/bench/bench.json"
}

@test "bench: pahole-same.awk names the structs pahole lays out alike, member by member" {
	need_tool pahole
	small_pair
	pahole "$T/old.o" >"$T/old.pahole"
	pahole "$T/new.o" >"$T/new.pahole"
	# file_scope grew, alike's char became signed char, local_only grew
	run -0 awk -f "$TOP/scripts/bench/pahole-same.awk" "$T/old.pahole" "$T/new.pahole"
	assert_output "struct alike"
	# a struct is laid out alike with itself, whatever its attributes
	printf 'struct a {\n\tint x; /* 0 4 */\n} __attribute__((__aligned__(8)));\nstruct b {\n\tint y; /* 4 4 */\n};\n' >"$T/one"
	printf 'struct a {\n\tlong x; /* 0 8 */\n};\nstruct b {\n\tint y; /* 4 4 */\n\n\t/* size: 8 */\n};\n' >"$T/two"
	run -0 awk -f "$TOP/scripts/bench/pahole-same.awk" "$T/one" "$T/one"
	assert_equal "$(printf '%s\n' "$output" | sort)" "$(printf 'struct a\nstruct b')"
	run -0 awk -f "$TOP/scripts/bench/pahole-same.awk" "$T/one" "$T/two"
	assert_output ""
}
