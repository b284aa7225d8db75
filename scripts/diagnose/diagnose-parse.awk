# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-parse.awk - what Clang printed for each unit of a replay
# (scripts/diagnose.sh), as records for diagnose.jq.
#
# Usage: awk -v src=SRCDIR -f diagnose-parse.awk STATUS OUTPUT...
#   STATUS  INDEX TAB EXIT-STATUS TAB UNIT per unit, UNIT the source file
#   OUTPUT  Clang's output for one unit, named INDEX.out (any directory),
#           printed with -fdiagnostics-parseable-fixits (caret lines and
#           the source lines shown with them are skipped)
# Prints tab-separated records:
#   D UNIT KIND FLAG FILE LINE COL TEXT NOTES FIXITS
#       one per warning or error; KIND warning or error (a fatal error is
#       an error, -Werror's [-Werror,-WFOO] counts as an error of -WFOO);
#       FLAG "(none)" when Clang names none; NOTES the notes that follow
#       it (macro expansions included), FIXITS its fix-its and its notes'
#       ("FILE:L:C-L:C: replace with \"TEXT\""), each list joined by
#       the character \037
#   U UNIT STATUS FIRST
#       one per unit: STATUS ok, error (Clang could not parse it: FIRST is
#       the first error) or crash (FIRST is the first line that says so;
#       Clang's reproducer files follow as "R UNIT FILE" records)
# Paths below src are made relative to it; a leading ./ (the build
# directory's generated headers) goes.

function relative(path) {
	if (src != "" && index(path, src "/") == 1)
		path = substr(path, length(src) + 2)
	while (path ~ /^\.\.?\//)
		sub(/^\.\.?\//, "", path)
	return path
}

# flush(): print the diagnostic being collected, if any
function flush() {
	if (dkind != "")
		print "D\t" unit "\t" dkind "\t" dflag "\t" dfile "\t" dline "\t" dcol "\t" dtext "\t" dnotes "\t" dfix
	dkind = ""
}

# finish(): the unit record of the unit read so far
function finish() {
	if (unit == "")
		return
	flush()
	if (crash != "")
		st = "crash"
	else if (rc[idx] != 0 || first != "")
		st = "error"
	else
		st = "ok"
	if (st == "error" && first == "")
		first = "exit status " rc[idx] " with no error printed"
	if (rc[idx] > 128 && st != "crash") {
		st = "crash"
		crash = "exit status " rc[idx]
	}
	print "U\t" unit "\t" st "\t" (st == "crash" ? crash : st == "error" ? first : "")
	done[idx] = 1
	for (i = 1; i <= nrepro; i++)
		print "R\t" unit "\t" repro[i]
	unit = ""
}

function join(list, item) {
	return list == "" ? item : list "\037" item
}

NR == FNR {
	rc[$1] = $2
	name[$1] = relative($3)
	next
}

FNR == 1 {
	finish()
	idx = FILENAME
	sub(/^.*\//, "", idx)
	sub(/\.out$/, "", idx)
	unit = name[idx]
	first = crash = ""
	nrepro = 0
}

{ sub(/\r+$/, "") }

match($0, /^[^ :][^:]*:[0-9]+:[0-9]+: (fatal error|error|warning|note): /) {
	head = substr($0, 1, RLENGTH)
	text = substr($0, RLENGTH + 1)
	n = split(head, h, ":")
	kind = h[n - 1]
	sub(/^ /, "", kind)
	file = relative(substr(head, 1, length(head) - length(h[n - 3] ":" h[n - 2] ":" h[n - 1] ": ") - 1))
	loc = file ":" h[n - 3] ":" h[n - 2]
	if (kind == "note") {
		if (dkind != "")
			dnotes = join(dnotes, loc ": " text)
		next
	}
	flush()
	flag = "(none)"
	if (match(text, / \[-W[^]]*\]$/)) {
		flag = substr(text, RSTART + 2, RLENGTH - 3)
		text = substr(text, 1, RSTART - 1)
		if (flag ~ /^-Werror,/) {
			flag = substr(flag, 9)
			kind = "error"
		}
		sub(/,.*$/, "", flag)
	}
	if (kind == "fatal error")
		kind = "error"
	if (kind == "error" && first == "")
		first = loc ": " text
	dkind = kind
	dflag = flag
	dfile = file
	dline = h[n - 3]
	dcol = h[n - 2]
	dtext = text
	dnotes = dfix = ""
	next
}

/^fix-it:"/ && dkind != "" {
	s = substr($0, 9)
	q = index(s, "\":{")
	file = relative(substr(s, 1, q - 1))
	s = substr(s, q + 3)
	r = index(s, "}:")
	range = substr(s, 1, r - 1)
	dfix = join(dfix, file ":" range ": replace with " substr(s, r + 2))
	next
}

# the driver's own errors: no file, no line
/^clang(-[0-9]+)?: (error|fatal error): / {
	if ($0 ~ /(unable to execute command|command failed (due to signal|with exit code)|crashed)/) {
		crash = $0
	} else if (first == "") {
		first = $0
	}
	next
}

/^PLEASE submit a bug report/ && crash == "" { crash = $0 }

/^clang(-[0-9]+)?: note: diagnostic msg: \/.*\.(c|sh)$/ {
	s = $0
	sub(/^.*diagnostic msg: /, "", s)
	repro[++nrepro] = s
}

# units whose output was empty: no line read, so no FNR == 1
END {
	finish()
	for (idx in rc) {
		if (idx in done)
			continue
		if (rc[idx] == 0)
			print "U\t" name[idx] "\tok\t"
		else
			print "U\t" name[idx] "\t" (rc[idx] > 128 ? "crash" : "error") "\texit status " rc[idx] " with nothing printed"
	}
}
