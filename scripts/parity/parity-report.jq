# SPDX-License-Identifier: GPL-2.0-only
#
# parity-report.jq - report.json (Documentation/parity.md) from the run's
# settings and the assembled targets.
#
# Usage: jq -s --arg kernel K --arg build DIR --arg targets "T..."
#           --arg compilers "C..." --arg reference C --arg aliases "N=KEPT..."
#           --arg tests TESTS --arg kinds "KIND..." --arg config_add "WORD..."
#           --slurpfile f FAILURES.json
#           --slurpfile sk SKIPPED.json -f parity-report.jq TARGET.json...
# FAILURES.json is parity-failures.jq's, SKIPPED.json the cells not built
# ([{target, compiler, reason}]); the lists are separated by spaces.

def words: split(" ") | map(select(. != ""));

{version: 1, kernel: $kernel, builddir: $build,
 config_add: ($config_add | words),
 tests: $tests, test_kinds: ($kinds | words),
 compilers: ($compilers | words),
 aliases: ($aliases | words | map(split("=") | {(.[0]): .[1]}) | add // {}),
 reference: $reference,
 targets: ($targets | words),
 skipped: $sk[0],
 failures: $f[0].failures,
 findings: $f[0].findings,
 verdict: (if ($f[0].failures | length) == 0 then "pass" else "fail" end),
 matrix: .}
