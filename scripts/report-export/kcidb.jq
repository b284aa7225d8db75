# SPDX-License-Identifier: GPL-2.0-only
#
# kcidb.jq - a parity report.json as KCIDB I/O JSON (schema 5.3): one
# checkout (the tree and the series), a build per cell (compiler, config,
# command, duration, status) and its tests: the boot, every test result,
# and the warnings and layout changes as numbers. Documentation/schemas/
# kcidb.schema.json is the subset of KCIDB's schema it writes.
#
# Usage: jq --slurpfile toolchain TOOLCHAIN.json --argjson targets TARGETS
#           --arg sum REPORT-SHA256 -f kcidb.jq report.json
# TARGETS: {NAME: {arch, config}} for each target of the report.

def status: {"pass": "PASS", "fail": "FAIL", "skip": "SKIP", "skipped": "SKIP",
	     "timeout": "ERROR", "not-run": "MISS"}[.] // "ERROR";
# a test path component: KCIDB's paths are dot-separated
def part: gsub("[^A-Za-z0-9_.-]"; "_");
# KCIDB has no null: a property it would have is left out
def nonull: walk(if type == "object" then with_entries(select(.value != null)) else . end);

. as $r
| ($toolchain[0] // {}) as $tc
| "kparity:\($sum[0:16])" as $co
| ($r.reference // $r.compilers[0]) as $ref
| {version: {major: 5, minor: 3},
   checkouts: [{id: $co, origin: "kparity",
	tree_name: ($r.kernel | capture("^linux-(?<v>[0-9]+\\.[0-9]+)") | "linux-\(.v).y"),
	git_commit_name: $r.kernel,
	comment: "\($r.kernel) with the kparity series",
	patchset_hash: ($tc.series // ""),
	start_time: $tc.recorded,
	valid: true,
	misc: {tree_package: $tc.tree_package}}],
   builds: [$r.matrix[] | .cells[] | . as $c
	| ($tc.cells["\(.target)/\(.compiler)"] // null) as $p
	| {id: "\($co):\(.name | part)", checkout_id: $co, origin: "kparity",
	   architecture: $targets[.target].arch,
	   compiler: .compiler_version,
	   command: .build.reproduce,
	   config_name: $targets[.target].config,
	   duration: .build.seconds,
	   status: (.build.status | status),
	   log_excerpt: (if .build.status != "pass" then .build.reason else null end),
	   misc: {cell: .name,
		  toolchain: (if $p == null then null else {cc: $p.cc, ld: $p.ld} end)}}],
   tests: [$r.matrix[] | . as $t | .cells[] | . as $c
	| "\($co):\(.name | part)" as $b
	| {id: "\($b):boot", build_id: $b, origin: "kparity", path: "boot",
	   status: (.boot.status | status), duration: .boot.seconds,
	   comment: .boot.reason},
	  ((.tests // {}).results // [] | .[]
	   | {id: "\($b):test.\(.name | part)", build_id: $b, origin: "kparity",
	      path: "test.\(.name | part)", status: (.status | status)}),
	  {id: "\($b):build.warnings", build_id: $b, origin: "kparity", path: "build.warnings",
	   status: "DONE", number: {value: (.warnings.warnings // 0), unit: "warnings"}},
	  {id: "\($b):build.errors", build_id: $b, origin: "kparity", path: "build.errors",
	   status: "DONE", number: {value: (.warnings.errors // 0), unit: "errors"}},
	  ((if ($t.kabi_vs_ref // []) | length > 0 then $t.kabi_vs_ref[] | select(.new == $c.compiler)
	    elif $t.kabi != null and $c.compiler != $ref then $t.kabi + {old: $ref}
	    else empty end)
	   | select(.summary != null)
	   | {id: "\($b):kabi.\(.old | part)", build_id: $b, origin: "kparity",
	      path: "kabi.\(.old | part)", status: (if .status == "pass" then "PASS" else "FAIL" end),
	      number: {value: .summary.changed, unit: "types changed"},
	      comment: "layouts against \(.old): \(.summary.changed) changed, \(.summary.incompatible) incompatibly"})]}
| nonull
