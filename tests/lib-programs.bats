#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The awk and jq programs the scripts run, each on its own, on the inputs
# in tests/fixtures/lib-programs/.

load common

FIX=tests/fixtures/lib-programs

setup() {
	T=$BATS_TEST_TMPDIR
	cd "$TOP"
	TAB=$(printf '\t')
}

# expected NAME: $output must equal FIX/NAME.expected (KPARITY_BLESS=1
# rewrites it)
expected() {
	expect_file "$TOP/$FIX/$1.expected"
}

@test "target-check.awk: no shipped target has a problem, by the keys target.sh allows" {
	local keys req opt f
	keys=$(TOPDIR=$TOP PROG=t sh -c '. "$TOPDIR/scripts/lib/common.sh" && . "$TOPDIR/scripts/lib/target.sh" &&
		printf "%s\n" "$TARGET_REQUIRED" "$TARGET_OPTIONAL"')
	req=${keys%%$'\n'*}
	opt=${keys#*$'\n'}
	for f in scripts/targets/*.target; do
		run -0 --separate-stderr awk -v prog=t -v req="$req" -v opt="$opt" \
			-f "scripts/target-check/target-check.awk" "$f"
		assert_output ""
		assert_equal "$stderr" ""
	done
}

@test "target-check.awk: one line per problem, and exit 2" {
	run -2 --separate-stderr awk -v prog=t -v req="ARCH IMAGE" -v opt="FRAGMENTS QEMU" \
		-f "scripts/target-check/target-check.awk" "$FIX/bad.target.in"
	assert_output ""
	assert_equal "$stderr" "$(printf '%s\n' \
		"t: $FIX/bad.target.in:4: key 'ARCH' set again (first at line 3)" \
		"t: $FIX/bad.target.in:5: not a KEY=value line: 'not a key line'" \
		"t: $FIX/bad.target.in:6: unknown key 'SPARC'" \
		"t: $FIX/bad.target.in:7: FRAGMENTS: value must be a plain word or \"words\", not '\$(date)'" \
		"t: $FIX/bad.target.in: missing key 'IMAGE'")"
}

@test "compiler-bugs-parse.awk: the records of a well-formed case" {
	run -0 awk -v all_targets="x86_64 arm aarch64" -f "scripts/compiler-bugs/compiler-bugs-parse.awk" \
		tests/fixtures/compiler-bugs/outcomes/ranges.c
	expected compiler-bugs-parse-ranges
}

@test "compiler-bugs-parse.awk: only error records for a malformed case" {
	run -0 awk -v all_targets="x86_64 arm aarch64" -f "scripts/compiler-bugs/compiler-bugs-parse.awk" \
		tests/fixtures/compiler-bugs/malformed/bad-selector.c
	assert_output "error${TAB}8${TAB}'14' in a selector is neither a version range (<17, >=14.0.6) nor a target (x86_64 arm aarch64)"
}

@test "compiler-bugs-recorded.awk: the first selector that holds wins" {
	awk -v all_targets="x86_64 arm aarch64" -f "scripts/compiler-bugs/compiler-bugs-parse.awk" \
		tests/fixtures/compiler-bugs/outcomes/ranges.c >"$T/tags"
	run -0 awk -F "$TAB" -v fam=gcc -v ver=4.9 -v tgt=x86_64 -f "scripts/compiler-bugs/compiler-bugs-recorded.awk" "$T/tags"
	assert_output "9${TAB}reject${TAB}reject${TAB}"
	run -0 awk -F "$TAB" -v fam=gcc -v ver=12.2.0 -v tgt=arm -f "scripts/compiler-bugs/compiler-bugs-recorded.awk" "$T/tags"
	assert_output "11${TAB}reject${TAB}reject${TAB}"
	run -0 awk -F "$TAB" -v fam=gcc -v ver=12.2.0 -v tgt=x86_64 -f "scripts/compiler-bugs/compiler-bugs-recorded.awk" "$T/tags"
	assert_output "13${TAB}accept${TAB}accept${TAB}"
	run -0 awk -F "$TAB" -v fam=clang -v ver=19.1.7 -v tgt=x86_64 -f "scripts/compiler-bugs/compiler-bugs-recorded.awk" "$T/tags"
	assert_output "12${TAB}reject${TAB}reject${TAB}"
}

@test "compiler-bugs-recorded.awk: none when no selector holds" {
	printf 'name\tn\nexpect\t9\tclang\t<5\t\treject\treject\t\n' >"$T/tags"
	run -0 awk -F "$TAB" -v fam=gcc -v ver=12 -v tgt=x86_64 -f "scripts/compiler-bugs/compiler-bugs-recorded.awk" "$T/tags"
	assert_output "0${TAB}none${TAB}${TAB}"
}

@test "compiler-bugs-matrix.awk: the text matrix of a run" {
	local r=$FIX/compiler-bugs-run
	run -0 awk -F "$TAB" -v targets="x86_64 arm aarch64" -v ncases="$(wc -l <"$r/cases-list.tsv")" \
		-f "scripts/compiler-bugs/compiler-bugs-matrix.awk" "$r/compilers.tsv" "$r/malformed.tsv" "$r/results.tsv"
	expected compiler-bugs-matrix
}

@test "compiler-bugs-matrix.jq: the JSON matrix of a run" {
	need_tool jq
	local r=$FIX/compiler-bugs-run
	run -0 jq -n --rawfile compilers "$r/compilers.tsv" --rawfile skipped "$r/skipped.tsv" \
		--rawfile cases "$r/cases.tsv" --rawfile results "$r/results.tsv" \
		--rawfile malformed "$r/malformed.tsv" -f "scripts/compiler-bugs/compiler-bugs-matrix.jq"
	expected compiler-bugs-matrix-json
}

@test "parity-cell.jq: a built and booted cell, empty strings as null" {
	need_tool jq
	run -0 jq -n --arg target x86_64 --arg compiler clang --arg name x86_64/clang \
		--arg dir build/kernel/x86_64-clang --arg ccver "clang 19" --arg same "clang-19 clang-x" --arg bstat pass \
		--argjson bsecs 200 --arg breason "" --arg made 180 --arg brepro "scripts/kernel-build.sh" \
		--arg dstat fail --arg dreason "cannot build the disk" --arg vstat fail --argjson vsecs 12 --arg verdict "fail: hang: no verdict" \
		--arg vrepro "scripts/kernel-boot.sh" --arg qemu "" --arg version "" \
		--arg last "$(printf 'one\ntwo')" --slurpfile warnings "$FIX/cell-warnings.json" \
		--arg proof "$(printf 'kcfi.config: CFI failure at f\n\n')" \
		--slurpfile tests <(echo null) --arg farm "" --arg jobs "" \
		--slurpfile check <(echo '{"status": "pass", "summary": {"clashing": 0}, "clashes": []}') \
		-f "scripts/parity/parity-cell.jq"
	expected parity-cell
}

# farm_cell ENGINE JOBS: the cell of parity-cell.jq built on ENGINE, whose
# jobs ran as JOBS (farm-jobs.awk's lines) say, as .build.farm
farm_cell() {
	jq -n -c --arg target x86_64 --arg compiler gcc --arg name x86_64/gcc \
		--arg dir d --arg ccver gcc --arg same "" --arg bstat pass \
		--argjson bsecs 1 --arg breason "" --arg made "" --arg brepro b \
		--arg dstat none --arg dreason "" --arg vstat skipped --argjson vsecs 0 --arg verdict "" \
		--arg vrepro "" --arg qemu "" --arg version "" --arg last "" --arg proof "" \
		--slurpfile warnings "$FIX/cell-warnings.json" --slurpfile tests <(echo null) \
		--slurpfile check <(echo null) --arg farm "$1" --arg jobs "$2" -f "scripts/parity/parity-cell.jq" | jq -c '.build.farm'
}

@test "parity-cell.jq: a cell built on a farm has its engine and the jobs of each host" {
	need_tool jq
	run -0 farm_cell distcc "$(printf '127.0.0.2:3632 9\n127.0.0.3:3632 1\nlocal 2\n')"
	assert_output '{"engine":"distcc","jobs":{"127.0.0.2:3632":9,"127.0.0.3:3632":1,"local":2}}'
	# a build that compiled nothing
	run -0 farm_cell icecc ""
	assert_output '{"engine":"icecc","jobs":{"local":0}}'
	run -0 farm_cell "" ""
	assert_output 'null'
}

@test "farm-jobs.awk: distcc's log: each host's jobs, a fallback and localhost local, no flag probe" {
	run -0 awk -f "scripts/farm/farm-jobs.awk" tests/fixtures/farm-jobs/distcc.log
	assert_output "127.0.0.2:3632 2
127.0.0.3:3632 3
local 2"
}

@test "farm-jobs.awk: icecc's log: each host's jobs, a compiler without environment local, no flag probe" {
	run -0 awk -f "scripts/farm/farm-jobs.awk" tests/fixtures/farm-jobs/icecc.log
	assert_output "127.0.0.1:10246 3
127.0.0.1:10247 2
local 1"
}

@test "farm-jobs.awk: a pid used again is a new job; no place, or assembler, is no job" {
	printf '%s\n' 'distcc[7] compile from a.c to a.o' 'distcc[7] compile a.c on h:3632/2 completed ok' \
		'distcc[7] elapsed compilation time 0.1s' 'distcc[7] compile from b.c to b.o' \
		'distcc[7] compile b.c on h:3632/2 failed with exit code 1' \
		'distcc[7] compile b.c on localhost completed ok' 'distcc[8] compile from c.c to c.o' \
		'ICECC[7] 2026-12-05 08:00:00: invoked as: icecc gcc -c a.c -o a.o' \
		'ICECC[7] 2026-12-05 08:00:00: Have to use host 10.0.0.1:10245 - Job ID: 1' \
		'ICECC[9] 2026-12-05 08:00:00: invoked as: icecc gcc -c a.S -o a.o' \
		'ICECC[9] 2026-12-05 08:00:00: source file a.S, building locally' \
		'ICECC[9] 2026-12-05 08:00:00: invoking: /usr/bin/gcc -c a.S -o a.o' >"$T/log"
	run -0 awk -f "scripts/farm/farm-jobs.awk" "$T/log"
	assert_output "10.0.0.1:10245 1
h:3632 1
local 1"
}

@test "farm-jobs.awk: a compile that fails on a host and again locally is local; -S is a job" {
	printf '%s\n' 'distcc[7] compile from t.c to t.log.o' 'distcc[7] ERROR: compile t.c on h:3632/2 failed' \
		'distcc[7] Warning: failed to distribute t.c to h:3632/2, running locally instead' \
		'distcc[7] ERROR: compile t.c on localhost failed' 'distcc[7] elapsed compilation time 0.2s' \
		'ICECC[8] 2026-12-05 08:00:00: invoked as: icecc gcc -S -o b.s b.c' \
		'ICECC[8] 2026-12-05 08:00:00: Have to use host 10.0.0.1:10245 - Job ID: 2' >"$T/log"
	run -0 awk -f "scripts/farm/farm-jobs.awk" "$T/log"
	assert_output "10.0.0.1:10245 1
local 1"
	run -0 awk -f "scripts/farm/farm-jobs.awk" /dev/null
	assert_output "local 0"
}

@test "kabi-result.jq: the incompatible and the drawn changed types with both layouts" {
	need_tool jq
	run -0 jq -L scripts/kernel-diff --argjson cap 20 --arg status fail --arg reason "layouts differ incompatibly" \
		--arg repro "kabi diff a b" --arg old gcc --arg new clang \
		-f "scripts/kernel-diff/kabi-result.jq" "$FIX/diff.json"
	expected kabi-result
}

@test "parity-target.jq: the flags only one compiler warned about" {
	need_tool jq
	run -0 jq -s --arg target x86_64 --slurpfile kabi "$FIX/kabi.json" -f "scripts/parity/parity-target.jq" \
		"$FIX/cell-gcc.json" "$FIX/cell-clang.json"
	expected parity-target
}

@test "parity-target.jq: of two compilers, the first is gcc and the second clang, whatever their names" {
	need_tool jq
	jq '.compiler = "gcc-11"' "$FIX/cell-gcc.json" >"$T/a.json"
	jq '.compiler = "clang-22"' "$FIX/cell-clang.json" >"$T/b.json"
	jq -s --arg target x86_64 --slurpfile kabi "$FIX/kabi.json" -f "scripts/parity/parity-target.jq" \
		"$T/a.json" "$T/b.json" >"$T/target.json"
	run -0 jq -c '.warnings_diff' "$T/target.json"
	assert_output "$(jq -c '.warnings_diff' "$TOP/$FIX/parity-target.expected")"
}

@test "report-md.jq: report.md, with the shared definitions of report.jq" {
	need_tool jq
	run -0 jq -r -L scripts/report -f "scripts/report/report-md.jq" tests/fixtures/report/report.json
	expect_file "$TOP/tests/fixtures/report/report.md.expected"
}

@test "report-md.jq: a farm column when a cell was built on a farm" {
	need_tool jq
	jq '.matrix[0].cells[0].build.farm = {engine: "distcc", jobs: {"127.0.0.2:3632": 9, local: 1}}
		| .matrix[0].cells[1].build.farm = {engine: "distcc", jobs: {local: 0}}' \
		tests/fixtures/report/report.json >"$T/report.json"
	run -0 jq -r -L scripts/report -f "scripts/report/report-md.jq" "$T/report.json"
	assert_line "| target | compiler | build | farm | boot | warnings | kabi |"
	assert_line "|---|---|---|---|---|---|---|"
	assert_line --regexp '^\| x86_64 \| gcc \| [^|]* \| distcc: 127\.0\.0\.2:3632 9, local 1 \| '
	assert_line --regexp '^\| x86_64 \| clang \| [^|]* \| distcc: nothing compiled \| '
	run -0 jq -r -L scripts/report -f "scripts/report/report-html.jq" "$T/report.json"
	assert_line --partial "<div><b>farm</b> distcc: 127.0.0.2:3632 9, local 1</div>"
}

@test "report-md.jq: a target's randomized layouts, its summary and a row per structure" {
	need_tool jq
	jq '.matrix[0].randstruct = {gcc: "gcc", clang: "clang-16", seed: "6b7061726974792d72616e647374727563742d7365656420666f722074657374",
		randomized: {clang: 3, probed: 2, gcc: 2}, same: 1, gcc_dwarf_changed: 0,
		types: [{name: "cred", decl: "include/linux/cred.h:110", probe: true, gcc: true, same: true, dwarf: false},
			{name: "file_operations", decl: "include/linux/fs.h:2093", probe: true, gcc: true, same: false, dwarf: false},
			{name: "ops", decl: "kernel/x.c:3", probe: false, gcc: null, same: null, dwarf: false}]}' \
		tests/fixtures/report/report.json >"$T/report.json"
	run -0 jq -r -L scripts/report -f "scripts/report/report-md.jq" "$T/report.json"
	assert_line "Randomized layouts (randstruct): seed 6b7061726974792d...: clang-16 randomized 3 structures; 2 probed in gcc's build, of which gcc randomized 2, 1 with the same layout as clang-16's and 1 with another; 1 not probed."
	assert_line "| struct | declared at | gcc | clang-16 | same layout |"
	assert_line "| cred | include/linux/cred.h:110 | yes | yes | yes |"
	assert_line "| file_operations | include/linux/fs.h:2093 | yes | yes | no |"
	assert_line "| ops | kernel/x.c:3 | not probed | yes | - |"
	run -0 jq -r -L scripts/report -f "scripts/report/report-html.jq" "$T/report.json"
	assert_line "<tr><td>file_operations</td><td>include/linux/fs.h:2093</td><td>yes</td><td>yes</td><td>no</td></tr>"
}

@test "report-md.jq: the configuration line names KCONFIG's base and KCONFIG_ADD's words, or is left out" {
	need_tool jq
	jq '.kconfig = "debian" | .config_add = ["kcfi", "CONFIG_HZ=250"]' tests/fixtures/report/report.json >"$T/both.json"
	run -0 jq -r -L scripts/report -f "scripts/report/report-md.jq" "$T/both.json"
	assert_line "Configuration: KCONFIG=debian in place of each target's base, and KCONFIG_ADD kcfi CONFIG_HZ=250"
	jq '.kconfig = null | .config_add = ["thinlto"]' tests/fixtures/report/report.json >"$T/add.json"
	run -0 jq -r -L scripts/report -f "scripts/report/report-md.jq" "$T/add.json"
	assert_line "Configuration: each target's own, and KCONFIG_ADD thinlto"
	run -0 jq -r -L scripts/report -f "scripts/report/report-html.jq" "$T/both.json"
	assert_line "<p>Configuration: KCONFIG=debian in place of each target&apos;s base, and KCONFIG_ADD kcfi CONFIG_HZ=250</p>"
	jq '.kconfig = null | .config_add = []' tests/fixtures/report/report.json >"$T/none.json"
	run -0 jq -r -L scripts/report -f "scripts/report/report-md.jq" "$T/none.json"
	refute_line --partial "Configuration:"
}

@test "report-html.jq: one table row per cell" {
	need_tool jq
	run -0 jq -r -L scripts/report -f "scripts/report/report-html.jq" tests/fixtures/report/report.json
	expected report-html
}

@test "warnings-list.awk: compiler and linker diagnostics, relative to the tree" {
	run -0 awk -v src=/usr/src/linux-6.1 -f "scripts/warnings/warnings-list.awk" tests/fixtures/warnings/clang-error.log
	expected warnings-list
}

@test "boot-verdict.awk: pass, and each reason to fail" {
	local f=tests/fixtures/boot-verdict token
	token=$(sed -n 's/^kparity-init: PASS //p' "$f/pass.log" | tr -d '\r')
	run -0 awk -v status=0 -v token="$token" -f "scripts/boot-verdict/boot-verdict.awk" "$f/pass.log"
	assert_output "pass"
	run -1 awk -v status=3 -v token="$token" -f "scripts/boot-verdict/boot-verdict.awk" "$f/pass.log"
	assert_output "fail: qemu exited 3"
	run -1 awk -v status=0 -v token=other -f "scripts/boot-verdict/boot-verdict.awk" "$f/pass.log"
	assert_output 'fail: no marker: init never printed "kparity-init: marker other"'
	run -1 awk -v status=124 -v token="$token" -f "scripts/boot-verdict/boot-verdict.awk" "$f/hang.log"
	assert_output "fail: hang: no verdict from the guest before the time limit"
}

@test "kconfig-verify.awk: each last request .config does not meet, in order" {
	run -1 awk -v prog=k -f "scripts/kernel-config/kconfig-verify.awk" part=config "$FIX/config" part=fragment "$FIX/fragment"
	assert_output "$(printf '%s\n' \
		"k: CONFIG_B=y requested by $FIX/fragment but .config has 'CONFIG_B=m'" \
		"k: CONFIG_C=y requested by $FIX/fragment but .config has '# CONFIG_C is not set'" \
		"k: CONFIG_D=\"other\" requested by $FIX/fragment but .config has 'CONFIG_D=\"text\"'" \
		"k: CONFIG_E=y requested by $FIX/fragment but .config does not mention it" \
		"k: CONFIG_F=n requested by $FIX/fragment but .config has 'CONFIG_F=y'" \
		"k: CONFIG_A=n requested by $FIX/fragment but .config has 'CONFIG_A=y'")"
}

@test "kconfig-verify.awk: a .config that has every request passes" {
	printf 'CONFIG_A=y\n# CONFIG_B is not set\n' >"$T/config"
	printf 'CONFIG_A=y\n# CONFIG_B is not set\n# CONFIG_C is not set\n' >"$T/frag"
	run -0 awk -v prog=k -f "scripts/kernel-config/kconfig-verify.awk" part=config "$T/config" part=fragment "$T/frag"
	assert_output ""
}

@test "driver-diagnostics.awk: the driver's own diagnostics, once each" {
	run -0 awk -f "scripts/series/driver-diagnostics.awk" "$FIX/driver.log"
	assert_output "$(printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
		warning compiler -Wunused-command-line-argument '(driver)' 0 "argument unused during compilation: '-march=armv7-a'" \
		error compiler -Wunused-command-line-argument '(driver)' 0 "argument unused during compilation: '-mthumb'" \
		error compiler '(none)' '(driver)' 0 "unrecognized command-line option '-mfoo'" \
		warning compiler '(none)' '(driver)' 0 "no flag here")"
}

@test "kconfig-lines.awk: blank, comment and assignment lines pass" {
	run -0 --separate-stderr awk -v prog=k -f "scripts/kernel-config/kconfig-lines.awk" "$FIX/fragment" kconfig/fragments/x86_64.config
	assert_output ""
	assert_equal "$stderr" ""
}

@test "kconfig-lines.awk: any other line is named with file and line, exit 2" {
	printf 'CONFIG_A=y\nCONFIG_B y\n\nCONFIG_C=\n' >"$T/frag"
	run -2 --separate-stderr awk -v prog=k -f "scripts/kernel-config/kconfig-lines.awk" "$T/frag"
	assert_output ""
	assert_equal "$stderr" "$(printf '%s\n' \
		"k: $T/frag:2: not a Kconfig assignment: 'CONFIG_B y'" \
		"k: $T/frag:4: not a Kconfig assignment: 'CONFIG_C='")"
}

@test "warnings-summary.awk: one count per kind, tool, flag and file" {
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
		warning compiler -Wunused a.c 1 x warning compiler -Wunused b.c 2 y \
		error objtool '(none)' a.c 3 z >"$T/list"
	awk -F "$TAB" -f "scripts/warnings/warnings-summary.awk" "$T/list" >"$T/counts"
	run -0 sort "$T/counts"
	assert_output "$(printf '%s\t%s\t%s\t%s\n' \
		0 0 '' 'warnings 2' 1 0 '' 'errors 1' \
		2 1 objtool 'tool objtool 1' 2 2 compiler 'tool compiler 2' \
		3 1 '(none)' 'flag (none) 1' 3 2 -Wunused 'flag -Wunused 2' \
		4 1 b.c 'file b.c 1' 4 2 a.c 'file a.c 2')"
}

@test "compiler-bugs-history.awk: the first version of each outcome, targets alike merged" {
	printf '%s\t%s\t%s\t%s\t%s\n' \
		a clang arm 13.0.1 reject a clang arm 14.0.6 reject a clang arm 19.1.7 accept \
		a clang x86_64 13.0.1 reject a clang x86_64 19.1.7 accept \
		a gcc x86_64 11.3.0 accept a gcc x86_64 12.2.0 accept \
		b clang arm 13.0.1 reject b clang arm 15.0.6 reject \
		b clang x86_64 13.0.1 reject b clang x86_64 15.0.6 'wrong-code 1' >"$T/sorted"
	run -0 awk -F "$TAB" -v tsv=1 -f "scripts/compiler-bugs/compiler-bugs-history.awk" "$T/sorted"
	assert_output "$(printf '%s\t%s\t%s\t%s\n' \
		a clang all '13.0.1 reject -> 19.1.7 accept' \
		b clang arm '13.0.1 reject' \
		b clang x86_64 '13.0.1 reject -> 15.0.6 wrong-code 1')"
	run -0 awk -F "$TAB" -f "scripts/compiler-bugs/compiler-bugs-history.awk" "$T/sorted"
	assert_output "$(printf '%s\n' \
		'a  clang  all     13.0.1 reject -> 19.1.7 accept' \
		'b  clang  arm     13.0.1 reject' \
		'b  clang  x86_64  13.0.1 reject -> 15.0.6 wrong-code 1')"
}

@test "parity-failures.jq: each failure of a target's stages, in the run's order, then the tests" {
	need_tool jq
	run -0 jq -c -s -f "scripts/parity/parity-failures.jq" "$FIX/failures-x86.json" "$FIX/failures-arm.json"
	assert_output - <<'OUT'
{"failures":["x86_64/gcc kselftest: cannot build the disk (k)","x86_64/gcc boot: hang: no verdict","x86_64/clang-19 build: kernel-build.sh: make failed","x86_64 kabi gcc vs clang-22: 2 types differ incompatibly","x86_64 kabi clang-19 vs clang-22: kabi diff failed (exit 1)","x86_64 swap: kernel-swap.sh: cannot read 'cells/x86_64-clang-22.json'","arm-vexpress/gcc tests: no KUnit results on the console (kernel panic at line 3: VFS)","arm-vexpress tests: 2 differ between compilers, first breakpoints.breakpoint_test (gcc fail, clang fail; 106 of 110 subtests differ)"],"findings":["arm-vexpress clang-13 -> clang-14: 3 types changed, 1 incompatibly"]}
OUT
}

@test "parity-failures.jq: a run where everything passed has neither" {
	need_tool jq
	local passed='.cells |= map(.build.status = "pass" | .disk.status = "none"
		| .boot.status = "pass" | .tests = null) | .kabi_vs_ref = [] | .kabi_versions = [] | .tests = null
		| .swap.status = "pass"'
	jq "$passed" "$FIX/failures-x86.json" >"$BATS_TEST_TMPDIR/passed.json"
	run -0 jq -c -s -f "scripts/parity/parity-failures.jq" "$BATS_TEST_TMPDIR/passed.json"
	assert_output '{"failures":[],"findings":[]}'
}

@test "parity-failures.jq: a kabi check fails a cell by the clashes only its compiler makes, or by failing" {
	need_tool jq
	run -0 jq -c -s -f "scripts/parity/parity-failures.jq" <(jq '
		def clash($n; $i): {kind: "struct", name: $n, decl: "include/x.h:\($n | length)", incompatible: $i};
		.cells |= [
			(.[0] | .name = "x86_64/gcc" | .check = {status: "pass", clashes: [clash("a"; true), clash("tree"; true), clash("typedef"; false)]}),
			(.[0] | .name = "x86_64/clang" | .check = {status: "pass", clashes: [clash("tree"; true), clash("typedef"; true)]}),
			(.[0] | .name = "x86_64/clang-19" | .check = {status: "fail", reason: "kabi check exited 1: kabi: vmlinux: no DWARF"}),
			(.[0] | .name = "x86_64/clang-22" | .check = null)]
		| .cells |= map(.build.status = "pass" | .disk.status = "none" | .boot.status = "pass" | .tests = null)
		| .kabi_vs_ref = [] | .kabi_versions = [] | .tests = null | .swap.status = "pass"' "$FIX/failures-x86.json")
	assert_output '{"failures":["x86_64/gcc kabi check: 1 types its units lay out incompatibly, which another compiler'"'"'s do not, first struct a at include/x.h:1","x86_64/clang kabi check: 1 types its units lay out incompatibly, which another compiler'"'"'s do not, first struct typedef at include/x.h:7","x86_64/clang-19 kabi check: kabi check exited 1: kabi: vmlinux: no DWARF"],"findings":[]}'
}

@test "parity-report.jq: the run's lists as arrays, aliases as an object, the verdict by failures" {
	need_tool jq
	run -0 jq -c -s --arg kernel linux-6.1.192 --arg build build --arg targets "x86_64 riscv64-virt" \
		--arg compilers "gcc clang-19" --arg reference gcc --arg aliases "gcc-12=gcc clang=clang-19" \
		--arg tests kunit --arg kinds kunit --arg report_dir config-kcfi/report --arg kconfig "" \
		--arg config_add "kcfi CONFIG_HZ=250" \
		--slurpfile f <(echo '{"failures": [], "findings": ["f"]}') \
		--slurpfile sk <(echo '[{"target": "riscv64-virt", "compiler": "gcc-11", "reason": "r"}]') \
		-f scripts/parity/parity-report.jq <(echo '{"name": "x86_64"}') <(echo '{"name": "riscv64-virt"}')
	assert_output '{"version":1,"kernel":"linux-6.1.192","builddir":"build","report_dir":"config-kcfi/report","kconfig":null,"config_add":["kcfi","CONFIG_HZ=250"],"tests":"kunit","test_kinds":["kunit"],"compilers":["gcc","clang-19"],"aliases":{"gcc-12":"gcc","clang":"clang-19"},"reference":"gcc","targets":["x86_64","riscv64-virt"],"skipped":[{"target":"riscv64-virt","compiler":"gcc-11","reason":"r"}],"failures":[],"findings":["f"],"series_new":null,"verdict":"pass","matrix":[{"name":"x86_64"},{"name":"riscv64-virt"}]}'
	run -0 jq -c -s --arg kernel k --arg build b --arg targets x86_64 --arg compilers gcc \
		--arg reference gcc --arg aliases "" --arg tests none --arg kinds "" --arg config_add "" \
		--arg report_dir 6.12/config-defconfig/report --arg kconfig defconfig \
		--slurpfile f <(echo '{"failures": ["x"], "findings": []}') --slurpfile sk <(echo '[]') \
		--slurpfile series <(echo '{"patches": [{"sha256": "a", "name": "p"}], "targets": []}') \
		-f scripts/parity/parity-report.jq <(echo '{}')
	assert_output '{"version":1,"kernel":"k","builddir":"b","report_dir":"6.12/config-defconfig/report","kconfig":"defconfig","config_add":[],"tests":"none","test_kinds":[],"compilers":["gcc"],"aliases":{},"reference":"gcc","targets":["x86_64"],"skipped":[],"failures":["x"],"findings":[],"series_new":{"patches":[{"sha256":"a","name":"p"}],"targets":[]},"verdict":"fail","matrix":[{}]}'
}

# verdicts ROW...: module-check.sh's verdicts.tsv, each ROW 'REL|BITS|VERDICT'
verdicts() {
	local row

	for row in "$@"; do
		printf '%s\tdetail\n' "$(printf '%s' "$row" | tr '|' '\t')"
	done >"$T/verdicts.tsv"
}

@test "module-summary.awk: every module checked and equal is PASS" {
	verdicts 'a.ko|0|PASS' 'sub/b.ko|0|PASS'
	run -0 awk -F "$TAB" -v missing= -f scripts/module/module-summary.awk "$T/verdicts.tsv"
	assert_output "PASS (2 of 2 modules checked)"
}

@test "module-summary.awk: a difference comes first, the bits ORed, with what was not checked" {
	verdicts 'a.ko|4|LAYOUTS DIFFER (kabi bits 4)' 'b.ko|24|LAYOUTS DIFFER (kabi bits 8)' \
		'c.ko|16|NOT CHECKED' 'd.ko|16|NOT FULLY CHECKED' 'e.ko|0|PASS'
	run -0 awk -F "$TAB" -v missing=x_tables -f scripts/module/module-summary.awk "$T/verdicts.tsv"
	assert_output "layouts differ in 2 of 5 modules (kabi bits 12); 1 not checked; 2 not fully checked"
}

@test "module-summary.awk: without a difference, what was not checked and what was not compared" {
	verdicts 'a.ko|16|NOT CHECKED' 'b.ko|16|NOT FULLY CHECKED' 'c.ko|0|PASS'
	run -0 awk -F "$TAB" -v missing="drm, x_tables" -f scripts/module/module-summary.awk "$T/verdicts.tsv"
	assert_output "NOT FULLY CHECKED (1 of 3 modules not checked; 1 of 3 modules: types of drm, x_tables not compared)"
	verdicts 'a.ko|16|NOT FULLY CHECKED' 'b.ko|0|PASS'
	run -0 awk -F "$TAB" -v missing=drm -f scripts/module/module-summary.awk "$T/verdicts.tsv"
	assert_output "NOT FULLY CHECKED (1 of 2 modules: types of drm not compared)"
}

@test "module-summary.awk: no module readable is NOT CHECKED" {
	verdicts 'a.ko|16|NOT CHECKED' 'b.ko|16|NOT CHECKED'
	run -0 awk -F "$TAB" -v missing= -f scripts/module/module-summary.awk "$T/verdicts.tsv"
	assert_output "NOT CHECKED (2 of 2 modules unreadable to kabi)"
}

@test "module-summary.awk: not fully checked with no module depended on missing: objects without DWARF" {
	verdicts 'a.ko|16|NOT FULLY CHECKED' 'b.ko|0|PASS'
	run -0 awk -F "$TAB" -v missing= -f scripts/module/module-summary.awk "$T/verdicts.tsv"
	assert_output "NOT FULLY CHECKED (1 of 2 modules not fully checked)"
}

@test "parity-failures.jq: GCC and Clang randomizing a structure differently with one seed fails the target" {
	need_tool jq
	local passed='.cells |= map(.build.status = "pass" | .disk.status = "none"
		| .boot.status = "pass" | .tests = null) | .kabi_vs_ref = [] | .kabi_versions = [] | .tests = null
		| .swap.status = "pass"'
	local rs='{gcc: "gcc", clang: "clang-16", randomized: {clang: 3, probed: 3, gcc: 2}, same: 1,
		types: [{name: "a", decl: "include/a.h:1", probe: true, gcc: true, same: true},
			{name: "b", decl: "include/b.h:2", probe: true, gcc: false, same: false},
			{name: "c", decl: "include/c.h:3", probe: true, gcc: true, same: false}]}'
	jq "$passed | .randstruct = $rs" "$FIX/failures-x86.json" >"$BATS_TEST_TMPDIR/rs.json"
	run -0 jq -c -s -f "scripts/parity/parity-failures.jq" "$BATS_TEST_TMPDIR/rs.json"
	assert_output '{"failures":["x86_64 randstruct: gcc and clang-16 lay out 1 of 2 structures both randomized differently with one seed, first struct c at include/c.h:3"],"findings":[]}'
	jq "$passed | .randstruct = ($rs | .same = 2)" "$FIX/failures-x86.json" >"$BATS_TEST_TMPDIR/rs.json"
	run -0 jq -c -s -f "scripts/parity/parity-failures.jq" "$BATS_TEST_TMPDIR/rs.json"
	assert_output '{"failures":[],"findings":[]}'
}
