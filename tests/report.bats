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

@test "report: the exact reproducer names the report in its tree's and configuration's place" {
	jq '.report_dir = "6.12/config-kcfi/report"' "$F/report.json" >"$T/report.json"
	# the pinned toolchain history.sh writes beside the report, for its gcc
	jq -n --arg sum "$(sha256sum "$T/report.json" | cut -c-64)" '{report_sha256: $sum,
		cells: {"x86_64/gcc": {cc: {package: "gcc-12", version: "12.2.0-14", binary: "/usr/bin/x86_64-linux-gnu-gcc-12", sha256: "0123456789abcdef0123"},
			ld: {package: "binutils", version: "2.40-2", binary: "/usr/bin/ld.bfd", sha256: "fedcba9876543210fedc"}}}}' \
		>"$T/toolchain.json"
	"$TOP/scripts/report.sh" "$T/report.json" "$T"
	run -0 grep -o 'exactly: `scripts/reproduce.sh [^ ]* x86_64/gcc`' "$T/report.md"
	assert_output 'exactly: `scripts/reproduce.sh build/6.12/config-kcfi/report/report.json x86_64/gcc`'
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
	run -0 grep -o '<th colspan="5"[^>]*>[a-z]*: size [0-9]*</th>' "$T/report.html"
	assert_output "$(printf '%s\n' '<th colspan="5">gcc: size 4</th>' '<th colspan="5" class="right">clang: size 4</th>' \
		'<th colspan="5">gcc: size 16</th>' '<th colspan="5" class="right">clang: size 24</th>')"
	run -0 grep -o '<td class="hole[^>]*>[0-9]*</td><td class="hole">[0-9]*</td><td class="hole" colspan="3">[^<]*</td>' "$T/report.html"
	assert_output "$(printf '%s\n' \
		'<td class="hole">1</td><td class="hole">3</td><td class="hole" colspan="3">3 bytes padding</td>' \
		'<td class="hole right">2</td><td class="hole">2</td><td class="hole" colspan="3">2 bytes padding</td>' \
		'<td class="hole">4</td><td class="hole">4</td><td class="hole" colspan="3">4 bytes hole</td>' \
		'<td class="hole right">4</td><td class="hole">4</td><td class="hole" colspan="3">4 bytes hole</td>')"
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

# matrix_json: the recorded run as a run of gcc, clang-19 and clang-22
# would report it: clang-22 with an objtool warning and the same layouts
# as clang-19 but one type.
matrix_json() {
	jq '.compilers = ["gcc", "clang-19", "clang-22"] | .reference = "gcc" | .aliases = {clang: "clang-19"}
		| .findings = ["x86_64 clang-19 -> clang-22: 1 types changed, 0 incompatibly"]
		| .matrix[0] |= (.cells[1].compiler = "clang-19" | .cells[1].same_as = ["clang"]
			| .cells[0].same_as = ["gcc-12"]
			| .cells += [.cells[1] | .compiler = "clang-22" | .name = "x86_64/clang-22" | .same_as = []
				| .compiler_version = "Debian clang version 22.1.8 (++20260101+abc-1~exp1)"
				| .tests = {counts: {pass: 180, fail: 1, skip: 12, timeout: 0, "not-run": 2}}
				| .warnings = {warnings: 1, errors: 0, by_tool: {objtool: {warnings: 1, errors: 0}}}]
			| .kabi_vs_ref = [.kabi + {old: "gcc", new: "clang-19"},
				{old: "gcc", new: "clang-22", status: "pass", reason: null,
				 summary: {changed: 5, incompatible: 0, only_old: 115, only_new: 0}}]
			| .kabi_versions = [{old: "clang-19", new: "clang-22", status: "pass", reason: null, reproduce: "x",
				summary: {changed: 1, incompatible: 0, only_old: 0, only_new: 0}}])' \
		"$F/report.json"
}

