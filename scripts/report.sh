#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# report.sh - write report.md and report.html from a parity run's
# report.json (Documentation/parity.md describes its fields).
#
# Both are rendered from the JSON alone, so a recorded report.json renders
# the same anywhere. Each file is written under a temporary name and
# renamed when complete.
#
# Exit: 0 ok, 2 trouble (usage, unreadable or malformed JSON, jq missing).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=report.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"

usage() {
	cat <<USAGE
usage: $PROG REPORT.JSON OUTDIR
Write OUTDIR/report.md and OUTDIR/report.html from REPORT.JSON.
USAGE
}

# Shared jq definitions: durations, one cell's summary, and a type's
# layout as rows with the holes between members made explicit.
# shellcheck disable=SC2016 # jq code, not shell
JQ_DEFS='
def dur: if . == null then "-"
	elif . >= 60 then "\(. / 60 | floor)m\(. % 60 | tostring | if length < 2 then "0" + . else . end)s"
	else "\(.)s" end;
def build_text: if .build.status != "pass" then "FAIL"
	elif .build.make_seconds != null and .build.make_seconds > .build.seconds
	then "pass \(.build.seconds | dur) (last make \(.build.make_seconds | dur))"
	else "pass \(.build.seconds | dur)" end;
def boot_text: if .boot.status == "pass" then "pass \(.boot.seconds | dur)"
	elif .boot.status == "skipped" then "-"
	else "FAIL: \(.boot.reason)" end;
def warn_text: "\(.warnings.warnings) warnings, \(.warnings.errors) errors";
def kabi_text: if . == null then "-"
	elif .status == "skipped" then "skipped: \(.reason)"
	elif .summary == null then "FAIL: \(.reason)"
	else "\(.summary.changed) changed, \(.summary.incompatible) incompatible, \(.summary.only_old) only gcc, \(.summary.only_new) only clang"
	+ (if .status == "fail" then " (FAIL)" else "" end) end;
