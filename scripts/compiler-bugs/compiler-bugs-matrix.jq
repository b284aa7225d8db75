# SPDX-License-Identifier: GPL-2.0-only
#
# compiler-bugs-matrix.jq - a case run as one JSON object (matrix.json).
#
# Usage: jq -n --rawfile compilers compilers.tsv --rawfile skipped skipped.tsv \
#           --rawfile cases cases.tsv --rawfile results results.tsv \
#           --rawfile malformed malformed.tsv -f compiler-bugs-matrix.jq
# Each input is tab-separated, a record a line (see scripts/compiler-bugs.sh).

def rows($s): $s | split("\n") | map(select(length > 0) | split("\t"));
(rows($results) | map({case: .[0], target: .[1], compiler: .[2],
	outcome: .[3], mark: .[4],
	recorded: (if .[5] == "" then null else .[5] end),
	recorded_at: (if .[6] == "0" then null else "\(.[7]):\(.[6])" end),
	version: .[8], diagnostic: (.[9] // "")})) as $r
| (rows($malformed) | map({file: .[0], line: (.[1] | tonumber), message: .[2]})) as $m
| {version: 1,
   compilers: (rows($compilers) | map({name: .[1], target: .[2], family: .[3],
	version: .[4], command: .[5]})),
   skipped: (rows($skipped) | map({name: .[0], target: .[1], command: .[2], reason: .[3]})),
   cases: (rows($cases) | map({name: .[0], file: .[1], title: .[2],
	targets: (.[3] | split(" ")), sources: (.[4] // "" | split("\u001f"))})),
   results: $r,
   malformed: $m,
   summary: {cases: (rows($cases) | length),
	compilers: (rows($compilers) | length),
	results: ($r | length),
	expected: ($r | map(select(.mark == "expected")) | length),
	changed: ($r | map(select(.mark == "CHANGED")) | length),
	malformed: ($m | map(.file) | unique | length)}}
