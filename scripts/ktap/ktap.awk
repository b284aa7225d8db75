# SPDX-License-Identifier: GPL-2.0-only
#
# ktap.awk - the test results in a console log that carries KTAP or TAP.
#
# Usage: awk [-v hang=1] [-v eof_line=N] -f ktap.awk LOG
#   hang=1      the boot was stopped by its time limit: the test that was
#               running when the log ends timed out
#   eof_line=N  line N, the log's last, has no newline: it was cut
#
# Prints, in the order of the log, one line per test:
#   SUITE.TEST STATUS     STATUS: pass, fail, skip, timeout or not-run
# and one line per finding about the log itself:
#   # MESSAGE
#
# A suite is a test at the top level of a KTAP document; its tests are the
# results one level below (four spaces deeper, as KTAP nests). Deeper
# results, such as the parameters of a parameterised KUnit test, are summed
# up by their parent's result and not printed. A suite with no test results
# of its own is printed as SUITE.* with the suite's status, or as it is if
# its name has the SUITE.TEST form already (a flat TAP list of tests).
# Test lines come at the end of their suite, findings when they are found.
#
# What the log can do to the results:
# - "[  1.234] " timestamps at the start of a line are dropped; one in the
#   middle of a line means the console cut the line there: the part before
#   it is reported as cut, the rest is read as a line of its own.
# - a result with "# SKIP" is skip, with "# TIMEOUT" (or after KUnit's
#   "# NAME: try timed out") timeout.
# - "Kernel panic - not syncing" ends the log: every test announced by a
#   plan ("1..N") and not yet reported is not-run.
# - the log ending inside a document (a truncated log) does the same; with
#   hang=1 the first of those tests is timeout instead.
# Tests whose names the log never printed are numbered: SUITE.#N, #N.*.
#
# kselftest's TAP (its runner, or the guest's /init): a top-level result
# named "selftests: COLLECTION: TEST" is the test COLLECTION.TEST; the
# program's own output, nested as "# " lines, is not read. The line
# "# selftests: COLLECTION: TEST" before it names the test that is running,
# should the log end there.

function reset(l) {
	for (; l <= MAXL; l++) {
		plan[l] = -1
		last[l] = 0
		subname[l] = ""
		timedout[l] = ""
		nbuf[l] = 0
	}
}

# ksft NAME: a kselftest's "selftests: COLLECTION: TEST" as COLLECTION.TEST
function ksft(name) {
	if (name ~ /^selftests: [^ :]+: [^ ]+$/) {
		sub(/^selftests: /, "", name)
		sub(/: /, ".", name)
	}
	return name
}

# result L NUMBER NAME STATUS: a result at level L
function result(l, n, name, status) {
	last[l] = n
	if (l == 0) {
		name = ksft(name)
		running = ""
	}
	if (l == 0) {
		flush(name, status)
	} else if (l == 1) {
		nbuf[1]++
		bufname[nbuf[1]] = name
		bufstat[nbuf[1]] = status
	}
	# deeper results are summed up by their parent
	subname[l + 1] = ""
	plan[l + 1] = -1
	last[l + 1] = 0
}

# flush SUITE STATUS: print the buffered tests of SUITE, or the suite itself
function flush(suite, status, i) {
	if (suite == "")
		suite = "#" (last[0] + 1)
	for (i = 1; i <= nbuf[1]; i++)
		print suite "." bufname[i] " " bufstat[i]
	if (nbuf[1] == 0 && status != "")
		print suite (index(suite, ".") ? "" : ".*") " " status
	nbuf[1] = 0
	subname[1] = ""
	plan[1] = -1
	last[1] = 0
}

# unfinished: every announced test without a result is not-run; with hang,
# the innermost running one is timeout
function unfinished(why, status, l, deepest, i, first, suite) {
	if (!indoc)
		return
	deepest = -1
	for (l = 0; l <= 1; l++)
		if (plan[l] > last[l] || subname[l + 1] != "")
			deepest = l
	first = hang ? "timeout" : "not-run"
	if (deepest == 1) {
		i = last[1] + 1
		nbuf[1]++
		bufname[nbuf[1]] = subname[2] != "" ? subname[2] : "#" i
		bufstat[nbuf[1]] = first
		first = "not-run"
		for (i++; i <= plan[1]; i++) {
			nbuf[1]++
			bufname[nbuf[1]] = "#" i
			bufstat[nbuf[1]] = "not-run"
		}
	}
	if (deepest >= 0) {
		suite = subname[1] != "" ? subname[1] : "#" (last[0] + 1)
		if (deepest == 1 || nbuf[1] > 0) {
			flush(suite, "")
			last[0]++
		}
		for (i = last[0] + 1; i <= plan[0]; i++) {
			if (i == last[0] + 1 && running != "")
				print running " " first
			else
				print "#" i ".* " first
			first = "not-run"
		}
		print "# " why
	}
	indoc = 0
	running = ""
	reset(0)
}

