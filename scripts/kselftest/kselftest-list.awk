# SPDX-License-Identifier: GPL-2.0-only
#
# kselftest-list.awk - the kselftests a target runs, from
# scripts/targets/kselftest.list (its header has the format).
#
# Usage: awk -v target=TARGET [-v file=NAME] -f kselftest-list.awk LIST
# Prints "COLLECTION PROGRAM SECONDS" for each line that runs on TARGET, in
# the list's order. A malformed line is reported as "FILE:LINE: WHY" on
# stderr and the exit status is 2, with nothing on stdout.

function bad(why) {
	printf "%s:%d: %s\n", file == "" ? FILENAME : file, FNR, why > "/dev/stderr"
	err = 1
}

/^[ \t]*(#|$)/ { next }

{
	if (NF < 4) {
		bad("need TARGETS COLLECTION PROGRAM SECONDS|skip REASON")
		next
	}
	if ($1 !~ /^(\*|[A-Za-z0-9_-]+(,[A-Za-z0-9_-]+)*)$/) {
		bad("TARGETS must be '*' or names joined by commas, not '" $1 "'")
		next
	}
	if ($2 !~ /^[A-Za-z0-9_-]+$/ || $3 !~ /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/) {
		bad("bad COLLECTION or PROGRAM '" $2 " " $3 "'")
		next
	}
	if ($4 == "skip") {
		if (NF < 5)
			bad("a skip needs a reason")
		next
	}
	if ($4 !~ /^[1-9][0-9]*$/ || NF > 4) {
		bad("SECONDS must be a positive number alone, or 'skip REASON', not '" $4 "'")
		next
	}
	if ($1 == "*" || index("," $1 ",", "," target ","))
		run[++n] = $2 " " $3 " " $4
}

END {
	if (err)
		exit 2
	for (i = 1; i <= n; i++)
		print run[i]
}
