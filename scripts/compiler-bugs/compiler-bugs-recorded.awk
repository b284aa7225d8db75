# SPDX-License-Identifier: GPL-2.0-only
#
# compiler-bugs-recorded.awk - which recorded outcome a case expects of one
# compiler on one target.
#
# Usage: awk -F '\t' -v fam=FAMILY -v ver=VERSION -v tgt=TARGET \
#            -f compiler-bugs-recorded.awk TAGS
# TAGS holds compiler-bugs-parse.awk's records. Prints "LINE<TAB>KIND<TAB>SPEC<TAB>ARG"
# of the first check-expect whose selector holds, or "0<TAB>none<TAB><TAB>".

function vcmp(have, want,   h, w, n, i) {
	n = split(want, w, ".")
	split(have, h, ".")
	for (i = 1; i <= n; i++)
		if (h[i] + 0 != w[i] + 0)
			return h[i] + 0 < w[i] + 0 ? -1 : 1
	return 0
}
function holds(c,   op, r) {
	match(c, /^[<>=]+/)
	op = substr(c, 1, RLENGTH)
	r = vcmp(ver, substr(c, RLENGTH + 1))
	return op == "<" ? r < 0 : op == "<=" ? r <= 0 : op == ">" ? r > 0 : op == ">=" ? r >= 0 : r == 0
}
function selects(   c, n, i) {
	if ($3 != "*" && $3 != fam)
		return 0
	if ($5 != "" && !index(" " $5 " ", " " tgt " "))
		return 0
	n = split($4, c, " ")
	for (i = 1; i <= n; i++)
		if (!holds(c[i]))
			return 0
	return 1
}
$1 == "expect" && selects() { print $2 "\t" $6 "\t" $7 "\t" $8; found = 1; exit }
END { if (!found) print "0\tnone\t\t" }
