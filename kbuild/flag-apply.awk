# SPDX-License-Identifier: GPL-2.0-only
#
# flag-apply.awk - a GCC command with a decision table applied: every
# word passed through, every judged flag kept, translated or dropped.
#
# Usage: awk -v table=DECISIONS -f flag-words.awk -f flag-apply.awk WORDS
# WORDS has one word a line; so has the output.

BEGIN { fw_load(table) }
skip { skip = 0; print; next }
{
	k = fw_kind($0)
	if (k == "arg") {
		skip = 1
		print
	} else if (k == "yes") {
		print
	} else {
		w = fw_apply($0)
		if (w != "") {
			gsub(/ /, "\n", w)
			print w
		}
	}
}
