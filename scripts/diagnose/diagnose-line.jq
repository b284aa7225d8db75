# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-line.jq - the last line diagnose.sh prints for one replay.
#
# Usage: jq -r --arg report PATH -L scripts/diagnose -f diagnose-line.jq diagnose.json

"diagnose: \(.cell) with \(.clang.command)\(if .level != "" then " W=\(.level)" else "" end): " +
"\(.units.replayed) units in \(.seconds.replay)s; both \(.counts.both), only clang \(.counts.clang), " +
"only gcc \(.counts.gcc), unparsable \(.counts.unparsable), crashed \(.counts.crashed); report in \($report)"
