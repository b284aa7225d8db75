# SPDX-License-Identifier: GPL-2.0-only
#
# record.jq - the SQL that records one report in the history database:
# its run, each cell, and each result of a cell (schema/ has the tables).
# The caller wraps it in the transaction.
#
# Usage: jq -r --slurpfile ctx CONTEXT.json -f record.jq REPORT.json
# CONTEXT: {kind, recorded, report, report_sha256, tree_package, series,
#           kparity, cells: {NAME: {config, cc_binary, ...}}}, made by
#           history.sh from the report and the machine it ran on.

# a value as an SQL literal
def sq: if . == null then "NULL"
	elif type == "number" then tostring
	elif type == "boolean" then (if . then "1" else "0" end)
	else "'" + (tostring | gsub("\u0000"; "") | gsub("'"; "''")) + "'" end;
def values(f): "(" + ([f] | map(sq) | join(", ")) + ")";

def result($kind; $key; $state; $value; $detail):
	"INSERT OR REPLACE INTO result (cell, kind, key, state, value, detail) VALUES ((SELECT max(id) FROM cell), "
	+ ([$kind, $key, $state, $value, $detail] | map(sq) | join(", ")) + ");";

def cell($c; $p):
	"INSERT INTO cell (run, name, build, target, compiler, compiler_version, config, "
	+ "cc_binary, cc_sha256, cc_package, cc_package_version, "
	+ "ld_binary, ld_sha256, ld_package, ld_package_version) VALUES ((SELECT max(id) FROM run), "
	+ ([$c.name, $c.build, $c.target, $c.compiler, $c.compiler_version, $p.config,
	    $p.cc_binary, $p.cc_sha256, $p.cc_package, $p.cc_package_version,
	    $p.ld_binary, $p.ld_sha256, $p.ld_package, $p.ld_package_version] | map(sq) | join(", "))
	+ ");";

# the comparisons of a parity target that have COMPILER on their new side
def kabi_of($t; $compiler; $reference):
	if ($t.kabi_vs_ref // []) | length > 0 then $t.kabi_vs_ref[] | select(.new == $compiler)
	elif $t.kabi != null and $compiler != $reference then $t.kabi + {old: $reference}
	else empty end;

def kabi_results:
	result("kabi"; "vs \(.old)"; .status; .summary.changed; .reason),
	([(.incompatible // [])[] | . + {incompatible: true}] + (.changed // [])
	 | unique_by([.kind, .name])[]
	 | result("kabi"; "\(.kind) \(.name)"; (if .incompatible then "incompatible" else "changed" end); null; null));

def parity($ctx):
	. as $r
	| .matrix[] as $t | $t.cells[] as $c
	| ($c.target + "/" + $c.compiler) as $name
	| cell({name: $name, build: $c.name, target: $c.target, compiler: $c.compiler,
		compiler_version: $c.compiler_version}; $ctx.cells[$name] // {}),
	  result("build"; ""; $c.build.status; $c.build.seconds; $c.build.reason),
	  result("boot"; ""; $c.boot.status; $c.boot.seconds; $c.boot.reason),
	  (($c.tests // {}).results // [] | .[] | result("test"; .name; .status; null; null)),
	  (($c.warnings // {}).by_flag // {} | to_entries[] | result("warning"; .key; "present"; .value; null)),
	  (kabi_of($t; $c.compiler; $r.reference // $r.compilers[0]) | kabi_results);

# a compiler-bisect.sh run: each compiler's answer to the predicate
def bisect:
	.target as $t | .predicate as $p | .steps[]
	| cell({name: "\($t)/\(.compiler)", build: null, target: $t, compiler: .compiler,
		compiler_version: .compiler_version}; {}),
	  result("predicate"; $p; .result; null; .detail);

# a make diagnose replay (diagnose.json, schema 1): one cell, the GCC build
# at its warning level, whose results are Clang's findings by id (both,
# clang), GCC's alone (gcc), and the units Clang could not parse or
# crashed on
def diagnose:
	cell({name: "\(.cell) W=\(.level)", build: .cell, target: .cell, compiler: "clang",
		compiler_version: .clang.version}; {}),
	(.findings[] | result("finding"; .id; .group; .count; null)),
	((.gcc_only // [])[] | result("finding"; .id; "gcc"; null; null)),
	((.unparsable // [])[] | result("unit"; .unit; "unparsable"; null; .error)),
	((.crashes // [])[] | result("unit"; .unit; "crashed"; null; .message));

# one build of series-survey.sh (history.sh turns its PHASE.status and
# PHASE.diag into {name, phase, exit, seconds, compiler_version, diag}):
# the build, and each distinct diagnostic by its line
def survey:
	cell({name: "\(.name) \(.phase)", build: .name, target: (.name | sub("-(gcc|clang).*$"; "")),
		compiler: (.name | capture("-(?<c>(gcc|clang).*)$").c // null),
		compiler_version: .compiler_version}; {}),
	result("build"; ""; (if .exit == 0 then "pass" else "fail" end); .seconds;
		(if .exit == 0 or .exit == null then null else "make exited \(.exit)" end)),
	(.diag[] | split("\t") | result("diagnostic"; join(" | "); .[0]; null; null));

# the kinds of tests a parity run judged, sorted, one space between: its
# test_kinds, else (a report written before it said) those of its cells'
# results, else NULL
def test_kinds:
	if (.test_kinds | type) == "array" then .test_kinds
	else [.matrix[]?.cells[]?.tests.kinds // empty | .[]] | if length == 0 then null else . end end
	| if . == null then null else unique | join(" ") end;

$ctx[0] as $ctx
| "INSERT INTO run (kind, recorded, report, report_sha256, tree, tree_package, series, kparity, verdict, test_kinds) VALUES "
	+ values($ctx.kind, $ctx.recorded, $ctx.report, $ctx.report_sha256,
		 (.kernel | if . != null and (startswith("linux-") | not) then "linux-\(.)" else . end),
		 $ctx.tree_package, $ctx.series, $ctx.kparity, .verdict,
		 (if $ctx.kind == "parity" then test_kinds else null end)) + ";",
  (if $ctx.kind == "parity" then parity($ctx)
   elif $ctx.kind == "bisect" then bisect
   elif $ctx.kind == "diagnose" then diagnose
   elif $ctx.kind == "survey" then survey
   else empty end)
