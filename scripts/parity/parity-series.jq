# SPDX-License-Identifier: GPL-2.0-only
#
# parity-series.jq - report.json's series_new: the patches of the run's
# series the last run's lacked, and for each target the Clang findings
# each of them adds and removes in its GCC cell (diagnose-series.sh), or
# why there is no walk. null when no patch is new.
#
# Usage: jq -n -R --rawfile new SERIES.new --arg targets "T..."
#           [--slurpfile w_TARGET TARGET.series.json]
#           [--rawfile e_TARGET TARGET.series.err] -f parity-series.jq
#   SERIES.new  "SHA256 NAME" per new patch (parity.sh's new_patches)

($new | split("\n") | map(select(. != "") | capture("^(?<sha256>[0-9a-f]+) (?<name>.*)$"))) as $p
| ($p | map(.name)) as $names
| if $p == [] then null else
  {patches: $p,
   targets: [$targets | split(" ")[] | select(. != "") as $t
     | ($ARGS.named["w_" + $t][0] // null) as $w
     | ($ARGS.named["e_" + $t] // null) as $e
     | select($w != null or $e != null)
     | {target: $t,
        clang: $w.clang, level: $w.level, cell: $w.cell,
        error: ($e | if . == null then null else rtrimstr("\n") end),
        patches: [($w.patches // [])[] | select(.patch as $n | $names | index($n))]}]}
  end
