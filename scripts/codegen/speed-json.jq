# SPDX-License-Identifier: GPL-2.0-only
#
# speed-json.jq - the .speed member of codegen.json: the protocol's
# settings, and per benchmark speed-stats.awk's comparison with the raw
# samples of each group, in the order they were taken.
#
# Usage: jq -n --arg ref GCC --arg new CLANG --arg kvm LINE --argjson runs N
#   --argjson sec S --arg modes "M..." --arg cpu CPU --slurpfile stats STATS
#   --rawfile samples SAMPLES -f speed-json.jq
# SAMPLES holds "BENCHMARK GROUP VALUE" lines, STATS speed-stats.awk's
# output for them.

($samples | split("\n") | map(select(length > 0) | split(" ")
	| {b: .[0], g: .[1], v: (.[2] | tonumber)})) as $s
| {target: "um", old: $ref, new: $new, kvm: $kvm, runs: $runs, seconds: $sec,
   modes: ($modes | split(" ") | map(tonumber)),
   cpu: (if $cpu == "" then null else ($cpu | tonumber) end),
   benchmarks: [$stats[] | .benchmark as $b
	| . + {samples: ([$s[] | select(.b == $b)] | reduce .[] as $x ({ref: [], new: [], aa: []};
		.[$x.g] += [$x.v]))}]}
