# SPDX-License-Identifier: GPL-2.0-only
#
# flag-step.awk - one round of kbuild/flag-translate.sh: which of the flags
# under test did the compiler's diagnostics name, and what to try next.
#
# Usage: awk -f flag-step.awk -v final=0|1 [-v try=0] GCCFLAGS DIAGNOSTICS STATE
#   GCCFLAGS     kbuild/gcc-flags (FLAG TRY CLASS WHY...)
#   DIAGNOSTICS  what the compiler printed for the flags under test
#   STATE        one line per flag under test: ORIG TAB CANDIDATE, where
#                CANDIDATE is ORIG itself or one word of its translation
# try=0 tries no translation: a flag named is given up at once.
# Prints the next STATE, then "@decision ORIG TAB drop TAB - TAB CLASS TAB
# WHY" for each flag given up; with final=1 also "@decision" lines for the
# flags kept (keep) or translated (translate, the words joined by commas).
# Exit status 0 always; the caller stops when no flag was named.

function glob2re(g,    r) {
	r = g
	gsub(/[][\\.^$+?(){}|]/, "\\\\&", r)
	gsub(/\*/, ".*", r)
	return "^" r "$"
}

# named(flag): the diagnostic line naming flag, or ""
function named(flag,    i, d, q) {
	for (i = 1; i <= ndiag; i++) {
		d = diag[i]
		if (index(d, "'" flag "'") || index(" " d " ", " " flag " "))
			return d
		# "unsupported argument 'X' to option 'Wa,'" (Clang 14), "... '-Wa,'" (Clang 19)
		if (match(flag, /^-W[apl],/) && (index(d, "'" substr(flag, 5) "' to option '" substr(flag, 2, 3) "'") ||
			index(d, "'" substr(flag, 5) "' to option '" substr(flag, 1, 4) "'")))
			return d
	}
	return ""
}

function lookup(flag,    i) {
	for (i = 1; i <= nrule; i++)
		if (flag ~ rule_re[i])
			return i
	return 0
}

function strip(d) {
	sub(/^[^ :]*: (error|warning): /, "", d)
	sub(/^(error|warning): /, "", d)
	return d
}

# add(orig, cand): cand stays under test for orig; the candidates are
# joined by SUBSEP, not by commas, which a flag may hold itself
# (-fpatchable-function-entry=16,16)
function add(orig, cand) {
	order[++n] = orig
	if (nkeep[orig]++)
		keep[orig] = keep[orig] SUBSEP cand
	else
		keep[orig] = cand
}

function decide(orig, kind, new, class, why) {
	printf "@decision %s\t%s\t%s\t%s\t%s\n", orig, kind, new, class, why
	gone[orig] = 1
}

FILENAME == ARGV[1] {
	if ($0 ~ /^[ \t]*(#|$)/)
		next
	nrule++
	rule_re[nrule] = glob2re($1)
	rule_try[nrule] = $2
	rule_class[nrule] = $3
	w = $0
	sub(/^[ \t]*[^ \t]+[ \t]+[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", w)
	rule_why[nrule] = w
	next
}
FILENAME == ARGV[2] {
	diag[++ndiag] = $0
	next
}
{
	split($0, f, "\t")
	orig = f[1]; cand = f[2]
	if (orig in gone)
		next
	d = named(cand)
	r = lookup(orig)
	if (d == "") {
		add(orig, cand)
		next
	}
	if (cand == orig && r && rule_try[r] != "-" && try != "0") {
		nt = split(rule_try[r], t, ",")
		for (i = 1; i <= nt; i++)
			add(orig, t[i])
		next
	}
	if (r)
		why = rule_why[r] (cand == orig ? "" : " (" cand " rejected too)")
	else
		why = strip(d)
	decide(orig, "drop", "-", r ? rule_class[r] : "unknown", why)
}
END {
	for (i = 1; i <= n; i++) {
		orig = order[i]
		if ((orig in gone) || (orig in done))
			continue
		done[orig] = 1
		nk = split(keep[orig], k, SUBSEP)
		for (j = 1; j <= nk; j++)
			printf "%s\t%s\n", orig, k[j]
		if (!final)
			continue
		if (keep[orig] == orig) {
			decide(orig, "keep", "-", "-", "-")
			continue
		}
		r = lookup(orig)
		new = keep[orig]
		gsub(SUBSEP, ",", new)
		decide(orig, "translate", new, rule_class[r], rule_why[r])
	}
}
