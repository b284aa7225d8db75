# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-planned.awk - the line that says what an incremental replay
# runs again and why (scripts/diagnose.sh's REPLAY step), from its plan.
#
# Usage: awk -F '\t' -v src=SRCDIR/ -f diagnose-planned.awk PLAN
#   PLAN  diagnose-plan.awk's INDEX TAB keep|replay TAB PREVIOUS|WHY
# Prints "N of T units again (...); K kept from the last replay", the
# changed files relative to SRCDIR, the first two named.

{
	total++
	if ($2 == "keep") {
		kept++
		next
	}
	again++
	if ($3 == "new" || $3 == "command")
		why[$3]++
	else {
		changed++
		f = $3
		if (index(f, src) == 1)
			f = substr(f, length(src) + 1)
		if (!(f in seen)) {
			seen[f] = 1
			files++
			if (files <= 2)
				first = first (files > 1 ? ", " : "") f
		}
	}
}

END {
	part = ""
	if (why["new"])
		part = why["new"] " new"
	if (why["command"])
		part = part (part != "" ? ", " : "") why["command"] " with another command"
	if (changed)
		part = part (part != "" ? ", " : "") changed " reached by " files " changed file" (files > 1 ? "s" : "") ": " first (files > 2 ? ", ..." : "")
	if (part == "")
		part = "nothing they depend on changed"
	printf "%d of %d units again (%s); %d kept from the last replay\n", again, total, part, kept
}
