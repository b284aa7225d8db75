# SPDX-License-Identifier: GPL-2.0-only
#
# randstruct.jq - which structures Clang and GCC randomized with one seed,
# and whether they gave each the same layout. Clang's DWARF describes the
# layout it made, so its plain build against its randomized one ($c, kabi
# diff) says which structures it randomized. GCC's plugin shuffles after
# GCC wrote the DWARF, so GCC's layouts come from the compiler itself: a
# probe compiled with the build's command (probe-c.jq) gives the offset of
# each named member, in GCC's randomized build ($pg) and, as the probe's
# own check, in Clang's ($pc). For each structure Clang randomized:
#   gcc      GCC's offsets differ from its plain build's ($gp, DWARF)
#   same     GCC's offsets are Clang's ($cr, DWARF)
#   probe    the probe compiled (a header that does not compile alone,
#            or a structure declared in a .c file, is not probed: null)
#   dwarf    GCC's DWARF shows a change ($g): what a DWARF reader sees
#
# Anonymous structures inside another count as part of it (members.jq).
#
# Usage: jq -n -L scripts/randstruct --slurpfile c C.json --slurpfile g G.json --slurpfile gp GP.json
#           --slurpfile cr CR.json --rawfile pg PG.txt --rawfile pc PC.txt
#           --arg gcc NAME --arg clang NAME --arg seed HEX -f randstruct.jq

include "members";

def key: "\(.name)@\(.decl_file):\(.decl_line)";
# "STRUCT MEMBER OFFSET" lines into {STRUCT: {MEMBER: OFFSET}}
def probed($text): reduce ($text | split("\n")[] | select(. != "") | split(" ")) as $l
	({}; .[$l[0]][$l[1]] = ($l[2] | ltrimstr("$") | ltrimstr("#") | tonumber));
# a dumped structure's named members' offsets (members.jq), as a probe
# gives them
def offsets($byname): reduce members($byname) as $m ({}; .[$m.name] = $m.offset);
# two offsets objects agree on the members both name (an anonymous
# union's members are named only where kabi could name the union, whose
# name holds its offset, which a shuffle moves)
def alike($a; $b): ($a | with_entries(select(.key as $m | $b | has($m))))
	== ($b | with_entries(select(.key as $m | $a | has($m))));
def dumped($d): ($d | by_name) as $byname
	| reduce ($d.types[] | select(.kind == "struct")) as $t ({}; .[$t | key] = ($t | offsets($byname)));

probed($pg) as $g_rand | probed($pc) as $c_probe
| dumped($gp[0]) as $g_plain | dumped($cr[0]) as $c_rand
| [$g[0].types[] | select(.status == "changed") | key] as $g_dwarf
| [$c[0].types[] | select(.status == "changed" and (.name | anonymous | not))
   | key as $k | .name as $n
   | ($g_rand[$n] // null) as $pr
   | ($c_rand[$k] // {}) as $cr
   | ($pr != null and ($c_probe[$n] // null) != null and alike($c_probe[$n]; $cr)) as $ok
   | {name, decl: "\(.decl_file):\(.decl_line)", probe: $ok,
      gcc: (if $ok then alike($pr; $g_plain[$k] // {}) | not else null end),
      same: (if $ok then alike($pr; $cr) else null end),
      dwarf: ($g_dwarf | index([$k]) != null)}]
| sort_by(.name, .decl)
| {gcc: $gcc, clang: $clang, seed: $seed,
   randomized: {clang: length, probed: map(select(.probe)) | length,
	gcc: map(select(.probe and .gcc)) | length},
   same: map(select(.probe and .gcc and .same)) | length,
   gcc_dwarf_changed: ($g_dwarf | length),
   types: .}
