# SPDX-License-Identifier: GPL-2.0-only
#
# kabi-pictured.jq - which changed types of a kabi diff --json the report
# draws: every type kabi reports as changed, the incompatible ones first,
# at most $cap of them. kabi-result.jq puts them, with their layouts, in
# the comparison's result. A module: include "kabi-pictured"; with
# -L scripts/kernel-diff.

def changed_types: [.types[] | select(.status == "changed")];
def pictured($cap): changed_types | sort_by(.incompatible | not) | .[0:$cap];
def pictured_more($cap): changed_types | [length - $cap, 0] | max;
