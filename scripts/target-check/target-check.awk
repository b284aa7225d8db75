# SPDX-License-Identifier: GPL-2.0-only
#
# target-check.awk - check one target file, scripts/targets/NAME.target.
#
# Usage: awk -v prog=PROG -v req="KEY..." -v opt="KEY..." -f target-check.awk FILE
# Prints "PROG: FILE:LINE: problem" on stderr for each line that is not a
# comment, a blank or KEY=value with a known KEY set once to a plain word or
# a double-quoted string of plain words (nothing that a shell would expand),
# and for each required KEY (req) the file does not set. Exits 2 if there
# was a problem, else 0.

function problem(msg) {
	printf "%s: %s\n", prog, msg > "/dev/stderr"
	bad = 1
}
BEGIN {
	n = split(req, r, " ")
	for (i = 1; i <= n; i++)
		allowed[r[i]] = 1
	m = split(opt, o, " ")
	for (i = 1; i <= m; i++)
		allowed[o[i]] = 1
}
/^[ \t]*$/ || /^#/ { next }
{
	where = FILENAME ":" FNR
	if (!match($0, /^[A-Za-z_][A-Za-z0-9_]*=/)) {
		problem(where ": not a KEY=value line: '" $0 "'")
		next
	}
	key = substr($0, 1, RLENGTH - 1)
	val = substr($0, RLENGTH + 1)
	if (!(key in allowed)) {
		problem(where ": unknown key '" key "'")
		next
	}
	if (key in seen) {
		problem(where ": key '" key "' set again (first at line " seen[key] ")")
		next
	}
	seen[key] = FNR
	if (val !~ /^[A-Za-z0-9_.,:\/+=@-]*$/ &&
	    val !~ /^"[A-Za-z0-9_.,:\/+=@ -]*"$/)
		problem(where ": " key ": value must be a plain word or \"words\", not '" val "'")
}
END {
	for (i = 1; i <= n; i++)
		if (!(r[i] in seen))
			problem(FILENAME ": missing key '" r[i] "'")
	exit bad ? 2 : 0
}
