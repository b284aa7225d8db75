# SPDX-License-Identifier: GPL-2.0-only
#
# report-md.jq - report.md from a parity report.json.
#
# Usage: jq -r -L scripts/report -f report-md.jq report.json

include "report";
include "report-matrix";
include "report-tests";
include "report-layout";
include "report-history";

. as $r |
"# kparity report: \(.kernel)",
"",
"Verdict: **\(.verdict | ascii_upcase)**" +
	(if (.failures | length) > 0 then " (\(.failures | length) failures)" else "" end),
"",
(if ((.config_add // []) | length) > 0 or .kconfig != null then
	("Configuration: \(config_text)", "") else empty end),
(if is_matrix then matrix_md else
	has_farm as $farm | has_since as $since |
	"| target | compiler | build | \(if $farm then "farm | " else "" end)boot | warnings | kabi |\(if $since then " since last run |" else "" end)",
	"|---|---|---|\(if $farm then "---|" else "" end)---|---|---|\(if $since then "---|" else "" end)",
	(.matrix[] | . as $t | .cells[] |
		"| \($t.name) | \(.name | split("/")[1]) | \(build_text) | \(if $farm then "\(farm_text) | " else "" end)\(boot_text) | \(warn_text) | \($t.kabi | kabi_text) |\(if $since then " \(since_text($r)) |" else "" end)"),
	"" end),
(if (.failures | length) > 0 then
	("## Failures", "", (.failures[] | "- \(.)"), "") else empty end),
(if ((.skipped // []) | length) > 0 then
	("## Not built", "", (.skipped[] | "- \(.target)/\(.compiler): \(.reason)"), "") else empty end),
(if .series_new != null then
	"## New patches since the last run",
	"",
	"What each patch the last run did not have changes in Clang's findings on the GCC cells (make diagnose-series):",
	"",
	(series_items |
		"- `\(.name)`\(if .subject != null then " (\(.subject))" else "" end)",
		(.targets[] | "  - \(.target): \(.text)", (.new[] | "    - new: `\(series_finding)`"))),
	"" else empty end),
tests_overview_md,
(.matrix[] | . as $t |
	"## \(.name)",
	"",
	(.cells[] |
		"- \(.name): \(.compiler_version); " +
		(if .boot.proc_version != null then "booted `\(.boot.proc_version)`" else "not booted" end)),
	(.cells[] | . as $c | (.proof // [])[] | "- proof \($c.name): \(.)"),
	(if .warnings_diff != null then
		"- warnings: gcc \(.warnings_diff.gcc), clang \(.warnings_diff.clang); only gcc: " +
		(.warnings_diff.only_gcc | to_entries | map("\(.key) \(.value)") | join(", ") | if . == "" then "none" else . end) +
		"; only clang: " +
		(.warnings_diff.only_clang | to_entries | map("\(.key) \(.value)") | join(", ") | if . == "" then "none" else . end)
	 else empty end),
	(if $r | is_matrix then empty else "- kabi: \($t.kabi | kabi_text)" end),
	(.cells[] | select(.check != null) | "- kabi check \(.name): \(check_text)"),
	(.cells[] | since_lines($r)),
	"",
	(if .randstruct != null then .randstruct as $rs |
		"Randomized layouts (randstruct): \($rs | randstruct_text).",
		"",
		"| struct | declared at | \($rs.gcc) | \($rs.clang) | same layout |",
		"|---|---|---|---|---|",
		($rs | randstruct_rows | "| \(join(" | ")) |"),
		"" else empty end),
	tests_target_md,
	"Reproduce:",
	"",
	(.cells[] |
		"- build \(.name): `\(.build.reproduce)`",
		(. as $c | toolchain_text($r) | "  with \(.); exactly: `scripts/reproduce.sh \($r.builddir)/\($r.report_dir // "report")/report.json \($c | history_name)`"),
		(if .boot.reproduce != null then "- boot \(.name): `\(.boot.reproduce)`" else empty end),
		(if .check != null then "- kabi check \(.name): `\(.check.reproduce)`" else empty end)),
	(if $r | is_matrix then (kabi_pairs($r; $t)[] | "- kabi \(.old) vs \(.new): `\(.reproduce)`")
	 elif $t.kabi != null then "- kabi: `\($t.kabi.reproduce)`" else empty end),
	"",
	(.cells[] | select(.build.status != "pass") |
		"Build \(.name) failed: \(.build.reason)", ""),
	(.cells[] | select(.boot.status == "fail") |
		"Boot \(.name) failed: \(.boot.reason). Last console lines:",
		"",
		"```",
		.boot.last_lines[],
		"```",
		""),
	(kabi_pairs($r; $t)[] | layouts_md($r)))
