# SPDX-License-Identifier: GPL-2.0-only
#
# module-summary.awk - the one summary line of scripts/module-check.sh,
# from its verdicts.tsv: one line per module, REL TAB BITS TAB VERDICT
# TAB DETAIL, BITS those of module-check.sh's exit (4 a layout changed,
# 8 incompatibly, 16 not checked or not fully), VERDICT PASS, LAYOUTS
# DIFFER (...), NOT FULLY CHECKED or NOT CHECKED.
#
# Usage: awk -F '\t' -v missing="x_tables, drm" -f module-summary.awk verdicts.tsv
#   missing  the modules depended on that were not found, for the line
#
# Prints one of
#   PASS (N of N modules checked)
#   layouts differ in K of N modules (kabi bits B)[; U not checked][; P not fully checked]
#   NOT CHECKED (N of N modules unreadable to kabi)
#   NOT FULLY CHECKED ([U of N modules not checked][; ][P of N modules: types of M not compared])
#   NOT FULLY CHECKED ([U of N modules not checked][; ][P of N modules not fully checked])
# the last when no module depended on was missing: objects without DWARF

{
	n++
	b = $2 + 0
	if (int(b / 4) % 4) {
		differ++
		bits = or4(bits, int(b / 4) % 4)
	}
	if ($3 == "NOT CHECKED")
		unread++
	else if (int(b / 16) % 2)
		partial++
}

# or4 A B: A | B for two-bit values
function or4(a, b) {
	return (int(a / 2) % 2 || int(b / 2) % 2) * 2 + (a % 2 || b % 2)
}

END {
	if (!differ && !unread && !partial) {
		printf "PASS (%d of %d modules checked)\n", n, n
		exit
	}
	if (differ) {
		line = sprintf("layouts differ in %d of %d modules (kabi bits %d)", differ, n, bits * 4)
		if (unread)
			line = line sprintf("; %d not checked", unread)
		if (partial)
			line = line sprintf("; %d not fully checked", partial)
		print line
		exit
	}
	if (unread == n) {
		printf "NOT CHECKED (%d of %d modules unreadable to kabi)\n", n, n
		exit
	}
	line = ""
	if (unread)
		line = sprintf("%d of %d modules not checked", unread, n)
	if (partial && missing != "")
		line = line (line == "" ? "" : "; ") sprintf("%d of %d modules: types of %s not compared", partial, n, missing)
	else if (partial)
		line = line (line == "" ? "" : "; ") sprintf("%d of %d modules not fully checked", partial, n)
	printf "NOT FULLY CHECKED (%s)\n", line
}
