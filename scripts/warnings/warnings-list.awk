# SPDX-License-Identifier: GPL-2.0-only
#
# warnings-list.awk - the diagnostics of kernel build logs, one a line:
# KIND, TOOL, FLAG, FILE, LINE, TEXT, tab-separated (warnings.sh -l,
# before it sorts them and drops repeats). KIND is warning or error; TOOL
# is the program that said it:
#   compiler  FILE:LINE[:COL]: warning: TEXT [-WFLAG]   (GCC, Clang)
#   linker    ld: warning: TEXT, ld.lld-19: error: TEXT  FILE '(link)'
#   objtool   FILE.o: warning: objtool: TEXT
#   modpost   WARNING: modpost: [FILE.o: ]TEXT, ERROR: or FATAL: modpost:
#             TEXT; FILE '(modpost)' when the text starts with none
#   kconfig   FILE:LINE:warning: TEXT (no space before 'warning'), and
#             'WARNING: unmet direct dependencies ...' under '(kconfig)'
# FILE is relative to src when below it; LINE is '-' when there is none.
#
# Usage: awk -v src=SRCDIR -f warnings-list.awk LOG...

function relative(path) {
	if (src != "" && index(path, src "/") == 1)
		path = substr(path, length(src) + 2)
	while (path ~ /^\.\.?\//)
		sub(/^\.\.?\//, "", path)
	return path
}
# take(LEN, TOOL, FILE, LINE, KIND): the current line is a diagnostic whose
# head is LEN characters long.
function take(len, t, f, l, k) {
	head = substr($0, 1, len)
	text = substr($0, len + 1)
	tool = t
	file = f
	line = l
	kind = k
}
{ sub(/\r+$/, ""); head = "" }
match($0, /^[^ :]+:[0-9]+(:[0-9]+)?: (fatal error|error|warning): /) {
	take(RLENGTH, "compiler", "", "", "")
	n = split(head, h, ":")
	file = relative(h[1])
	line = h[2] (n > 4 ? ":" h[3] : "")
	kind = h[n - 1]
	sub(/^ /, "", kind)
}
!head && match($0, /^[^ :]+: (warning|error): objtool: /) {
	take(RLENGTH, "objtool", "", "-", "")
	split(head, h, ":")
	file = relative(h[1])
	kind = head ~ /: warning: / ? "warning" : "error"
}
!head && match($0, /^(WARNING|ERROR|FATAL): modpost: /) {
	take(RLENGTH, "modpost", "(modpost)", "-", $0 ~ /^WARNING/ ? "warning" : "error")
	if (match(text, /^[^ :(]+\.(o|ko|a): /)) {
		file = relative(substr(text, 1, RLENGTH - 2))
		text = substr(text, RLENGTH + 1)
	} else if (match(text, /^[^ :(]+\.(o|ko|a)\(/)) {
		file = relative(substr(text, 1, RLENGTH - 1))
	}
}
!head && match($0, /^[^ :]+:[0-9]+:(warning|error):/) {
	take(RLENGTH, "kconfig", "", "", "")
	split(head, h, ":")
	file = relative(h[1])
	line = h[2]
	kind = h[3]
	sub(/^ /, "", text)
}
!head && match($0, /^WARNING: unmet direct dependencies detected for /) {
	take(9, "kconfig", "(kconfig)", "-", "warning")
}
!head && match($0, /^([^ :]*\/)?(ld|ld\.lld|[A-Za-z0-9_-]+-ld)(-[0-9]+)?: (warning|error): /) {
	take(RLENGTH, "linker", "(link)", "-", "")
	kind = head ~ /warning: $/ ? "warning" : "error"
}
head {
	flag = "(none)"
	if (tool == "compiler" && match(text, / \[-W[^]]*\]$/)) {
		flag = substr(text, RSTART + 2, RLENGTH - 3)
		text = substr(text, 1, RSTART - 1)
		if (flag ~ /^-Werror=/) {
			flag = "-W" substr(flag, 9)
			kind = "error"
		} else if (flag ~ /^-Werror,/) {
			flag = substr(flag, 9)
			kind = "error"
		}
	}
	if (kind == "fatal error")
		kind = "error"
	print kind "\t" tool "\t" flag "\t" file "\t" line "\t" text
}
