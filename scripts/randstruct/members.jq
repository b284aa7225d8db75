# SPDX-License-Identifier: GPL-2.0-only
#
# members.jq - the named members of a structure of kabi dump --json, the
# members of its anonymous structures and unions among them (C reaches
# those by name from the structure, as offsetof does), each at its offset
# in the structure; bit-fields left out (offsetof cannot take them). An
# anonymous member whose type $byname lacks gives nothing.
#
# Usage: include "members"; ... | members($byname) with $byname a type's
# name to the type (kabi's names: "task_struct.<anon@64>")

def members_at($byname; $base):
	.members[] | select(.bit_size == null)
	| if .name != null and (.name | startswith("<") | not) then {name, offset: ($base + .offset)}
	  elif (.type // "" | test("^(struct|union) [^ ]*<anon@")) then
		.offset as $o
		| ($byname[.type | sub("^(struct|union) "; "")] // empty)
		| members_at($byname; $base + $o)
	  else empty end;

def members($byname): members_at($byname; 0);

# by_name: a dump's types by name
def by_name: reduce .types[] as $t ({}; .[$t.name] = $t);

# anonymous: the name of an anonymous structure or union inside another
def anonymous: test("<anon@");
