# SPDX-License-Identifier: GPL-2.0-only
#
# report-matrix.jq - the compiler matrix of a parity run with more than two
# compilers (-c all): one row per target and compiler with its build,
# boot, diagnostics by tool and layout against the reference compiler,
# then each Clang against the next version. A module for report-md.jq and
# report-html.jq: include "report-matrix"; with -L scripts/report.

include "report";
include "report-history";

def is_matrix: (.compilers | length) > 2;
# kabi_pairs(REPORT; TARGET): the target's comparisons, each with "old"
# and "new": a matrix's against the reference then Clang against Clang,
# else the one of two compilers, as gcc against clang
def kabi_pairs($r; $t): if $r | is_matrix
	then ($t.kabi_vs_ref // []) + ($t.kabi_versions // [])
	elif $t.kabi == null then []
	else [$t.kabi + {old: "gcc", new: "clang"}] end;
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
# the compiler's name, with the other names it answers to: gcc-12 (= gcc)
def compiler_label: .compiler
	+ (if (.same_as // []) | length > 0 then " (= \(.same_as | join(", ")))" else "" end);
# the version alone (12.2.0, 14.0.6); the full text is in the target's section
def short_version: .compiler_version
	| (first(match("[0-9]+\\.[0-9]+(\\.[0-9]+)?") | .string) // .);
def kunit_text: if .tests == null then "-"
	else .tests.counts as $c
	| "\($c.pass // 0) pass, \($c.fail // 0) fail, \($c.skip // 0) skip"
	+ ([("timeout", "not-run") | select(($c[.] // 0) > 0) | ", \($c[.]) \(.)"] | join("")) end;
# the names the run did not build again, as a sentence, or empty
def aliases_text: (.aliases // {}) | to_entries
	| if length == 0 then empty
	else "Built once: " + (map("\(.key) is \(.value)") | join(", "))
	+ " here (the same compiler and linker)." end;

def matrix_md: . as $r | has_farm as $farm | has_since as $since | if is_matrix then
	"## Compiler matrix (reference: \(.reference))",
	"",
	"| target | compiler | version | build | \(if $farm then "farm | " else "" end)boot | KUnit | \(tools | map("\(.) warnings") | join(" | ")) | kabi vs \(.reference) |\(if $since then " since last run |" else "" end)",
	"|" + ([range(0; 7 + (tools | length) + (if $farm then 1 else 0 end) + (if $since then 1 else 0 end))] | map("---|") | join("")),
	(.matrix[] | . as $t | .cells[] | . as $c |
		"| \($t.name) | \(compiler_label) | \(short_version) | \(build_text) | \(if $farm then "\(farm_text) | " else "" end)\(boot_text) | \(kunit_text) | "
		+ (tools | map(. as $k | $c | tool_count($k)) | join(" | "))
		+ " | \(ref_text($r; $t)) |" + (if $since then " \(since_text($r)) |" else "" end)),
	"",
	(aliases_text | (., "")),
	(if ([.matrix[].kabi_versions // [] | .[]] | length) > 0 then
		"## Clang against Clang",
		"",
		"Each Clang's layouts against the next version's, and a Clang with GNU as against the same Clang with its own assembler; any change is a finding.",
		"",
		"| target | from | to | layouts |",
		"|---|---|---|---|",
		(.matrix[] | . as $t | ($t.kabi_versions // [])[] |
			"| \($t.name) | \(.old) | \(.new) | \(layout_text) |"),
		""
	 else empty end),
	(if (.findings // [] | length) > 0
	 then ("Findings:", "", (.findings[] | "- \(.)"), "")
	 else ("Findings: none.", "") end)
	else empty end;

def matrix_html: . as $r | has_farm as $farm | has_since as $since | if is_matrix then
	"<h2>Compiler matrix (reference: \(.reference | @html))</h2>",
	"<table class=\"compilers\"><tr>"
	+ (["target", "compiler", "version", "build", (if $farm then "farm" else empty end), "boot", "KUnit"]
		| map("<th rowspan=\"2\">\(.)</th>") | join(""))
	+ "<th colspan=\"\(tools | length)\">warnings</th><th rowspan=\"2\">kabi vs \(.reference | @html)</th>"
	+ (if $since then "<th rowspan=\"2\">since last run</th>" else "" end) + "</tr>"
	+ "<tr>" + (tools | map("<th>\(.)</th>") | join("")) + "</tr>",
	(.matrix[] | . as $t | .cells[] | . as $c |
		"<tr><th>\($t.name | @html)</th><td>\(compiler_label | @html)</td><td title=\"\(.compiler_version | @html)\">\(short_version | @html)</td>"
		+ "<td class=\"\(.build.status | if . == "pass" then "pass" else "fail" end)\">\(build_text | @html)</td>"
		+ (if $farm then "<td>\(farm_text | @html)</td>" else "" end)
		+ "<td class=\"\(.boot.status | if . == "pass" then "pass" elif . == "fail" then "fail" else "skip" end)\">\(boot_text | @html)</td>"
		+ "<td>\(kunit_text | @html)</td>"
		+ (tools | map(. as $k | "<td>\($c | tool_count($k) | @html)</td>") | join(""))
		+ "<td>\(ref_text($r; $t) | @html)</td>"
		+ (if $since then "<td>\(since_text($r) | @html)</td>" else "" end) + "</tr>"),
	"</table>",
	(aliases_text | "<p>\(@html)</p>"),
	(if ([.matrix[].kabi_versions // [] | .[]] | length) > 0 then
		"<h2>Clang against Clang</h2>",
		"<p>Each Clang's layouts against the next version's, and a Clang with GNU as against the same Clang with its own assembler; any change is a finding.</p>",
		"<table class=\"versions\"><tr><th>target</th><th>from</th><th>to</th><th>layouts</th></tr>",
		(.matrix[] | . as $t | ($t.kabi_versions // [])[] |
			"<tr><th>\($t.name | @html)</th><td>\(.old | @html)</td><td>\(.new | @html)</td><td>\(layout_text | @html)</td></tr>"),
		"</table>"
	 else empty end),
	(if (.findings // [] | length) > 0
	 then "<ul class=\"findings\">" + ([.findings[] | "<li>\(@html)</li>"] | join("")) + "</ul>"
	 else "<p>Findings: none.</p>" end)
	else empty end;
