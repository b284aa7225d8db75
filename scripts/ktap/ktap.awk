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
# named "selftests: COLLECTION: TEST" is the test COLLECTION.TEST. The line
# "# selftests: COLLECTION: TEST" before it names the test that is running,
# should the log end there. The program's own KTAP or TAP, nested under it
# as "# " lines (kselftest.h's "TAP version 13", "1..N", "ok N NAME",
# "# Totals: ..."), is read as well, and printed before the test's line:
#   COLLECTION.TEST.SUBTEST STATUS        each of the program's results
#   COLLECTION.TEST STATUS [runner=OWN]   the test itself
# The test's STATUS is the worst of the runner's line, its subtests and
# its Totals line (fail, timeout, not-run, skip, pass: the first that any
# of them has); "runner=OWN" follows when the runner's line alone said
# something else (a program that exits 0 whatever its subtests say).
# Among the subtests, "# SKIP" and "# XFAIL" are skip, "not ok # error"
# fail; a result without a name is "#N", one that repeats an earlier name
# of the program is "NAME #N". A planned subtest that never printed its
# result is "#N", not-run (timeout if the boot hit its time limit there),
# unless the program ended and its Totals line counts every result of
# the plan: then it printed them its own way, and the Totals line is
# believed. Deeper output of the program (its "# " lines) is not read.
# Findings:
# fewer results than the plan announced, a result beyond the plan, a
# Totals line that disagrees with the results printed, a program that
# bailed out, a repeated name. A Totals line that counts a failure or an
# error fails the test even when no result said so.

