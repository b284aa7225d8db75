# SPDX-License-Identifier: GPL-2.0-only
#
# parity-failures.jq - what fails a parity run, and what it found, read
# from the results of its stages as the run assembles them: each target's
# cells (a build, the kselftest disk, a boot, a console without test
# results), then its layout comparisons (an incompatible difference
# against the reference, kabi failing), and after every target, the tests
# that differ between compilers. Findings are the changes between two
# versions of one compiler, which fail nothing.
#
# Usage: jq -s -f parity-failures.jq TARGET.json...
# Prints {failures: [LINE...], findings: [LINE...]}.

def cell_failures:
	(if .build.status == "fail" then "\(.name) build: \(.build.reason)" else empty end),
	(if .disk.status == "fail" then "\(.name) kselftest: \(.disk.reason)" else empty end),
	(if .boot.status == "fail" then "\(.name) boot: \(.boot.reason)" else empty end),
	(if .boot.status == "pass" and .tests != null and (.tests.results | length) == 0
	 then "\(.name) tests: no KUnit results on the console (\(.tests.notes[0] // ""))" else empty end);
def kabi_failures($target):
	.[] | select(.status == "fail")
	| "\($target) kabi \(.old) vs \(.new): "
	  + if .reason == "layouts differ incompatibly"
	    then "\(.incompatible | length) types differ incompatibly" else .reason end;
def tests_failure:
	if (.tests.differs // 0) > 0 then
		.tests.rows[0] as $r
		| "\(.name) tests: \(.tests.differs) differ between compilers, first \($r.test) (\($r.status | to_entries | map("\(.key) \(.value)") | join(", ")))"
	else empty end;

{failures: ([.[] | .name as $t | (.cells[] | cell_failures), ((.kabi_vs_ref + .kabi_versions) | kabi_failures($t))]
	    + [.[] | tests_failure]),
 findings: [.[] | .name as $t | .kabi_versions[]
	    | select(.status == "pass" and (.summary.changed + .summary.incompatible) > 0)
	    | "\($t) \(.old) -> \(.new): \(.summary.changed) types changed, \(.summary.incompatible) incompatibly"]}
