# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose.jq - diagnose.json from a replay's parsed files
# (scripts/diagnose.sh; Documentation/diagnose.md describes the schema).
#
# Usage: jq -n -R -L scripts/diagnose -f diagnose.jq with the --arg and
# --rawfile values diagnose.sh passes:
#   $clang_tsv   diagnose-parse.awk's records
#   $gcc_tsv     warnings.sh -l of the GCC build's log (the compiler's
#                lines are GCC's; objtool, modpost, ... are not compared)
#   $decisions   SET UNITS FLAG DECISION NEW CLASS WHY (flag-translate.sh -a)
#   $commands    INDEX DIR FILE CLANG-COMMAND
#   $cpu         UNIT SECONDS, Clang's CPU time per unit
#   $stale       the units no longer built, one a line
#   $outside     the units Kbuild's warning levels do not reach, one a line
#   $src         the kernel tree (unit names are relative to it)
#   $replay_why  what this replay ran again and why (diagnose.sh's REPLAY
#                line), $again and $kept how many units it ran and kept
#                (all three optional: without them, replay is null)

include "diagnose-lib";

(rows($clang_tsv)) as $c
| [$c[] | select(.[0] == "D")
   | {unit: .[1], kind: .[2], flag: .[3], file: .[4], line: (.[5] | tonumber),
      col: (.[6] | tonumber), text: .[7], notes: (.[8] | list), fixits: (.[9] | list)}] as $d
| [$c[] | select(.[0] == "U") | {unit: .[1], status: .[2], first: .[3]}] as $u
| [$c[] | select(.[0] == "R") | {unit: .[1], file: .[2]}] as $r
| [rows($gcc_tsv)[] | select(.[1] == "compiler")
   | {kind: .[0], flag: .[2], file: .[3], line: (.[4] | split(":")[0] | tonumber? // null),
      col: (.[4] | split(":")[1] // "" | tonumber? // null), text: .[5]}] as $g
| (reduce ($g[] | select(.line != null)) as $x ({}; .["\($x.file):\($x.line)"] += [{flag: $x.flag, text: $x.text}])) as $gat
| (reduce $d[] as $x ({}; .["\($x.file):\($x.line)"] = true)) as $cat
| ([rows($commands)[] | {key: (.[2] | rel($src)), value: "cd \(.[1]) && \(.[3])"}] | from_entries) as $cmd
| ([$d | group_by([.kind, .flag, .file, .line, .col, .text])[]
    | .[0] as $f
    | {id: finding_id($f), kind: $f.kind, flag: $f.flag, file: $f.file, line: $f.line, col: $f.col,
       text: $f.text, notes: $f.notes, fixits: $f.fixits,
       units: (map(.unit) | unique), count: (map(.unit) | unique | length)}
    | . + (if $gat["\(.file):\(.line)"] then {group: "both", gcc: $gat["\(.file):\(.line)"]}
	   else {group: "clang", gcc: null} end)]
   | sort_by(.file, .line, .col, .kind, .flag, .text)) as $f
| ([$g[] | select(.line == null or ($cat["\(.file):\(.line)"] | not))
    | {id: finding_id(.), group: "gcc", kind, flag, file, line, col, text}]
   | unique_by(.id) | sort_by(.file, .line // 0, .kind, .flag, .text)) as $gonly
| ([$u[] | select(.status == "error") | {id: "unparsable|\(.unit)", unit, error: .first}] | sort_by(.unit)) as $bad
| ([$u[] | select(.status == "crash")
    | . as $x
    | {id: "crash|\(.unit)", unit, message: .first, reproduce: $cmd[.unit],
       files: [$r[] | select(.unit == $x.unit) | .file]}] | sort_by(.unit)) as $crash
| ([rows($decisions)[] | {set: .[0], units: (.[1] | tonumber), flag: .[2], decision: .[3],
     new: .[4], class: .[5], why: .[6]}] | map(select(.decision != "keep"))
   | group_by([.flag, .decision, .new])
   | map(.[0] + {units: (map(.units) | add), sets: length} | del(.set))
   | sort_by(.flag)) as $flags
| ([$f[] | select(.group == "clang")]) as $conly
| [rows($cpu)[] | {unit: (.[0] | rel($src)), seconds: (.[1] | tonumber)}] as $cpus
| [rows($stale)[] | .[0] | rel($src)] as $stales
| [rows($outside)[] | .[0] | rel($src)] as $outs
| {schema: 1,
   tool: "kparity diagnose",
   kernel: $kernel,
   build: $build,
   cell: $cell,
   clang: {command: $clang, version: $clang_version, target: $target},
   level: $level,
   units: {replayed: ($u | length), host_not_replayed: $host,
	   stale_not_replayed: ($stales | length), outside_level: ($outs | length), flag_sets: $sets,
	   ok: ([$u[] | select(.status == "ok")] | length),
	   unparsable: ($bad | length), crashed: ($crash | length)},
   replay: ($ARGS.named | if .replay_why then {again, kept, why: (.replay_why | rtrimstr("\n"))} else null end),
   seconds: {replay: $replay_secs, clang_cpu: ($cpus | map(.seconds) | add // 0 | . * 1000 | round / 1000),
	     gcc_build: ($build_secs | tonumber? // null)},
   slowest: ($cpus | sort_by(-.seconds, .unit) | .[:10]),
   counts: {both: ([$f[] | select(.group == "both")] | length), clang: ($conly | length),
	    gcc: ($gonly | length), unparsable: ($bad | length), crashed: ($crash | length)},
   clang_only_by_flag: ($conly | counts(.flag)),
   clang_only_by_file: ($conly | counts(.file)),
   flags: {translated: $flags, dropped_gcc_only: ($dropped_gcc | split(" ") | map(select(. != "")))},
   findings: $f,
   gcc_only: $gonly,
   unparsable: $bad,
   crashes: $crash,
   stale: ($stales | sort),
   outside_level: ($outs | sort)}