@test "report: more than two compilers: the compiler matrix, aliases, KUnit, Clang against Clang" {
	matrix_json >"$T/in.json"
	run -0 "$TOP/scripts/report.sh" "$T/in.json" "$T"
	run -0 sed -n '/^## Compiler matrix/,/^## x86_64/p' "$T/report.md"
	assert_output "$(cat <<'EOF2'
## Compiler matrix (reference: gcc)

| target | compiler | version | build | boot | KUnit | compiler warnings | linker warnings | objtool warnings | modpost warnings | kconfig warnings | kabi vs gcc |
|---|---|---|---|---|---|---|---|---|---|---|---|
| x86_64 | gcc (= gcc-12) | 12.2.0 | pass 2s | FAIL: hang: no verdict from the guest before the time limit | - | 0 | 0 | 0 | 0 | 0 | reference |
| x86_64 | clang-19 (= clang) | 14.0.6 | pass 2s | FAIL: hang: no verdict from the guest before the time limit | - | 0 | 0 | 0 | 0 | 0 | 4 changed, 2 incompatible, 115 only gcc, 0 only clang-19 (FAIL) |
| x86_64 | clang-22 | 22.1.8 | pass 2s | FAIL: hang: no verdict from the guest before the time limit | 180 pass, 1 fail, 12 skip, 2 not-run | 0 | 0 | 1 | 0 | 0 | 5 changed, 0 incompatible, 115 only gcc, 0 only clang-22 |

Built once: clang is clang-19 here (the same compiler and linker).

## Clang against Clang

Each Clang's layouts against the next version's, and a Clang with GNU as against the same Clang with its own assembler; any change is a finding.

| target | from | to | layouts |
|---|---|---|---|
| x86_64 | clang-19 | clang-22 | 1 changed, 0 incompatible, 0 only clang-19, 0 only clang-22 |

Findings:

- x86_64 clang-19 -> clang-22: 1 types changed, 0 incompatibly

## Failures

- x86_64/gcc boot: hang: no verdict from the guest before the time limit
- x86_64/clang boot: hang: no verdict from the guest before the time limit
- x86_64 kabi: 2 types differ incompatibly

## x86_64
EOF2
)"
	run -0 grep -o '<tr><th>x86_64</th><td>clang-22</td>.*</tr>' "$T/report.html"
	assert_output '<tr><th>x86_64</th><td>clang-22</td><td title="Debian clang version 22.1.8 (++20260101+abc-1~exp1)">22.1.8</td><td class="pass">pass 2s</td><td class="fail">FAIL: hang: no verdict from the guest before the time limit</td><td>180 pass, 1 fail, 12 skip, 2 not-run</td><td>0</td><td>0</td><td>1</td><td>0</td><td>0</td><td>5 changed, 0 incompatible, 115 only gcc, 0 only clang-22</td></tr>'
	# the matrix replaces the two-compiler table, whose kabi column is one pair's
	run -1 grep -c 'kabi (gcc vs clang)' "$T/report.html"
	run -1 grep -c '^| target | compiler | build |' "$T/report.md"
	assert_output "0"
	run -0 grep -o '<li>kabi clang-19 vs clang-22: <code>[^<]*</code></li>' "$T/report.html"
	assert_output '<li>kabi clang-19 vs clang-22: <code>x</code></li>'
}

@test "report: each cell's kabi check, and the cells the run did not build" {
	jq '.matrix[0].cells[0].check = {status: "pass", reason: null,
		summary: {clashing: 1, incompatible: 1, alike: 5, units: 3},
		clashes: [{kind: "struct", name: "a<b", decl: "x.h:1", incompatible: true}],
		reproduce: "build/kabi check x"}
		| .matrix[0].cells[1].check = {status: "fail", reason: "kabi check exited 1: no DWARF",
		summary: null, clashes: [], reproduce: "build/kabi check y"}
		| .skipped = [{target: "riscv64-virt", compiler: "gcc-11", reason: "Debian has no gcc-11"}]' \
		"$F/report.json" >"$T/in.json"
	run -0 "$TOP/scripts/report.sh" "$T/in.json" "$T"
	run -0 grep '^## Not built\|^- riscv64-virt\|^- kabi check' "$T/report.md"
	assert_output "$(printf '%s\n' '## Not built' '- riscv64-virt/gcc-11: Debian has no gcc-11' \
		'- kabi check x86_64/gcc: 1 types with several layouts (1 incompatible), 5 alike in 3 units; first struct a<b' \
		'- kabi check x86_64/clang: FAIL: kabi check exited 1: no DWARF' \
		'- kabi check x86_64/gcc: `build/kabi check x`' \
		'- kabi check x86_64/clang: `build/kabi check y`')"
	run -0 grep -o '<li>kabi check [^<]*\|<h2>Not built</h2><ul><li>[^<]*' "$T/report.html"
	assert_output "$(printf '%s\n' '<h2>Not built</h2><ul><li>riscv64-virt/gcc-11: Debian has no gcc-11' \
		'<li>kabi check x86_64/gcc: 1 types with several layouts (1 incompatible), 5 alike in 3 units; first struct a&lt;b' \
		'<li>kabi check x86_64/clang: FAIL: kabi check exited 1: no DWARF')"
}

