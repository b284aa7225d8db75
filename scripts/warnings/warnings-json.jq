# SPDX-License-Identifier: GPL-2.0-only
#
# warnings-json.jq - warnings.sh -j: the counts of warnings-list.awk's
# listing (read raw, whole), with every tool of $tools in by_tool.
#
# Usage: jq -R -s -c --arg tools 'compiler linker ...' -f warnings-json.jq

[split("\n")[] | select(. != "") | split("\t")
 | {kind: .[0], tool: .[1], flag: .[2], file: .[3]}] as $d
| def counts(f): reduce ($d[] | f) as $k ({}; .[$k] += 1);
  def kinds($k): [$d[] | select(.kind == $k)] | length;
{warnings: kinds("warning"), errors: kinds("error"),
 by_tool: (reduce ($tools | split(" ")[]) as $t ({};
	.[$t] = {warnings: ([$d[] | select(.tool == $t and .kind == "warning")] | length),
		 errors: ([$d[] | select(.tool == $t and .kind == "error")] | length)})),
 by_flag: counts(.flag), by_file: counts(.file)}
