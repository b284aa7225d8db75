# SPDX-License-Identifier: GPL-2.0-only
#
# report-matrix.jq - the compiler matrix of a parity run with more than two
# compilers (-c all): one row per target and compiler with its build,
# boot, diagnostics by tool and layout against the reference compiler,
# then each Clang against the next version. A module for report-md.jq and
# report-html.jq: include "report-matrix"; with -L scripts/lib.

include "report";

def is_matrix: (.compilers | length) > 2;
def tools: ["compiler", "linker", "objtool", "modpost", "kconfig"];
# the count of one tool: warnings, and "+N errors" when there are any
def tool_count($t): (.warnings.by_tool[$t] // {warnings: 0, errors: 0})
	| "\(.warnings)" + (if .errors > 0 then " +\(.errors) errors" else "" end);
def vs_ref($t; $c): [($t.kabi_vs_ref // [])[] | select(.new == $c)][0];
def layout_text: if . == null then "-"
	elif .status == "skipped" then "skipped: \(.reason)"
	elif .summary == null then "FAIL: \(.reason)"
	else "\(.summary.changed) changed, \(.summary.incompatible) incompatible, \(.summary.only_old) only \(.old), \(.summary.only_new) only \(.new)"
	+ (if .status == "fail" then " (FAIL)" else "" end) end;
def ref_text($r; $t): if .compiler == $r.reference then "reference"
	else vs_ref($t; .compiler) | layout_text end;

def matrix_md: . as $r | if is_matrix then
	"## Compiler matrix (reference: \(.reference))",
	"",
	"| target | compiler | version | build | boot | \(tools | map("\(.) warnings") | join(" | ")) | kabi vs \(.reference) |",
	"|" + ([range(0; 6 + (tools | length))] | map("---|") | join("")),
	(.matrix[] | . as $t | .cells[] | . as $c |
		"| \($t.name) | \(.compiler) | \(.compiler_version) | \(build_text) | \(boot_text) | "
		+ (tools | map(. as $k | $c | tool_count($k)) | join(" | "))
		+ " | \(ref_text($r; $t)) |"),
	"",
	"## Clang across versions",
	"",
	"Each Clang's layouts against the next version's; any change is a finding.",
	"",
	"| target | from | to | layouts |",
	"|---|---|---|---|",
	(.matrix[] | . as $t | ($t.kabi_versions // [])[] |
		"| \($t.name) | \(.old) | \(.new) | \(layout_text) |"),
	"",
	(if (.findings // [] | length) > 0
	 then ("Findings:", "", (.findings[] | "- \(.)"), "")
	 else ("Findings: none.", "") end)
	else empty end;

def matrix_html: . as $r | if is_matrix then
	"<h2>Compiler matrix (reference: \(.reference | @html))</h2>",
	"<table class=\"compilers\"><tr><th>target</th><th>compiler</th><th>version</th><th>build</th><th>boot</th>"
	+ (tools | map("<th>\(.) warnings</th>") | join(""))
	+ "<th>kabi vs \(.reference | @html)</th></tr>",
	(.matrix[] | . as $t | .cells[] | . as $c |
		"<tr><th>\($t.name | @html)</th><td>\(.compiler | @html)</td><td>\(.compiler_version | @html)</td>"
		+ "<td>\(build_text | @html)</td><td>\(boot_text | @html)</td>"
		+ (tools | map(. as $k | "<td>\($c | tool_count($k) | @html)</td>") | join(""))
		+ "<td>\(ref_text($r; $t) | @html)</td></tr>"),
	"</table>",
	"<h2>Clang across versions</h2>",
	"<table class=\"versions\"><tr><th>target</th><th>from</th><th>to</th><th>layouts</th></tr>",
	(.matrix[] | . as $t | ($t.kabi_versions // [])[] |
		"<tr><th>\($t.name | @html)</th><td>\(.old | @html)</td><td>\(.new | @html)</td><td>\(layout_text | @html)</td></tr>"),
	"</table>",
	(if (.findings // [] | length) > 0
	 then "<ul class=\"findings\">" + ([.findings[] | "<li>\(@html)</li>"] | join("")) + "</ul>"
	 else "<p>Findings: none.</p>" end)
	else empty end;
