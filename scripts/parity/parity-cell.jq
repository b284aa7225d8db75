# SPDX-License-Identifier: GPL-2.0-only
#
# parity-cell.jq - one cell of the parity matrix (a target built and booted
# with one compiler) as the JSON object of Documentation/parity.md.
#
# Usage: jq -n --arg target T --arg compiler C --arg name T/SUFFIX --arg dir D
#           --arg ccver V --arg same NAMES --arg bstat pass|fail --argjson bsecs N
#           --arg breason R --arg made N|"" --arg brepro CMD
#           --arg dstat pass|fail|none --arg dreason R
#           --arg vstat pass|fail|skipped --argjson vsecs N --arg verdict V
#           --arg vrepro CMD --arg qemu CMD --arg version V --arg last LINES
#           --arg proof LINES
#           --slurpfile warnings W.json --slurpfile tests TESTS.json
#           --slurpfile check CHECK.json
#           --arg farm distcc|icecc|"" --arg jobs "HOST JOBS" LINES
#           -f parity-cell.jq
# An empty string stands for "none" and becomes null (or [] for last).
# farm is the engine the cell was built on (DIST), jobs where its compile
# jobs ran (scripts/farm/farm-jobs.awk's lines: each host, then local);
# build.farm is null for a cell built without a farm. disk is the cell's
# kselftest disk: none when the kselftests are not judged (or the build
# failed), else whether it could be made. check is the cell's kabi check
# (parity-check.jq), null when the build failed. proof holds what shows
# that the fragments of KCONFIG_ADD are on (Documentation/configs.md):
# kernel-build.sh's build.proof and kernel-boot.sh's boot.proof,
# 'FRAGMENT: FINDING' a line; [] without any.

{target: $target, compiler: $compiler, name: $name, dir: $dir,
 compiler_version: $ccver,
 same_as: ($same | split(" ") | map(select(. != ""))),
 build: {status: $bstat, seconds: $bsecs,
	 make_seconds: (if $made == "" then null else ($made | tonumber) end),
	 reason: (if $breason == "" then null else $breason end),
	 log: ($dir + "/build.log"), reproduce: $brepro,
	 farm: (if $farm == "" then null
		else {engine: $farm,
		      jobs: ($jobs | split("\n") | map(select(. != "") | split(" ") | {(.[0]): (.[1] | tonumber)})
			     | add // {local: 0})} end)},
 disk: {status: $dstat, reason: (if $dreason == "" then null else $dreason end)},
 boot: {status: $vstat,
	seconds: (if $vstat == "skipped" then null else $vsecs end),
	reason: (if $verdict == "" or $verdict == "pass" then null
		 else ($verdict | ltrimstr("fail: ")) end),
	proc_version: (if $version == "" then null else $version end),
	last_lines: (if $last == "" then [] else ($last | split("\n")) end),
	log: ($dir + "/boot.log"),
	reproduce: (if $vrepro == "" then null else $vrepro end),
	qemu: (if $qemu == "" then null else $qemu end)},
 proof: ($proof | split("\n") | map(select(. != ""))),
 warnings: $warnings[0],
 tests: $tests[0],
 check: $check[0]}
