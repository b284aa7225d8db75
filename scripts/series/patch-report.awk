# SPDX-License-Identifier: GPL-2.0-only
#
# patch-report.awk - what patch(1) said about one patch, as one line:
# 'STATUS<tab>DETAIL;DETAIL...'.
#
# Usage: patch -p1 -N -f ... 2>&1 | awk -v rc=EXIT -v missing=DETAILS -f patch-report.awk
#   rc       patch's exit status
#   missing  'FILE missing;...' found before patch ran, or empty
#
# STATUS is the worst of: applies, offset ('FILE hunk N offset K'), fuzz
# ('FILE hunk N fuzz F'), rejected ('FILE hunk N rejected', 'FILE N hunks
# ignored'), missing ('FILE missing': patch's "can't find file to patch"),
# failed (patch's own complaint, or a non-zero exit with none of the
# above). Every hunk patch did not apply exactly is named.

function add(s) { d = d (d == "" ? "" : ";") s }

# strip1 NAME: NAME as 'patch -p1' has it.
function strip1(name) {
	sub(/\t.*/, "", name)
	sub(/^[^\/]*\//, "", name)
	return name
}

/^patching file / {
	file = substr($0, 15)
	gsub(/^'|'$/, "", file)
	next
}

/^can't find file to patch/ { lost = 1; next }
lost && /^\|\+\+\+ / { lostfile = strip1(substr($0, 6)); next }
lost && /^No file to patch/ {
	if (index(";" missing ";", ";" lostfile " missing;") == 0)
		missing = missing (missing == "" ? "" : ";") (lostfile == "" ? "a file" : lostfile) " missing"
	lost = 0
	skipped = 1
	next
}

/^Hunk #[0-9]+ FAILED/ {
	n = $2
	sub(/#/, "", n)
	add(file " hunk " n " rejected")
	rej = 1
	next
}

/^Hunk #[0-9]+ succeeded/ {
	n = $2
	sub(/#/, "", n)
	if (match($0, /with fuzz [0-9]+/)) {
		add(file " hunk " n " fuzz " substr($0, RSTART + 10, RLENGTH - 10))
		fz = 1
	} else if (match($0, /offset -?[0-9]+ line/)) {
		add(file " hunk " n " offset " substr($0, RSTART + 7, RLENGTH - 12))
		off = 1
	}
	next
}

/^[0-9]+ out of [0-9]+ hunks? ignored/ {
	if (skipped)
		skipped = 0
	else {
		add(file " " $1 " hunk" ($1 == 1 ? "" : "s") " ignored")
		rej = 1
	}
	next
}

/^patch: \*\*\*\* / {
	sub(/^patch: \*\*\*\* /, "")
	add("patch: " $0)
	bad = 1
}

END {
	if (missing != "") {
		status = "missing"
		d = missing (d == "" ? "" : ";") d
	} else if (bad) status = "failed"
	else if (rej) status = "rejected"
	else if (rc != 0) { status = "failed"; add("patch exit " rc) }
	else if (fz) status = "fuzz"
	else if (off) status = "offset"
	else status = "applies"
	printf "%s\t%s\n", status, d
}
