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
# Input: kabi dump --json's types (the structures of one header); named
# members only, bit-fields left out (offsetof cannot take them).
# Usage: jq -r --arg header HEADER -f probe-c.jq DUMP.json

"/* made by kparity's randstruct.sh: where the compiler put each member */",
"#include \"\($header)\"",
"#define KPARITY_AT(s, m) asm volatile(\"\\n.ascii \\\"@kparity \" #s \" \" #m \" %0\\\"\" : : \"i\" (__builtin_offsetof(struct s, m)))",
"void kparity_probe(void);",
"void kparity_probe(void)",
"{",
(.types[] | select(.kind == "struct") | .name as $s
	| .members[] | select(.name != null and (.name | startswith("<") | not) and .bit_size == null)
	| "\tKPARITY_AT(\($s), \(.name));"),
"}"
