# SPDX-License-Identifier: GPL-2.0-only
#
# probe-audit.awk - the report of scripts/probe-audit.sh, over one or two
# audit logs (tab-separated: macro, flag, tool, answer, reason, source,
# stock answer or '-'), already checked for form.
#
# Each row is labelled by the tool that answered it: a build's log mixes
# the compiler's answers with the linker's. Disagreements are listed per
# tool (or pair of tools), in the order the questions were first asked.
#
# Variables: two=1 when a second log is given. Exit: 1 when something was
# listed, else 0.

FNR == 1 { file++ }
{
	q = $1 " " $2
	if (!((file, q) in seen)) {
		seen[file, q] = 1
		order[file, ++n[file]] = q
		if (file == 1) questions++
	}
	ans[file, q] = $4; why[file, q] = $5; tool[file, q] = $3
	if ($7 != "-") stock[file, q] = $7
}

# add(label, line): file line under label, labels kept in first-use order
function add(label, line) {
	if (!(label in rows)) labels[++nlabels] = label
	rows[label] = rows[label] line "\n"
	bad++
}

# flush(head): print each label's rows under head (%s is the label)
function flush(head,   i) {
	for (i = 1; i <= nlabels; i++) {
		printf head, labels[i]
		printf "%s", rows[labels[i]]
		delete rows[labels[i]]
	}
	nlabels = 0
}

END {
	for (f = 1; f <= file; f++) {
		for (i = 1; i <= n[f]; i++) {
			q = order[f, i]
			if (!((f, q) in stock) || stock[f, q] == ans[f, q]) continue
			add(tool[f, q], sprintf("  %s: overlay %s (%s), stock %s", q, ans[f, q], why[f, q], stock[f, q]))
			sdis++
		}
		flush("overlay and stock Kbuild disagree (%s):\n")
	}
	if (two) {
		for (i = 1; i <= n[1]; i++) {
			q = order[1, i]
			if (!((2, q) in ans) || ans[1, q] == ans[2, q]) continue
			add(tool[1, q] " and " tool[2, q],
			    sprintf("  %s: %s (%s), %s (%s)", q, ans[1, q], why[1, q], ans[2, q], why[2, q]))
			cdis++
		}
		flush("%s disagree:\n")
	}
	printf "summary: %d questions, %d overlay/stock disagreements", questions, sdis
	if (two) printf ", %d compiler disagreements", cdis
	printf "\n"
	exit bad ? 1 : 0
}
