# SPDX-License-Identifier: GPL-2.0-only
#
# compiler-bugs-history.awk - for each case and compiler family, the
# version at which each outcome began: the versions where the behaviour
# changed, oldest first.
#
# Usage: awk -F '\t' [-v tsv=1] -f compiler-bugs-history.awk SORTED
# SORTED has one result a line: CASE, FAMILY, TARGET, VERSION, OUTCOME,
# tab-separated, sorted on case, family, target, then version (sort -V).
# Prints, for each case and family whose outcome changes between two of
# its versions, one line: CASE, FAMILY, TARGETS ("all" when every target
# of the case changes alike, else the targets that do, separated by
# spaces, a line for each history) and the history, "VERSION OUTCOME" at
# each change separated by " -> ", in aligned columns (tab-separated with
# tsv=1). Cases no version changes are left out.

function flush_target() {
	if (key == "")
		return
	hist[key, tgt] = seq
	if (!((key, "targets") in hist))
		keys[++nkeys] = key
	hist[key, "targets"] = hist[key, "targets"] (hist[key, "targets"] == "" ? "" : " ") tgt
	changes[key, tgt] = nchg
}
{
	k = $1 "\t" $2
	if (k != key || $3 != tgt) {
		flush_target()
		key = k
		tgt = $3
		seq = ""
		last = ""
		nchg = 0
	}
	if ($5 != last) {
		seq = seq (seq == "" ? "" : " -> ") $4 " " $5
		if (last != "")
			nchg++
		last = $5
	}
}
END {
	flush_target()
	for (i = 1; i <= nkeys; i++) {
		k = keys[i]
		nt = split(hist[k, "targets"], ts, " ")
		# the distinct histories of the key, in target order
		nh = 0
		any = 0
		for (j = 1; j <= nt; j++) {
			h = hist[k, ts[j]]
			if (changes[k, ts[j]] > 0)
				any = 1
			if (!((k, "h", h) in seen)) {
				seen[k, "h", h] = ++nh
				hs[nh] = h
				htg[nh] = ""
			}
			n = seen[k, "h", h]
			htg[n] = htg[n] (htg[n] == "" ? "" : " ") ts[j]
		}
		if (!any)
			continue
		for (n = 1; n <= nh; n++) {
			if (nh == 1)
				htg[n] = "all"
			out[++nout] = k "\t" htg[n] "\t" hs[n]
		}
	}
	if (tsv) {
		for (i = 1; i <= nout; i++)
			print out[i]
		exit
	}
	for (i = 1; i <= nout; i++) {
		split(out[i], f, "\t")
		for (j = 1; j <= 3; j++)
			if (length(f[j]) > w[j])
				w[j] = length(f[j])
	}
	for (i = 1; i <= nout; i++) {
		split(out[i], f, "\t")
		printf "%-" w[1] "s  %-" w[2] "s  %-" w[3] "s  %s\n", f[1], f[2], f[3], f[4]
	}
}
