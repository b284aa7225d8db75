# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-series-text.jq - series.json as diagnose-series.sh prints it:
# per patch its name, subject and reach, then "+ " before each finding it
# brings and "- " before each it takes away, as FILE:LINE:COL: KIND: TEXT
# [FLAG], the way Clang and the 0-day bot print them.
#
# Usage: jq -r -L scripts/diagnose -f diagnose-series-text.jq series.json

include "diagnose-lib";

def finding: "\(where): \(.kind): \(.text)\(if .flag != "(none)" then " [\(.flag)]" else "" end)";

def reach: if (.units | length) == 0 then "no unit of this build"
	elif (.units | length) == 1 then "1 unit (\(.units[0]))"
	else "\(.units | length) units" end;

"\(.cell) with \(.clang)\(if .level != "" then ", W=\(.level)" else "" end): " +
"\(.patches | length) patches, \([.patches[] | select((.new + .gone) | length > 0)] | length) of them change Clang's findings",
(.patches[]
 | "\(.index) \(.patch)",
   "  \(.subject)",
   "  reaches \(reach); \(.new | length) new, \(.gone | length) gone" +
   (if .gcc_too > 0 then " (\(.gcc_too) new where GCC warns too, not listed)" else "" end),
   (.new[] | "  + \(finding)"),
   (.gone[] | "  - \(finding)"))
