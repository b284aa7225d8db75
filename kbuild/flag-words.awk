# SPDX-License-Identifier: GPL-2.0-only
#
# flag-words.awk - the words of a GCC command as kbuild/flag-translate.sh
# sees them, and a decision table applied to them. Functions only: load it
# before a program that calls them (awk -f flag-words.awk -f MAIN.awk).
#
#   fw_kind(WORD)   "arg": WORD takes the next word as its argument
#                   (-include FILE, -o FILE, ...); "yes": passed through
#                   untested (paths, macros, dependency and mode flags,
#                   non-flags); "no": a flag for the compiler to judge
#   fw_load(FILE)   read a decision table: flag-translate.sh -a's lines,
#                   FLAG TAB keep|translate|drop TAB NEW TAB CLASS TAB WHY
#   fw_apply(WORD)  the words a judged WORD becomes, separated by single
#                   spaces: itself (keep, or a flag the table does not
#                   hold: saved decisions never met it), its translation
#                   (translate), or "" (drop)

function fw_kind(w) {
	if (w ~ /^(-include|-imacros|-isystem|-iquote|-idirafter|-MF|-MT|-MQ|-o|-x|-target)$/)
		return "arg"
	if (w ~ /^(-MD|-MMD|-MP|-c|-S|-E|-nostdinc)$/ || w ~ /^(-I|-D|-U|-Wp,|--target=)/)
		return "yes"
	if (w ~ /^-/)
		return "no"
	return "yes"
}

function fw_load(file,    line, f, n) {
	while ((getline line <file) > 0) {
		n = split(line, f, "\t")
		if (n < 3)
			continue
		fw_dec[f[1]] = f[2]
		fw_new[f[1]] = f[3]
	}
	close(file)
}

function fw_apply(w,    s) {
	if (!(w in fw_dec) || fw_dec[w] == "keep")
		return w
	if (fw_dec[w] == "translate") {
		s = fw_new[w]
		gsub(/,/, " ", s)
		return s
	}
	return ""
}
