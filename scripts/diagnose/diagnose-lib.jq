# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-lib.jq - the definitions diagnose.jq and its renderers share.

# rows(S): the tab-separated lines of S, empty lines dropped
def rows($s): $s | split("\n") | map(select(. != "") | split("\t"));

# list: a field joined by \u001f as an array ([] for an empty field)
def list: if . == null or . == "" then [] else split("\u001f") end;

# rel(SRC): a path made relative to SRC when below it
def rel($src): if startswith($src + "/") then .[($src | length) + 1:] else . end;

# finding_id(F): what names a finding across runs: kind, flag, place, text
def finding_id(f): "\(f.kind)|\(f.flag)|\(f.file):\(f.line // "-")\(if f.col then ":\(f.col)" else "" end)|\(f.text)";

# counts(F): {key: number of elements with that F}, most first, then by key
def counts(f): group_by(f) | map({key: (.[0] | f), value: length})
	| sort_by(-.value, .key) | from_entries;

# where: FILE:LINE:COL of a finding
def where: "\(.file):\(.line // "-")\(if .col then ":\(.col)" else "" end)";
