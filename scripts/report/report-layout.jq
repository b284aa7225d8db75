# SPDX-License-Identifier: GPL-2.0-only
#
# report-layout.jq - the picture of each changed type's two layouts, GCC
# beside Clang: one row per member or gap, holes and tail padding as rows
# of their own, the rows of one member paired across the two sides, and
# the pairs that differ marked. report.md gets a fixed-width text block in
# the manner of pahole's comments, report.html a table.
# A module: include "report-layout"; with -L scripts/report.

include "report";
include "report-matrix";

# lay_rows: the rows of one side (report.jq's rows), the gap after the last
# member marked as padding rather than a hole
def lay_rows: . as $t | rows | length as $n
	| to_entries | map(.value + {pad: (.value.hole and .key == $n - 1
		and .value.offset + .value.size == ($t.size // 0))});
def lay_key: if .pad then "pad" elif .hole then "hole" else "m:" + (.name // "<anon>") end;
def lay_name: .name // "<anon>";

# lay_pairs(GCC; CLANG): [gcc row or null, clang row or null] in order. A
# member pairs with the member of the same name; a member that only one
# side has where it stands gets a row of its own, as does a gap facing a
# member.
def lay_pairs($g; $c):
	{i: 0, j: 0, out: []}
	| until(.i >= ($g | length) and .j >= ($c | length);
		.i as $i | .j as $j
		| if $i >= ($g | length) then .out += [[null, $c[$j]]] | .j += 1
		elif $j >= ($c | length) then .out += [[$g[$i], null]] | .i += 1
		elif ($g[$i] | lay_key) == ($c[$j] | lay_key) then .out += [[$g[$i], $c[$j]]] | .i += 1 | .j += 1
		elif $g[$i].hole then .out += [[$g[$i], null]] | .i += 1
		elif $c[$j].hole then .out += [[null, $c[$j]]] | .j += 1
		elif ($g[$i] | lay_key) as $k | any($c[$j:][]; lay_key == $k)
		then .out += [[null, $c[$j]]] | .j += 1
		else .out += [[$g[$i], null]] | .i += 1 end)
	| .out;
def lay_same($a; $b): $a != null and $b != null
	and ([$a, $b] | map([.offset, .size, .bit_offset, .bit_size, .type]) | .[0] == .[1]);
# lay_picture: a changed type's pairs, each with whether it differs
def lay_picture: lay_pairs(.gcc | lay_rows; .clang | lay_rows)
	| map({g: .[0], c: .[1], differs: (lay_same(.[0]; .[1]) | not)});
def lay_drawn: (.gcc.members // []) + (.clang.members // []) | length > 0;
# lay_finding: a kabi finding; one side of a member only there says which
def lay_finding: .what + (if .subject != null then " \(.subject)" else "" end)
	+ (if .old != null and .new != null then ": \(.old) -> \(.new)"
	   elif .new != null then ": \(.new)" elif .old != null then ": was \(.old)" else "" end)
	+ (if .incompatible then " (incompatible)" else "" end);
# lay_types: the types a comparison draws; older reports kept only the
# incompatible ones
def lay_types: (.changed // .incompatible // []);
def lay_more_text: "\(.changed_more) more changed types are not drawn; all are in the output of `\(.reproduce)`.";
# lay_title($k; $r): a matrix names the comparison a picture belongs to
def lay_title($k; $r): if $r | is_matrix then "\($k.old) vs \($k.new): " else "" end;

def pad($w): . + " " * ([$w - length, 0] | max);
def lpad($w): " " * ([$w - length, 0] | max) + .;
def bytes: "\(.) byte" + (if . == 1 then "" else "s" end);
# the md text of a row: pahole's "type name:bits; /* offset size */"
def lay_decl: "\(.type) \(lay_name)" + (if .bit_size != null then ":\(.bit_size)" else "" end) + ";";
def lay_where: "\(.offset)" + (if .bit_size != null then ":\(.bit_offset)" else "" end);
def lay_text($w; $wo; $ws): if . == null then ""
	elif .pad then "/* padding: \(.size | bytes) */"
	elif .hole then "/* XXX \(.size | bytes) hole */"
	else "\(lay_decl | pad($w)) /* \(lay_where | lpad($wo)) \(.size | tostring | lpad($ws)) */" end;

# lay_md(OLD; NEW): a changed type's picture, its sides named OLD and
# NEW; '!' starts the lines that differ
def lay_md($lo; $ln): lay_picture as $p
	| [$p[] | .g, .c | select(. != null and (.hole | not))] as $m
	| ([$m[] | lay_decl | length] | max // 0) as $w
	| ([$m[] | lay_where | length] | max // 0) as $wo
	| ([$m[] | .size | tostring | length] | max // 0) as $ws
	| ["\($lo): size \(.gcc.size // "?")", "\($ln): size \(.clang.size // "?")"] as $head
	| ([$head[0], ($p[] | .g | lay_text($w; $wo; $ws))] | map(length) | max) as $lw
	| "  \($head[0] | pad($lw)) | \($head[1])",
	  ($p[] | "\(if .differs then "!" else " " end) \(.g | lay_text($w; $wo; $ws) | pad($lw)) | \(.c | lay_text($w; $wo; $ws))"
		| sub(" +$"; ""));

# layouts_md(REPORT): the pictures of the changed types of one
# comparison (kabi_pairs), inside its target's section
def layouts_md($r): . as $k | lay_types as $l |
	if ($l | length) == 0 then empty else
	($l[] |
		"### \(lay_title($k; $r))\(.kind) \(.name) (\(.decl_file):\(.decl_line))",
		"",
		(.findings[] | "- \(lay_finding)"),
		"",
		(if lay_drawn then "```", lay_md($k.old; $k.new), "```", "" else empty end)),
	(if ($k.changed_more // 0) > 0 then ($k | lay_more_text), "" else empty end)
	end;

# the html of one side of a pair: offset, size, bits, member, type
def lay_bits: if .bit_size != null then "\(.bit_offset)-\(.bit_offset + .bit_size - 1)" else "" end;
def lay_cells($cls): if . == null then "<td colspan=\"5\" class=\"none\(if $cls == "" then "" else " " + $cls end)\"></td>"
	elif .hole then "<td class=\"hole\(if $cls == "" then "" else " " + $cls end)\">\(.offset)</td><td class=\"hole\">\(.size)</td>"
		+ "<td class=\"hole\" colspan=\"3\">\(.size | bytes) \(if .pad then "padding" else "hole" end)</td>"
	else "<td\(if $cls == "" then "" else " class=\"" + $cls + "\"" end)>\(.offset)</td><td>\(.size)</td><td>\(lay_bits)</td>"
		+ "<td>\(lay_name | @html)</td><td><code>\(.type | @html)</code></td>" end;

# lay_html(OLD; NEW): a changed type's picture as one table, OLD left,
# NEW right
def lay_html($lo; $ln): lay_picture as $p |
	"<table class=\"layout\"><tr><th colspan=\"5\">\($lo | @html): size \(.gcc.size // "?")</th>"
	+ "<th colspan=\"5\" class=\"right\">\($ln | @html): size \(.clang.size // "?")</th></tr>"
	+ "<tr>" + (["", "right"] | map(. as $c | ["offset", "size", "bits", "member", "type"]
		| to_entries | map("<th\(if .key == 0 and $c != "" then " class=\"right\"" else "" end)>\(.value)</th>") | join("")) | join("")) + "</tr>"
	+ ([$p[] | "<tr\(if .differs then " class=\"differs\"" else "" end)>\(.g | lay_cells(""))\(.c | lay_cells("right"))</tr>"] | join(""))
	+ "</table>";

# layouts_html(REPORT): the pictures of the changed types of one
# comparison (kabi_pairs), inside its target's section
def layouts_html($r): . as $k | lay_types as $l |
	if ($l | length) == 0 then empty else
	($l[] |
		"<h3>\(lay_title($k; $r) | @html)\(.kind) \(.name | @html) <small>\(.decl_file | @html):\(.decl_line)</small></h3>",
		"<ul>" + ([.findings[] | "<li>\(lay_finding | @html)</li>"] | join("")) + "</ul>",
		(if lay_drawn then lay_html($k.old; $k.new) else empty end)),
	(if ($k.changed_more // 0) > 0 then "<p>\($k | lay_more_text | @html)</p>" else empty end)
	end;

# layout_css: the pictures' style, for the report's style sheet
def layout_css:
	"table.layout td.hole{background:#fff3c4;font-style:italic}table.layout td.none{background:#f4f4f4}",
	"table.layout .right{border-left:3px solid #555}table.layout tr.differs td{background:#f7d4d4}",
	"table.layout tr.differs td.hole{background:#f3c08a}";
