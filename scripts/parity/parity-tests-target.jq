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
# A kselftest's subtests (results with "test") are compared one by one
# under their test's row, each judged so, and the row takes the first of
# differs, known, unjudged that its own status or a subtest has; a line
# of the list for a test covers its subtests, one for TEST.SUBTEST that
# subtest alone.
# Rows come in this order: differs, known, unjudged, failing under some
# compiler, the rest; each group in the order of the consoles. "by_kind"
# holds each compiler's KUnit and kselftest counts apart, when the cells
# have them. With .swap (kernel-swap.sh's boots of each kernel with the
# other compiler's kselftests), each row it examined gets its "swap".

def known_list: $known | split("\n")
	| map(select(test("^[[:space:]]*(#|$)") | not)
	      | capture("^(?<target>[^[:space:]]+)[[:space:]]+(?<test>[^[:space:]]+)[[:space:]]+(?<reference>[^[:space:]]+)[[:space:]]+(?<reason>.+)$")
	      // error("malformed line (want TARGET TEST REFERENCE REASON): \(.)"));
def rank: if .parity == "differs" then 0 elif .parity == "known" then 1
	elif .parity == "unjudged" then 2
	elif ([.status[] | select(. != "pass")] | length) > 0 then 3 else 4 end;
def weight: {same: 0, unjudged: 1, known: 2, differs: 3}[.parity];
# differ: whether a set of statuses is a difference: a pass and anything else
def differ: length > 1 and index("pass") != null;
# in_order: the distinct values, in the order they first come
def in_order: reduce .[] as $n ([]; if index([$n]) then . else . + [$n] end);

.name as $target
| [.cells[] | select(.tests != null)] as $cells
| [known_list[] | select(.target == "*" or .target == $target)] as $known
| [$cells[] | select(.boot.status != "pass") | .compiler] as $down
| (.swap.pairs // []) as $pairs
# judge(NAMES): a row {status} judged; a line of the list for one of NAMES
# makes a difference known
| def judge($names):
	([.status[]] | unique) as $s
	| ([.status | to_entries[]
	    | select((.key | IN($down[])) and (.value == "not-run" or .value == "timeout") | not)
	    | .value] | unique) as $judged
	| ([$known[] | select(.test | IN($names[]))][0]) as $k
	| if ($s | differ) | not then . + {parity: "same"}
	  elif ($judged | differ) | not then
		. + {parity: "unjudged",
		     reason: "the boot of \([.status | to_entries[] | select(.key | IN($down[])) | .key] | join(", ")) failed"}
	  elif $k != null then . + {parity: "known", reference: $k.reference, reason: $k.reason}
	  else . + {parity: "differs"} end;
. + {tests: (if ($cells | length) == 0 then null else
	($cells | map(.tests.results | map(select(.test == null)) | .[].name) | in_order) as $names
	| ($cells | map({key: .compiler, value: (.tests.results | map(select(.test == null) | {key: .name, value: .})
						 | from_entries)}) | from_entries) as $by
	| ($cells | map({key: .compiler, value: (.tests.results | map(select(.test != null))
						 | group_by(.test) | map({key: .[0].test, value: map({key: .name, value: .status}) | from_entries})
						 | from_entries)}) | from_entries) as $subs
	| [$names | to_entries[] | .key as $i | .value as $n
	   | {test: $n, order: $i, status: ($by | map_values(.[$n].status // "not-run"))}
	   | ([$by | to_entries[] | select(.value[$n].runner) | {key: .key, value: .value[$n].runner}] | from_entries) as $runner
	   | if $runner == {} then . else . + {runner: $runner} end
	   | judge([$n])
	   | ([$subs[][$n] // {} | keys_unsorted[]] | in_order) as $sn
	   | if ($sn | length) == 0 then . else
		($n + ".") as $p
		| [$sn[] | . as $s
		   | {test: ($s | ltrimstr($p)), status: ($subs | map_values(.[$n][$s] // "not-run"))}
		   | judge([$n, $s])] as $rows
		| ([$rows[] | select(.parity != "same")] | max_by(weight)) as $worst
		| if $worst != null and ($worst | weight) > weight then
			del(.reason, .reference) + {parity: $worst.parity}
			+ ($worst | {reason, reference} | with_entries(select(.value != null)))
		  else . end
		| . + {subtests: {count: ($rows | length),
				  differ: ([$rows[] | select(.parity != "same")] | length),
				  counts: ($cells | map({key: .compiler,
						value: ([$rows[].status[.compiler]]
							| reduce .[] as $st ({pass: 0, fail: 0, skip: 0, timeout: 0, "not-run": 0};
								.[$st] += 1))}) | from_entries),
				  rows: $rows}}
	     end
	   | ([$pairs[] | .tests[$n] // empty]) as $sw
	   | if ($sw | length) == 0 then . else . + {swap: $sw} end]
	| sort_by([rank, .order]) | map(del(.order)) as $rows
	| {compilers: [$cells[].compiler],
	   counts: ($cells | map({key: .compiler, value: .tests.counts}) | from_entries),
	   notes: ($cells | map({key: .compiler, value: .tests.notes}) | from_entries),
	   differs: [$rows[] | select(.parity == "differs")] | length,
	   rows: $rows}
	| ($cells | map(select(.tests.by_kind) | {key: .compiler, value: .tests.by_kind})) as $k
	| if ($k | length) == 0 then . else . + {by_kind: ($k | from_entries)} end
	end)}
