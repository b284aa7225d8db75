#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# oracle.sh - check the layout numbers of `kabi dump --json` against the
# compiler that produced the object.
#
# From the dump the oracle takes names only: type names, member names and
# enumerator names.  It writes a C program that includes the fixture source
# and prints, with sizeof, offsetof and a bit probe, what the compiler
# itself says about each of them.  The same names are printed a second time
# with kabi's numbers ("view"), one fact per line in one format, so the two
# outputs compare with a plain diff:
#
#   struct foo size=24                   sizeof
#   struct foo align=16                  _Alignof, where kabi reports align
#   struct foo member a offset=0         offsetof, relative to the type
#   struct foo member a size=4           sizeof, not for bit-fields or T []
#   struct foo member a base=int32       for members of a base type
#   struct foo member f bits=131:5       first bit and width, see below
#   struct foo anon union foo.<anon@8> offset=8
#   enum e size=4
#   enum e underlying=uint32
#   enum e RED=0
#   typedef size_t base=uint64           for typedefs of a base type
#
# A bit-field is probed by zeroing an object of the outermost named type,
# storing -1 into the field (all ones, whatever its signedness) and finding
# the set bits; bit i is bit i%8 of byte i/8, as in kabi's JSON.
#
# C cannot name the type of an anonymous member, so for those types there
# is no size or align line.  Their members are reached through the
# outermost named type (C11 access through anonymous members), and the
# offset of the anonymous member itself is the lowest offset of anything
# inside it: the first member of a struct, and every member of a union,
# starts at its offset.  Anonymous members with nothing named inside, and
# top-level anonymous structs and unions that no typedef names, are left
# out of both outputs.  Names decide what is left out, never numbers.
#
# Exit: 0 done, 1 the oracle program failed to build or run, 2 trouble.
set -eu

PROG=oracle.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	cat <<USAGE
usage: $PROG view DUMP.json
       $PROG gen DUMP.json SOURCE
       $PROG run DUMP.json SOURCE DIR CC [CFLAGS...]
  view  print kabi's numbers for the checked facts
  gen   print the C program that computes the same facts from SOURCE
  run   write DIR/oracle.c, build it with CC CFLAGS, run it
USAGE
}

# The plan: one entry per checked fact, with kabi's value and the means to
# compute it in C.  Both outputs come from this one list, so they always
# have the same lines in the same order.
# shellcheck disable=SC2016 # jq variables, not shell ones
JQ_PLAN='
def key: "\(.kind) \(.name)";

def cstr: "\"" + (gsub("\\\\"; "\\\\") | gsub("\""; "\\\"")) + "\"";

def join_path($a; $b): if $a == "" then $b else $a + "." + $b end;

def is_base: test("^(u?int(8|16|32|64|128)|bool|float(32|64|128))$");

def is_bitfield: has("bit_size") and .bit_size != null;

