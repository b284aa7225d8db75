# SPDX-License-Identifier: GPL-2.0-only
#
# scan-bucket.awk - read one probe cache bucket (kbuild/cache-format) for
# kbuild/probe-cache.sh.
#
# Variables: mode (find: print the answer field of the record whose key is
# ENVIRON["KP_KEY"], when exactly one record has it; keep: print every
# valid record but that one), and the format's magic, tag, answers, stock,
# reasons and macros, lists comma-separated as in kbuild/cache-format.
# Exit: 3 when the file holds anything that is not a valid record, else 0.

# alt(list): the comma-separated list as one anchored alternation
function alt(list) {
	gsub(/,/, "|", list)
	return "(" list ")"
}

function hash(h) {
	return length(h) == 32 && h !~ /[^0-9a-f]/
}

BEGIN {
	key = ENVIRON["KP_KEY"]
	field = "^" alt(answers) ":" alt(reasons) ":" alt(stock) "$"
	macro = "^" alt(macros) "$"
	n = 0
	bad = 0
}

NR == 1 {
	if ($0 != magic) {
		bad = 2
		exit
	}
	next
}

NF == 8 && $1 == tag && $2 ~ /^[01]$/ && $3 ~ macro && hash($4) && ($5 == "-" || hash($5)) && $8 ~ field {
	if (substr($0, 1, length(key)) == key && length($0) == length(key) + length($8)) {
		n++
		found = $8
	} else if (mode == "keep") {
		print
	}
	next
}

{ bad = 1 }

END {
	if (mode == "find" && bad != 2 && n == 1)
		print found
	exit bad ? 3 : 0
}
