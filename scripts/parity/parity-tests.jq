# SPDX-License-Identifier: GPL-2.0-only
#
# parity-tests.jq - one cell's test results, from what scripts/ktap.sh
# printed for its console, as the "tests" object of Documentation/parity.md.
#
# Usage: jq -R -s --arg kinds "kunit ..." [--arg kselftest "COLLECTION..."]
#           -f parity-tests.jq KTAP-LINES
# With the kselftest collections of the cell's disk, "by_kind" holds the
# counts of its KUnit and kselftest results apart: a result whose suite
# is one of the collections is a kselftest's; the rest of a plan that never
# ran, named "#N.*" (after a panic), is of the kind of the result before it.

def count: reduce .[] as $r ({pass: 0, fail: 0, skip: 0, timeout: 0, "not-run": 0};
	.[$r.status] += 1);
# kind(COLLECTIONS): "kselftest" for a result of one of COLLECTIONS, else "kunit"
def kind($colls): (.name | split(".")[0]) as $s | if $colls | index([$s]) then "kselftest" else "kunit" end;
# kinds(COLLECTIONS): the results, each with its "kind"
def kinds($colls): reduce .[] as $r ([];
	. + [$r + {kind: (if ($r.name | test("^#[0-9]+\\.\\*$")) and length > 0 then .[-1].kind
			  else $r | kind($colls) end)}]);

(split("\n") | map(select(. != ""))) as $lines
| ($lines | map(select(startswith("# ") | not) | capture("^(?<name>.*) (?<status>[a-z-]+)$"))) as $results
| ($ARGS.named.kselftest // "" | split(" ") | map(select(. != ""))) as $colls
| {kinds: ($kinds | split(" ") | map(select(. != ""))),
   results: $results,
   notes: ($lines | map(select(startswith("# ")) | ltrimstr("# "))),
   counts: ($results | count)}
| if ($colls | length) == 0 then . else
	($results | kinds($colls)) as $k
	| . + {by_kind: {kunit: ([$k[] | select(.kind == "kunit")] | count),
		       kselftest: ([$k[] | select(.kind == "kselftest")] | count)}}
  end
