# SPDX-License-Identifier: GPL-2.0-only
#
# help.awk - one table of the Makefile's help: a "NAME|TEXT" line per
# entry, printed under "TITLE:" with NAME's column as wide as the longest
# NAME and TEXT wrapped at 79 columns under itself. NAME ends at the first
# '|' (TEXT may hold more: "TESTS=none|kunit").
#
# Usage: printf '%s\n' "$TABLE" | awk -v title=Targets -f help.awk

NF {
	i = index($0, "|")
	names[++k] = substr($0, 1, i - 1)
	texts[k] = substr($0, i + 1)
	if (i - 1 > w)
		w = i - 1
}

END {
	print title ":"
	for (i = 1; i <= k; i++) {
		cur = sprintf("  %-" w "s  ", names[i])
		indent = length(cur)
		n = split(texts[i], word, " ")
		for (j = 1; j <= n; j++) {
			if (length(cur) + length(word[j]) > 79 && length(cur) > indent) {
				sub(/ $/, "", cur)
				print cur
				cur = sprintf("%" indent "s", "")
			}
			cur = cur word[j] " "
		}
		sub(/ $/, "", cur)
		print cur
	}
}
