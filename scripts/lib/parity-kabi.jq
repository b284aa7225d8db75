# SPDX-License-Identifier: GPL-2.0-only
#
# parity-kabi.jq - a target's kabi verdict: the summary of kabi diff --json
# and, for each type whose layout differs incompatibly, its findings and
# the type's layout from each compiler's kabi dump.
#
# Usage: jq --arg status pass|fail --arg reason R --slurpfile r REPRO.json
#           --slurpfile gcc GCC.layout --slurpfile clang CLANG.layout
#           -f parity-kabi.jq DIFF.json

def pick($side; $t): [$side[0].types[] | select(.kind == $t.kind and .name == $t.name)][0];
{status: $status, reason: (if $reason == "" then null else $reason end),
 summary: .summary,
 incompatible: [.types[] | select(.incompatible)
	| {kind, name, decl_file, decl_line, findings,
	   gcc: pick($gcc; .), clang: pick($clang; .)}],
 reproduce: $r[0]}
