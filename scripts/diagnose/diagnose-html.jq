# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-html.jq - diagnose.html from diagnose.json.
#
# Usage: jq -r -L scripts/diagnose -f diagnose-html.jq diagnose.json

include "diagnose-lib";

def h: tostring | @html;
def finding:
	"<li><code>\(where | h)</code> \(.kind | h) <b>\(.flag | h)</b>: \(.text | h) <small>(\(.count) units: \(.units | join(", ") | h))</small><ul>",
	(.gcc // [] | .[] | "<li>GCC here: \(.flag | h): \(.text | h)</li>"),
	(.notes[] | "<li class=note>note: \(h)</li>"),
	(.fixits[] | "<li class=fixit>fix-it: <code>\(h)</code></li>"),
	"</ul></li>";

"<!DOCTYPE html>",
"<html lang=en><head><meta charset=utf-8><title>kparity diagnose: \(.cell | h) with \(.clang.command | h)</title>",
"<style>body{font-family:sans-serif;max-width:80em;margin:1em auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em}.note{color:#555}.fixit{color:#060}</style></head><body>",
"<h1>kparity diagnose: \(.cell | h) with \(.clang.command | h)</h1>",
"<p>\(.clang.version | h), --target=\(.clang.target | h), warning level \(if .level == "" then "the build's own" else "W=\(.level)" end | h); linux \(.kernel | h).</p>",
"<table><tr><th>both</th><th>only clang</th><th>only gcc</th><th>unparsable</th><th>crashed</th><th>units</th><th>replay</th><th>gcc build</th></tr>",
"<tr><td>\(.counts.both)</td><td>\(.counts.clang)</td><td>\(.counts.gcc)</td><td>\(.counts.unparsable)</td><td>\(.counts.crashed)</td><td>\(.units.replayed)</td><td>\(.seconds.replay)s</td><td>\(.seconds.gcc_build // "-")s</td></tr></table>",
"<h2>Only Clang, by flag</h2><table><tr><th>flag</th><th>findings</th></tr>",
(.clang_only_by_flag | to_entries[] | "<tr><td>\(.key | h)</td><td>\(.value)</td></tr>"),
"</table>",
"<h2>Only Clang, by file</h2><table><tr><th>file</th><th>findings</th></tr>",
(.clang_only_by_file | to_entries[] | "<tr><td><code>\(.key | h)</code></td><td>\(.value)</td></tr>"),
"</table>",
"<h2>GCC's flags for Clang</h2><table><tr><th>flag</th><th>decision</th><th>clang</th><th>class</th><th>units</th><th>why</th></tr>",
(.flags.translated[] | "<tr><td><code>\(.flag | h)</code></td><td>\(.decision | h)</td><td>\(.new | h)</td><td>\(.class | h)</td><td>\(.units)</td><td>\(.why | h)</td></tr>"),
(.flags.dropped_gcc_only[] | "<tr><td><code>\(h)</code></td><td>drop</td><td>-</td><td>diag</td><td>all</td><td>the tree gives it to GCC only</td></tr>"),
"</table>",
(if (.unparsable | length) > 0 then
	("<h2>Units Clang cannot parse</h2><ul>", (.unparsable[] | "<li><code>\(.unit | h)</code>: \(.error | h)</li>"), "</ul>") else empty end),
(if (.crashes | length) > 0 then
	("<h2>Clang crashes</h2><ul>", (.crashes[] | "<li><code>\(.unit | h)</code>: \(.message | h)<br>reproduce: <code>\(.reproduce | h)</code></li>"), "</ul>") else empty end),
"<h2>Only Clang</h2><ul>", (.findings[] | select(.group == "clang") | finding), "</ul>",
"<h2>Both</h2><ul>", (.findings[] | select(.group == "both") | finding), "</ul>",
"<h2>Only GCC</h2><ul>", (.gcc_only[] | "<li><code>\(where | h)</code> \(.kind | h) \(.flag | h): \(.text | h)</li>"), "</ul>",
"</body></html>"
