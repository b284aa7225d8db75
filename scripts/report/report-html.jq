# SPDX-License-Identifier: GPL-2.0-only
#
# report-html.jq - report.html from a parity report.json.
#
# Usage: jq -r -L scripts/report -f report-html.jq report.json

include "report";
include "report-matrix";
include "report-tests";
include "report-layout";
include "report-history";

def cls: if . == "pass" then "pass" elif . == "fail" then "fail" else "skip" end;
def cellbox($r; $t): "<td class=\"\(if .build.status == "pass" and .boot.status == "pass" then "pass" else "fail" end)\">"
	+ "<div><b>build</b> \(build_text | @html)</div>"
	+ (if .build.farm != null then "<div><b>farm</b> \(farm_text | @html)</div>" else "" end)
	+ "<div><b>boot</b> \(boot_text | @html)</div>"
	+ "<div><b>warnings</b> \(.warnings.warnings) / <b>errors</b> \(.warnings.errors)\(.warnings | by_tool_text | @html)</div>"
	+ (if $r | has_since then "<div><b>since last run</b> \(since_text($r) | @html)</div>" else "" end)
	+ "<div class=\"repro\">build: <code>\(.build.reproduce | @html)</code></div>"
	+ (if .boot.reproduce != null then "<div class=\"repro\">boot: <code>\(.boot.reproduce | @html)</code></div>" else "" end)
	+ "</td>";
. as $r |
"<!DOCTYPE html>",
"<html lang=\"en\"><head><meta charset=\"utf-8\">",
"<title>kparity report: \(.kernel | @html)</title>",
"<style>",
"body{font-family:sans-serif;margin:1.5em;color:#222}",
"table{border-collapse:collapse;margin:0.5em 0}",
"td,th{border:1px solid #999;padding:0.4em 0.6em;vertical-align:top;text-align:left}",
"th{background:#eee}",
"td.pass{background:#d9f2d9}td.fail{background:#f7d4d4}td.skip{background:#eee}",
".repro{font-size:0.75em;color:#555;margin-top:0.3em}.repro code{color:#333;word-break:break-all}",
".verdict{font-size:1.4em;font-weight:bold}.verdict.pass{color:#176617}.verdict.fail{color:#a31515}",
layout_css,
"pre{background:#f4f4f4;padding:0.6em;overflow-x:auto}",
".bar{display:flex;width:300px;height:0.9em;background:#eee}.bar span{display:block;height:100%}.bar .pass{background:#3a9a3a}.bar .fail{background:#c0392b}.bar .skip{background:#aaa}",
"</style></head><body>",
"<h1>kparity report: \(.kernel | @html)</h1>",
"<p class=\"verdict \(.verdict | cls)\">\(.verdict | ascii_upcase)"
	+ (if (.failures | length) > 0 then " &mdash; \(.failures | length) failures" else "" end) + "</p>",
(if ((.config_add // []) | length) > 0 or .kconfig != null then
	"<p>Configuration: \(config_text | @html)</p>" else empty end),
(if (.failures | length) > 0 then
	"<ul>" + ([.failures[] | "<li>\(@html)</li>"] | join("")) + "</ul>" else empty end),
(if ((.skipped // []) | length) > 0 then
	"<h2>Not built</h2><ul>" + ([.skipped[] | "<li>\("\(.target)/\(.compiler): \(.reason)" | @html)</li>"] | join("")) + "</ul>"
 else empty end),
(if .series_new != null then
	"<h2>New patches since the last run</h2>",
	"<p>What each patch the last run did not have changes in Clang's findings on the GCC cells (make diagnose-series):</p><ul>" +
	([series_items |
		"<li><code>\(.name | @html)</code>\(if .subject != null then " (\(.subject | @html))" else "" end)<ul>" +
		([.targets[] | "<li>\("\(.target): \(.text)" | @html)" +
			(if .new == [] then "" else "<ul>" + ([.new[] | "<li>new: <code>\(series_finding | @html)</code></li>"] | join("")) + "</ul>" end) +
			"</li>"] | join("")) + "</ul></li>"] | join("")) + "</ul>"
 else empty end),
(if is_matrix then matrix_html else
	"<table class=\"matrix\"><tr><th>target</th>"
	+ ([.compilers[] | "<th>\(@html)</th>"] | join("")) + "<th>kabi (gcc vs clang)</th></tr>",
	(.matrix[] | . as $t |
		"<tr><th>\(.name | @html)</th>"
		+ ([.cells[] | cellbox($r; $t)] | join(""))
		+ "<td class=\"\(if .kabi == null then "skip" else (.kabi.status | cls) end)\"><div>\(.kabi | kabi_text | @html)</div>"
		+ (if .kabi != null then "<div class=\"repro\">kabi: <code>\(.kabi.reproduce | @html)</code></div>" else "" end)
		+ "</td></tr>"),
	"</table>" end),
tests_overview_html,
(.matrix[] | . as $t |
	"<h2>\(.name | @html)</h2>",
	"<ul>",
	(.cells[] | "<li><b>\(.name | @html)</b>: \(.compiler_version | @html)"
		+ (if .boot.proc_version != null then "<br><code>\(.boot.proc_version | @html)</code>" else "" end)
		+ ([(.proof // [])[] | "<br>proof: <code>\(@html)</code>"] | join("")) + "</li>"),
	(if .warnings_diff != null then
		"<li>warnings: gcc \(.warnings_diff.gcc), clang \(.warnings_diff.clang); only gcc: "
		+ (.warnings_diff.only_gcc | to_entries | map("\(.key) \(.value)") | join(", ") | if . == "" then "none" else . end | @html)
		+ "; only clang: "
		+ (.warnings_diff.only_clang | to_entries | map("\(.key) \(.value)") | join(", ") | if . == "" then "none" else . end | @html)
		+ "</li>" else empty end),
	(.cells[] | select(.check != null)
		| "<li>kabi check \(.name | @html): \(check_text | @html)<div class=\"repro\"><code>\(.check.reproduce | @html)</code></div></li>"),
	"</ul>",
	(if $r | is_matrix then
		"<ul class=\"repro\">"
		+ ([.cells[] | "<li>build \(.name | @html): <code>\(.build.reproduce | @html)</code></li>"
			+ (if .boot.reproduce != null then "<li>boot \(.name | @html): <code>\(.boot.reproduce | @html)</code></li>" else "" end)]
		   | join(""))
		+ ([kabi_pairs($r; $t)[] | "<li>kabi \(.old | @html) vs \(.new | @html): <code>\(.reproduce | @html)</code></li>"] | join(""))
		+ "</ul>"
	 else empty end),
	(if .randstruct != null then .randstruct as $rs |
		"<p>Randomized layouts (randstruct): \($rs | randstruct_text | @html).</p>",
		"<table><tr><th>struct</th><th>declared at</th><th>\($rs.gcc | @html)</th><th>\($rs.clang | @html)</th><th>same layout</th></tr>",
		($rs | randstruct_rows | "<tr>" + (map("<td>\(@html)</td>") | join("")) + "</tr>"),
		"</table>" else empty end),
	tests_target_html,
	(.cells[] | select(.build.status != "pass") |
		"<p>Build \(.name | @html) failed: \(.build.reason | @html)</p>"),
	(.cells[] | select(.boot.status == "fail") |
		"<p>Boot \(.name | @html) failed: \(.boot.reason | @html). Last console lines:</p>",
		"<pre>\(.boot.last_lines | join("\n") | @html)</pre>"),
	(kabi_pairs($r; $t)[] | layouts_html($r))),
"</body></html>"
