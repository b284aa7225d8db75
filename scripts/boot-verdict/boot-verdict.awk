# SPDX-License-Identifier: GPL-2.0-only
#
# boot-verdict.awk - the verdict on one boot from its console log.
#
# Usage: awk -v status=QEMU-EXIT-STATUS -v token=TOKEN -f boot-verdict.awk LOG
# Prints 'pass' and exits 0, or 'fail: REASON' and exits 1; see
# scripts/boot-verdict.sh for the rules.

{ sub(/\r+$/, "") }
!panic && /Kernel panic - not syncing/ {
	panic = $0
	sub(/.*Kernel panic - not syncing: */, "", panic)
	if (panic == "")
		panic = "(no message)"
}
$0 == "kparity-init: marker " token { marker = 1 }
marker && /^kparity-init: FAILED / {
	failed = failed (failed == "" ? "" : ", ") substr($0, 22)
}
marker && $0 == "kparity-init: PASS " token { pass = 1 }
END {
	if (panic != "")
		print "fail: kernel panic: " panic
	else if (status == 124 || status == 137)
		print "fail: hang: no verdict from the guest before the time limit"
	else if (status != 0)
		print "fail: qemu exited " status
	else if (!marker)
		print "fail: no marker: init never printed \"kparity-init: marker " token "\""
	else if (failed != "")
		print "fail: smoke check failed: " failed
	else if (!pass)
		print "fail: no PASS: init printed its marker but not \"kparity-init: PASS " token "\""
	else {
		print "pass"
		exit 0
	}
	exit 1
}
