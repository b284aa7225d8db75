#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-boot.sh - boot a built kernel with the test initramfs in QEMU and
# judge the boot.
#
# QEMU runs under timeout, with -no-reboot and panic=-1 so that both the
# guest's restart and a panic end it, no display, and the serial console in
# KERNELDIR/boot.log. The command line is kept in KERNELDIR/boot.cmd and
# boot-verdict.sh's verdict in KERNELDIR/boot.verdict (with -l, these go
# into another directory, so that one kernel can boot with another's
# disk and keep its own console). Each boot gets a
# fresh token, so an old log can never pass for a new boot. With -d, the
# kselftest disk (scripts/kselftest.sh) is attached as the target's DISK
# says, and the command line asks /init to run its tests. A fragment of
# KCONFIG_ADD may add to the command line and name the console line that
# proves it is on (kconfig/fragments/, kparity-append and kparity-proof):
# a boot without that line fails, and the lines found are kept in
# KERNELDIR/boot.proof.
#
# Exit: 0 the guest passed, 1 it did not (reason on stdout), 2 trouble.

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=kernel-boot.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"

usage() {
	cat <<USAGE
usage: $PROG -t TARGET -k KERNELDIR -i INITRAMFS [-d DISK] [-l LOGDIR] [-T SECONDS]
Boot the kernel built in KERNELDIR for TARGET with INITRAMFS and print the
verdict: 'pass' or 'fail: REASON'.
  -d DISK     attach the kselftest image DISK (read-only) and run its tests
  -l LOGDIR   write boot.log, boot.cmd, boot.verdict and boot.qemu into
              LOGDIR, not into KERNELDIR
  -T SECONDS  time limit for the whole boot (default: 120)
V=1 shows the QEMU command.
USAGE
}

# quote ARG...: the arguments as one shell-quoted line.
quote() {
	local arg sep=""

	for arg in "$@"; do
		case "$arg" in
		*[!A-Za-z0-9_.,:/=+@%-]* | '')
			printf "%s'%s'" "$sep" "$(printf '%s' "$arg" | sed "s/'/'\\\\''/g")"
			;;
		*)
			printf '%s%s' "$sep" "$arg"
			;;
		esac
		sep=" "
	done
	printf '\n'
}

# proofs LOGDIR PROOFS: the console line of each proof of the cell's configuration
# (PROOFS, KERNELDIR/kparity.proof: LABEL TAB TEXT a line, which kernel-build.sh
# wrote from the fragments) into LOGDIR/boot.proof, 'LABEL: LINE' each,
# and print the verdict: pass, or fail naming the first proof the console
# lacks (a fragment asked for a feature that the running kernel does not
# show)
proofs() {
	local frag text line

	: >"$1/boot.proof"
	while IFS='	' read -r frag text; do
		[ -n "$frag" ] || continue
		line=$(tr -d '\r' <"$1/boot.log" | grep -F -m 1 -- "$text") || {
			echo "fail: no proof of $frag on the console (no line with '$text')"
			return 1
		}
		printf '%s: %s\n' "$frag" "$(printf '%s\n' "$line" | sed 's/^\[ *[0-9.]*\] //')" >>"$1/boot.proof"
	done <"$2"
	echo pass
}

