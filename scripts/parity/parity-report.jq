# SPDX-License-Identifier: GPL-2.0-only
#
# parity-report.jq - report.json (Documentation/parity.md) from the run's
# settings and the assembled targets.
#
# Usage: jq -s --arg kernel K --arg build DIR --arg targets "T..."
#           --arg compilers "C..." --arg reference C --arg aliases "N=KEPT..."
#           --arg tests TESTS --arg kinds "KIND..." --arg report_dir DIR
#           --arg kconfig NAME|"" --arg config_add "WORD..."
#           --slurpfile f FAILURES.json
#           --slurpfile sk SKIPPED.json [--slurpfile series SERIES.json]
#           -f parity-report.jq TARGET.json...
# FAILURES.json is parity-failures.jq's, SKIPPED.json the cells not built
# ([{target, compiler, reason}]), SERIES.json parity-series.jq's (null
# when the series has no patch the last run's lacked); the lists are
# separated by spaces.
# report_dir is the report's directory relative to the build directory
# (report, 6.12/report, config-kcfi/report: the tree's and configuration's
# place, tree_root), for the commands that read the report again.

def words: split(" ") | map(select(. != ""));

{version: 1, kernel: $kernel, builddir: $build, report_dir: $report_dir,
 kconfig: (if $kconfig == "" then null else $kconfig end),
 config_add: ($config_add | words),
 tests: $tests, test_kinds: ($kinds | words),
 compilers: ($compilers | words),
 aliases: ($aliases | words | map(split("=") | {(.[0]): .[1]}) | add // {}),
 reference: $reference,
 targets: ($targets | words),
 skipped: $sk[0],
 failures: $f[0].failures,
 findings: $f[0].findings,
 series_new: (($ARGS.named.series // [null])[0]),
 verdict: (if ($f[0].failures | length) == 0 then "pass" else "fail" end),
 matrix: .}
