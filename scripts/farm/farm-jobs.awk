# SPDX-License-Identifier: GPL-2.0-only
#
# farm-jobs.awk - where the compile jobs of a farm build ran, read from the
# client's own log: distcc's (DISTCC_LOG) or icecc's (ICECC_LOGFILE with
# ICECC_DEBUG=debug), as scripts/lib/farm.sh (dist_log) sets them.
#
# Usage: awk -f farm-jobs.awk LOG...
#
# Prints "HOST JOBS" for each host that ran a job, sorted by host, then
# "local JOBS", the jobs compiled on the client itself.
#
# A job is the compile of one C file that the engine could send to a host;
# Kbuild's and Kconfig's flag probes (-x c /dev/null, -E) are none, nor is
# assembler (.S), which neither engine sends.
#   distcc  a process that logged "compile from SRC to OBJ" (it found one
#           input and one output). It ran where its last "compile SRC on
#           HOST ..." line says (completed or failed), HOST without its
#           /slots and ,options; "localhost" (a fallback after the host
#           failed, or localhost in DISTCC_HOSTS) is local.
#   icecc   a process "invoked as:" with -c or -S and a C file (.c, or .i
#           from scripts/farm-cc.sh). It ran on the host of its "Have to
#           use host HOST - Job ID" line, or locally when it logged
#           "invoking:" (icecc's local build: no scheduler or environment
#           for the compiler, the local host chosen, or a fallback after
#           a remote error).
# A compile that fails on a host is compiled again locally by either
# engine, and counts as local: the kernel's lib/test_fortify compiles,
# which fail by design, are local jobs of every x86_64 cell.
# The lines of one process carry its pid; a pid that appears again after
# its process ended starts a new job. A job that logged no place (its
# process was killed) is not counted.

function flush(p) {
	if (p in job && place[p] != "")
		n[place[p]]++
	delete job[p]
	delete place[p]
}

function pid_of(s) {
	sub(/^[^[]*\[/, "", s)
	sub(/\].*/, "", s)
	return s
}

# distcc's name of a host, as DISTCC_HOSTS gives it: "127.0.0.2:3632/2,lzo"
function host_of(h) {
	sub(/\/.*/, "", h)
	sub(/,.*/, "", h)
	return h == "localhost" ? "local" : h
}

# an icecc command line that compiles a C file
function compiles(i, c, src) {
	for (i = 6; i <= NF; i++) {
		if ($i == "-c" || $i == "-S")
			c = 1
		else if ($i ~ /^[^-].*\.[ci]$/)
			src = 1
	}
	return c && src
}

/^distcc\[[0-9]+\] compile from / {
	p = pid_of($1)
	flush(p)
	job[p] = 1
	place[p] = ""
	next
}
# "compile SRC on HOST completed ok", "... failed with exit code N", and
# distcc's error "ERROR: compile SRC on HOST failed"
/^distcc\[[0-9]+\] (ERROR: )?compile .* on / {
	p = pid_of($1)
	k = $2 == "ERROR:" ? 3 : 2
	if (p in job && $k == "compile" && $(k + 2) == "on")
		place[p] = host_of($(k + 3))
	next
}
/^distcc\[[0-9]+\] (elapsed compilation time|\(dcc_exit\) )/ {
	flush(pid_of($1))
	next
}

/^ICECC\[[0-9]+\] [^ ]+ [^ ]+ invoked as: / {
	p = pid_of($1)
	flush(p)
	if (compiles()) {
		job[p] = 1
		place[p] = ""
	}
	next
}
/^ICECC\[[0-9]+\] [^ ]+ [^ ]+ Have to use host / {
	p = pid_of($1)
	if (p in job)
		place[p] = $8
	next
}
/^ICECC\[[0-9]+\] [^ ]+ [^ ]+ invoking: / {
	p = pid_of($1)
	if (p in job)
		place[p] = "local"
	next
}

END {
	# flush deletes: take the pids first
	k = 0
	for (p in job)
		left[++k] = p
	for (i = 1; i <= k; i++)
		flush(left[i])
	k = 0
	for (h in n)
		if (h != "")
			host[++k] = h
	# insertion sort: POSIX awk has none of its own
	for (i = 2; i <= k; i++) {
		h = host[i]
		for (j = i - 1; j > 0 && host[j] > h; j--)
			host[j + 1] = host[j]
		host[j + 1] = h
	}
	for (i = 1; i <= k; i++)
		if (host[i] != "local")
			print host[i], n[host[i]]
	print "local", n["local"] + 0
}
