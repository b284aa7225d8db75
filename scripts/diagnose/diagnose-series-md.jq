# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-series-md.jq - series.json as Markdown: a table of the patches
# (units reached, findings new and gone), then the findings of each patch
# that has any.
#
# Usage: jq -r -L scripts/diagnose -f diagnose-series-md.jq series.json

include "diagnose-lib";

def finding: "`\(where)`: \(.kind): \(.text | gsub("\\|"; "\\|"))\(if .flag != "(none)" then " `\(.flag)`" else "" end)";

"## Clang's findings per patch: \(.cell), \(.clang)\(if .level != "" then ", W=\(.level)" else "" end)",
"",
"| # | patch | units reached | new | gone |",
"|---|---|---|---|---|",
(.patches[] | "| \(.index) | \(.subject | gsub("\\|"; "\\|")) | \(.units | length) | \(.new | length) | \(.gone | length) |"),
(.patches[] | select((.new + .gone) | length > 0)
 | "", "### \(.index) \(.subject | gsub("\\|"; "\\|"))", "",
   (.new[] | "- new: \(finding)"),
   (.gone[] | "- gone: \(finding)"))
