# SPDX-License-Identifier: GPL-2.0-only
#
# text.jq - classify.jq's answer as text, for 'history.sh show': a line
# per cell, then a line per result that is new, gone, flaky or failing,
# then how many results are unchanged.
#
# Usage: jq -r --argjson all 0|1 -f text.jq

# a compiler's version alone: 12.2.0-14+deb12u1, 19.1.7
def short: tostring | (first(match("[0-9]+\\.[0-9]+\\.[0-9]+[^ )]*") | .string) // .);
# a recorded value as the change line shows it: a checksum by its start
def field_text($f): if . == null then "-"
	elif $f == "compiler_version" then short
	elif $f == "test_kinds" and . == "" then "none"
	elif type == "string" and test("^[0-9a-f]{64}$") then .[0:12]
	else tostring end;
def what: if .key == "" then .kind else "\(.kind) \(.key)" end;
def change_text: if .changed == null then ""
	else .changed as $c
	| ([$c | to_entries[] | select(.key != "from" and .key != "to")
		| .key as $f | "\($f) \(.value[0] | field_text($f)) -> \(.value[1] | field_text($f))"]
	   | if length == 0 then "nothing recorded changed" else join(", ") end) as $t
	| "; first in run \($c.to), after run \($c.from): \($t)" end;
def item_text:
	if .class == "new" then "new      \(what): \(.state)" + (if .was != null and .was != "absent" then ", was \(.was)" else "" end)
	elif .class == "gone" then "gone     \(what): was \(.was)"
	elif .class == "flaky" then "flaky    \(what): \(.state) now, flaky (\(.bad) of \(.n) runs bad)"
	elif .class == "first" then "first    \(what): \(.state)"
	else "always   \(what): \(.state), always since \(.streak) runs"
		+ (if .streak == .n then " (every run recorded)" else "" end) end
	+ change_text;
def interesting: .class == "new" or .class == "gone" or .class == "flaky"
	or (.state | . != "pass" and . != "skip" and . != "absent");

.run as $run
| if (.cells | length) == 0 then "no cell recorded in run \($run)" else
  .cells[]
  | "\(.cell) (\(.build // .cell), \(.compiler_version | if (. // "") == "" then "-" else short end)): run \($run), \(.runs | length) runs recorded"
	+ (if .previous != null then ", previous \(.previous)" else "" end),
    (.items[] | select($all == 1 or interesting) | "  " + item_text),
    ([.items[] | select(interesting | not)] | length) as $quiet
    | select($all != 1 and $quiet > 0)
    | "  \($quiet) more unchanged and passing (--all lists them)"
  end
