# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-cmdfile.awk - the .cmd file Kbuild keeps for each unit's
# object (DIR/path/.name.o.cmd for path/name.o), for diagnose-deps.awk.
#
# Usage: awk -F '\t' -f diagnose-cmdfile.awk UNITS
#   UNITS  INDEX TAB DIRECTORY TAB FILE TAB COMMAND
# Prints CMDFILE TAB INDEX per unit whose command names an object (-o).

{
	n = split($4, w, " ")
	for (i = 1; i < n; i++)
		if (w[i] == "-o") {
			obj = w[i + 1]
			dir = obj
			if (sub(/\/[^\/]*$/, "", dir))
				dir = dir "/"
			else
				dir = ""
			base = obj
			sub(/.*\//, "", base)
			print $2 "/" dir "." base ".cmd\t" $1
			break
		}
}
