# SPDX-License-Identifier: GPL-2.0-only
#
# parity-check.jq - one cell's kabi check (kabi check --json of its
# vmlinux) as the cell's check object of Documentation/parity.md.
#
# Usage: jq --arg repro CMD -f parity-check.jq CHECK.json
# Prints {status: "pass", reason: null, summary: {clashing, incompatible,
# alike, units}, clashes: [{kind, name, decl, incompatible}], reproduce}:
# every type the build's units see with more than one layout, by kind and
# name. The check finds; whether a clash fails the run is
# parity-failures.jq's rule, which compares the target's cells.

{status: "pass", reason: null, summary: .summary,
 clashes: [.types[] | {kind, name, decl: "\(.decl_file):\(.decl_line)", incompatible}]
	| sort_by(.kind, .name),
 reproduce: $repro}
