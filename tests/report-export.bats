#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# report-export.sh: a parity report as KCIDB I/O JSON and TuxMake
# metadata.json, validated with python3-jsonschema against the subsets of
# both formats in Documentation/schemas/. The report is the recorded one
# of tests/fixtures/report/, with test results added by the jq filter below.

load common

setup() {
	need_tool jq
	need_tool sqlite3
	F=$BATS_TEST_DIRNAME/fixtures/report
	T=$BATS_TEST_TMPDIR
	S=$TOP/Documentation/schemas
	V=$TOP/tests/json-validate.py
	export KPARITY_HISTORY_DB=$T/results.db
	mkdir -p "$T/build/report"
	jq '(.matrix[0].cells[] | .tests) = {kinds: ["kunit"],
		results: [{name: "overflow.shift_sane_test", status: "pass"},
			  {name: "futex.futex wait (timeout)", status: "timeout"},
			  {name: "a.b", status: "skip"}, {name: "a.c", status: "not-run"}],
		counts: {pass: 1, fail: 0, skip: 1, timeout: 1, "not-run": 1}}' \
		"$F/report.json" >"$T/build/report/report.json"
	R=$T/build/report
}

@test "report-export: history.sh record writes both formats, and both validate" {
	run -0 --separate-stderr "$TOP/scripts/history.sh" record "$R/report.json"
	run -0 "$V" "$S/kcidb.schema.json" "$R/kcidb.json"
	assert_output ""
	run -0 "$V" "$S/tuxmake-metadata.schema.json" "$R/tuxmake/x86_64-gcc/metadata.json" \
		"$R/tuxmake/x86_64-clang/metadata.json"
	assert_output ""
}

@test "report-export: KCIDB builds name compiler, config and command; tests carry status and numbers" {
	"$TOP/scripts/history.sh" record "$R/report.json" 2>/dev/null
	run -0 jq -c '.version, (.builds[1] | del(.misc, .id, .checkout_id)),
		[.tests[] | select(.build_id | endswith("x86_64_clang")) | [.path, .status, (.number.value // null)]]' "$R/kcidb.json"
	assert_output "$(cat <<'EOF2'
{"major":5,"minor":3}
{"origin":"kparity","architecture":"x86_64","compiler":"Debian clang version 14.0.6","command":"scripts/kernel-build.sh -o build -t x86_64 -c clang","config_name":"tinyconfig+x86_64.config+debug-info.config+kunit.config","duration":2,"status":"PASS"}
[["boot","FAIL",null],["test.overflow.shift_sane_test","PASS",null],["test.futex.futex_wait__timeout_","ERROR",null],["test.a.b","SKIP",null],["test.a.c","MISS",null],["build.warnings","DONE",0],["build.errors","DONE",0],["kabi.gcc","FAIL",4]]
EOF2
)"
	run -0 jq -r '.checkouts[0].patchset_hash' "$R/kcidb.json"
	assert_output "$(sqlite3 "$KPARITY_HISTORY_DB" 'SELECT series FROM run')"
}

@test "report-export: metadata.json reproduces with reproduce.sh and pins the toolchain" {
	need_tool dpkg-query
	"$TOP/scripts/history.sh" record "$R/report.json" 2>/dev/null
	gcc=$(readlink -f "$(command -v gcc)")
	pkg=$(dpkg-query -S "$gcc" | cut -d: -f1)
	run -0 jq -c '.build.reproducer_cmdline, .compiler, .results, .tools["'"$pkg"'"]' "$R/tuxmake/x86_64-gcc/metadata.json"
	assert_output "$(cat <<EOF2
["scripts/reproduce.sh","build/report/report.json","x86_64/gcc"]
{"name":"gcc","version":"12.2.0","version_full":"gcc (Debian 12.2.0-14+deb12u1) 12.2.0"}
{"status":"FAIL","targets":{"kernel":{"status":"PASS","duration":2}},"errors":0,"warnings":0}
"$(dpkg-query -W -f '${Version}' "$pkg")"
EOF2
)"
}

@test "report-export: without toolchain.json the formats still validate, unpinned" {
	run -0 "$TOP/scripts/report-export.sh" "$R/report.json"
	run -0 "$V" "$S/kcidb.schema.json" "$R/kcidb.json"
	run -0 "$V" "$S/tuxmake-metadata.schema.json" "$R/tuxmake/x86_64-gcc/metadata.json"
	run -0 jq -c '.builds[0].misc' "$R/kcidb.json"
	assert_output '{"cell":"x86_64/gcc"}'
	run -0 jq -c '.tools // "no tools"' "$R/tuxmake/x86_64-gcc/metadata.json"
	assert_output '"no tools"'
}

@test "report-export: the schemas refuse what KCIDB and TuxMake would refuse" {
	"$TOP/scripts/report-export.sh" "$R/report.json"
	jq '.builds[0].status = "pass" | .tests[0].path = "a..b" | .checkouts[0].origin = "Kparity"' \
		"$R/kcidb.json" >"$T/bad-kcidb.json"
	run -1 "$V" "$S/kcidb.schema.json" "$T/bad-kcidb.json"
	assert_output "$(cat <<EOF2
$T/bad-kcidb.json: /builds/0/status: 'pass' is not one of ['FAIL', 'ERROR', 'MISS', 'PASS', 'DONE', 'SKIP']
$T/bad-kcidb.json: /checkouts/0/origin: 'Kparity' does not match '^[a-z0-9_]+\$'
$T/bad-kcidb.json: /tests/0/path: 'a..b' does not match '^[A-Za-z0-9_-]+(\\\\.[A-Za-z0-9_-]+)*\$'
EOF2
)"
	jq 'del(.results.status) | .build.jobs = 2' "$R/tuxmake/x86_64-gcc/metadata.json" >"$T/bad-meta.json"
	run -1 "$V" "$S/tuxmake-metadata.schema.json" "$T/bad-meta.json"
	assert_output "$(cat <<EOF2
$T/bad-meta.json: /build: Additional properties are not allowed ('jobs' was unexpected)
$T/bad-meta.json: /results: 'status' is a required property
EOF2
)"
}

@test "report-export: a file that is not a parity report is one line" {
	echo '{"version": 2}' >"$T/x.json"
	run -2 --separate-stderr "$TOP/scripts/report-export.sh" "$T/x.json"
	assert_equal "$stderr" "report-export.sh: '$T/x.json' is not a version 1 parity report"
	[ ! -e "$T/kcidb.json" ]
}

@test "report-export: another kernel tree's reproducer names its report in that tree's place" {
	jq '.kernel = "linux-6.12.118"' "$R/report.json" >"$T/r" && mv "$T/r" "$R/report.json"
	run -0 "$TOP/scripts/report-export.sh" "$R/report.json"
	run -0 jq -c '.build.reproducer_cmdline' "$R/tuxmake/x86_64-gcc/metadata.json"
	assert_output '["scripts/reproduce.sh","build/6.12/report/report.json","x86_64/gcc"]'
}
