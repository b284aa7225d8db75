# SPDX-License-Identifier: GPL-2.0-only
#
# tcrypt.awk - the numbers of tcrypt's speed tests (tcrypt.sec= mode) in
# the console of one boot, a line "BENCHMARK VALUE" per block size, VALUE
# in bytes per second:
#   hash    DRIVER/BLOCK/UPDATE  (sha256-generic/4096/256: 4096-byte
#           blocks hashed 256 bytes per update), from "test N (B byte
#           blocks, U bytes per update, K updates): O opers/sec, V bytes/sec"
#   cipher  DRIVER-enc|dec/KEYBITS/BLOCK (chacha20-generic-enc/256/1024),
#           from "test N (K bit key, B byte blocks): O operations in S
#           seconds (V bytes)"
# The result of a test may follow it on the same line or on the next.
#
# Usage: awk -v token=TOKEN -f tcrypt.awk CONSOLE
# The boot is judged first: its command line must carry
# kparity.token=TOKEN (so that an old console never passes), the kernel
# must have gone past the initcalls (the panic on the missing root ends
# every boot), tcrypt must not report a failure, and every test must have
# a result. Otherwise one line on stderr says why, with exit status 1 and
# nothing on stdout.

function fail(why) {
	printf "%s\n", why > "/dev/stderr"
	failed = 1
	exit 1
}

# the text of a console line after the kernel's prefix ("tcrypt: ", a
# printk time)
function body(s) {
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", s)
	sub(/^tcrypt: /, "", s)
	return s
}

# result(S): the bytes per second in S, a test's result, or -1
function result(s,    f) {
	if (match(s, /[0-9]+ opers\/sec, +[0-9]+ bytes\/sec/)) {
		split(substr(s, RSTART, RLENGTH), f, /[ ,]+/)
		return f[3]
	}
	if (match(s, /[0-9]+ operations in [0-9]+ seconds \([0-9]+ bytes\)/)) {
		split(substr(s, RSTART, RLENGTH), f, /[ ()]+/)
		return f[6] / f[4]
	}
	return -1
}

function record(v) {
	if (v < 0)
		return 0
	n++
	out = out sprintf("%s %d\n", pending, v)
	pending = ""
	return 1
}

index($0, "Kernel command line:") && index($0, " kparity.token=" token) {
	# the token must end there: 1-2 is not 1-23's
	s = $0 " "
	if (index(s, " kparity.token=" token " "))
		seen_token = 1
}

/Kernel panic - not syncing/ {
	ended = 1
}

/tcrypt: one or more tests failed/ {
	fail("tcrypt: one or more tests failed")
}

/failed to load transform for / {
	s = body($0)
	sub(/^.*failed to load transform for /, "", s)
	fail("tcrypt cannot load " s)
}

{
	s = body($0)
}

s ~ /^testing speed of / {
	if (pending != "")
		fail("tcrypt's " pending " has no result")
	# testing speed of [async |sync ]ALG (DRIVER)[ encryption|decryption]
	if (!match(s, /\([^()]+\)/))
		fail("no driver in '" s "'")
	driver = substr(s, RSTART + 1, RLENGTH - 2)
	dir = s ~ /encryption$/ ? "-enc" : s ~ /decryption$/ ? "-dec" : ""
	driver = driver dir
	next
}

s ~ /^test *[0-9]+ \(/ {
	if (pending != "")
		fail("tcrypt's " pending " has no result")
	if (driver == "")
		fail("a tcrypt test before 'testing speed of': '" s "'")
	t = s
	sub(/^test *[0-9]+ \( */, "", t)
	sub(/\).*$/, "", t)
	if (t ~ /^[0-9]+ byte blocks, *[0-9]+ bytes per update/) {
		split(t, f, /[ ,]+/)
		pending = driver "/" f[1] "/" f[4]
	} else if (t ~ /^[0-9]+ bit key, *[0-9]+ byte blocks$/) {
		split(t, f, /[ ,]+/)
		pending = driver "/" f[1] "/" f[4]
	} else {
		fail("not a tcrypt speed test: '" s "'")
	}
	record(result(s))
	next
}

# another message may come between a test and its result
pending != "" {
	record(result(s))
}

END {
	if (failed)
		exit 1
	if (!seen_token)
		fail("the console is not this boot's (no kparity.token=" token " on its command line)")
	if (pending != "")
		fail("tcrypt's " pending " has no result")
	if (!ended)
		fail("the kernel did not get past its initcalls (no panic on the missing root)")
	if (n == 0)
		fail("no tcrypt speed result")
	printf "%s", out
}
