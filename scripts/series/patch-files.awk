# SPDX-License-Identifier: GPL-2.0-only
#
# patch-files.awk - the files a patch touches, one per line, in the order
# they first appear, named as 'patch -p1' (quilt's default) names them:
# the first path component stripped, whatever it is ('a/', 'b/',
# 'linux-source-6.1.orig/', 'linux-source-6.1/').
#
# Usage: awk -f patch-files.awk [-v only=created] PATCHFILE
#   only=created  just the files the patch creates
#
# File names come from the '--- '/'+++ ' pair before each file's hunks,
# and from git's 'diff --git', 'rename' and 'copy' lines for changes
# without hunks. Hunk bodies are counted from their '@@' lines, so a
# removed line starting with '-- ' is never taken for a header.
#
# Exit 1, with 'LINE: REASON' on stderr, when a name cannot be told: a
# hunk before any file name, a context diff, a quoted name, a name with no
# directory to strip, or a git change whose file is named nowhere.

function fail(why) {
	printf "%d: %s\n", FNR, why >"/dev/stderr"
	failed = 1
	exit 1
}

# strip1 NAME: NAME without its timestamp and first path component.
function strip1(name) {
	sub(/\t.*/, "", name)
	if (name == "/dev/null")
		return name
	if (name ~ /^"/)
		fail("a quoted file name, " name)
	sub(/^(\.\/)+/, "", name)
	if (index(name, "/") == 0)
		fail("'" name "' has no directory for 'patch -p1' to strip")
	sub(/^[^\/]*\/+/, "", name)
	return name
}

function emit(name, is_new) {
	if (name == "/dev/null" || name == "")
		return
	if (only == "created" && !is_new)
		return
	if (!(name in seen)) {
		seen[name] = 1
		print name
	}
}

# git_pending: a 'diff --git' whose file no later line named.
function git_done() {
	if (git_name == "?")
		fail("a git change whose file name cannot be told")
	if (git_name != "")
		emit(git_name, git_new)
	git_name = ""
	git_new = 0
}

# hunk counts from '@@ -A[,B] +C[,D] @@'
function count(spec) {
	return (spec ~ /,/) ? substr(spec, index(spec, ",") + 1) + 0 : 1
}

in_hunk {
	c = substr($0, 1, 1)
	if (c == " " || $0 == "") { old--; new-- }
	else if (c == "-") old--
	else if (c == "+") new--
	else if (c != "\\") fail("a hunk ends early")
	if (old <= 0 && new <= 0)
		in_hunk = 0
	next
}

/^diff --git / {
	git_done()
	s = substr($0, 12)
	half = (length(s) - 1) / 2
	if (half == int(half) && substr(s, 1, half) ~ /^a\// &&
	    substr(s, half + 2) == "b/" substr(s, 3, half - 2))
		git_name = substr(s, 3, half - 2)
	else
		git_name = "?"
	next
}

/^new file mode / { git_new = 1; next }
/^(rename|copy) (from|to) / {
	name = $0
	sub(/^(rename|copy) (from|to) /, "", name)
	emit(name, 0)
	if (git_name == "?")
		git_name = ""
	next
}

$0 == "***************" { fail("a context diff (only unified diffs are read)") }

/^--- / { minus = $0; prev = $0; next }

/^\+\+\+ / && prev ~ /^--- / {
	from = strip1(substr(minus, 5))
	to = strip1(substr($0, 5))
	if (to == "/dev/null")
		emit(from, 0)
	else
		emit(to, from == "/dev/null")
	git_name = ""
	git_new = 0
	have_file = 1
	prev = $0
	next
}

/^@@ -[0-9]+(,[0-9]+)? \+[0-9]+(,[0-9]+)? @@/ {
	if (!have_file)
		fail("a hunk before any file name")
	old = count($2)
	new = count($3)
	in_hunk = (old > 0 || new > 0)
	prev = $0
	next
}

{ prev = $0 }

END {
	if (!failed)
		git_done()
}
