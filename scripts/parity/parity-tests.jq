# SPDX-License-Identifier: GPL-2.0-only
#
# parity-tests.jq - one cell's test results, from what scripts/ktap.sh
# printed for its console, as the "tests" object of Documentation/parity.md.
#
# Usage: jq -R -s --arg kinds "kunit ..." [--arg kselftest "COLLECTION..."]
#           -f parity-tests.jq KTAP-LINES
# Every result is in "results", in the order of the console. A kselftest
# program's own results come right before its test's line, named
# TEST.SUBTEST: each gets "test": TEST. A test whose runner's line said
# something else than its status has "runner" too. The counts are of the
# tests, not of their subtests.
# With the kselftest collections of the cell's disk, "by_kind" holds the
# counts of its KUnit and kselftest results apart (and of the kselftests'
# subtests, when there are any): a result whose suite is one of the
# collections is a kselftest's; the rest of a plan that never ran, named
# "#N.*" (after a panic), is of the kind of the result before it.

def count: reduce .[] as $r ({pass: 0, fail: 0, skip: 0, timeout: 0, "not-run": 0};
	.[$r.status] += 1);
# kind(COLLECTIONS): "kselftest" for a result of one of COLLECTIONS, else "kunit"
def kind($colls): (.name | split(".")[0]) as $s | if $colls | index([$s]) then "kselftest" else "kunit" end;
# kinds(COLLECTIONS): the results, each with its "kind"
def kinds($colls): reduce .[] as $r ([];
	. + [$r + {kind: (if ($r.name | test("^#[0-9]+\\.\\*$")) and length > 0 then .[-1].kind
			  else $r | kind($colls) end)}]);
# subtests: each result named TEST.SUBTEST printed right before the result
# TEST gets "test": TEST
def subtests: reduce .[] as $r ([];
	($r.name + ".") as $p
	| first((range(length - 1; -1; -1) as $i
		 | select(.[$i].test != null or (.[$i].name | startswith($p) | not)) | $i), -1) as $j
	| .[$j + 1:] |= map(. + {test: $r.name})
	| . + [$r]);

"pass|fail|skip|timeout|not-run" as $status
| (split("\n") | map(select(. != ""))) as $lines
| ($lines | map(select(startswith("# ") | not)
	| capture("^(?<name>.*) (?<status>\($status))(?: runner=(?<runner>\($status)))?$")
	| if .runner == null then del(.runner) else . end)
  | subtests) as $results
| ($results | map(select(.test == null))) as $tests
| ($ARGS.named.kselftest // "" | split(" ") | map(select(. != ""))) as $colls
| {kinds: ($kinds | split(" ") | map(select(. != ""))),
   results: $results,
   notes: ($lines | map(select(startswith("# ")) | ltrimstr("# "))),
   counts: ($tests | count)}
| if ($colls | length) == 0 then . else
	($tests | kinds($colls)) as $k
	| ($results | map(select(.test != null))) as $subs
	| . + {by_kind: ({kunit: ([$k[] | select(.kind == "kunit")] | count),
			  kselftest: ([$k[] | select(.kind == "kselftest")] | count)}
			 + if ($subs | length) == 0 then {} else {kselftest_subtests: ($subs | count)} end)}
  end
