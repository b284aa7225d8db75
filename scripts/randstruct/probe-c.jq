# SPDX-License-Identifier: GPL-2.0-only
#
# probe-c.jq - a C file that makes the compiler say where it put the
# members of structures, as a kernel build lays them out: each offset
# (__builtin_offsetof, which GCC and Clang have) goes into the assembly as
# a string ".ascii "@kparity STRUCT MEMBER N"" (an "i" operand: nothing
# runs, and Clang's integrated assembler takes the directive). GCC's
# randstruct plugin shuffles members after GCC wrote their DWARF; compiled
# with the build's own command, this shows the layout the code uses.
#
# Input: kabi dump --json's types (the structures of one header, with
# the anonymous structures inside them); their members as members.jq
# gives them.
# Usage: jq -r -L scripts/randstruct --arg header HEADER -f probe-c.jq DUMP.json

include "members";

"/* made by kparity's randstruct.sh: where the compiler put each member */",
"#include \"\($header)\"",
"#define KPARITY_AT(s, m) asm volatile(\"\\n.ascii \\\"@kparity \" #s \" \" #m \" %0\\\"\" : : \"i\" (__builtin_offsetof(struct s, m)))",
"void kparity_probe(void);",
"void kparity_probe(void)",
"{",
(by_name as $byname
	| .types[] | select(.kind == "struct" and (.name | anonymous | not)) | .name as $s
	| members($byname) | "\tKPARITY_AT(\($s), \(.name));"),
"}"
