# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-swap.jq - the 2x2 of kernel compiler by test compiler for the
# kselftests that differ between two cells, and which side carries each
# difference (scripts/kernel-swap.sh runs it).
#
# Usage: jq -n --arg ref R --arg other O --arg names "TEST\n..."
#           --slurpfile refcell R-CELL.json --slurpfile othercell O-CELL.json
#           --slurpfile refkernel R-KERNEL.json --slurpfile otherkernel O-KERNEL.json
#           -f kernel-swap.jq
# refcell and othercell are the two cells (parity-cell.jq); refkernel and
# otherkernel kernel-swap.sh's boots of R's kernel with O's disk and of
# O's kernel with R's disk. Prints a PAIR:
#   {reference, other, boots: [BOOT, BOOT] (results dropped),
#    tests: {TEST: {grid: {KERNEL: {TESTS: CELL}}, carrier, text, counts}}}
# CELL is {status, runner (when it said otherwise), subtests: COUNTS}.
# Each element that differs between the two cells (the test's own status,
# each subtest) follows the compiler of the test program when it is the
# same in both kernels' columns, the kernel's when it is the same in both
# rows, and "both" otherwise; "undecided" when a swapped boot failed and
# the element did not run there. A test's carrier is its elements' one
# class, or "mixed".

def statuses: ["pass", "fail", "skip", "timeout", "not-run"];
# view(NAME): a tests object's NAME as {own, runner, subs: {SUBTEST: STATUS}}
def view($n): (.results // []) as $r
	| ([$r[] | select(.test == null and .name == $n)][0]) as $t
	| {own: ($t.status // "not-run"), runner: $t.runner,
	   subs: ([$r[] | select(.test == $n) | {key: (.name | ltrimstr($n + ".")), value: .status}] | from_entries)};
def cell: {status: .own} + (if .runner then {runner} else {} end)
	+ (if (.subs | length) == 0 then {} else
		{subtests: (.subs as $s | [statuses[] as $st | {key: $st, value: ([$s[] | select(. == $st)] | length)}] | from_entries
			    | with_entries(select(.value > 0)))} end);
def value($e): if $e == null then .own else (.subs[$e] // "not-run") end;

$refcell[0] as $cr | $othercell[0] as $co | $refkernel[0] as $bro | $otherkernel[0] as $bor
| [$bro, $bor] as $boots
| {reference: $ref, other: $other,
   boots: [$boots[] | del(.results) + {notes: (.results.notes // [])}],
   tests: ([$names | split("\n")[] | select(. != "") as $n
	| {($ref): {($ref): ($cr.tests | view($n)), ($other): ($bro.results | view($n))},
	   ($other): {($ref): ($bor.results | view($n)), ($other): ($co.tests | view($n))}} as $g
	| ([null] + ([$g[][] | .subs | keys_unsorted[]] | unique)) as $elements
	| [$elements[] | . as $e
	   | ($g[$ref][$ref] | value($e)) as $a | ($g[$other][$other] | value($e)) as $b
	   | select($a != $b)
	   | ($g[$ref][$other] | value($e)) as $x | ($g[$other][$ref] | value($e)) as $y
	   | if ($bro.status != "pass" and ($x == "not-run" or $x == "timeout"))
		or ($bor.status != "pass" and ($y == "not-run" or $y == "timeout")) then "undecided"
	     elif $a == $y and $x == $b then "tests"
	     elif $a == $x and $y == $b then "kernel"
	     else "both" end] as $classes
	| ($classes | unique) as $u
	| (if ($u | length) == 1 then $u[0] elif ($u | length) == 0 then "none" else "mixed" end) as $carrier
	| {key: $n, value: {
		grid: ($g | map_values(map_values(cell))),
		carrier: $carrier,
		counts: (reduce $classes[] as $c ({}; .[$c] += 1)),
		text: (if $carrier == "tests" then
			"differs with the \($other)-built test program on either kernel: user-space code generation"
		       elif $carrier == "kernel" then
			"differs with the \($other) kernel, whatever built the test: kernel code generation"
		       elif $carrier == "both" then
			"differs only with a particular kernel and test program together: both sides"
		       elif $carrier == "undecided" then
			"undecided: " + ([$boots[] | select(.status != "pass")
				| "the \(.kernel) kernel with the \(.tests)-built tests: \(.verdict)"] | join("; "))
		       elif $carrier == "mixed" then
			"mixed: " + ([reduce $classes[] as $c ({}; .[$c] += 1) | to_entries[]
				| "\(.value) \(if .key == "tests" then "follow the test program"
					elif .key == "kernel" then "follow the kernel"
					elif .key == "both" then "need both" else "undecided" end)"] | join(", "))
		       else "the swapped boots show no difference" end)}}]
	| from_entries)}
