# SPDX-License-Identifier: GPL-2.0-only
#
# parity-failures.jq - what fails a parity run, and what it found, read
# from the results of its stages as the run assembles them: each target's
# cells (a build, the kselftest disk, a boot, a console without test
# results), each cell's kabi check, then its layout comparisons (an
# incompatible difference against the reference, kabi failing) and its
# swapped boots (kernel-swap.sh in trouble), the structures GCC and Clang
# randomized differently with one seed, and after every target, the tests that
# differ between compilers. Findings are the changes between two
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
# a cell's kabi check fails when it could not run, or when the cell's
# units see a type with incompatible layouts that another compiler's
# cell of the target does not: that is the compiler's doing (llvm-project
# #60349's class). A clash every cell has is the tree's own, and fails
# nothing.
def check_failures:
	[.cells[] | select(.check != null)] as $cs
	| $cs[] as $c
	| if $c.check.status == "fail" then "\($c.name) kabi check: \($c.check.reason)"
	  else [$c.check.clashes[] | select(.incompatible) | . as $k
		| select(any($cs[] | select(.name != $c.name and .check.status == "pass");
			[.check.clashes[] | select(.incompatible and .kind == $k.kind and .name == $k.name and .decl == $k.decl)]
			| length == 0))] as $own
	  | if ($own | length) > 0
	    then "\($c.name) kabi check: \($own | length) types its units lay out incompatibly, which another compiler's do not, first \($own[0].kind) \($own[0].name) at \($own[0].decl)"
	    else empty end
	  end;
def swap_failure:
	if .swap.status == "fail" then "\(.name) swap: \(.swap.reason)" else empty end;
# with one seed, GCC and Clang must give a randomized structure one
# layout, or a module built by one does not fit a kernel of the other
def randstruct_failure:
	if .randstruct != null and .randstruct.randomized.gcc > .randstruct.same then
		([.randstruct.types[] | select(.probe and .gcc and (.same | not))][0]) as $f
		| "\(.name) randstruct: \(.randstruct.gcc) and \(.randstruct.clang) lay out \(.randstruct.randomized.gcc - .randstruct.same) of \(.randstruct.randomized.gcc) structures both randomized differently with one seed, first struct \($f.name) at \($f.decl)"
	else empty end;
def tests_failure:
	if (.tests.differs // 0) > 0 then
		.tests.rows[0] as $r
		| "\(.name) tests: \(.tests.differs) differ between compilers, first \($r.test) (\($r.status | to_entries | map("\(.key) \(.value)") | join(", "))"
		  + (if ($r.subtests.differ // 0) > 0 then "; \($r.subtests.differ) of \($r.subtests.count) subtests differ" else "" end) + ")"
	else empty end;

{failures: ([.[] | .name as $t | (.cells[] | cell_failures), check_failures, ((.kabi_vs_ref + .kabi_versions) | kabi_failures($t)), swap_failure, randstruct_failure]
	    + [.[] | tests_failure]),
 findings: [.[] | .name as $t | .kabi_versions[]
	    | select(.status == "pass" and (.summary.changed + .summary.incompatible) > 0)
	    | "\($t) \(.old) -> \(.new): \(.summary.changed) types changed, \(.summary.incompatible) incompatibly"]}
