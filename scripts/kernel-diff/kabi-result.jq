# SPDX-License-Identifier: GPL-2.0-only
#
# kabi-result.jq - one layout comparison's result (Documentation/parity.md,
# "kabi"), from kabi diff --json --layouts of the two images: kabi's
# summary; for each type whose layout differs incompatibly, its findings and
# its layout from each image; the same for every changed type the report
# draws (kabi-pictured.jq), with the number of changed types left undrawn.
# The layouts are named gcc and clang, for the old and the new image.
#
# Usage: jq -L scripts/kernel-diff --arg status pass|fail --arg reason R
#           --argjson cap N --arg repro CMD --arg old OLD --arg new NEW
#           -f kabi-result.jq DIFF.json

include "kabi-pictured";

def sides: {kind, name, decl_file, decl_line, findings, gcc: .old_layout, clang: .new_layout};
{old: $old, new: $new,
 status: $status, reason: (if $reason == "" then null else $reason end),
 summary: .summary,
 incompatible: [.types[] | select(.incompatible) | sides],
 changed: [pictured($cap)[] | sides + {incompatible}],
 changed_more: pictured_more($cap),
 reproduce: $repro}
