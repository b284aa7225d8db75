# SPDX-License-Identifier: GPL-2.0-only
#
# parity-tests.jq - one cell's test results, from what scripts/ktap.sh
# printed for its console, as the "tests" object of Documentation/parity.md.
#
# Usage: jq -R -s --arg kinds "kunit ..." -f parity-tests.jq KTAP-LINES

(split("\n") | map(select(. != ""))) as $lines
| ($lines | map(select(startswith("# ") | not) | capture("^(?<name>.*) (?<status>[a-z-]+)$"))) as $results
| {kinds: ($kinds | split(" ") | map(select(. != ""))),
   results: $results,
   notes: ($lines | map(select(startswith("# ")) | ltrimstr("# "))),
   counts: (reduce $results[] as $r ({pass: 0, fail: 0, skip: 0, timeout: 0, "not-run": 0};
	.[$r.status] += 1))}