function reset(l) {
	if (l == 0)
		nreset()
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

# nreset: no output of a kselftest program read yet
function nreset() {
	ninfo = 0
	nplan = -1
	nres = 0
	ntotals = ""
	ntotals_nr = 0
	nbail = 0
	split("", nname)
	split("", nstat)
	split("", nnum)
	split("", nseen)
	split("", ncount)
}

# results N: "1 result", "N results"
function results(n) {
	return n == 1 ? "1 result" : n " results"
}

# worse A B: the worse of two statuses ("" is none)
function worse(a, b) {
	return RANK[b] > RANK[a] ? b : a
}

# nested TEXT: a line of the running kselftest's own output, without the
# "# " the runner put before it
function nested(text, status, kind, n, directive, d) {
	sub(/[ \t]+$/, "", text)
	if (text ~ /^1\.\.[0-9]+/) {
		if (nplan < 0)
			nplan = substr(text, 4) + 0
		ninfo = 1
	} else if (text ~ /^(not )?ok [0-9]+( |$)/) {
		status = text ~ /^ok/ ? "pass" : "fail"
		kind = status
		sub(/^(not )?ok /, "", text)
		n = text + 0
		sub(/^[0-9]+ *(- )?/, "", text)
		directive = ""
		if (index(text, " # ")) {
			directive = substr(text, index(text, " # ") + 3)
			text = substr(text, 1, index(text, " # ") - 1)
		} else if (text ~ /^#( |$)/) {
			directive = substr(text, 3)
			text = ""
		}
		d = toupper(directive)
		if (d ~ /^SKIP/) {
			status = "skip"
			kind = "skip"
		} else if (d ~ /^XFAIL/) {
			status = "skip"
			kind = "xfail"
		} else if (d ~ /^XPASS/) {
			kind = "xpass"
		} else if (d ~ /^ERROR/) {
			status = "fail"
			kind = "error"
		} else if (d ~ /^TIMEOUT/) {
			status = "timeout"
		}
		subtest(n, text, status, kind)
	} else if (text ~ /^# Totals: /) {
		ntotals = substr(text, 3)
		ntotals_nr = NR
		ninfo = 1
	} else if (text ~ /^Bail out!/) {
		nbail = 1
		ninfo = 1
		print "# line " NR ": " running ": the program bailed out: \"" text "\""
	}
}

# subtest NUMBER NAME STATUS KIND: a result of the running kselftest;
# KIND is what the program's Totals line counts it as (empty: nothing)
function subtest(n, name, status, kind) {
	ninfo = 1
	if (name == "")
		name = "#" n
	if (name in nseen) {
		print "# line " NR ": " running ": result " n " repeats the name of result " nseen[name] ", \"" name "\": read as \"" name " #" n "\""
		name = name " #" n
	}
	nseen[name] = n
	nres++
	nname[nres] = name
	nstat[nres] = status
	nnum[n] = 1
	if (kind != "")
		ncount[kind]++
}

# totals TEST: check the program's Totals line against the results it
# printed, the finding in tnote, the results it counts in ntotal (-1:
# none); whether it counts a failure or an error
function totals(test, i, k, v, agree, counted, failed) {
	tnote = ""
	ntotal = -1
	if (ntotals == "")
		return 0
	agree = 1
	counted = ""
	ntotal = 0
	for (i = 1; i <= NKIND; i++) {
		k = KIND[i]
		if (!match(ntotals, " " k ":[0-9]+"))
			continue
		v = substr(ntotals, RSTART + length(k) + 2, RLENGTH - length(k) - 2) + 0
		ntotal += v
		if (v != ncount[k] + 0)
			agree = 0
		if ((k == "fail" || k == "error") && v > 0)
			failed = 1
		counted = counted (counted == "" ? "" : " ") k ":" (ncount[k] + 0)
	}
	if (!agree)
		tnote = "# line " ntotals_nr ": " test ": \"" ntotals "\" disagrees with the " results(nres) " printed (" counted ")"
	return failed
}

# ksft_flush TEST OWN CUT: print the subtests of the kselftest TEST, then
# TEST itself, and reset. OWN is the runner's status of TEST; empty when
# the log ended before the runner's line, and then CUT is TEST's status
# and that of its first planned subtest that never printed its result.
function ksft_flush(test, own, cut, worst, first, i, k, missing, beyond, failed, counted) {
	worst = own != "" ? own : cut
	first = own != "" ? "not-run" : cut
	failed = totals(test)
	missing = 0
	for (k = 1; k <= nplan; k++)
		if (!(k in nnum))
			missing++
	# a program that ended and counted in its Totals line every result
	# its plan announced, but printed some its own way (kcmp_test's
	# "PASS: ..."): the Totals line says how they went
	counted = own != "" && missing > 0 && ntotal == nplan
	for (i = 1; i <= nres; i++) {
		print test "." nname[i] " " nstat[i]
		worst = worse(worst, nstat[i])
	}
	for (k = 1; k <= nplan && !counted; k++) {
		if (k in nnum)
			continue
		print test ".#" k " " first
		worst = worse(worst, first)
		first = "not-run"
	}
	beyond = 0
	for (k in nnum)
		if (nplan >= 0 && k + 0 > nplan)
			beyond++
	if (failed || nbail)
		worst = worse(worst, "fail")
	print test " " worst (own != "" && own != worst ? " runner=" own : "")
	if (counted)
		print "# line " ntotals_nr ": " test ": printed " nplan - missing " of the " results(nplan) \
			" its plan announced; read from its \"" ntotals "\""
	else if (tnote != "")
		print tnote
	if (own != "" && missing > 0 && !counted)
		print "# line " NR ": " test ": printed " nplan - missing " of the " results(nplan) " its plan announced"
	if (beyond > 0)
		print "# line " NR ": " test ": " results(beyond) " beyond its plan 1.." nplan
	nreset()
}

# result L NUMBER NAME STATUS: a result at level L
function result(l, n, name, status) {
	last[l] = n
	if (l == 0) {
		name = ksft(name)
		running = ""
	}
	if (l == 0 && ninfo) {
		ksft_flush(name, status, "")
	} else if (l == 0) {
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
	# a kselftest running (with or without a plan around it) is named
	if (deepest >= 0 || running != "") {
		suite = subname[1] != "" ? subname[1] : "#" (last[0] + 1)
		if (deepest == 1 || nbuf[1] > 0) {
			flush(suite, "")
			last[0]++
		}
		i = last[0] + 1
		if (running != "") {
			ksft_flush(running, "", first)
			first = "not-run"
			i++
		}
		for (; i <= plan[0]; i++) {
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
	if (l == 0 && running != "" && text ~ /^# (not )?ok [0-9]+/) {
		sub(/^# (not )?ok /, "", text)
		subtest(text + 0, "", "not-run", "")
		return
	}
	if (text ~ /^(not )?ok [0-9]+/ && l <= 1) {
		sub(/^(not )?ok /, "", text)
		n = text + 0
		result(l, n, l == 0 && running != "" ? running : l == 0 && subname[1] != "" ? subname[1] : "#" n, "not-run")
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
	if (l == 0 && running != "" && body ~ /^# / && body !~ /^# selftests: [^ :]+: [^ ]+$/) {
		nested(substr(body, 3))
		return
	}
	if (body ~ /^# Subtest: /) {
		subname[l] = substr(body, 12)
	} else if (l == 0 && body ~ /^# selftests: [^ :]+: [^ ]+$/) {
		if (ninfo) {
			print "# line " NR ": " running " printed no result before the next test began"
			ksft_flush(running, "", "not-run")
		}
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
	RANK["pass"] = 1
	RANK["skip"] = 2
	RANK["not-run"] = 3
	RANK["timeout"] = 4
	RANK["fail"] = 5
	NKIND = split("pass fail xfail xpass skip error", KIND, " ")
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
