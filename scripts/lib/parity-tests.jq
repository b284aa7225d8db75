# SPDX-License-Identifier: GPL-2.0-only
#
# parity-tests.jq - one cell's test results, from what scripts/ktap.sh
# printed for its console, as the "tests" object of Documentation/parity.md.
#
# Usage: jq -R -s --arg kinds "kunit ..." [--arg kselftest "COLLECTION..."]
#           -f parity-tests.jq KTAP-LINES
# With the kselftest collections of the cell's disk, "by_kind" holds the
# counts of its KUnit and kselftest results apart: a result whose suite
# is one of the collections is a kselftest's.

def count: reduce .[] as $r ({pass: 0, fail: 0, skip: 0, timeout: 0, "not-run": 0};
	.[$r.status] += 1);
# kind(COLLECTIONS): "kselftest" for a result of one of COLLECTIONS, else "kunit"
def kind($colls): (.name | split(".")[0]) as $s | if $colls | index([$s]) then "kselftest" else "kunit" end;

(split("\n") | map(select(. != ""))) as $lines
| ($lines | map(select(startswith("# ") | not) | capture("^(?<name>.*) (?<status>[a-z-]+)$"))) as $results
| ($ARGS.named.kselftest // "" | split(" ") | map(select(. != ""))) as $colls
| {kinds: ($kinds | split(" ") | map(select(. != ""))),
   results: $results,
   notes: ($lines | map(select(startswith("# ")) | ltrimstr("# "))),
   counts: ($results | count)}
| if ($colls | length) == 0 then . else
	. + {by_kind: {kunit: ([$results[] | select(kind($colls) == "kunit")] | count),
		       kselftest: ([$results[] | select(kind($colls) == "kselftest")] | count)}}
  end
