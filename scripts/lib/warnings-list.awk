# SPDX-License-Identifier: GPL-2.0-only
#
# warnings-list.awk - the diagnostics of kernel build logs, one a line:
# KIND, FLAG, FILE, LINE, TEXT, tab-separated (warnings.sh -l, before it
# sorts them and drops repeats). FILE is relative to src when below it;
# a linker's diagnostic is FILE '(link)', LINE '-'.
#
# Usage: awk -v src=SRCDIR -f warnings-list.awk LOG...

function relative(path) {
	if (src != "" && index(path, src "/") == 1)
		path = substr(path, length(src) + 2)
	while (path ~ /^\.\.?\//)
		sub(/^\.\.?\//, "", path)
	return path
}
{ sub(/\r+$/, "") }
match($0, /^[^ :]+:[0-9]+(:[0-9]+)?: (fatal error|error|warning): /) {
	head = substr($0, 1, RLENGTH)
	text = substr($0, RLENGTH + 1)
	n = split(head, h, ":")
	file = relative(h[1])
	line = h[2] (n > 4 ? ":" h[3] : "")
	kind = h[n - 1]
	sub(/^ /, "", kind)
}
!head && match($0, /^([^ :]*\/)?(ld|ld\.lld|[A-Za-z0-9_-]+-ld)(-[0-9]+)?: (warning|error): /) {
	head = substr($0, 1, RLENGTH)
	text = substr($0, RLENGTH + 1)
	file = "(link)"
	line = "-"
	kind = head ~ /warning: $/ ? "warning" : "error"
}
head {
	flag = "(none)"
	if (match(text, / \[-W[^]]*\]$/)) {
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
	print kind "\t" flag "\t" file "\t" line "\t" text
	head = ""
}
