# SPDX-License-Identifier: GPL-2.0-only
#
# compiler-bugs-parse.awk - the tag grammar of Documentation/compiler-bugs.md.
#
# Usage: awk -v all_targets="x86_64 arm aarch64" -f compiler-bugs-parse.awk FILE
# Input: one case file. Output: tab-separated records (name, source,
# command, targets, measure, expect LINE FAMILY RANGES TARGETS KIND SPEC
# ARG), or only "error LINE MESSAGE" records when anything is wrong.

function err(line, msg) { errs[++nerr] = line "\t" msg }
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function once(key, line) {
	if (key in seen)
		err(line, "second 'check-" key "' (first at line " seen[key] ")")
	seen[key] = line
}
function outcome(spec, line, n,   kind, arg, rest) {
	kind = spec; sub(/[ \t].*/, "", kind)
	rest = trim(substr(spec, length(kind) + 1))
	if (kind !~ /^(accept|warn|reject|wrong-code|crash|layout|timeout)$/) {
		err(line, "unknown outcome '" kind "' (known: accept warn reject wrong-code crash layout timeout)")
		return
	}
	arg = rest
	if (kind == "warn" || kind == "reject") {
		if (rest != "" && (rest !~ /^\// || rest !~ /.\/$/ || length(rest) < 3)) {
			err(line, "a pattern is written /ERE/, not '" rest "'")
			return
		}
		if (rest != "")
			arg = substr(rest, 2, length(rest) - 2)
	} else if (kind == "wrong-code" || kind == "crash") {
		if (rest != "" && rest !~ /^[0-9]+$/) {
			err(line, "'" kind "' takes an exit status or signal number, not '" rest "'")
			return
		}
	} else if (kind == "layout") {
		if (rest == "" || rest ~ /[ \t]/) {
			err(line, "'layout' takes one value, e.g. 'layout 4'")
			return
		}
	} else if (rest != "") {
		err(line, "'" kind "' takes no argument")
		return
	}
	ekind[n] = kind; earg[n] = arg
}
function expect(val, line,   sel, spec, w, nw, i, n, fam, cons, tgts) {
	nexpect_tags++
	if (index(val, ":") == 0) {
		err(line, "expected 'check-expect: SELECTOR: OUTCOME'")
		return
	}
	sel = trim(substr(val, 1, index(val, ":") - 1))
	spec = trim(substr(val, index(val, ":") + 1))
	nw = split(sel, w, /[ \t]+/)
	if (nw == 0 || w[1] !~ /^(gcc|clang|\*)$/) {
		err(line, "a selector starts with a compiler family (gcc, clang or *), not '" w[1] "'")
		return
	}
	fam = w[1]; cons = ""; tgts = ""
	for (i = 2; i <= nw; i++) {
		if (w[i] ~ /^(<|<=|>|>=|=)[0-9]+(\.[0-9]+)*$/)
			cons = cons (cons == "" ? "" : " ") w[i]
		else if (index(" " all_targets " ", " " w[i] " "))
			tgts = tgts (tgts == "" ? "" : " ") w[i]
		else {
			err(line, "'" w[i] "' in a selector is neither a version range (<17, >=14.0.6) nor a target (" all_targets ")")
			return
		}
	}
	if (spec == "") {
		err(line, "no outcome after the selector")
		return
	}
	n = ++nexpect
	eline[n] = line; efam[n] = fam; econs[n] = cons; etgt[n] = tgts; espec[n] = spec
	outcome(spec, line, n)
}
function tag(text, line,   key, val) {
	if (text !~ /^check-[a-z-]+:/) {
		err(line, "expected 'check-KEY: VALUE'")
		# no second complaint that this tag is missing
		key = text; sub(/^check-/, "", key); sub(/[^a-z-].*/, "", key)
		value[key] = ""
		return
	}
	key = substr(text, 7, index(text, ":") - 7)
	val = trim(substr(text, index(text, ":") + 1))
	if (val == "") {
		err(line, "'check-" key "' has no value")
		return
	}
	if (key == "name" || key == "command" || key == "targets" || key == "measure")
		once(key, line)
	if (key == "name" || key == "command") {
		value[key] = val
	} else if (key == "source") {
		source[++nsource] = val
	} else if (key == "targets") {
		targets(val, line)
	} else if (key == "measure") {
		measure(val, line)
	} else if (key == "expect") {
		expect(val, line)
	} else {
		err(line, "unknown tag 'check-" key "' (known: name source command targets measure expect)")
	}
}
function targets(val, line,   w, n, i) {
	n = split(val, w, /[ \t]+/)
	for (i = 1; i <= n; i++)
		if (!index(" " all_targets " ", " " w[i] " ")) {
			err(line, "unknown target '" w[i] "' (known: " all_targets ")")
			return
		}
	value["targets"] = val
}
function measure(val, line,   w, n) {
	n = split(val, w, /[ \t]+/)
	if (val == "run" || val == "diagnostics")
		mkind = val
	else if (w[1] == "layout" && n == 4 && w[2] ~ /^(struct|union|enum|typedef)$/ &&
		 w[4] ~ /^(size|align|underlying|resolved)$/)
		mkind = "layout"
	else {
		err(line, "'check-measure' is diagnostics, run, or layout KIND NAME FIELD (KIND struct, union, enum or typedef; FIELD size, align, underlying or resolved)")
		return
	}
	value["measure"] = val
}
BEGIN { state = 0; mkind = "diagnostics" }
state == 0 && /^[ \t]*\/\*/ && !/\*\// {
	state = 1
	start = NR
	if ($0 ~ /check-[a-z-]+:/)
		err(NR, "tag on the line that opens the header")
	next
}
state == 1 && /\*\// {
	state = 2
	if (pending != "") {
		err(pline, "'check-" pkey "' continues past the end of the header")
		value[pkey] = ""
	}
	if ($0 ~ /check-[a-z-]+:/)
		err(NR, "tag on the line that closes the header")
	next
}
state == 1 {
	text = $0
	sub(/^[ \t]*\*?[ \t]?/, "", text)
	text = trim(text)
	if (pending != "") {
		text = pending " " text
		line = pline
		pending = ""
	} else {
		line = NR
		if (text !~ /^check-/)
			next
	}
	if (text ~ /\\$/) {
		pending = trim(substr(text, 1, length(text) - 1))
		pline = line
		pkey = text; sub(/:.*/, "", pkey); sub(/^check-/, "", pkey)
		next
	}
	tag(text, line)
	next
}
/check-[a-z-]+:/ {
	err(NR, state == 0 ? "tag before the header comment" : "tag after the header comment")
}
END {
	if (state == 0) {
		print "error\t1\tno header: a /* ... */ comment with check- tags"
		exit
	}
	if (state == 1)
		err(start, "header comment not closed")
	split("name command", req, " ")
	for (i = 1; i <= 2; i++)
		if (!(req[i] in value))
			err(start, "no 'check-" req[i] "' tag")
	if (!nsource)
		err(start, "no 'check-source' tag: say where the knowledge comes from")
	if (!nexpect_tags)
		err(start, "no 'check-expect' tag")
	allowed["diagnostics"] = "accept warn reject timeout"
	allowed["run"] = "accept reject wrong-code crash timeout"
	allowed["layout"] = "layout reject timeout"
	for (i = 1; i <= nexpect; i++)
		if ((i in ekind) && !index(" " allowed[mkind] " ", " " ekind[i] " "))
			err(eline[i], "outcome '" ekind[i] "' cannot come from 'check-measure: " mkind "' (it gives " allowed[mkind] ")")
	if (nerr) {
		for (i = 1; i <= nerr; i++)
			print "error\t" errs[i]
		exit
	}
	print "name\t" value["name"]
	for (i = 1; i <= nsource; i++)
		print "source\t" source[i]
	print "command\t" value["command"]
	print "targets\t" (("targets" in value) ? value["targets"] : all_targets)
	print "measure\t" (("measure" in value) ? value["measure"] : "diagnostics")
	for (i = 1; i <= nexpect; i++)
		printf "expect\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", eline[i], efam[i], econs[i], etgt[i], ekind[i], espec[i], earg[i]
}
