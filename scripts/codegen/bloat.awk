# SPDX-License-Identifier: GPL-2.0-only
#
# bloat.awk - the output of the kernel's scripts/bloat-o-meter -c OLD NEW
# as one JSON object with a member per category ("function", "data",
# "rodata"): its summary, its totals, and its TOP largest growths and
# shrinks per symbol (default 20).
#
# Usage: awk [-v top=N] -f bloat.awk BLOAT-O-METER-OUTPUT
# Each category is a block: the summary line (add/remove: ...), a header
# (Function|Data|RO Data old new delta), its rows sorted by delta, largest
# growth first, and a Total line. The growths are read from the start of
# the rows, the shrinks from the end. A line of none of these shapes, or a
# block cut short, is reported as "FILE:LINE: WHY" on stderr, with exit
# status 2 and nothing on stdout.

function bad(why) {
	printf "%s:%d: %s\n", FILENAME, FNR, why > "/dev/stderr"
	err = 1
	exit 2
}

# the size in an old or new column: "-" when the symbol is not there
function size(v) {
	return v == "-" ? 0 : v
}

function row(i) {
	return sprintf("{\"symbol\": \"%s\", \"old\": %d, \"new\": %d, \"delta\": %d}",
		name[i], old[i], new[i], delta[i])
}

# the block read so far, as "CATEGORY": {...}
function block(    i, k, s) {
	s = sprintf("\"%s\": {\"added\": %d, \"removed\": %d, \"grown\": %d, \"shrunk\": %d, ",
		cat, ar[1], ar[2], gs[1], gs[2])
	s = s sprintf("\"up\": %d, \"down\": %d, \"net\": %d, ", ud[1], ud[2], net)
	s = s sprintf("\"before\": %d, \"after\": %d, \"change_percent\": %s,\n  \"grows\": [",
		before, after, chg + 0)
	k = 0
	for (i = 1; i <= n && k < top && delta[i] > 0; i++)
		s = s (k++ ? "," : "") "\n   " row(i)
	s = s "],\n  \"shrinks\": ["
	k = 0
	for (i = n; i >= 1 && k < top && delta[i] < 0; i--)
		s = s (k++ ? "," : "") "\n   " row(i)
	return s "]}"
}

BEGIN {
	if (top == "")
		top = 20
	state = "summary"
}

/^add\/remove: / {
	# add/remove: A/R grow/shrink: G/S up/down: U/D (NET)
	if (state != "summary" || NF != 7 || split($2, ar, "/") != 2 || split($4, gs, "/") != 2 ||
	    split($6, ud, "/") != 2 || $7 !~ /^\(-?[0-9]+\)$/)
		bad("not a bloat-o-meter summary here")
	net = substr($7, 2, length($7) - 2)
	state = "header"
	next
}

/^(Function|Data|RO Data)[ \t]+old[ \t]+new[ \t]+delta$/ {
	if (state != "header")
		bad("a header without its summary")
	cat = $1 == "Function" ? "function" : $1 == "Data" ? "data" : "rodata"
	n = 0
	state = "rows"
	next
}

/^Total: Before=[0-9]+, After=[0-9]+, chg [-+]?[0-9.]+%$/ {
	if (state != "rows")
		bad("a total without its rows")
	split($2, b, "=")
	split($3, a, "=")
	before = b[2] + 0
	after = a[2] + 0
	chg = $5
	sub(/%$/, "", chg)
	out = out (out == "" ? "" : ",\n ") block()
	state = "summary"
	next
}

state == "rows" && NF == 4 && $2 ~ /^(-|[0-9]+)$/ && $3 ~ /^(-|[0-9]+)$/ && $4 ~ /^[-+]?[0-9]+$/ {
	n++
	name[n] = $1
	old[n] = size($2)
	new[n] = size($3)
	delta[n] = $4 + 0
	next
}

/^[ \t]*$/ { next }

{ bad("not a bloat-o-meter line") }

END {
	if (err)
		exit 2
	if (state != "summary" || out == "") {
		printf "%s:%d: no complete bloat-o-meter block\n", FILENAME, FNR > "/dev/stderr"
		exit 2
	}
	printf "{%s}\n", out
}
