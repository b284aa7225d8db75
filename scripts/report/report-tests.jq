# SPDX-License-Identifier: GPL-2.0-only
#
# report-tests.jq - the tests in the report: per target and compiler the
# counts as a small bar chart, the tests that differ between compilers
# first, and a table of every test's status under each compiler.
# A module: include "report-tests"; with -L scripts/report.

def tests_statuses: ["pass", "fail", "skip", "timeout", "not-run"];
def tests_total: [.[]] | add // 0;
def counts_text: . as $c | [tests_statuses[] | "\($c[.] // 0) \(.)"] | join(", ");
# bar WIDTH: the counts as WIDTH characters, passes as '#', skips as '-',
# the rest (fail, timeout, not-run) as 'x'
def bar($w): . as $c | tests_total as $t
	| if $t == 0 then "" else
		(($c.pass // 0) * $w / $t | round) as $p
		| (($c.skip // 0) * $w / $t | round) as $s
		| ([range(0; $p)] | map("#") | join(""))
		+ ([range(0; $s)] | map("-") | join(""))
		+ ([range(0; [$w - $p - $s, 0] | max)] | map("x") | join(""))
		| .[0:$w] end;
# kinds: a cell's by_kind counts as [NAME, COUNTS-TEXT], one per kind
def kinds: [["KUnit", .kunit], ["kselftest", .kselftest]][] | [.[0], (.[1] | counts_text)];
def row_cells($t): . as $r | $t.tests.compilers | map($r.status[.]);
def parity_text: if .parity == "differs" then "DIFFERS"
	elif .parity == "known" then "known: \(.reason) (\(.reference))"
	elif .parity == "unjudged" then "unjudged: \(.reason)"
	else "" end;
# why_text: after a differing test in the overview, why it is not a failure
def why_text: if .parity == "known" then " (known: \(.reason); \(.reference))"
	elif .parity == "unjudged" then " (unjudged: \(.reason))"
	else "" end;
def tests_differing: [.matrix[] | .name as $n | (.tests.rows // [])[]
	| select(.parity != "same") | . + {target: $n}];

# tests_overview_md: the section after the failures
def tests_overview_md:
	if ([.matrix[] | select(.tests != null)] | length) == 0 then empty else
	"## Tests",
	"",
	(tests_differing as $d | if ($d | length) == 0 then "No test differs between compilers." else
		"Tests that differ between compilers:",
		"",
		($d[] | "- \(.target) \(.test): \(.status | to_entries | map("\(.key) \(.value)") | join(", "))"
			+ why_text)
	end),
	"",
	"```",
	(.matrix[] | select(.tests != null) | .name as $n | .tests as $t | $t.compilers[]
		| "\($n)/\(.)" as $l | . as $c
		| ($t.counts[$c] | "\($l)\(" " * ([20 - ($l | length), 1] | max))\(bar(30)) \(counts_text)"),
		  ($t.by_kind[$c] // empty | kinds | "  \(.[0])\(" " * (18 - (.[0] | length)))\(.[1])")),
	"```",
	""
	end;

# tests_target_md: a target's table of tests, inside its section
def tests_target_md: . as $t |
	if .tests == null then empty else
	"Tests (\(.tests.rows | length)):",
	"",
	(if ([.tests.notes[][]] | length) > 0 then
		(.tests.notes | to_entries[] | .key as $c | .value[] | "- \($c): \(.)"), ""
	 else empty end),
	"| test | \(.tests.compilers | join(" | ")) | parity |",
	"|---|\(.tests.compilers | map("---|") | join(""))---|",
	(.tests.rows[] | "| \(.test) | \(row_cells($t) | join(" | ")) | \(parity_text) |"),
	""
	end;

def tests_cls: if . == "pass" then "pass" elif . == "skip" then "skip" else "fail" end;

# tests_overview_html: the counts of every cell as bars, the differing tests
def tests_overview_html:
	if ([.matrix[] | select(.tests != null)] | length) == 0 then empty else
	"<h2>Tests</h2>",
	(tests_differing as $d | if ($d | length) == 0 then "<p>No test differs between compilers.</p>" else
		"<ul>" + ([$d[] | "<li><b>\(.target | @html) \(.test | @html)</b>: "
			+ (.status | to_entries | map("\(.key) \(.value)") | join(", ") | @html)
			+ (why_text | @html)
			+ "</li>"] | join("")) + "</ul>"
	end),
	"<table class=\"counts\"><tr><th>cell</th><th>results</th><th>counts</th></tr>"
	+ ([.matrix[] | select(.tests != null) | .name as $n | .tests as $t | $t.compilers[]
		| . as $comp | $t.counts[.] as $c | ($c | tests_total) as $total
		| "<tr><th>\($n | @html)/\(@html)</th><td><div class=\"bar\">"
		+ ([tests_statuses[] | select(($c[.] // 0) > 0)
			| "<span class=\"\(tests_cls)\" style=\"width:\($c[.] * 300 / $total | floor)px\" title=\"\($c[.]) \(.)\"></span>"]
		   | join(""))
		+ "</div></td><td>\($c | counts_text)"
		+ ($t.by_kind[$comp] // null | if . == null then "" else [kinds | "<br>" + ("\(.[0]): \(.[1])" | @html)] | join("") end)
		+ "</td></tr>"] | join(""))
	+ "</table>"
	end;

# tests_target_html: a target's table of tests, inside its section
def tests_target_html: . as $t |
	if .tests == null then empty else
	"<h3>Tests</h3>",
	(if ([.tests.notes[][]] | length) > 0 then
		"<ul>" + ([.tests.notes | to_entries[] | .key as $c | .value[] | "<li>\($c | @html): \(@html)</li>"] | join("")) + "</ul>"
	 else empty end),
	"<table class=\"tests\"><tr><th>test</th>" + ([.tests.compilers[] | "<th>\(@html)</th>"] | join("")) + "<th>parity</th></tr>"
	+ ([.tests.rows[] | "<tr><td>\(.test | @html)</td>"
		+ ([row_cells($t)[] | "<td class=\"\(tests_cls)\">\(@html)</td>"] | join(""))
		+ "<td class=\"\(if .parity == "differs" then "fail" elif .parity != "same" then "skip" else "" end)\">\(parity_text | @html)</td></tr>"]
	   | join(""))
	+ "</table>"
	end;