@test "report: two compilers have no compiler matrix" {
	run -0 "$TOP/scripts/report.sh" "$F/report.json" "$T"
	run -1 grep -c 'Compiler matrix' "$T/report.md" "$T/report.html"
	assert_output "$(printf '%s\n' "$T/report.md:0" "$T/report.html:0")"
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

@test "report: the patches new since the last run, and what each brings to each target's GCC cell" {
	local prog
	printf '%s 0013-x-check-the-id.patch\n%s 0014-y-docs.patch\n' \
		"$(printf a | sha256sum | cut -c-64)" "$(printf b | sha256sum | cut -c-64)" >"$T/series.new"
	jq -n '{schema: 1, kernel: "6.1.192", cell: "x86_64-gcc", level: "1", clang: "Debian clang version 22.1.8",
		patches: [{index: 12, patch: "0012-old.patch", subject: "old", files: [], units: [], new: [], gcc_too: 0, gone: []},
			{index: 13, patch: "0013-x-check-the-id.patch", subject: "x: check the id", files: ["drivers/x.c"],
			 units: ["drivers/x.c"], gcc_too: 0, gone: [],
			 new: [{kind: "warning", flag: "-Wunused-variable", file: "drivers/x.c", line: 12, col: 6, text: "unused variable '\''id'\''"}]},
			{index: 14, patch: "0014-y-docs.patch", subject: "y: docs", files: ["Documentation/y.rst"], units: [], new: [], gcc_too: 0, gone: []}]}' \
		>"$T/x86_64.series.json"
	echo "diagnose-series.sh: '/src' has no applied quilt series (no .pc/applied-patches); nothing to walk" >"$T/arm64.err"
	jq -n -R --rawfile new "$T/series.new" --arg targets "x86_64 arm64-virt riscv64-virt" \
		--slurpfile w_x86_64 "$T/x86_64.series.json" --rawfile e_arm64-virt "$T/arm64.err" \
		-f "$TOP/scripts/parity/parity-series.jq" >"$T/series.json"
	jq --slurpfile s "$T/series.json" '. + {series_new: $s[0]}' "$F/report.json" >"$T/report.json"
	"$TOP/scripts/report.sh" "$T/report.json" "$T"
	prog='/^## New patches/,/^## [^N]/p'
	sed -n "$prog" "$T/report.md" | head -n 12 >"$T/got"
	cat >"$T/expected" <<EOF
## New patches since the last run

What each patch the last run did not have changes in Clang's findings on the GCC cells (make diagnose-series):

- \`0013-x-check-the-id.patch\` (x: check the id)
  - x86_64: 1 unit, 1 new, 0 gone (Debian clang version 22.1.8, W=1)
    - new: \`drivers/x.c:12:6: warning: unused variable 'id' [-Wunused-variable]\`
  - arm64-virt: no walk: diagnose-series.sh: '/src' has no applied quilt series (no .pc/applied-patches); nothing to walk
- \`0014-y-docs.patch\` (y: docs)
  - x86_64: reaches no unit
  - arm64-virt: no walk: diagnose-series.sh: '/src' has no applied quilt series (no .pc/applied-patches); nothing to walk

EOF
	run -0 diff -u "$T/expected" "$T/got"
	run -0 grep -c '<li>new: <code>drivers/x.c:12:6: warning: unused variable &apos;id&apos; \[-Wunused-variable\]</code></li>' "$T/report.html"
	assert_output 1
}

@test "report: no patch new since the last run, no series_new and no section" {
	: >"$T/none.new"
	run -0 jq -n -R --rawfile new "$T/none.new" --arg targets x86_64 -f "$TOP/scripts/parity/parity-series.jq"
	assert_output null
	"$TOP/scripts/report.sh" "$F/report.json" "$T"
	run -1 grep -c 'New patches' "$T/report.md"
	assert_output 0
}
