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

PATH=/bin
export PATH
failures=0
token=none

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

if mount -t proc proc /proc; then
	ok "mount /proc"
else
	failed "mount /proc"
fi

# shellcheck disable=SC2013 # words are wanted, and this sh has no 'read'
for word in $(cat /proc/cmdline); do
	value=${word#kparity.token=}
	[ "$value" = "$word" ] || token=$value
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

if [ "$failures" -eq 0 ]; then
	say PASS "$token"
else
	say FAIL "$token"
fi
# Restart rather than power off: x86 tinyconfig has no ACPI, and under
# -no-reboot QEMU ends on a restart on every target.
reboot -f
say error "reboot failed"
