# SPDX-License-Identifier: GPL-2.0-only
#
# speed-table.jq - the .speed member of codegen.json as text: a row per
# benchmark with both medians, the ratio new/old of the medians with its
# 95 % interval, the rank test's p, the A/A control's spread and the
# verdict.
#
# Usage: jq -r -f speed-table.jq codegen.json

def pad(n): tostring | if length < n then . + (" " * (n - length)) else . end;
def lpad(n): tostring | if length < n then (" " * (n - length)) + . else . end;
# a number not below 0 with D decimals
def fix($d): pow(10; $d) as $k | (. * $k | round) as $m | ($m / $k | floor) as $i
	| "\($i).\(("0" * $d) + ($m - $i * $k | tostring) | .[-$d:])";
def pct: if . == null then "-" else "+/-" + (. * 100 | fix(1)) + "%" end;
def verdict($new): sub("new"; $new);

.speed | .new as $new
| "\(.target): \(.new) against \(.old), \(.runs) runs each and \(.runs) of \(.old) as the A/A control (tcrypt modes \(.modes | map(tostring) | join(" ")), \(.seconds) s per size)",
  "  \("benchmark" | pad(36))\(.old | lpad(12))\(.new | lpad(12))  \("ratio [95% CI]" | pad(22))\("p" | lpad(7))\("A/A" | lpad(10))  verdict",
  (.benchmarks[] | "  \(.benchmark | pad(36))\(.ref.median | lpad(12))\(.new.median | lpad(12))  \("\(.ratio | fix(3)) [\(.ci[0] | fix(3)), \(.ci[1] | fix(3))]" | pad(22))\(.p | fix(4) | lpad(8))\(.aa_spread | pct | lpad(10))  \(.verdict | verdict($new))")
