# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-plan.awk - which units an incremental replay runs again
# (scripts/diagnose.sh): a unit is kept from the last replay when that
# replay has a result for the same command on the same file and none of
# the unit's dependencies changed since; otherwise it is replayed, and
# why: new (no unit of that file in the last replay), command (its Clang
# command changed: flags, configuration, warning level), or the first
# changed file that reaches it.
#
# Usage: awk -F '\t' -f diagnose-plan.awk PREV DONE HITS COMMANDS
#   PREV      the last replay's commands.tsv (INDEX DIR FILE COMMAND)
#   DONE      the last replay's indexes that have a result, one a line
#   HITS      INDEX TAB FILE: a changed file each unit depends on
#   COMMANDS  this replay's commands.tsv
# Prints INDEX TAB keep TAB PREVIOUS-INDEX, or INDEX TAB replay TAB WHY.

FILENAME == ARGV[1] {
	prev[$2 "\t" $3 "\t" $4] = $1
	known[$3] = 1
	next
}

FILENAME == ARGV[2] {
	done[$1] = 1
	next
}

FILENAME == ARGV[3] {
	if (!($1 in hit))
		hit[$1] = $2
	next
}

{
	key = $2 "\t" $3 "\t" $4
	if ($1 in hit)
		print $1 "\treplay\t" hit[$1]
	else if ((key in prev) && (prev[key] in done))
		print $1 "\tkeep\t" prev[key]
	else if ($3 in known)
		print $1 "\treplay\tcommand"
	else
		print $1 "\treplay\tnew"
}
