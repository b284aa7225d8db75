# SPDX-License-Identifier: GPL-2.0-only
# Booting a cell in a test: its kernel (built or given), its initramfs,
# and the checks of a passing boot. Loaded after common.bash by the boot
# suites; BUILD is the build directory.

# kernel TARGET COMPILER: print a directory holding links to the built
# kernel image (and device tree) of the cell, for kernel-boot.sh
kernel() {
	local t=$1 c=$2 src dir f files

	if [ -n "${KPARITY_KERNELS:-}" ]; then
		src=$KPARITY_KERNELS/$t-$c
	else
		echo "# building $t/$c (cached after the first run)" >&3
		nice -n 10 "$TOP/scripts/kernel-build.sh" -o "$BUILD" -t "$t" -c "$c" -j 2 >/dev/null
		src=$BUILD/kernel/$t-$c
	fi
	files=$(PROG=boot.bats TOPDIR=$TOP sh -c '. "$TOPDIR/scripts/lib/common.sh" &&
		. "$TOPDIR/scripts/lib/target.sh" && load_target "$1" && echo "$t_image $t_dtb"' sh "$t")
	dir=$BATS_TEST_TMPDIR/kernel-$t-$c
	for f in $files; do
		mkdir -p "$dir/$(dirname "$f")"
		ln -s "$src/$f" "$dir/$f"
	done
	echo "$dir"
}

# token_of CMDFILE: the boot's token in kernel-boot.sh's boot.cmd
token_of() {
	sed -n "s/.* kparity\.token=\([^ ']*\).*/\1/p" "$1"
}

# init_lines LOG: the init's console lines, carriage returns dropped
init_lines() {
	sed -n 's/\r$//; /^kparity-init: /p' "$1"
}

# shellcheck disable=SC2154 # bats' run sets output and lines
# passed TARGET COMPILER: boot the cell with its own initramfs and check
# every line of the init and KUnit's results
passed() {
	local k initrd token
	k=$(kernel "$1" "$2")
	initrd=$("$TOP/scripts/initramfs.sh" -o "$BUILD" -t "$1" -c "$2" 2>/dev/null)
	run -0 --separate-stderr "$TOP/scripts/kernel-boot.sh" -t "$1" -k "$k" -i "$initrd" -T 60
	assert_output pass
	token=$(token_of "$k/boot.cmd")
	run -0 init_lines "$k/boot.log"
	assert_equal "${#lines[@]}" 8
	assert_line --index 0 "kparity-init: ok mount /proc"
	assert_line --index 1 "kparity-init: marker $token"
	assert_line --index 2 --regexp "^kparity-init: version Linux version 6\.1\.[0-9]+ "
	assert_line --index 3 "kparity-init: ok mount /sys"
	assert_line --index 4 "kparity-init: ok read /proc/cpuinfo"
	assert_line --index 5 "kparity-init: command /bin/check"
	assert_line --index 6 "kparity-init: ok run /bin/check"
	assert_line --index 7 "kparity-init: PASS $token"
	# KUnit ran before /init and its KTAP reads as it did before
	run -0 "$TOP/scripts/ktap.sh" "$k/boot.log"
	assert_equal "$(printf '%s\n' "${lines[@]}" | grep -c ' pass$')" 90
	assert_equal "$(printf '%s\n' "${lines[@]}" | grep -c ' skip$')" 5
	assert_equal "${#lines[@]}" 95
}
