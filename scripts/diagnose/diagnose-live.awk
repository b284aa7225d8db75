# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-live.awk - keep the units whose object the build still uses
# (scripts/diagnose.sh; diagnose-linked.awk lists those objects).
#
# Usage: awk -F '\t' -v stale=FILE -f diagnose-live.awk LINKED UNITS
#   LINKED  the objects the build uses, relative to its directory
#   UNITS   INDEX TAB DIRECTORY TAB FILE TAB COMMAND
# Prints the units whose '-o' object is in LINKED, or whose output is no
# object at all (asm-offsets.s, bounds.s: the build compiles them every
# time for the headers they generate); appends the FILE of every other
# unit to the file STALE.

FILENAME == ARGV[1] {
	linked[$0] = 1
	next
}

{
	obj = ""
	n = split($4, w, " ")
	for (i = 1; i < n; i++)
		if (w[i] == "-o")
			obj = w[i + 1]
	if (index(obj, $2 "/") == 1)
		obj = substr(obj, length($2) + 2)
	while (substr(obj, 1, 2) == "./")
		obj = substr(obj, 3)
	if (obj !~ /\.o$/ || obj in linked)
		print
	else
		print $3 >>stale
}
