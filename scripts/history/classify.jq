# SPDX-License-Identifier: GPL-2.0-only
#
# classify.jq - what the history says of each result of the cells of one
# run: new in this run, gone, always (the same for N runs), flaky (k bad
# of n), or first (the cell's first run); and the run where the current
# state began, with what changed between it and the run before it (tree,
# series, compiler version, toolchain package, config, kparity).
#
# Usage: sqlite3 -json DB "$(cat rows.sql)" | jq -s --argjson run R -f classify.jq
# Input: the rows of rows.sql for the runs of the window, oldest first.
# Output: {run, cells: [{cell, build, compiler_version, runs, previous,
#          items: [{kind, key, state, was, class, streak, since, bad, n,
#          changed}]}]}

# a state that counts against the cell: anything but pass, skip and absent
def bad: . as $s | ["pass", "skip", "absent"] | index($s) == null;
def meta_fields: ["tree", "series", "compiler_version", "cc_package_version", "config", "kparity"];

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
