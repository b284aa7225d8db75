# SPDX-License-Identifier: GPL-2.0-only
#
# compiler-bugs-matrix.awk - the text matrix of a case run.
#
# Usage: awk -F '\t' -v targets="x86_64 arm aarch64" -v ncases=N \
#            -f compiler-bugs-matrix.awk compilers.tsv malformed.tsv results.tsv
# Prints the grid (a row per case and target, a column per compiler),
# then the CHANGED and malformed details and the summary line.

FILENAME ~ /compilers.tsv$/ {
	if (!($2 in col)) {
		col[$2] = ++ncol
		cname[ncol] = $2
		cfam[ncol] = $4
		split($5, v, ".")
		cmaj[ncol] = v[1] + 0
	}
	ncomp++
	next
}
FILENAME ~ /malformed.tsv$/ {
	mal[++nmal] = "malformed " $1 ":" $2 ": " $3
	malfile[$1] = 1
	next
}
{
	row = $1 SUBSEP tidx[$2]
	if (!(row in seenrow)) {
		seenrow[row] = 1
		rows[++nrow] = row
		rcase[nrow] = $1
		rtarget[nrow] = $2
	}
	c = $4 ($5 == "CHANGED" ? " CHANGED" : "")
	cell[row, $3] = c
	nres++
	if ($5 == "CHANGED") {
		nchanged++
		if ($6 != "")
			why = "recorded " $6 " (" $8 ":" $7 ")"
		else
			why = "nothing recorded for " $3 " (" $9 ", " $8 ")"
		chg[row, $3] = "CHANGED " $1 " " $2 " " $3 ": " $4 ", " why
		if ($10 != "")
			chg[row, $3] = chg[row, $3] "\n\t" $10
	}
}
BEGIN {
	nt = split(targets, t, " ")
	for (i = 1; i <= nt; i++)
		tidx[t[i]] = i
}
END {
	# columns: gcc before clang, then by major version
	for (i = 1; i <= ncol; i++)
		order[i] = i
	for (i = 2; i <= ncol; i++)
		for (j = i; j > 1 && before(order[j], order[j - 1]); j--) {
			k = order[j]; order[j] = order[j - 1]; order[j - 1] = k
		}
	wp = length("case"); wt = length("target")
	for (r = 1; r <= nrow; r++) {
		if (length(rcase[r]) > wp) wp = length(rcase[r])
		if (length(rtarget[r]) > wt) wt = length(rtarget[r])
	}
	for (i = 1; i <= ncol; i++) {
		w[i] = length(cname[i])
		for (r = 1; r <= nrow; r++)
			if (length(cell[rows[r], cname[i]]) > w[i])
				w[i] = length(cell[rows[r], cname[i]])
	}
	line = sprintf("%-" wp "s  %-" wt "s", "case", "target")
	for (i = 1; i <= ncol; i++)
		line = line sprintf("  %-" w[order[i]] "s", cname[order[i]])
	print rtrim(line)
	for (i = 2; i <= nrow; i++)
		for (j = i; j > 1 && rowbefore(j, j - 1); j--) {
			k = rows[j]; rows[j] = rows[j - 1]; rows[j - 1] = k
			k = rcase[j]; rcase[j] = rcase[j - 1]; rcase[j - 1] = k
			k = rtarget[j]; rtarget[j] = rtarget[j - 1]; rtarget[j - 1] = k
		}
	for (r = 1; r <= nrow; r++) {
		line = sprintf("%-" wp "s  %-" wt "s", rcase[r], rtarget[r])
		for (i = 1; i <= ncol; i++) {
			c = cell[rows[r], cname[order[i]]]
			line = line sprintf("  %-" w[order[i]] "s", c == "" ? "-" : c)
		}
		print rtrim(line)
	}
	for (r = 1; r <= nrow; r++)
		for (i = 1; i <= ncol; i++)
			if ((rows[r], cname[order[i]]) in chg)
				print chg[rows[r], cname[order[i]]]
	for (i = 1; i <= nmal; i++)
		print mal[i]
	nm = 0
	for (f in malfile)
		nm++
	printf "compiler-bugs: %d result%s from %d case%s and %d compiler%s: %d expected, %d CHANGED, %d malformed\n",
		nres, nres == 1 ? "" : "s", ncases, ncases == 1 ? "" : "s", ncomp, ncomp == 1 ? "" : "s",
		nres - nchanged, nchanged, nm
}
function before(a, b) {
	if (cfam[a] != cfam[b])
		return cfam[a] == "gcc"
	return cmaj[a] < cmaj[b]
}
function rowbefore(a, b) {
	if (rcase[a] != rcase[b])
		return rcase[a] < rcase[b]
	return tidx[rtarget[a]] < tidx[rtarget[b]]
}
function rtrim(s) { sub(/ +$/, "", s); return s }
