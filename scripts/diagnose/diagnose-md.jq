# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-md.jq - diagnose.md from diagnose.json.
#
# Usage: jq -r -L scripts/diagnose -f diagnose-md.jq diagnose.json

include "diagnose-lib";

def finding:
	"- `\(where)` \(.kind) \(.flag): \(.text) (\(.count) unit\(if .count == 1 then "" else "s" end))",
	(.gcc // [] | .[] | "  - GCC here: \(.flag): \(.text)"),
	(.notes[] | "  - note: \(.)"),
	(.fixits[] | "  - fix-it: `\(.)`");

"# kparity diagnose: \(.cell) with \(.clang.command)",
"",
"\(.clang.version), --target=\(.clang.target), warning level \(if .level == "" then "the build's own" else "W=\(.level)" end); linux \(.kernel).",
"",
"| both | only clang | only gcc | unparsable | crashed | units | replay | gcc build |",
"|---|---|---|---|---|---|---|---|",
"| \(.counts.both) | \(.counts.clang) | \(.counts.gcc) | \(.counts.unparsable) | \(.counts.crashed) | \(.units.replayed) (\(.units.flag_sets) flag sets, \(.units.outside_level // 0) outside the warning level; not replayed: \(.units.host_not_replayed) host units, \(.units.stale_not_replayed // 0) no longer built) | \(.seconds.replay)s (Clang: \(.seconds.clang_cpu) CPU-s) | \(.seconds.gcc_build // "-")s |",
(if .replay != null then "", "Replayed: \(.replay.why)." else empty end),
"",
"## Only Clang, by flag",
"",
"| flag | findings |",
"|---|---|",
(.clang_only_by_flag | to_entries[] | "| \(.key) | \(.value) |"),
"",
"## Only Clang, by file",
"",
"| file | findings |",
"|---|---|",
(.clang_only_by_file | to_entries[] | "| `\(.key)` | \(.value) |"),
"",
"## GCC's flags for Clang",
"",
"| flag | decision | clang | class | units | why |",
"|---|---|---|---|---|---|",
(.flags.translated[] | "| `\(.flag)` | \(.decision) | \(.new) | \(.class) | \(.units) | \(.why) |"),
(.flags.dropped_gcc_only[] | "| `\(.)` | drop | - | diag | all | the tree gives it to GCC only |"),
"",
"## Clang's slowest units",
"",
"| unit | CPU seconds |",
"|---|---|",
(.slowest[] | "| `\(.unit)` | \(.seconds) |"),
"",
(if (.unparsable | length) > 0 then
	("## Units Clang cannot parse", "", (.unparsable[] | "- `\(.unit)`: \(.error)"), "") else empty end),
(if (.stale // [] | length) > 0 then
	("## Units no longer built", "", "Their .cmd files outlived the build's configuration; not replayed.", "",
	 (.stale[] | "- `\(.)`"), "") else empty end),
(if (.outside_level // [] | length) > 0 then
	("## Units outside the warning levels", "",
	 "Their Makefile replaces KBUILD_CFLAGS, so Kbuild's warning level (W=, and Clang's default suppressions) does not reach them; replayed with their own flags only.", "",
	 (.outside_level[] | "- `\(.)`"), "") else empty end),
(if (.crashes | length) > 0 then
	("## Clang crashes", "", (.crashes[] | "- `\(.unit)`: \(.message)", "  - reproduce: `\(.reproduce)`",
	 (.files[] | "  - reproducer: `\(.)`")), "") else empty end),
"## Only Clang",
"",
(.findings[] | select(.group == "clang") | finding),
"",
"## Both",
"",
(.findings[] | select(.group == "both") | finding),
"",
"## Only GCC",
"",
(.gcc_only[] | "- `\(where)` \(.kind) \(.flag): \(.text)")
