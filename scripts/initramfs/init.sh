#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# init.sh - the /init of a kparity test boot, run by toybox's sh.
#
# The console lines it prints are what scripts/boot-verdict.sh reads; keep
# the two in step. The boot's token comes from kparity.token= on the kernel
# command line and is echoed with the marker and the verdict, so a console
# log can only pass with the lines of the boot that produced it.
#
# /bin/check is a "#!/bin/sh" script: running it checks fork, execve
# through binfmt_script and binfmt_elf, and wait. It exits 42.
#
# Written for toybox 0.8.9's sh (toys/pending), whose gaps it avoids:
# no 'read', no 'shift' or "$@" in functions, no function called by a
# name that comes from an expansion, and no 'case' (on 32-bit ARM its
# patterns miss: 'kparity.token=abc' does not match 'kparity*').
#
# With kparity.tests=kselftest (or all) and kparity.disk=DEVICE on the
# command line, the kselftest disk (scripts/kselftest.sh) is mounted
# read-only on /mnt and the programs its kparity-tests.sh names are run,
# each under its own time limit, printing TAP as kselftest's runner does
# (scripts/ktap.sh reads it). kparity.lkdtm=TEST runs one LKDTM test
# first (below).

PATH=/bin
export PATH
failures=0
token=none
tests=none
disk=none
lkdtm=none

# say WHAT TEXT: one console line with the prefix the verdict looks for
say() {
	echo "kparity-init: $1 $2"
}

ok() {
	say ok "$1"
}

failed() {
	say FAILED "$1"
	failures=$((failures + 1))
}

# ksft_plan N: the start of the kselftest TAP document
ksft_plan() {
	echo "TAP version 13"
	echo "1..$1"
}

# ksft NUMBER COLLECTION NAME SECONDS PROGRAM: run one kselftest from /
# (where a test may write), its output prefixed '# ', and print its
# result: exit 0 ok, 4 (KSFT_SKIP) skip, killed by timeout (124, or 137
# after -k) timeout, anything else not ok.
ksft() {
	echo "# selftests: $2: $3"
	timeout -k 2 "$4" "$5" >/ksft.out 2>&1
	ksft_rc=$?
	sed 's/^/# /' /ksft.out
	# Separate ifs: an elif chain in a function runs its else branch too
	# in this sh.
	ksft_res="not ok"
	ksft_why=" # exit=$ksft_rc"
	if [ "$ksft_rc" -eq 0 ]; then
		ksft_res=ok
		ksft_why=""
	fi
	if [ "$ksft_rc" -eq 4 ]; then
		ksft_res=ok
		ksft_why=" # SKIP"
	fi
	if [ "$ksft_rc" -eq 124 ] || [ "$ksft_rc" -eq 137 ]; then
		ksft_why=" # TIMEOUT $4 seconds"
	fi
	echo "$ksft_res $1 selftests: $2: $3$ksft_why"
}

if mount -t proc proc /proc; then
	ok "mount /proc"
else
	failed "mount /proc"
fi

# shellcheck disable=SC2013 # words are wanted, and this sh has no 'read'
for word in $(cat /proc/cmdline); do
	value=${word#kparity.token=}
	[ "$value" = "$word" ] || token=$value
	value=${word#kparity.tests=}
	[ "$value" = "$word" ] || tests=$value
	value=${word#kparity.disk=}
	[ "$value" = "$word" ] || disk=$value
	value=${word#kparity.lkdtm=}
	[ "$value" = "$word" ] || lkdtm=$value
done
say marker "$token"

version=$(cat /proc/version)
say version "${version:-unreadable}"

if mount -t sysfs sysfs /sys && [ -n "$(cat /sys/kernel/uevent_seqnum)" ]; then
	ok "mount /sys"
else
	failed "mount /sys"
fi

if [ -n "$(cat /proc/cpuinfo)" ]; then
	ok "read /proc/cpuinfo"
else
	failed "read /proc/cpuinfo"
fi

/bin/check
status=$?
if [ "$status" -eq 42 ]; then
	ok "run /bin/check"
else
	failed "run /bin/check"
fi

# With kparity.lkdtm=TEST (the proof of a configuration fragment,
# kconfig/fragments/), LKDTM runs TEST through its debugfs trigger, in a
# child process: a test that traps kills the child with an oops, whose
# report on the console is the proof the fragment names, and the boot
# goes on to its tests.
if [ "$lkdtm" != none ]; then
	mount -t debugfs debugfs /sys/kernel/debug
	say lkdtm "$lkdtm"
	sh -c "echo $lkdtm >/sys/kernel/debug/provoke-crash/DIRECT"
	say lkdtm "$lkdtm exit $?"
fi

if [ "$tests" = kselftest ] || [ "$tests" = all ]; then
	# An SD card is found after /init starts: wait for it, up to 10 s.
	# A 'for' over 50 words, as this sh's 'while' with a compound
	# condition never ends.
	mount -t devtmpfs devtmpfs /dev
	# shellcheck disable=SC2034 # only the count matters
	for try in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 \
		26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50; do
		[ -b "$disk" ] || sleep 0.2
	done
	if [ -b "$disk" ] && mount -t ext2 -o ro "$disk" /mnt &&
		[ -f /mnt/kparity-tests.sh ]; then
		ok "mount kselftest disk $disk"
		# shellcheck disable=SC1091 # written by scripts/kselftest.sh
		. /mnt/kparity-tests.sh
	else
		failed "mount kselftest disk $disk"
	fi
fi

if [ "$failures" -eq 0 ]; then
	say PASS "$token"
else
	say FAIL "$token"
fi
# Restart rather than power off: x86 tinyconfig has no ACPI, and under
# -no-reboot QEMU ends on a restart on every target.
reboot -f
say error "reboot failed"
