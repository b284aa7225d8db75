# SPDX-License-Identifier: GPL-2.0-only
#
# classify.jq - what the history says of each result of the cells of one
# run: new in this run, gone, always (the same for N runs), flaky (k bad
# of n), or first (the cell's first run); and the run where the current
# state began, with what changed between it and the run before it (tree,
# series, compiler version, toolchain package, config, kparity, the kinds
# of tests judged).
#
# A test's history is that of the runs that judged its kind: a run of
# KUnit alone says nothing of a kselftest, which is then neither gone nor
# new. Results carry no kind of their own, so a test needs the kinds every
# run it was seen in judged, and a run of unknown kinds (recorded before
# runs said) judges every test.
#
# Usage: sqlite3 -json DB "$(cat rows.sql)" | jq -s --argjson run R -f classify.jq
# Input: the rows of rows.sql for the runs of the window, oldest first.
# Output: {run, cells: [{cell, build, compiler_version, runs, previous,
#          items: [{kind, key, state, was, class, streak, since, bad, n,
#          changed}]}]}

# a state that counts against the cell: anything but pass, skip and absent
def bad: . as $s | ["pass", "skip", "absent"] | index($s) == null;
def meta_fields: ["tree", "series", "compiler_version", "cc_package_version", "config", "kparity", "test_kinds"];
# a run's kinds of tests as an array, null when unknown
def kinds_of: .test_kinds | if . == null then null else split(" ") | map(select(. != "")) end;
# judged($ids; $by; $meta): those of the runs $ids that judged the test
# whose state by run is $by
def judged($ids; $by; $meta):
	[$ids[] | select($by["\(.)"] != null) | $meta["\(.)"] | kinds_of | select(. != null)] as $seen
	| (if ($seen | length) == 0 then [] else reduce $seen[1:][] as $k ($seen[0]; . - (. - $k)) end) as $needs
	| [$ids[] | select($meta["\(.)"] | kinds_of | . == null or (length > 0 and ($needs - . | length) == 0))];

(add // []) as $rows
| ($run // ([$rows[].run] | max)) as $run
| {run: $run,
   cells: [$rows | map(select(.run <= $run)) | group_by(.cell)[]
	| select(any(.[]; .run == $run))
	| . as $cr
	| (group_by(.run) | map(.[0])) as $runs
	| ($runs | map(.run)) as $ids
	| ($runs | map({(.run | tostring): .}) | add) as $meta
	| (reduce ($cr[] | select(.kind != null)) as $x ({};
		.["\($x.kind)\t\($x.key)"]["\($x.run)"] = $x.state)) as $states
	| ($ids | length) as $n
	| {cell: .[0].cell,
	   build: $meta["\($run)"].build,
	   compiler_version: $meta["\($run)"].compiler_version,
	   runs: $ids,
	   previous: (if $n > 1 then $ids[-2] else null end),
	   items: [$states | to_entries[]
		| (.key | split("\t")) as [$kind, $key]
		| .value as $by
		| (if $kind == "test" then judged($ids; $by; $meta) else $ids end) as $ids
		| select(($ids | length) > 0 and $ids[-1] == $run)
		| ($ids | length) as $n
		| [$ids[] | $by["\(.)"] // "absent"] as $seq
		| $seq[-1] as $cur
		| (if $n > 1 then $seq[-2] else null end) as $prev
		| select($cur != "absent" or ($prev != null and $prev != "absent"))
		| ([range(1; $n) | select($seq[.] != $seq[. - 1])] | length) as $flips
		| (first(range($n - 1; -1; -1) | select($seq[.] != $cur)) // -1) as $last_other
		| ($n - 1 - $last_other) as $streak
		| $ids[$n - $streak] as $since
		| {kind: $kind, key: $key, state: $cur, was: $prev,
		   class: (if $n == 1 then "first"
			   elif $cur != $prev then (if $cur == "absent" then "gone" else "new" end)
			   elif $flips >= 2 then "flaky"
			   else "always" end),
		   streak: $streak, since: $since,
		   bad: ([$seq[] | select(bad)] | length), n: $n,
		   changed: (if $streak == $n then null
			else $meta["\($ids[$n - $streak - 1])"] as $a | $meta["\($since)"] as $b
			| {from: $a.run, to: $b.run}
			  + ([meta_fields[] | select($a[.] != $b[.]) | {(.): [$a[.], $b[.]]}] | add // {}) end)}]
		| sort_by(.kind, .key)}]}
