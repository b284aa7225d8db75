# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-deps.awk - what each unit of a build was made from, read from
# Kbuild's .cmd files (scripts/diagnose.sh, for an incremental replay):
# the source_ line and every entry of the deps_ list fixdep wrote, the
# $(wildcard include/config/SYMBOL) entries included (Kbuild touches those
# files when the symbol changes). Relative paths are the build
# directory's (generated headers, include/config/).
#
# Usage: awk -v build=BDIR -v map=MAP -f diagnose-deps.awk CMDFILE...
#   MAP  CMDFILE TAB INDEX per unit
# Prints INDEX TAB FILE per dependency, FILE absolute.

function abs(p) {
	return p ~ /^\// ? p : build "/" p
}

BEGIN {
	while ((getline line < map) > 0) {
		split(line, m, "\t")
		index_of[m[1]] = m[2]
	}
	close(map)
}

FNR == 1 {
	in_deps = 0
	unit = index_of[FILENAME]
}

/^source_[^ ]* := / {
	print unit "\t" abs($3)
	next
}

/^deps_[^ ]* := \\$/ {
	in_deps = 1
	next
}

in_deps && NF == 0 {
	in_deps = 0
	next
}

in_deps && $1 != "\\" {
	file = $1
	if (file == "$(wildcard") {
		file = $2
		sub(/\)$/, "", file)
	}
	print unit "\t" abs(file)
}
