# SPDX-License-Identifier: GPL-2.0-only
#
# sections.awk - the sizes of a vmlinux's .text, .rodata, .data and .bss
# from `readelf -SW`, as one JSON object (a section the image lacks is 0).
#
# Usage: readelf -SW vmlinux | awk -f sections.awk
# Section header rows are "[ N] NAME TYPE ADDRESS OFFSET SIZE ...", the
# index maybe written "[N]"; the size is hexadecimal.

function hex(s,    i, v) {
	v = 0
	s = tolower(s)
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}

{
	line = $0
	if (!sub(/^[ \t]*\[[ \t]*[0-9]+\][ \t]+/, "", line))
		next
	split(line, f, /[ \t]+/)
	if (f[1] == ".text" || f[1] == ".rodata" || f[1] == ".data" || f[1] == ".bss")
		size[f[1]] = hex(f[5])
}

END {
	printf "{\"text\": %d, \"rodata\": %d, \"data\": %d, \"bss\": %d}\n",
		size[".text"], size[".rodata"], size[".data"], size[".bss"]
}