main() {
	local target="" kdir="" initrd="" disk="" logdir="" limit=120 opt token name start rc rc2 took verdict dtb

	while getopts d:hi:k:l:t:T: opt; do
		case "$opt" in
		d) disk="$OPTARG" ;;
		l) logdir="$OPTARG" ;;
		i) initrd="$OPTARG" ;;
		k) kdir="$OPTARG" ;;
		t) target="$OPTARG" ;;
		T) limit="$OPTARG" ;;
		h) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ $# -ne 0 ] || [ -z "$target" ] || [ -z "$kdir" ] || [ -z "$initrd" ]; then
		usage >&2
		exit 2
	fi
	is_positive "$limit" || die "-T needs a positive number of seconds, not '$limit'"
	load_target "$target"
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" "$t_qemu" timeout || exit 2
	[ -f "$kdir/$t_image" ] || die "no kernel image '$kdir/$t_image' (build it first)"
	dtb=$(cell_dtb "$kdir") || die "no device tree '$kdir/$t_dtb' (build it first)"
	[ -f "$initrd" ] || die "no initramfs '$initrd'"
	if [ -n "$disk" ]; then
		[ -f "$disk" ] || die "no kselftest disk image '$disk' (scripts/kselftest.sh makes it)"
		if [ -z "$t_disk" ] || [ -z "$t_disk_dev" ]; then
			die "target '$target' sets no DISK and DISK_DEV: it cannot attach '$disk'"
		fi
		case "$disk" in
		*,*) die "'$disk': QEMU's -drive cannot take a file name with a comma" ;;
		esac
	fi
	[ -n "$logdir" ] || logdir=$kdir
	mkdir -p "$logdir" || die "cannot create '$logdir'"

	name="$target/$(basename "$kdir" | sed "s/^$target-//")"
	# another kernel's disk, as kernel-swap.sh boots it: say whose
	if [ "$logdir" != "$kdir" ] && [ -n "$disk" ]; then
		name="$name with the kselftests of $(basename "$(dirname "$disk")")"
	fi
	token="$(date +%s)-$$"
	set -- "$t_qemu" -M "$t_qemu_machine"
	[ -z "$t_qemu_cpu" ] || set -- "$@" -cpu "$t_qemu_cpu"
	set -- "$@" -m "${t_qemu_memory:-256M}" -nodefaults -display none -no-reboot \
		-serial "file:$logdir/boot.log" -kernel "$kdir/$t_image"
	[ -z "$dtb" ] || set -- "$@" -dtb "$dtb"
	set -- "$@" -initrd "$initrd"
	if [ -z "$disk" ]; then
		set -- "$@" -append "console=$t_console panic=-1 kparity.token=$token${t_append:+ $t_append}"
	else
		# QEMU's SD card model cannot be read-only; /init mounts it so.
		if [ "$t_disk" = sd ]; then
			set -- "$@" -drive "if=sd,format=raw,file=$disk"
		else
			set -- "$@" -drive "if=none,id=kdisk,format=raw,readonly=on,file=$disk" \
				-device "$t_disk,drive=kdisk"
		fi
		set -- "$@" -append "console=$t_console panic=-1 kparity.token=$token \
kparity.tests=kselftest kparity.disk=$t_disk_dev${t_append:+ $t_append}"
	fi
	# --foreground keeps QEMU in the caller's process group, so a Ctrl-C
	# that interrupts a run stops the guest too, not only the run.
	set -- timeout --foreground -k 5 "$limit" "$@"
	quote "$@" >"$logdir/boot.cmd"
	[ "${V:-0}" != 1 ] || cat "$logdir/boot.cmd" >&2

	: >"$logdir/boot.log"
	rm -f "$logdir/boot.proof"
	# Boards with a sound device would otherwise try the host's audio.
	QEMU_AUDIO_DRV=none
	export QEMU_AUDIO_DRV
	start=$(date +%s)
	rc=0
	"$@" </dev/null >"$logdir/boot.qemu" 2>&1 || rc=$?
	took=$(fmt_time $(($(date +%s) - start)))

	rc2=0
	verdict=$("$TOPDIR/scripts/boot-verdict.sh" "$logdir/boot.log" "$rc" "$token") || rc2=$?
	[ "$rc2" -ne 2 ] || exit 2
	[ "$rc2" -ne 0 ] || [ ! -s "$kdir/kparity.proof" ] ||
		verdict=$(proofs "$logdir" "$kdir/kparity.proof") || rc2=1
	printf '%s\n' "$verdict" >"$logdir/boot.verdict"
	printf '%s\n' "$verdict"
	if [ "$rc2" -eq 0 ]; then
		step BOOT "$name  PASS $took"
		exit 0
	fi
	step BOOT "$name  FAIL $took"
	printf '%s: %s %s; last lines of %s:\n' "$PROG" "$name" "$verdict" "$logdir/boot.log" >&2
	tail -n 10 "$logdir/boot.log" >&2
	[ ! -s "$logdir/boot.qemu" ] || cat "$logdir/boot.qemu" >&2
	exit 1
}

main "$@"
