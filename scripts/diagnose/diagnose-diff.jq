# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-diff.jq - what changed between two diagnose.json files: the
# findings, GCC-only diagnostics, unparsable units and crashes of B that A
# lacks (new), those of A that B lacks (gone), and how many both hold.
#
# Usage: jq -n -r --slurpfile a A.json --slurpfile b B.json -L scripts/diagnose -f diagnose-diff.jq
# Prints "new N gone N unchanged N", then one "+ GROUP ID" line per new
# entry and one "- GROUP ID" line per gone one, sorted.

def entries: [(.findings[], .gcc_only[], .unparsable[], .crashes[]) | {id, group: (.group // (.id | split("|")[0]))}];

($a[0] | entries) as $old
| ($b[0] | entries) as $new
| ($old | map({key: "\(.group) \(.id)", value: true}) | from_entries) as $o
| ($new | map({key: "\(.group) \(.id)", value: true}) | from_entries) as $n
| ([$n | keys[] | select($o[.] | not)]) as $added
| ([$o | keys[] | select($n[.] | not)]) as $gone
| "new \($added | length) gone \($gone | length) unchanged \([$n | keys[] | select($o[.])] | length)",
  ($added[] | "+ \(.)"),
  ($gone[] | "- \(.)")
