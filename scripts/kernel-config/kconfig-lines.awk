# SPDX-License-Identifier: GPL-2.0-only
#
# kconfig-lines.awk - refuse fragment lines that are neither blank, a
# comment nor a Kconfig assignment, so that a typo is not silently ignored.
#
# Usage: awk -v prog=PROG -f kconfig-lines.awk FRAGMENT...
# Prints 'PROG: FILE:LINE: not a Kconfig assignment: ...' on stderr for
# each such line; exits 2 if there is any, else 0.

/^[ \t]*$/ || /^#/ { next }
/^CONFIG_[A-Za-z0-9_]+=./ { next }
{
	printf "%s: %s:%d: not a Kconfig assignment: '%s'\n",
		prog, FILENAME, FNR, $0 > "/dev/stderr"
	bad = 1
}
END { exit bad ? 2 : 0 }
