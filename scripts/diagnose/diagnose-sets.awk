# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-sets.awk - the flags of each compile command that Clang must
# judge (scripts/diagnose.sh asks kbuild/flag-translate.sh once per
# distinct set, not once per unit).
#
# Usage: awk -F '\t' -f flag-words.awk -f diagnose-sets.awk UNITS
#   UNITS  INDEX TAB DIRECTORY TAB FILE TAB COMMAND
# Prints INDEX TAB FLAGS per unit: the judged flags in the order given,
# each once, separated by spaces.

{
	n = split($4, w, " ")
	i = 1
	while (i <= n && w[i] !~ /^-/)
		i++
	set = ""
	delete seen
	for (; i <= n; i++) {
		k = fw_kind(w[i])
		if (k == "arg")
			i++
		else if (k == "no" && !(w[i] in seen)) {
			seen[w[i]] = 1
			set = set == "" ? w[i] : set " " w[i]
		}
	}
	print $1 "\t" set
}
