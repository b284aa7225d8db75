# SPDX-License-Identifier: GPL-2.0-only
#
# parity-tests-target.jq - a target's row of the parity report (from
# parity-target.jq) with its "tests": every test's status under each
# compiler, side by side, and which tests pass under one compiler and not
# under another.
#
# Usage: jq --rawfile known test-differences.list -f parity-tests-target.jq
#           TARGET.json
# A test that differs is "known" when the list has a line
# "TARGET|* SUITE.TEST REFERENCE REASON..." for it, else it "differs";
# it is "unjudged" when it differs only by not having run (not-run or
# timeout) in cells whose boot failed: that failure is already the
# cell's, and where a hung or crashed guest stopped is no parity result.
# Rows come in this order: differs, known, unjudged, failing under every
# compiler, the rest; each group in the order of the consoles. "by_kind" holds each
# compiler's KUnit and kselftest counts apart, when the cells have them.

def known_list: $known | split("\n")
	| map(select(test("^[[:space:]]*(#|$)") | not)
	      | capture("^(?<target>[^[:space:]]+)[[:space:]]+(?<test>[^[:space:]]+)[[:space:]]+(?<reference>[^[:space:]]+)[[:space:]]+(?<reason>.+)$")
	      // error("malformed line (want TARGET TEST REFERENCE REASON): \(.)"));
def rank: if .parity == "differs" then 0 elif .parity == "known" then 1
	elif .parity == "unjudged" then 2
	elif ([.status[] | select(. != "pass")] | length) > 0 then 3 else 4 end;
# differ: whether a set of statuses is a difference: a pass and anything else
def differ: length > 1 and index("pass") != null;

.name as $target
| [.cells[] | select(.tests != null)] as $cells
| [known_list[] | select(.target == "*" or .target == $target)] as $known
| [$cells[] | select(.boot.status != "pass") | .compiler] as $down
| . + {tests: (if ($cells | length) == 0 then null else
	([$cells[].tests.results[].name] | reduce .[] as $n ([]; if index([$n]) then . else . + [$n] end)) as $names
	| ($cells | map({key: .compiler, value: (.tests.results | map({key: .name, value: .status}) | from_entries)})
	   | from_entries) as $by
	| [$names | to_entries[] | .key as $i | .value as $n
	   | {test: $n, order: $i,
	      status: ($by | map_values(.[$n] // "not-run"))}
	   | ([.status[]] | unique) as $s
	   | ([.status | to_entries[]
	       | select((.key | IN($down[])) and (.value == "not-run" or .value == "timeout") | not)
	       | .value] | unique) as $judged
	   | ([$known[] | select(.test == $n)][0]) as $k
	   | if ($s | differ) | not then . + {parity: "same"}
	     elif ($judged | differ) | not then
		. + {parity: "unjudged",
		     reason: "the boot of \([.status | to_entries[] | select(.key | IN($down[])) | .key] | join(", ")) failed"}
	     elif $k != null then . + {parity: "known", reference: $k.reference, reason: $k.reason}
	     else . + {parity: "differs"} end]
	| sort_by([rank, .order]) | map(del(.order)) as $rows
	| {compilers: [$cells[].compiler],
	   counts: ($cells | map({key: .compiler, value: .tests.counts}) | from_entries),
	   notes: ($cells | map({key: .compiler, value: .tests.notes}) | from_entries),
	   differs: [$rows[] | select(.parity == "differs")] | length,
	   rows: $rows}
	| ($cells | map(select(.tests.by_kind) | {key: .compiler, value: .tests.by_kind})) as $k
	| if ($k | length) == 0 then . else . + {by_kind: ($k | from_entries)} end
	end)}
