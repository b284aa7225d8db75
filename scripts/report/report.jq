# SPDX-License-Identifier: GPL-2.0-only
#
# report.jq - definitions the report renderers share: durations, one
# cell's summary, and a type's layout as rows with the holes between
# members made explicit. A module: include "report"; with -L scripts/report.

def dur: if . == null then "-"
	elif . >= 60 then "\(. / 60 | floor)m\(. % 60 | tostring | if length < 2 then "0" + . else . end)s"
	else "\(.)s" end;
def build_text: if .build.status != "pass" then "FAIL"
	elif .build.make_seconds != null and .build.make_seconds > .build.seconds
	then "pass \(.build.seconds | dur) (last make \(.build.make_seconds | dur))"
	else "pass \(.build.seconds | dur)" end;
def boot_text: if .boot.status == "pass" then "pass \(.boot.seconds | dur)"
	elif .boot.status == "skipped" then "-"
	else "FAIL: \(.boot.reason)" end;
# where a cell's compile jobs ran, when it was built on a farm:
# "distcc: 127.0.0.2:3632 290, 127.0.0.3:3632 301, local 3"
def farm_text: if .build.farm == null then "-"
	else "\(.build.farm.engine): " + (.build.farm.jobs
		| if ([.[]] | add // 0) == 0 then "nothing compiled"
		  else to_entries | map("\(.key) \(.value)") | join(", ") end) end;
# a cell of the report was built on a farm: the tables get a farm column
def has_farm: [.matrix[].cells[].build.farm // empty] | length > 0;
def by_tool_text: [(.by_tool // {}) | to_entries[]
	| select(.value.warnings + .value.errors > 0)
	| "\(.key) \(.value.warnings + .value.errors)"]
	| if length > 0 then " (" + join(", ") + ")" else "" end;
def warn_text: "\(.warnings.warnings) warnings, \(.warnings.errors) errors"
	+ (.warnings | by_tool_text);
def kabi_text: if . == null then "-"
	elif .status == "skipped" then "skipped: \(.reason)"
	elif .summary == null then "FAIL: \(.reason)"
	else "\(.summary.changed) changed, \(.summary.incompatible) incompatible, \(.summary.only_old) only gcc, \(.summary.only_new) only clang"
	+ (if .status == "fail" then " (FAIL)" else "" end) end;
# what every cell's configuration was made of: the base (KCONFIG, or each
# target's own), the targets' fragments, KCONFIG_ADD's words
def config_text: (if .kconfig != null then "KCONFIG=\(.kconfig) in place of each target's base" else "each target's own" end)
	+ (if ((.config_add // []) | length) > 0 then ", and KCONFIG_ADD \(.config_add | join(" "))" else "" end);
# a target's randomized layouts (randstruct.sh): the summary line, and
# the rows of its table: struct, declared at, by GCC, by Clang, alike
# (Clang's randomized structures are the table's rows; randomized.gcc
# counts the probed ones GCC randomized too)
def randstruct_text: "seed \(.seed[:16])...: \(.clang) randomized \(.randomized.clang) structures; \(.randomized.probed) probed in \(.gcc)'s build, of which \(.gcc) randomized \(.randomized.gcc), \(.same) with the same layout as \(.clang)'s"
	+ (if .randomized.gcc > .same then " and \(.randomized.gcc - .same) with another" else "" end)
	+ (if .randomized.probed < .randomized.clang then "; \(.randomized.clang - .randomized.probed) not probed" else "" end);
def yes_no: if . then "yes" else "no" end;
def randstruct_rows: .types[] | [.name, .decl,
	(if .probe then (.gcc | yes_no) else "not probed" end), "yes",
	(if .probe and .gcc then (.same | yes_no) else "-" end)];
# series_items: for each patch of .series_new (the patches the last run
# lacked), its name and subject and, per target walked, one line of what
# it reaches and the new findings it brings, Clang's own
def series_items: .series_new as $s
	| $s.patches[] | .name as $n
	| {name: $n,
	   subject: ([$s.targets[].patches[] | select(.patch == $n) | .subject][0] // null),
	   targets: [$s.targets[] | . as $t
		| if .error != null then {target, text: "no walk: \(.error)", new: []}
		  else ([.patches[] | select(.patch == $n)][0] // null) as $p
		  | if $p == null then {target, text: "not walked", new: []}
		    elif ($p.units | length) == 0 then {target, text: "reaches no unit", new: []}
		    else {target, text: "\($p.units | length) unit\(if ($p.units | length) == 1 then "" else "s" end), \($p.new | length) new, \($p.gone | length) gone (\($t.clang), W=\($t.level))", new: $p.new}
		    end
		  end]};
def series_finding: "\(.file):\(.line):\(.col): \(.kind): \(.text)\(if .flag != "(none)" then " [\(.flag)]" else "" end)";
# a cell's kabi check: the types its units see with several layouts
def check_text: if .check.status == "skipped" then "skipped: \(.check.reason)"
	elif .check.status != "pass" then "FAIL: \(.check.reason)"
	else "\(.check.summary.clashing) types with several layouts (\(.check.summary.incompatible) incompatible), \(.check.summary.alike) alike in \(.check.summary.units) units"
	+ (if (.check.clashes | length) > 0
	   then "; first " + ([.check.clashes[:5][] | "\(.kind) \(.name)"] | join(", ")) else "" end) end;
def mend: .offset + (if .bit_size != null
	then ((.bit_offset + .bit_size + 7) / 8 | floor) else (.size // 0) end);
def rows: if . == null then []
	else . as $t
	| reduce (.members // [])[] as $m ({end: 0, rows: []};
		(if $m.offset > .end
		 then .rows += [{offset: .end, size: ($m.offset - .end), hole: true}]
		 else . end)
		| .rows += [$m + {hole: false}]
		| .end = ([.end, ($m | mend)] | max))
	| .rows + (if ($t.size // 0) > .end
		then [{offset: .end, size: ($t.size - .end), hole: true}] else [] end)
	end;
def bitpos: if .bit_size != null then ":\(.bit_offset)+\(.bit_size)" else "" end;
def finding_text: .what + (if .subject != null then " \(.subject)" else "" end)
	+ (if .old != null then ": \(.old) -> \(.new)" else "" end);
