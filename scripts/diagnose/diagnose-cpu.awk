# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-cpu.awk - the CPU time Clang took on each unit of a replay
# (scripts/diagnose.sh), from what the shell's 'times' printed after it.
#
# Usage: awk -f diagnose-cpu.awk STATUS CPU...
#   STATUS  INDEX TAB EXIT-STATUS TAB UNIT per unit
#   CPU     one file per unit, named INDEX.cpu (any directory): the output
#           of 'times' in the shell that ran the unit's Clang, whose second
#           line is its children's user and system time ("0m0.380000s
#           0m0.040000s")
# Prints UNIT TAB SECONDS (user + system, three decimals) per unit.

# secs(T): seconds of a 'times' field, NmS.SSSs
function secs(t) {
	sub(/s$/, "", t)
	split(t, p, "m")
	return p[1] * 60 + p[2]
}

FNR == NR {
	unit[$1] = $3
	next
}
FNR == 2 {
	idx = FILENAME
	sub(/^.*\//, "", idx)
	sub(/\.cpu$/, "", idx)
	printf "%s\t%.3f\n", unit[idx], secs($1) + secs($2)
}