# Where a type sits: {root, path, anon, depth} or null when C cannot
# reach it.  root is a C type, path a member designator from the root.
def place($by):
	if (.name | endswith(".<anon>")) then
		{root: (.name | rtrimstr(".<anon>")), path: "", anon: false, depth: 0}
	elif (.parent // null) == null then
		if (.name | test("<anon")) then null
		else {root: key, path: "", anon: false, depth: 0} end
	else
		. as $t
		| ($by[$t.parent] // null) as $p
		| if $p == null or ($t.name | startswith($p.name + ".") | not) then null
		else
			($p | place($by)) as $pp
			| ($t.name | ltrimstr($p.name + ".")) as $m
			| if $pp == null then null
			elif ($m | startswith("<anon")) then
				$pp + {anon: true, depth: ($pp.depth + 1)}
			else
				# A member of array type is reached through element 0.
				([$p.members[]? | select(.name == $m) | .type][0] // "") as $mt
				| ($mt | [scan("\\[[0-9]*\\]")] | map("[0]") | join("")) as $idx
				| {root: $pp.root, path: join_path($pp.path; $m + $idx),
				   anon: false, depth: ($pp.depth + 1)}
			end
		end
	end;

def ctype($pl):
	if $pl == null or $pl.anon then null
	elif $pl.path == "" then $pl.root
	else "__typeof__(((\($pl.root) *)0)->\($pl.path))" end;

# Does an anonymous type hold something with a name, however deep?
def has_leaf($by):
	any(.members[]?;
		(.name != null) or
		(.name == null and (.is_bf | not) and
		 (($by[.type] // null) as $u | $u != null and ($u | has_leaf($by)))));

# Structs, unions and enums by "kind name", bit-fields marked.
def by_key:
	[.types[] | select(.kind != "typedef")
	 | .members |= (if . == null then null
		else map(. + {is_bf: is_bitfield}) end)
	 | {key: key, value: .}]
	| from_entries;

# The position of each struct, union and enum in .types, by "kind name".
def index_of:
	[.types | to_entries[] | select(.value.kind != "typedef")
	 | {key: (.value | key), value: .key}]
	| from_entries;

def plan:
	.types as $types
	| by_key as $by
	| index_of as $idx
	| [$types | to_entries[] | .key as $i | .value as $t
	   | ($t | key) as $k
	   | if $t.kind == "struct" or $t.kind == "union" then
		($by[$k] | place($by)) as $pl
		| if $pl == null then empty
		elif $pl.anon and ($by[$k] | has_leaf($by) | not) then empty
		else
		ctype($pl) as $ct
		| (if $ct == null then empty else
			{line: "\($k) size", kabi: $t.size, c: "sizeof(\($ct))"},
			(if $t | has("align") then
				{line: "\($k) align", kabi: $t.align, c: "_Alignof(\($ct))"}
			else empty end)
		  end),
		($by[$k].members[]? as $m
		 | if $m.name != null and $m.is_bf then
			{line: "\($k) member \($m.name) bits",
			 kabi: "\($m.offset * 8 + $m.bit_offset):\($m.bit_size)",
			 bits: {root: $pl.root, field: join_path($pl.path; $m.name)},
			 base: $i}
		elif $m.name != null then
			join_path($pl.path; $m.name) as $f
			| {line: "\($k) member \($m.name) offset", kabi: $m.offset,
			   c: "__builtin_offsetof(\($pl.root), \($f)) - kp_base[\($i)]"},
			  (if ($m.type | endswith("[]")) then empty else
				{line: "\($k) member \($m.name) size", kabi: $m.size,
				 c: "sizeof(((\($pl.root) *)0)->\($f))"}
			   end),
			  (if ($m.resolved // "" | is_base) then
				{line: "\($k) member \($m.name) base", kabi: $m.resolved,
				 basetype: "__typeof__(((\($pl.root) *)0)->\($f))"}
			   else empty end)
		elif $m.is_bf then
			empty	# an unnamed bit-field: padding, nothing to reach
		else
			($by[$m.type] // null) as $u
			| if $u == null or ($u | place($by)) == null then
				{line: "\($k) anon \($m.type) offset", kabi: $m.offset, c: null}
			elif ($u | has_leaf($by) | not) then empty
			else
				{line: "\($k) anon \($m.type) offset", kabi: $m.offset,
				 c: "kp_base[\($idx[$m.type])] - kp_base[\($i)]"}
			end
		end)
		end
	   elif $t.kind == "enum" then
		($by[$k] | place($by)) as $pl
		| ctype($pl) as $ct
		| (if $ct == null then empty else
			{line: "\($k) size", kabi: $t.size, c: "sizeof(\($ct))"},
			(if $t.underlying != null then
				{line: "\($k) underlying", kabi: $t.underlying, basetype: $ct}
			else empty end)
		  end),
		($t.enumerators[]? |
			{line: "\($k) \(.name)", kabi: .value, value: .name})
	   elif $t.kind == "typedef" and ($t.resolved // "" | is_base) then
		{line: "typedef \($t.name) base", kabi: $t.resolved, basetype: $t.name}
	   else empty end
	  ];

# Byte offset of each reachable struct/union inside its root, deepest
# first: an anonymous type needs the offsets of the anonymous types in it.
def bases:
	.types as $types
	| by_key as $by
	| index_of as $idx
	| [$types | to_entries[]
	   | select(.value.kind == "struct" or .value.kind == "union")
	   | .key as $i | .value as $t
	   | ($t | place($by)) as $pl
	   | select($pl != null)
	   | {i: $i, depth: $pl.depth, code:
		(if $pl.anon | not then
			if $pl.path == "" then "\tkp_base[\($i)] = 0;"
			else "\tkp_base[\($i)] = __builtin_offsetof(\($pl.root), \($pl.path));" end
		else
			(["\tkp_base[\($i)] = KP_NONE;"] +
			 [$by[$t | key].members[]? as $m
			  | if $m.name != null and $m.is_bf then
				"\tkp_base[\($i)] = kp_min(kp_base[\($i)], KP_BITS(\($pl.root), \(join_path($pl.path; $m.name))).first / 8);"
			  elif $m.name != null then
				"\tkp_base[\($i)] = kp_min(kp_base[\($i)], __builtin_offsetof(\($pl.root), \(join_path($pl.path; $m.name))));"
			  elif $m.is_bf or $idx[$m.type] == null then empty
			  else
				"\tkp_base[\($i)] = kp_min(kp_base[\($i)], kp_base[\($idx[$m.type])]);"
			  end])
			| join("\n")
		end)}]
	| sort_by(-.depth, .i);
'

JQ_VIEW='
plan[] | "\(.line)=\(.kabi // "null")"
'

# shellcheck disable=SC2016 # jq variables, not shell ones
JQ_GEN='
(.types | length) as $n
| bases as $bases
| plan as $plan
| "static unsigned long kp_base[\([$n, 1] | max)];",
  "",
  "int main(void)",
  "{",
  ($bases[] | .code),
  "",
  ($plan[]
   | .line as $l
   | if has("bits") then
	"\tkp_print_bits(\($l | cstr), KP_BITS(\(.bits.root), \(.bits.field)), kp_base[\(.base)]);"
   elif has("value") then
	"\tkp_print_value(\($l | cstr), (\(.value)) < 0, (long long)(\(.value)), (unsigned long long)(\(.value)));"
   elif has("basetype") then
	"\tkp_print_base(\($l | cstr), KP_BASE(\(.basetype)));"
   elif .c == null then
	"\tprintf(\"%s=?\\n\", \($l | cstr));"
   else
	"\tprintf(\"%s=%lu\\n\", \($l | cstr), (unsigned long)(\(.c)));"
   end),
  "\treturn 0;",
  "}"
'

# Support code of the generated program; no system header is included, so
# that a fixture may define size_t and friends itself.
C_PRELUDE='int printf(const char *, ...);

struct kp_bits {
	unsigned long first;
	unsigned long width;
	int split;
};

#define KP_NONE ((unsigned long)-1)

static volatile long long kp_minus_one = -1;

static unsigned long kp_min(unsigned long a, unsigned long b)
{
	return a < b ? a : b;
}

static struct kp_bits kp_scan(const void *obj, unsigned long size)
{
	const unsigned char *p = obj;
	struct kp_bits b = { KP_NONE, 0, 0 };
	unsigned long i;

	for (i = 0; i < size * 8; i++) {
		if (!(p[i / 8] >> (i % 8) & 1))
			continue;
		if (b.first == KP_NONE)
			b.first = i;
		else if (i != b.first + b.width)
			b.split = 1;
		b.width++;
	}
	return b;
}

/* Zero an object of type T, store all ones into the bit-field F, scan. */
#define KP_BITS(T, F) ({ \
	T kp_obj; \
	__builtin_memset(&kp_obj, 0, sizeof(kp_obj)); \
	kp_obj.F = kp_minus_one; \
	kp_scan(&kp_obj, sizeof(kp_obj)); \
})

static void kp_print_bits(const char *line, struct kp_bits b, unsigned long base)
{
	if (b.first == KP_NONE)
		printf("%s=none\n", line);
	else if (b.split)
		printf("%s=split\n", line);
	else
		printf("%s=%lu:%lu\n", line, b.first - base * 8, b.width);
}

static void kp_print_value(const char *line, int negative, long long s,
			   unsigned long long u)
{
	if (negative)
		printf("%s=%lld\n", line, s);
	else
		printf("%s=%llu\n", line, u);
}

/* Print the canonical name of an arithmetic type, as kabi spells base types. */
#define KP_BASE(T) sizeof(T), (T)2 == (T)1, (T)0.5 != (T)0, (T)-1 < (T)0

static void kp_print_base(const char *line, unsigned long size, int is_bool,
			  int is_float, int is_signed)
{
	if (is_bool)
		printf("%s=bool\n", line);
	else
		printf("%s=%s%lu\n", line,
		       is_float ? "float" : is_signed ? "int" : "uint", size * 8);
}
'

# The absolute form of a path that exists, for the #include line.
abs_path() {
	(cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd)" "$(basename "$1")")
}

cmd_view() {
	[ "$#" = 1 ] || { usage >&2; exit 2; }
	jq -r "$JQ_PLAN $JQ_VIEW" "$1" || die "cannot read '$1'"
}

cmd_gen() {
	[ "$#" = 2 ] || { usage >&2; exit 2; }
	[ -r "$2" ] || die "cannot read '$2'"
	src=$(abs_path "$2")
	printf '/* Generated by %s from %s; do not edit. */\n' "$PROG" "$(basename "$1")"
	printf '#include "%s"\n\n' "$src"
	printf '%s\n' "$C_PRELUDE"
	jq -r "$JQ_PLAN $JQ_GEN" "$1" || die "cannot read '$1'"
}

cmd_run() {
	[ "$#" -ge 4 ] || { usage >&2; exit 2; }
	dump=$1
	src=$2
	dir=$3
	cc=$4
	shift 4
	[ -d "$dir" ] || die "no directory '$dir'"
	cmd_gen "$dump" "$src" >"$dir/oracle.c"
	if ! "$cc" "$@" -o "$dir/oracle" "$dir/oracle.c" 2>"$dir/oracle.log"; then
		printf '%s: cannot build the oracle with %s:\n' "$PROG" "$cc" >&2
		cat "$dir/oracle.log" >&2
		exit 1
	fi
	"$dir/oracle" || { printf '%s: the oracle failed\n' "$PROG" >&2; exit 1; }
}

main() {
	[ "$#" -ge 1 ] || { usage >&2; exit 2; }
	cmd=$1
	shift
	case "$cmd" in
	view) cmd_view "$@" ;;
	gen) cmd_gen "$@" ;;
	run) cmd_run "$@" ;;
	-h | --help) usage ;;
	*) usage >&2; exit 2 ;;
	esac
}

main "$@"
