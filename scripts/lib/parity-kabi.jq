# SPDX-License-Identifier: GPL-2.0-only
#
# parity-kabi.jq - a target's kabi verdict: the summary of kabi diff --json;
# for each type whose layout differs incompatibly, its findings and the
# type's layout from each compiler's kabi dump; and the same for every
# changed type the report draws (kabi-pictured.jq), with the number of
# changed types left undrawn.
#
# Usage: jq -L scripts/lib --arg status pass|fail --arg reason R
#           --argjson cap N --slurpfile r REPRO.json
#           --slurpfile gcc GCC.layout --slurpfile clang CLANG.layout
#           -f parity-kabi.jq DIFF.json

include "kabi-pictured";

def pick($side; $t): [$side[0].types[] | select(.kind == $t.kind and .name == $t.name)][0];
def sides: {kind, name, decl_file, decl_line, findings, gcc: pick($gcc; .), clang: pick($clang; .)};
{status: $status, reason: (if $reason == "" then null else $reason end),
 summary: .summary,
 incompatible: [.types[] | select(.incompatible) | sides],
 changed: [pictured($cap)[] | sides + {incompatible}],
 changed_more: pictured_more($cap),
 reproduce: $r[0]}
