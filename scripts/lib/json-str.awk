# SPDX-License-Identifier: GPL-2.0-only
#
# json-str.awk - its input, less the last character, as one JSON string:
# quotes, backslashes and every control character escaped (tab, CR and
# newline by name, the rest as \u00XX). Run it with LC_ALL=C, so that
# other bytes pass through as they are.
#
# Usage: printf '%s.' "$s" | LC_ALL=C awk -f json-str.awk
# (the final '.' carries a trailing newline of $s through).

BEGIN {
	for (i = 1; i < 32; i++)
		esc[sprintf("%c", i)] = sprintf("\\u%04x", i)
	esc["\t"] = "\\t"
	esc["\r"] = "\\r"
	esc["\""] = "\\\""
	esc["\\"] = "\\\\"
}
{
	line = ""
	for (i = 1; i <= length($0); i++) {
		c = substr($0, i, 1)
		line = line ((c in esc) ? esc[c] : c)
	}
	out = (NR > 1) ? out "\\n" line : line
}
END { printf "\"%s\"", substr(out, 1, length(out) - 1) }
