# SPDX-License-Identifier: GPL-2.0-only
#
# report-history.jq - what the history database adds to a parity report:
# the "since last run" of each cell and its pinned toolchain. report.sh
# reads them from since.json and toolchain.json beside report.json
# (scripts/history.sh writes both) into .since and .toolchain; a report
# without them renders as before. A module: include "report-history";
# with -L scripts/lib.

def has_since: .since != null;
# the history's name of a cell: its target and the compiler asked for
def history_name: "\(.target)/\(.compiler)";
def since_item: if .key == "" then .kind else "\(.kind) \(.key)" end
	+ (if .state != null then " \(.state)" else "" end)
	+ (if .was != null and .was != "absent" then " (was \(.was))" else "" end);
# since_text($r): a cell's column: first run, no change, N new, M gone
def since_text($r): ($r.since.cells[history_name] // null) as $s
	| if $s == null then "-"
	elif $s.previous == null then "first run"
	elif ($s.new | length) + ($s.gone | length) == 0 then "no change since run \($s.previous)"
	else [(if ($s.new | length) > 0 then "\($s.new | length) new" else empty end),
	      (if ($s.gone | length) > 0 then "\($s.gone | length) gone" else empty end)]
		| join(", ") + " since run \($s.previous)" end;
# since_lines($r): a cell's new and gone results, for its target's section
def since_lines($r): ($r.since.cells[history_name] // null) as $s
	| if $s == null or $s.previous == null then empty else
	(if ($s.new | length) > 0 then "- \(.name) new since run \($s.previous): " + ($s.new | map(since_item) | join("; ")) else empty end),
	(if ($s.gone | length) > 0 then "- \(.name) gone since run \($s.previous): " + ($s.gone | map(.state = null | since_item) | join("; ")) else empty end)
	end;
# toolchain_text($r): a cell's compiler and linker as Debian packages and checksums
def toolchain_text($r): ($r.toolchain.cells[history_name] // null) as $p
	| if $p == null or $p.cc.package == null then empty
	else [($p.cc, $p.ld) | select(.package != null)
		| "\(.package) \(.version) (\(.binary | split("/")[-1]) sha256 \(.sha256[0:16]))"] | join(", ") end;
