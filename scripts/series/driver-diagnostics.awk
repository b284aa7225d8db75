# SPDX-License-Identifier: GPL-2.0-only
#
# driver-diagnostics.awk - the distinct diagnostics of the compiler driver
# itself ('clang-19: error: argument unused during compilation: ...'),
# which carry no file name, in the format of warnings.sh -l:
# KIND, compiler, FLAG, (driver), 0, TEXT, tab-separated.
#
# Usage: awk -f driver-diagnostics.awk LOG

/^[^ :]*(clang|gcc)(-[0-9]+)?: (warning|error): / {
	kind = ($0 ~ /: error: /) ? "error" : "warning"
	flag = "(none)"
	if (match($0, /\[-W[^]]*\]$/)) {
		flag = substr($0, RSTART + 1, RLENGTH - 2)
		sub(/^-Werror,/, "", flag)
		sub(/^-Werror=/, "-W", flag)
	}
	text = $0
	sub(/^[^:]*: (warning|error): /, "", text)
	sub(/ \[-W[^]]*\]$/, "", text)
	line = kind "\tcompiler\t" flag "\t(driver)\t0\t" text
	if (!(line in seen)) { seen[line] = 1; print line }
}