# cut TEXT: a line the console cut; a result in it counts, as not-run
function cut(text, l, n) {
	if (text !~ /^ *(KTAP version|TAP version|# |1\.\.|ok |not ok )/)
		return
	print "# line " NR ": console line cut: \"" text "\""
	if (!indoc)
		return
	match(text, /^ */)
	l = int(RLENGTH / 4)
	sub(/^ +/, "", text)
	if (text ~ /^(not )?ok [0-9]+/ && l <= 1) {
		sub(/^(not )?ok /, "", text)
		n = text + 0
		result(l, n, l == 0 && subname[1] != "" ? subname[1] : "#" n, "not-run")
	}
}

# line TEXT: one console line, without its timestamp
function line(text, l, body, n, name, status, directive) {
	match(text, /^ */)
	l = int(RLENGTH / 4)
	body = substr(text, RLENGTH + 1)
	if (l > MAXL)
		return
	if (body ~ /^K?TAP version [0-9]+$/) {
		if (l == 0) {
			unfinished("a new document began before this one ended at line " NR)
			indoc = 1
			seen = 1
		}
		return
	}
	if (!indoc)
		return
	if (body ~ /^# Subtest: /) {
		subname[l] = substr(body, 12)
	} else if (l == 0 && body ~ /^# selftests: [^ :]+: [^ ]+$/) {
		running = ksft(substr(body, 3))
	} else if (body ~ /^1\.\.[0-9]+/) {
		plan[l] = substr(body, 4) + 0
	} else if (body ~ /^# [^ :]+: try timed out/) {
		name = substr(body, 3)
		sub(/:.*/, "", name)
		timedout[l] = timedout[l] " " name " "
	} else if (body ~ /^(not )?ok [0-9]+( |$)/) {
		status = body ~ /^ok/ ? "pass" : "fail"
		sub(/^(not )?ok /, "", body)
		n = body + 0
		sub(/^[0-9]+ *(- )?/, "", body)
		directive = ""
		if (index(body, " # ")) {
			directive = substr(body, index(body, " # ") + 3)
			body = substr(body, 1, index(body, " # ") - 1)
		} else if (body ~ /^# /) {
			directive = substr(body, 3)
			body = ""
		}
		if (toupper(directive) ~ /^SKIP/)
			status = "skip"
		else if (toupper(directive) ~ /^TIMEOUT/ || index(timedout[l], " " body " "))
			status = "timeout"
		if (body == "")
			body = "#" n
		result(l, n, body, status)
		if (l == 0 && plan[0] >= 0 && n >= plan[0]) {
			indoc = 0
			reset(0)
		}
	}
}

BEGIN {
	MAXL = 3
	reset(0)
}

{
	sub(/\r+$/, "")
	sub(/^\[ *[0-9]+\.[0-9]+\] ?/, "")
}

# everything after a panic is the panic's
/Kernel panic - not syncing/ {
	panic = $0
	sub(/.*Kernel panic - not syncing: */, "", panic)
	if (panic == "")
		panic = "(no message)"
	panic = "kernel panic at line " NR ": " panic
	if (indoc)
		unfinished(panic)
	else
		print "# " panic
	if (!seen)
		print "# no KTAP or TAP in the log"
	exit
}

{
	text = $0
	while (match(text, /\[ *[0-9]+\.[0-9]+\]/)) {
		head = substr(text, 1, RSTART - 1)
		text = substr(text, RSTART + RLENGTH)
		sub(/^ /, "", text)
		cut(head)
	}
	if (eof_line && eof_line == NR)
		cut(text)
	else
		line(text)
}

END {
	if (panic != "")
		exit 0
	if (!seen)
		print "# no KTAP or TAP in the log"
	else if (hang)
		unfinished("the boot hit its time limit in the middle of the tests")
	else
		unfinished("the log ends in the middle of the tests")
}
