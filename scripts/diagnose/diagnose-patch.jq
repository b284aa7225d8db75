# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-patch.jq - one patch's entry of series.json
# (scripts/diagnose-series.sh): the Clang findings of the units it reaches
# with the patch (after) and without it (before), compared.
#
# Usage: jq -n -c -R -L scripts/diagnose -f diagnose-patch.jq with
#   $patch, $subject, $index  the patch, its Subject: and place in the series
#   $src                      the kernel tree (paths are made relative to it)
#   $files, $units            the tree's files it changes, the units they
#                             reach, one absolute path a line
#   $after, $before           diagnose-parse.awk's records of those units
#   $gcc_tsv                  warnings.sh -l of GCC's log of the build
# A finding is new when more findings share its kind, flag, file and text
# after the patch than before (a line that only moved is no change); of
# findings equal but for their place, those at a place the other side
# does not have are shown first. New findings at a line where GCC's log
# has one too are counted (gcc_too), not listed.

include "diagnose-lib";

def diags($t): [rows($t)[] | select(.[0] == "D")
	| {kind: .[2], flag: .[3], file: .[4], line: (.[5] | tonumber), col: (.[6] | tonumber), text: .[7]}]
	| unique;

def key: [.kind, .flag, .file, .text];

# more($a; $b): the findings of $a beyond the number $b has of their key
def more($a; $b):
	[($a + $b | map(key) | unique)[] as $k
	 | [$a[] | select(key == $k)] as $x
	 | [$b[] | select(key == $k)] as $y
	 | (($x | length) - ($y | length)) as $n
	 | select($n > 0)
	 | ([$x[] | select(. as $f | $y | index([$f]) | not)] + [$x[] | select(. as $f | $y | index([$f]))])[:$n][]]
	| sort_by(.file, .line, .col, .flag, .text);

diags($after) as $a
| diags($before) as $b
| (reduce (rows($gcc_tsv)[] | select(.[1] == "compiler")) as $g ({};
	.["\($g[3]):\($g[4] | split(":")[0])"] = true)) as $gat
| more($a; $b) as $new
| {index: $index, patch: $patch, subject: $subject,
   files: [rows($files)[] | .[0] | rel($src)],
   units: [rows($units)[] | .[0] | rel($src)] | sort,
   new: [$new[] | select($gat["\(.file):\(.line)"] | not)],
   gcc_too: [$new[] | select($gat["\(.file):\(.line)"])] | length,
   gone: more($b; $a)}
