# SPDX-License-Identifier: GPL-2.0-only
#
# parity-target.jq - one target's row of the parity report: its cells, the
# warning flags only one compiler reported (of two: the first is called
# gcc, the second clang, whatever their versions), and its kabi verdict.
#
# Usage: jq -s --arg target T --slurpfile kabi KABI.json -f parity-target.jq
#           CELL.json...

. as $cells
| def flags($i): ($cells[$i].warnings.by_flag // {});
{name: $target, cells: $cells,
 warnings_diff: (if ($cells | length) == 2 then
	(flags(0) as $g | flags(1) as $c
	 | {only_gcc: ($g | with_entries(select(.key as $k | $c | has($k) | not))),
	    only_clang: ($c | with_entries(select(.key as $k | $g | has($k) | not))),
	    gcc: ([$g[]] | add // 0), clang: ([$c[]] | add // 0)})
	else null end),
 kabi: $kabi[0]}
