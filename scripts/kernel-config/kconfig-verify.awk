# SPDX-License-Identifier: GPL-2.0-only
#
# kconfig-verify.awk - which requested symbols a .config lacks.
#
# Usage: awk -v prog=PROG -f kconfig-verify.awk part=config .config \
#            part=fragment FRAGMENT...
# Prints 'PROG: SYM=VAL requested by FRAGMENT but .config ...' for each
# symbol whose last request is not what .config has, in request order,
# and exits 1 if there is any. A symbol requested 'not set' may also be
# missing from .config: Kconfig leaves out symbols whose dependencies are
# unmet.

# parse(): set sym and val from a .config line; 0 if none.
function parse(line) {
	if (match(line, /^CONFIG_[A-Za-z0-9_]+=/)) {
		sym = substr(line, 1, RLENGTH - 1)
		val = substr(line, RLENGTH + 1)
		return 1
	}
	if (line ~ /^# CONFIG_[A-Za-z0-9_]+ is not set$/) {
		split(line, f, " ")
		sym = f[2]
		val = "n"
		return 1
	}
	return 0
}
part == "config" {
	if (parse($0))
		have[sym] = val
	next
}
parse($0) {
	order[++n] = sym
	last[sym] = n
	want[sym] = val
	from[sym] = FILENAME
}
END {
	for (i = 1; i <= n; i++) {
		sym = order[i]
		if (last[sym] != i)
			continue
		if (sym in have && have[sym] == want[sym])
			continue
		if (!(sym in have) && want[sym] == "n")
			continue
		printf "%s: %s=%s requested by %s but .config ", prog, sym, want[sym], from[sym]
		if (!(sym in have))
			printf "does not mention it\n"
		else if (have[sym] == "n")
			printf "has '# %s is not set'\n", sym
		else
			printf "has '%s=%s'\n", sym, have[sym]
		bad = 1
	}
	exit bad
}
