# SPDX-License-Identifier: GPL-2.0-only
#
# tuxmake.jq - one cell of a parity report.json as a TuxMake metadata.json:
# two levels of groups and items (build, compiler, results, source,
# tools), with the reproducer naming scripts/reproduce.sh and the
# toolchain pinned by Debian package. Documentation/schemas/
# tuxmake-metadata.schema.json is the subset of TuxMake's it writes.
#
# Usage: jq --slurpfile toolchain TOOLCHAIN.json --argjson targets TARGETS
#           --arg cell TARGET/COMPILER --arg default_tree TREE
#           -f tuxmake.jq report.json
# The report is where its kernel tree's runs keep theirs (scripts/lib/
# tree.sh's tree_root): BUILDDIR/report/ for the default tree (TREE),
# BUILDDIR/VERSION.PATCHLEVEL/report/ for another.

def status: if . == "pass" then "PASS" elif . == "skipped" then "SKIP" else "FAIL" end;
def nonull: walk(if type == "object" then with_entries(select(.value != null)) else . end);

. as $r
| ($toolchain[0] // {}) as $tc
| first($r.matrix[].cells[] | select("\(.target)/\(.compiler)" == $cell)) as $c
| ($tc.cells[$cell] // null) as $p
| $targets[$c.target] as $t
| {build: {targets: ["kernel"],
	   target_arch: $t.arch,
	   toolchain: ($c.name | split("/")[1]),
	   kconfig: $t.base_config,
	   kconfig_add: $t.fragments,
	   reproducer_cmdline: ["scripts/reproduce.sh",
		($r.kernel // "" | capture("^linux-(?<v>[0-9]+\\.[0-9]+)").v // $default_tree) as $tree
		| "\($r.builddir)\(if $tree == $default_tree then "" else "/\($tree)" end)/report/report.json",
		$cell],
	   runtime: "null"},
   compiler: {name: (if $c.compiler_version | test("clang") then "clang" else "gcc" end),
	      version: ($c.compiler_version | first(match("[0-9]+\\.[0-9]+\\.[0-9]+") | .string) // null),
	      version_full: $c.compiler_version},
   results: {status: (if $c.build.status == "pass" and $c.boot.status == "pass" then "PASS" else "FAIL" end),
	     targets: {kernel: {status: ($c.build.status | status), duration: $c.build.seconds}},
	     errors: ($c.warnings.errors // 0),
	     warnings: ($c.warnings.warnings // 0)},
   source: {kernelversion: ($r.kernel | sub("^linux-"; ""))},
   tools: (if $p == null or $p.cc.package == null then null
	   else [$p.cc, $p.ld] | map(select(.package != null) | {(.package): .version}) | add end)}
| nonull
