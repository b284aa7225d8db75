# SPDX-License-Identifier: GPL-2.0-only
#
# table.jq - codegen.sh's result as text: per comparison, each section's
# and each symbol category's size under the old compiler and the new,
# and the change in percent; then the largest growths and shrinks of the
# functions.
#
# Usage: jq -r -f table.jq codegen.json

def pad(n): tostring | if length < n then . + (" " * (n - length)) else . end;
def lpad(n): tostring | if length < n then (" " * (n - length)) + . else . end;
def pct(a; b): if a == 0 then "-" else ((b - a) * 10000 / a | round / 100
	| tostring | if startswith("-") then . else "+" + . end) + "%" end;
def row(name; a; b): "  \(name | pad(18))\(a | lpad(12))\(b | lpad(12))\(pct(a; b) | lpad(10))";
def sym(s): "    \(s.delta | tostring | if startswith("-") then . else "+" + . end | lpad(8))  \(s.symbol)";

.targets[] | .target as $t | .comparisons[]
| "\($t): \(.new) against \(.old)",
  "  \("" | pad(18))\(.old | lpad(12))\(.new | lpad(12))\("change" | lpad(10))",
  row(".text"; .sections.old.text; .sections.new.text),
  row(".rodata"; .sections.old.rodata; .sections.new.rodata),
  row(".data"; .sections.old.data; .sections.new.data),
  row(".bss"; .sections.old.bss; .sections.new.bss),
  (.symbols | to_entries[] | row("\(.key) symbols"; .value.before; .value.after)),
  "  largest function growths:", (.symbols.function.grows[:5][] | sym(.)),
  "  largest function shrinks:", (.symbols.function.shrinks[:5][] | sym(.)),
  ""
