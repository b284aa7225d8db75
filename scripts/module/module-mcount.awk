# SPDX-License-Identifier: GPL-2.0-only
#
# module-mcount.awk - a module's calls to __fentry__ and its __mcount_loc
# entries, from 'readelf -rW MODULE' (scripts/module.sh).
#
# Prints "CALLS ENTRIES": the relocations that make a call to __fentry__
# (one turned into a NOP has type R_*_NONE and is not counted) and the
# relocations of the __mcount_loc table, one per recorded call.

/^Relocation section '/ {
	sec = $3
	gsub(/'/, "", sec)
	next
}
sec == ".rela__mcount_loc" && $3 ~ /^R_/ {
	entries++
	next
}
$5 == "__fentry__" && $3 !~ /_NONE$/ {
	calls++
}
END {
	printf "%d %d\n", calls, entries
}
