# SPDX-License-Identifier: GPL-2.0-only
#
# flag-split.awk - the flags of a GCC command that the compiler must judge,
# one word a line in, one flag a line out (an option's argument skipped).
#
# Usage: awk -f flag-words.awk -f flag-split.awk WORDS

skip { skip = 0; next }
{
	k = fw_kind($0)
	if (k == "arg")
		skip = 1
	else if (k == "no")
		print
}
