#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The layout pictures of the report: every type kabi diff reports as
# changed between the two builds of tests/fixtures/report-layout/layout.c
# (a hole, a bitfield, a member moved), drawn GCC beside Clang in
# report.md and report.html (scripts/kernel-diff/kabi-pictured.jq,
# kabi-result.jq, report-layout.jq). KPARITY_BLESS=1 rewrites the
# expected files.

load common

setup() {
	need_tool jq
	F=$BATS_TEST_DIRNAME/fixtures/report-layout
	T=$BATS_TEST_TMPDIR
	L=$TOP/scripts/kernel-diff
}

# report CAP [DIFF]: $T/report.md and $T/report.html of the recorded
# report with DIFF (default: the fixture's kabi diff) as x86_64's, drawing
# at most CAP types
report() {
	jq -L "$L" --arg status fail --arg reason "layouts differ incompatibly" \
		--argjson cap "$1" --arg repro "build/kabi diff --root . old.o new.o" \
		--arg old gcc --arg new clang \
		-f "$L/kabi-result.jq" "${2:-$F/diff.json}" >"$T/kabi.json"
	jq --slurpfile k "$T/kabi.json" '.matrix[0].kabi = ($k[0] | del(.old, .new))' \
		"$BATS_TEST_DIRNAME/fixtures/report/report.json" >"$T/in.json"
	"$TOP/scripts/report.sh" "$T/in.json" "$T"
}

@test "report-layout: the recorded diff is kabi's output on the fixture" {
	cp "$F/layout.c" "$T/"
	cd "$T"
	need_tool gcc
	need_tool clang
	gcc -g -c layout.c -o old.o
	clang -g -c -DNEW layout.c -o new.o
	run -12 "$KABI" diff --json --layouts --root . old.o new.o
	assert_output "$(cat "$F/diff.json")"
}

@test "report-layout: every changed type is drawn, the incompatible ones first" {
	run -0 jq -r -L "$L" --argjson cap 20 \
		'include "kabi-pictured"; pictured($cap)[] | "\(.kind) \(.name) \(.incompatible)"' "$F/diff.json"
	assert_output "$(printf '%s\n' 'struct flags true' 'struct moved true' 'struct holey false')"
}

@test "report-layout: report.md draws each changed type as pahole-like text" {
	report 20
	run -0 sed -n '/^### /,$p' "$T/report.md"
	expect_file "$F/layouts.md.expected"
}

@test "report-layout: report.html has a row per member and gap, differing rows marked" {
	report 20
	run -0 grep -o '<tr[^>]*>\(<td[^>]*>[^<]*\(<code>[^<]*</code>\)\?</td>\)*</tr>' "$T/report.html"
	expect_file "$F/layouts.html.expected"
	run -0 grep -o '<h3>struct [a-z]* <small>' "$T/report.html"
	assert_output "$(printf '%s\n' '<h3>struct flags <small>' '<h3>struct moved <small>' '<h3>struct holey <small>')"
}

@test "report-layout: types past the cap are counted, not drawn" {
	report 1
	run -0 sed -n '/^### /,$p' "$T/report.md"
	assert_output "$(cat <<'EOF2'
### struct flags (layout.c:20)

- bitfield hi: offset=0 bit_offset=3 bit_size=5 -> offset=0 bit_offset=3 bit_size=6 (incompatible)
- offset tail: 1 -> 2 (incompatible)

```
  gcc: size 4              | clang: size 4
  uint32 lo:3; /* 0:0 4 */ | uint32 lo:3; /* 0:0 4 */
! uint32 hi:5; /* 0:3 4 */ | uint32 hi:6; /* 0:3 4 */
! int8 tail;   /*   1 1 */ | int8 tail;   /*   2 1 */
! /* padding: 2 bytes */   | /* padding: 1 byte */
```

2 more changed types are not drawn; all are in the output of `build/kabi diff --root . old.o new.o`.
EOF2
)"
	run -0 grep -o '<p>2 more changed types are not drawn; [^<]*</p>' "$T/report.html"
	assert_output '<p>2 more changed types are not drawn; all are in the output of `build/kabi diff --root . old.o new.o`.</p>'
}

@test "report-layout: a type with no members has its findings and no picture" {
	jq '.types[0] |= (.kind = "typedef" | .name = "word_t" | .incompatible = false
		| .findings = [{what: "typedef_chain_only", subject: null, old: "int", new: "long", incompatible: false}]
		| .old_layout = {kind: "typedef", name: "word_t", decl_file: "layout.c", decl_line: 20, chain: ["int32"], resolved: "int32"}
		| .new_layout = {kind: "typedef", name: "word_t", decl_file: "layout.c", decl_line: 20, chain: ["int64"], resolved: "int64"})' \
		"$F/diff.json" >"$T/diff.json"
	report 3 "$T/diff.json"
	run -0 sed -n '/^### typedef/,/^### /p' "$T/report.md"
	assert_output "$(printf '%s\n' '### typedef word_t (layout.c:20)' '' \
		'- typedef_chain_only: int -> long' '' '### struct holey (layout.c:9)')"
	run -1 grep -c "more changed types" "$T/report.md"
	assert_output 0
}