def mend: .offset + (if .bit_size != null
	then ((.bit_offset + .bit_size + 7) / 8 | floor) else (.size // 0) end);
def rows: if . == null then []
	else . as $t
	| reduce (.members // [])[] as $m ({end: 0, rows: []};
		(if $m.offset > .end
		 then .rows += [{offset: .end, size: ($m.offset - .end), hole: true}]
		 else . end)
		| .rows += [$m + {hole: false}]
		| .end = ([.end, ($m | mend)] | max))
	| .rows + (if ($t.size // 0) > .end
		then [{offset: .end, size: ($t.size - .end), hole: true}] else [] end)
	end;
def bitpos: if .bit_size != null then ":\(.bit_offset)+\(.bit_size)" else "" end;
def finding_text: .what + (if .subject != null then " \(.subject)" else "" end)
	+ (if .old != null then ": \(.old) -> \(.new)" else "" end);
'

render_md() {
	jq -r "$JQ_DEFS"'
	"# kparity report: \(.kernel)",
	"",
	"Verdict: **\(.verdict | ascii_upcase)**" +
		(if (.failures | length) > 0 then " (\(.failures | length) failures)" else "" end),
	"",
	"| target | compiler | build | boot | warnings | kabi |",
	"|---|---|---|---|---|---|",
	(.matrix[] | . as $t | .cells[] |
		"| \($t.name) | \(.name | split("/")[1]) | \(build_text) | \(boot_text) | \(warn_text) | \($t.kabi | kabi_text) |"),
	"",
	(if (.failures | length) > 0 then
		("## Failures", "", (.failures[] | "- \(.)"), "") else empty end),
	(.matrix[] | . as $t |
		"## \(.name)",
		"",
		(.cells[] |
			"- \(.name): \(.compiler_version); " +
			(if .boot.proc_version != null then "booted `\(.boot.proc_version)`" else "not booted" end)),
		(if .warnings_diff != null then
			"- warnings: gcc \(.warnings_diff.gcc), clang \(.warnings_diff.clang); only gcc: " +
			(.warnings_diff.only_gcc | to_entries | map("\(.key) \(.value)") | join(", ") | if . == "" then "none" else . end) +
			"; only clang: " +
			(.warnings_diff.only_clang | to_entries | map("\(.key) \(.value)") | join(", ") | if . == "" then "none" else . end)
		 else empty end),
		"- kabi: \($t.kabi | kabi_text)",
		"",
		"Reproduce:",
		"",
		(.cells[] |
			"- build \(.name): `\(.build.reproduce)`",
			(if .boot.reproduce != null then "- boot \(.name): `\(.boot.reproduce)`" else empty end)),
		(if $t.kabi != null then "- kabi: `\($t.kabi.reproduce)`" else empty end),
		"",
		(.cells[] | select(.build.status != "pass") |
			"Build \(.name) failed: \(.build.reason)", ""),
		(.cells[] | select(.boot.status == "fail") |
			"Boot \(.name) failed: \(.boot.reason). Last console lines:",
			"",
			"```",
			.boot.last_lines[],
			"```",
			""),
		(($t.kabi.incompatible // [])[] |
			"### \(.kind) \(.name) (\(.decl_file):\(.decl_line))",
			"",
			(.findings[] | select(.incompatible) | "- \(finding_text)"),
			"",
			"| gcc offset | size | member | clang offset | size | member |",
			"|---|---|---|---|---|---|",
			((.gcc | rows) as $g | (.clang | rows) as $c
			 | range(0; [($g | length), ($c | length)] | max) as $i
			 | [$g[$i], $c[$i]]
			 | map(if . == null then " | | "
				elif .hole then "\(.offset) | \(.size) | *hole*"
				else "\(.offset)\(bitpos) | \(.size) | \(.name) `\(.type)`" end)
			 | "| \(.[0]) | \(.[1]) |"),
			""))
	' "$1"
}

render_html() {
	jq -r "$JQ_DEFS"'
	def cls: if . == "pass" then "pass" elif . == "fail" then "fail" else "skip" end;
	def cellbox($t): "<td class=\"\(if .build.status == "pass" and .boot.status == "pass" then "pass" else "fail" end)\">"
		+ "<div><b>build</b> \(build_text | @html)</div>"
		+ "<div><b>boot</b> \(boot_text | @html)</div>"
		+ "<div><b>warnings</b> \(.warnings.warnings) / <b>errors</b> \(.warnings.errors)</div>"
		+ "<div class=\"repro\">build: <code>\(.build.reproduce | @html)</code></div>"
		+ (if .boot.reproduce != null then "<div class=\"repro\">boot: <code>\(.boot.reproduce | @html)</code></div>" else "" end)
		+ "</td>";
	def layout_table($side; $rows):
		"<table class=\"layout\"><caption>\($side)</caption><tr><th>offset</th><th>size</th><th>member</th><th>type</th></tr>"
		+ ([$rows[] | if .hole
			then "<tr class=\"hole\"><td>\(.offset)</td><td>\(.size)</td><td colspan=\"2\">hole</td></tr>"
			else "<tr><td>\(.offset)\(bitpos)</td><td>\(.size)</td><td>\(.name | @html)</td><td><code>\(.type | @html)</code></td></tr>" end]
		   | join(""))
		+ "</table>";
	. as $r |
	"<!DOCTYPE html>",
	"<html lang=\"en\"><head><meta charset=\"utf-8\">",
	"<title>kparity report: \(.kernel | @html)</title>",
	"<style>",
	"body{font-family:sans-serif;margin:1.5em;color:#222}",
	"table{border-collapse:collapse;margin:0.5em 0}",
	"td,th{border:1px solid #999;padding:0.4em 0.6em;vertical-align:top;text-align:left}",
	"th{background:#eee}",
	"td.pass{background:#d9f2d9}td.fail{background:#f7d4d4}td.skip{background:#eee}",
	".repro{font-size:0.75em;color:#555;margin-top:0.3em}.repro code{color:#333;word-break:break-all}",
	".verdict{font-size:1.4em;font-weight:bold}.verdict.pass{color:#176617}.verdict.fail{color:#a31515}",
	".sides{display:flex;gap:1.5em;align-items:flex-start}",
	"tr.hole td{background:#fff3c4;font-style:italic}",
	"pre{background:#f4f4f4;padding:0.6em;overflow-x:auto}",
	"</style></head><body>",
	"<h1>kparity report: \(.kernel | @html)</h1>",
	"<p class=\"verdict \(.verdict | cls)\">\(.verdict | ascii_upcase)"
		+ (if (.failures | length) > 0 then " &mdash; \(.failures | length) failures" else "" end) + "</p>",
	(if (.failures | length) > 0 then
		"<ul>" + ([.failures[] | "<li>\(@html)</li>"] | join("")) + "</ul>" else empty end),
	"<table class=\"matrix\"><tr><th>target</th>"
		+ ([.compilers[] | "<th>\(@html)</th>"] | join("")) + "<th>kabi (gcc vs clang)</th></tr>",
	(.matrix[] | . as $t |
		"<tr><th>\(.name | @html)</th>"
		+ ([.cells[] | cellbox($t)] | join(""))
		+ "<td class=\"\(if .kabi == null then "skip" else (.kabi.status | cls) end)\"><div>\(.kabi | kabi_text | @html)</div>"
		+ (if .kabi != null then "<div class=\"repro\">kabi: <code>\(.kabi.reproduce | @html)</code></div>" else "" end)
		+ "</td></tr>"),
	"</table>",
	(.matrix[] | . as $t |
		"<h2>\(.name | @html)</h2>",
		"<ul>",
		(.cells[] | "<li><b>\(.name | @html)</b>: \(.compiler_version | @html)"
			+ (if .boot.proc_version != null then "<br><code>\(.boot.proc_version | @html)</code>" else "" end) + "</li>"),
		(if .warnings_diff != null then
			"<li>warnings: gcc \(.warnings_diff.gcc), clang \(.warnings_diff.clang); only gcc: "
			+ (.warnings_diff.only_gcc | to_entries | map("\(.key) \(.value)") | join(", ") | if . == "" then "none" else . end | @html)
			+ "; only clang: "
			+ (.warnings_diff.only_clang | to_entries | map("\(.key) \(.value)") | join(", ") | if . == "" then "none" else . end | @html)
			+ "</li>" else empty end),
		"</ul>",
		(.cells[] | select(.build.status != "pass") |
			"<p>Build \(.name | @html) failed: \(.build.reason | @html)</p>"),
		(.cells[] | select(.boot.status == "fail") |
			"<p>Boot \(.name | @html) failed: \(.boot.reason | @html). Last console lines:</p>",
			"<pre>\(.boot.last_lines | join("\n") | @html)</pre>"),
		((.kabi.incompatible // [])[] |
			"<h3>\(.kind) \(.name | @html) <small>\(.decl_file | @html):\(.decl_line)</small></h3>",
			"<ul>" + ([.findings[] | select(.incompatible) | "<li>\(finding_text | @html)</li>"] | join("")) + "</ul>",
			"<div class=\"sides\">"
			+ layout_table("gcc: size \(.gcc.size // "?")"; (.gcc | rows))
			+ layout_table("clang: size \(.clang.size // "?")"; (.clang | rows))
			+ "</div>")),
	"</body></html>"
	' "$1"
}

main() {
	local json out

	[ $# -eq 2 ] || { usage >&2; exit 2; }
	json="$1"
	out="$2"
	"$(dirname "$0")/need-tool.sh" -p "$PROG" jq || exit 2
	[ -r "$json" ] || die "cannot read '$json'"
	jq -e '.version == 1 and (.matrix | type) == "array"' "$json" >/dev/null 2>&1 ||
		die "'$json' is not a version 1 parity report"
	[ -d "$out" ] || die "'$out' is not a directory"

	render_md "$json" >"$out/report.md.tmp" || die "cannot render '$out/report.md'"
	render_html "$json" >"$out/report.html.tmp" || die "cannot render '$out/report.html'"
	mv "$out/report.md.tmp" "$out/report.md"
	mv "$out/report.html.tmp" "$out/report.html"
}

main "$@"
