#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# report.sh: report.md and report.html from a recorded report.json
# (tests/fixtures/report/README says how it was recorded).

load common

setup() {
	need_tool jq
	F=$BATS_TEST_DIRNAME/fixtures/report
	T=$BATS_TEST_TMPDIR
}

@test "report: report.md from the recorded run is exactly as expected" {
	run -0 --separate-stderr "$TOP/scripts/report.sh" "$F/report.json" "$T"
	assert_output ""
	assert_equal "$stderr" ""
	run -0 cat "$T/report.md"
	expect_file "$F/report.md.expected"
}

@test "report: the html matrix has one row per target and a cell per compiler" {
	"$TOP/scripts/report.sh" "$F/report.json" "$T"
	run -0 grep -c '<tr><th>x86_64</th><td class="fail">' "$T/report.html"
	assert_output "1"
	run -0 grep -o '<th>gcc</th><th>clang</th><th>kabi (gcc vs clang)</th>' "$T/report.html"
	assert_output '<th>gcc</th><th>clang</th><th>kabi (gcc vs clang)</th>'
	run -0 grep -o 'build: <code>scripts/kernel-build.sh -o build -t x86_64 -c [a-z]*</code>' "$T/report.html"
	assert_output "$(printf '%s\n' \
		'build: <code>scripts/kernel-build.sh -o build -t x86_64 -c gcc</code>' \
		'build: <code>scripts/kernel-build.sh -o build -t x86_64 -c clang</code>')"
}

@test "report: the html shows both layouts of each incompatible type, holes marked" {
	"$TOP/scripts/report.sh" "$F/report.json" "$T"
	run -0 grep -o '<caption>[a-z]*: size [0-9]*</caption>' "$T/report.html"
	assert_output "$(printf '%s\n' '<caption>gcc: size 4</caption>' '<caption>clang: size 4</caption>' \
		'<caption>gcc: size 16</caption>' '<caption>clang: size 24</caption>')"
	run -0 grep -o '<tr class="hole"><td>[0-9]*</td><td>[0-9]*</td>' "$T/report.html"
	assert_output "$(printf '%s\n' \
		'<tr class="hole"><td>1</td><td>3</td>' '<tr class="hole"><td>2</td><td>2</td>' \
		'<tr class="hole"><td>4</td><td>4</td>' '<tr class="hole"><td>4</td><td>4</td>')"
}

@test "report: warnings of objtool and Kconfig are counted beside the compiler's" {
	jq '.matrix[0].cells[1].warnings = {warnings: 2, errors: 0,
		by_tool: {compiler: {warnings: 0, errors: 0}, linker: {warnings: 0, errors: 0},
			  objtool: {warnings: 1, errors: 0}, modpost: {warnings: 0, errors: 0},
			  kconfig: {warnings: 1, errors: 0}},
		by_flag: {"(none)": 2}, by_file: {".config": 1, "lib/vsprintf.o": 1}}' \
		"$F/report.json" >"$T/in.json"
	run -0 "$TOP/scripts/report.sh" "$T/in.json" "$T"
	run -0 grep -o '| 2 warnings, 0 errors (objtool 1, kconfig 1) |' "$T/report.md"
	assert_output '| 2 warnings, 0 errors (objtool 1, kconfig 1) |'
	run -0 grep -o '<b>errors</b> [0-9]* ([a-z 0-9,]*)</div>' "$T/report.html"
	assert_output '<b>errors</b> 0 (objtool 1, kconfig 1)</div>'
}

@test "report: console lines are escaped in the html" {
	jq '.matrix[0].cells[0].boot.last_lines = ["<script>alert(1)</script> & more"]' \
		"$F/report.json" >"$T/in.json"
	"$TOP/scripts/report.sh" "$T/in.json" "$T"
	run -0 grep -c '&lt;script&gt;alert(1)&lt;/script&gt; &amp; more' "$T/report.html"
	assert_output "1"
	run -1 grep -c '<script>' "$T/report.html"
}

@test "report: headless chromium renders the matrix" {
	need_tool chromium
	"$TOP/scripts/report.sh" "$F/report.json" "$T"
	run -0 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run \
		--user-data-dir="$T/chromium" --screenshot="$T/report.png" \
		--window-size=1280,1024 "file://$T/report.html"
	run -0 "$TOP/tests/png-info.py" "$T/report.png"
	# 1280x1024, and far from blank: text, green/red cells, borders
	[ "${lines[0]% *}" = "1280 1024" ]
	[ "${lines[0]##* }" -gt 100 ]
}

@test "report: a file that is not a version 1 report is refused" {
	echo '{"version":2}' >"$T/bad.json"
	run -2 --separate-stderr "$TOP/scripts/report.sh" "$T/bad.json" "$T"
	assert_equal "$stderr" "report.sh: '$T/bad.json' is not a version 1 parity report"
	assert [ ! -e "$T/report.md" ]
}
