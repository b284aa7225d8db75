# SPDX-License-Identifier: GPL-2.0-only
#
# warnings-summary.awk - the counts behind warnings.sh's default report.
#
# Usage: awk -F '\t' -f warnings-summary.awk LIST
# LIST is warnings-list.awk's output. Prints, unsorted, one line per
# count: ORDER, COUNT, KEY, and the report line ('warnings N',
# 'errors N', 'tool TOOL N', 'flag FLAG N', 'file FILE N'),
# tab-separated; sorted on ORDER, then COUNT (most first), then KEY, the
# report lines are the report.

{ kinds[$1]++; tools[$2]++; flags[$3]++; files[$4]++ }
END {
	printf "0\t0\t\twarnings %d\n", kinds["warning"]
	printf "1\t0\t\terrors %d\n", kinds["error"]
	for (t in tools)
		printf "2\t%d\t%s\ttool %s %d\n", tools[t], t, t, tools[t]
	for (f in flags)
		printf "3\t%d\t%s\tflag %s %d\n", flags[f], f, f, flags[f]
	for (f in files)
		printf "4\t%d\t%s\tfile %s %d\n", files[f], f, f, files[f]
}
