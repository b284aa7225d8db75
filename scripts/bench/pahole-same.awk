# SPDX-License-Identifier: GPL-2.0-only
#
# pahole-same.awk - the structs and unions two pahole listings lay out
# alike: "KIND NAME" of each name whose every definition has the same
# size and, member by member in order, the same offset and size (the
# "/* OFFSET SIZE */" pahole ends each member's line with, bit offsets
# included), one per line, in no order.
#
# codiff lists a struct under each unit where it differs, and also where
# a unit uses it in one kernel and not in the other, or where only what
# pahole says in its comments changed (the padding of a member's own
# type, a forced alignment that moves nothing, char become signed char).
# bench.sh asks this of the structs codiff lists and kabi does not, to
# tell those from a change kabi missed.
#
# Usage: awk -f pahole-same.awk OLD.pahole NEW.pahole

FNR == 1 {
	side++
	key = ""
}

key == "" && /^(struct|union) [A-Za-z_][A-Za-z0-9_]* \{$/ {
	key = $1 " " $2
	seen[key] = 1
	text[side, key] = text[side, key] "{\n"
	next
}

key == "" {
	next
}

/^}/ {
	text[side, key] = text[side, key] "}\n"
	key = ""
	next
}

# a member, or the end of a nested anonymous struct or union
match($0, /\/\* *[0-9]+(: *[0-9]+)? +[0-9]+ *\*\/$/) {
	text[side, key] = text[side, key] substr($0, RSTART) "\n"
	next
}

match($0, /\/\* size: [0-9]+/) {
	text[side, key] = text[side, key] substr($0, RSTART + 3, RLENGTH - 3) "\n"
}

END {
	for (k in seen)
		if (((1, k) in text) && ((2, k) in text) && text[1, k] == text[2, k])
			print k
}
