#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# reproduce.sh: what it checks before it rebuilds a report's cell, and
# the environment it rebuilds with. The report is the recorded one of
# tests/fixtures/report/ with a /proc/version given to its GCC cell; the
# tree is a stand-in with the kernel's version (a real rebuild is in
# Documentation/history.md).

load common

setup() {
	need_tool jq
	need_tool sqlite3
	T=$BATS_TEST_TMPDIR
	export KPARITY_HISTORY_DB=$T/results.db
	mkdir -p "$T/build/report" "$T/tree/scripts"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\nEXTRAVERSION =\n' >"$T/tree/Makefile"
	touch "$T/tree/Kconfig" "$T/tree/scripts/Makefile.compiler"
	export KSRC=$T/tree
	jq '.matrix[0].cells[0].boot.proc_version = "Linux version 6.1.192 (builder@ci-7) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #3 SMP PREEMPT_DYNAMIC Sun Dec  6 05:13:51 UTC 2026"' \
		"$TOP/tests/fixtures/report/report.json" >"$T/build/report/report.json"
	R=$T/build/report/report.json
}

@test "reproduce: -n checks the pinned toolchain and gives the build's user, host, time and number" {
	"$TOP/scripts/history.sh" record "$R" 2>/dev/null
	run -0 "$TOP/scripts/reproduce.sh" -n "$R" x86_64/gcc
	assert_output "$(cat <<EOF2
KBUILD_BUILD_USER=builder
KBUILD_BUILD_HOST=ci-7
KBUILD_BUILD_VERSION=3
KBUILD_BUILD_TIMESTAMP=Sun Dec  6 05:13:51 UTC 2026
KSRC=$T/tree
scripts/kernel-build.sh -o $T/build/reproduce -t x86_64 -c gcc
EOF2
)"
}

@test "reproduce: the debug information's paths are mapped to the original build's and tree's" {
	need_tool gcc
	"$TOP/scripts/history.sh" record "$R" 2>/dev/null
	# a stand-in vmlinux: an object whose DW_AT_comp_dir is the cell's directory
	mkdir -p "$T/build/kernel/x86_64-gcc" "$T/oldtree"
	echo 'int x;' >"$T/x.c"
	(cd "$T/build/kernel/x86_64-gcc" && gcc -g -c "$T/x.c" -o vmlinux)
	ln -s "$T/oldtree" "$T/build/kernel/x86_64-gcc/source"
	run -0 "$TOP/scripts/reproduce.sh" -n -o "$T/again" "$R" x86_64/gcc
	maps="-fdebug-prefix-map=$T/again/kernel/x86_64-gcc=$T/build/kernel/x86_64-gcc -fdebug-prefix-map=$T/tree=$T/oldtree"
	assert_output "$(cat <<EOF2
KBUILD_BUILD_USER=builder
KBUILD_BUILD_HOST=ci-7
KBUILD_BUILD_VERSION=3
KBUILD_BUILD_TIMESTAMP=Sun Dec  6 05:13:51 UTC 2026
KSRC=$T/tree
scripts/kernel-build.sh -o $T/again -t x86_64 -c gcc 'KCFLAGS=$maps' 'KAFLAGS=$maps'
EOF2
)"
}

@test "reproduce: units ccache compiled in another directory are named, the map is the rest's" {
	need_tool gcc
	"$TOP/scripts/history.sh" record "$R" 2>/dev/null
	# a stand-in vmlinux of three units, one compiled in another build's directory
	mkdir -p "$T/build/kernel/x86_64-gcc" "$T/other"
	for u in a b c; do
		echo "int $u;" >"$T/$u.c"
	done
	(cd "$T/build/kernel/x86_64-gcc" && gcc -g -c "$T/a.c" "$T/b.c")
	(cd "$T/other" && gcc -g -c "$T/c.c")
	ld -r -o "$T/build/kernel/x86_64-gcc/vmlinux" "$T/build/kernel/x86_64-gcc/a.o" "$T/other/c.o" "$T/build/kernel/x86_64-gcc/b.o"
	run -0 --separate-stderr "$TOP/scripts/reproduce.sh" -n -o "$T/again" "$R" x86_64/gcc
	assert_equal "$stderr" "reproduce.sh: 1 of the 3 units of '$T/build/kernel/x86_64-gcc/vmlinux' were compiled in another directory than '$T/build/kernel/x86_64-gcc' (ccache, from another build): their debug information cannot be rebuilt the same"
	maps="-fdebug-prefix-map=$T/again/kernel/x86_64-gcc=$T/build/kernel/x86_64-gcc"
	assert_line "scripts/kernel-build.sh -o $T/again -t x86_64 -c gcc 'KCFLAGS=$maps' 'KAFLAGS=$maps'"
}

@test "reproduce: a Clang rebuild is also given the original's compilation directory" {
	need_tool clang
	jq '.matrix[0].cells[1].boot.proc_version = "Linux version 6.1.192 (builder@ci-7) (Debian clang version 14.0.6, Debian LLD 14.0.6) #3 SMP PREEMPT_DYNAMIC Sun Dec  6 05:13:51 UTC 2026"' \
		"$R" >"$T/r" && mv "$T/r" "$R"
	"$TOP/scripts/history.sh" record "$R" 2>/dev/null
	# a stand-in vmlinux: an object whose DW_AT_comp_dir is the cell's directory
	mkdir -p "$T/build/kernel/x86_64-clang"
	echo 'int x;' >"$T/x.c"
	(cd "$T/build/kernel/x86_64-clang" && clang -g -c "$T/x.c" -o vmlinux)
	run -0 "$TOP/scripts/reproduce.sh" -n -o "$T/again" "$R" x86_64/clang
	# clang 14 maps DW_AT_comp_dir but not the line table's directory of a .S
	flags="-fdebug-prefix-map=$T/again/kernel/x86_64-clang=$T/build/kernel/x86_64-clang -fdebug-compilation-dir=$T/build/kernel/x86_64-clang"
	assert_output "$(cat <<EOF2
KBUILD_BUILD_USER=builder
KBUILD_BUILD_HOST=ci-7
KBUILD_BUILD_VERSION=3
KBUILD_BUILD_TIMESTAMP=Sun Dec  6 05:13:51 UTC 2026
KSRC=$T/tree
scripts/kernel-build.sh -o $T/again -t x86_64 -c clang 'KCFLAGS=$flags' 'KAFLAGS=$flags'
EOF2
)"
}

@test "reproduce: a compiler binary other than the pinned one is refused with one line" {
	"$TOP/scripts/history.sh" record "$R" 2>/dev/null
	jq '.cells["x86_64/gcc"].cc.sha256 = "0123456789abcdef" + .cells["x86_64/gcc"].cc.sha256[16:]
		| .cells["x86_64/gcc"].cc.version = "12.2.0-14+deb12u0"' "$T/build/report/toolchain.json" >"$T/tc"
	mv "$T/tc" "$T/build/report/toolchain.json"
	cc=$(readlink -f "$(command -v gcc)")
	pkg=$(dpkg-query -S "$cc" | cut -d: -f1)
	run -1 --separate-stderr "$TOP/scripts/reproduce.sh" -n "$R" x86_64/gcc
	assert_equal "$stderr" "reproduce.sh: x86_64/gcc was built with $pkg 12.2.0-14+deb12u0 ($(basename "$cc") sha256 0123456789abcdef), this machine's 'gcc' is $pkg $(dpkg-query -W -f '${Version}' "$pkg") (sha256 $(sha256sum "$cc" | cut -c-16)): not rebuilt"
}

@test "reproduce: without toolchain.json the compiler's --version must be the report's" {
	jq '.matrix[0].cells[0].compiler_version = "gcc (Debian 12.2.0-14) 12.2.0"' "$R" >"$T/r" && mv "$T/r" "$R"
	run -1 --separate-stderr "$TOP/scripts/reproduce.sh" -n "$R" x86_64/gcc
	assert_equal "$stderr" "reproduce.sh: x86_64/gcc was built with 'gcc (Debian 12.2.0-14) 12.2.0', this machine's 'gcc' says '$(gcc --version | head -n 1)': not rebuilt"
}

@test "reproduce: another tree or series is refused with one line" {
	"$TOP/scripts/history.sh" record "$R" 2>/dev/null
	sed -i 's/^SUBLEVEL = 192/SUBLEVEL = 193/' "$T/tree/Makefile"
	run -1 --separate-stderr "$TOP/scripts/reproduce.sh" -n "$R" x86_64/gcc
	assert_equal "$stderr" "reproduce.sh: the report is of linux-6.1.192, the tree '$T/tree' is linux-6.1.193: not rebuilt"
	sed -i 's/^SUBLEVEL = 193/SUBLEVEL = 192/' "$T/tree/Makefile"
	jq '.series = "0000"' "$T/build/report/toolchain.json" >"$T/tc" && mv "$T/tc" "$T/build/report/toolchain.json"
	run -1 --separate-stderr "$TOP/scripts/reproduce.sh" -n "$R" x86_64/gcc
	assert_equal "$stderr" "reproduce.sh: the report's series is 0000, patches/6.1/ is $(sqlite3 "$KPARITY_HISTORY_DB" 'SELECT series FROM run'): not rebuilt"
}

@test "reproduce: another tree's report is found in its place in BUILDDIR, and rebuilt there" {
	need_tool gcc
	sed -i 's/^PATCHLEVEL = 1$/PATCHLEVEL = 12/; s/^SUBLEVEL = 192/SUBLEVEL = 118/' "$T/tree/Makefile"
	mkdir -p "$T/build/6.12/report" "$T/build/6.12/kernel/x86_64-gcc"
	jq '.kernel = "linux-6.12.118" | .matrix[0].cells[].dir |= "6.12/" + .' "$R" >"$T/build/6.12/report/report.json"
	rm "$R"
	"$TOP/scripts/history.sh" record "$T/build/6.12/report/report.json" 2>/dev/null
	# the series' checksum as KCIDB hashes a patchset, made here apart
	# from the library's own series_sum
	sum=$(cd "$TOP/patches/6.12" && grep -v '^#' series | xargs sha256sum | cut -c-64 | sha256sum | cut -c-64)
	run -0 sqlite3 "$KPARITY_HISTORY_DB" 'SELECT tree, series FROM run'
	assert_output "linux-6.12.118|$sum"
	echo 'int x;' >"$T/x.c"
	(cd "$T/build/6.12/kernel/x86_64-gcc" && gcc -g -c "$T/x.c" -o vmlinux)
	run -0 "$TOP/scripts/reproduce.sh" -n -o "$T/again" "$T/build" x86_64/gcc
	maps="-fdebug-prefix-map=$T/again/6.12/kernel/x86_64-gcc=$T/build/6.12/kernel/x86_64-gcc"
	assert_output "$(cat <<EOF2
KBUILD_BUILD_USER=builder
KBUILD_BUILD_HOST=ci-7
KBUILD_BUILD_VERSION=3
KBUILD_BUILD_TIMESTAMP=Sun Dec  6 05:13:51 UTC 2026
KSRC=$T/tree
scripts/kernel-build.sh -o $T/again -t x86_64 -c gcc 'KCFLAGS=$maps' 'KAFLAGS=$maps'
EOF2
)"
}

@test "reproduce: a KCONFIG_ADD run's report is found in its place, and rebuilt with its configuration" {
	need_tool gcc
	mkdir -p "$T/build/config-kcfi/report" "$T/build/config-kcfi/kernel/x86_64-gcc"
	jq '.report_dir = "config-kcfi/report" | .config_add = ["kcfi", "CONFIG_HZ=250"]
		| .matrix[0].cells[].dir |= "config-kcfi/" + .' "$R" >"$T/build/config-kcfi/report/report.json"
	rm "$R"
	echo 'int x;' >"$T/x.c"
	(cd "$T/build/config-kcfi/kernel/x86_64-gcc" && gcc -g -c "$T/x.c" -o vmlinux)
	run -0 --separate-stderr "$TOP/scripts/reproduce.sh" -n -o "$T/again" \
		"$T/build/config-kcfi/report/report.json" x86_64/gcc
	maps="-fdebug-prefix-map=$T/again/config-kcfi/kernel/x86_64-gcc=$T/build/config-kcfi/kernel/x86_64-gcc"
	assert_output "$(cat <<EOF2
KBUILD_BUILD_USER=builder
KBUILD_BUILD_HOST=ci-7
KBUILD_BUILD_VERSION=3
KBUILD_BUILD_TIMESTAMP=Sun Dec  6 05:13:51 UTC 2026
KCONFIG_ADD='kcfi CONFIG_HZ=250'
KSRC=$T/tree
scripts/kernel-build.sh -o $T/again -t x86_64 -c gcc 'KCFLAGS=$maps' 'KAFLAGS=$maps'
EOF2
)"
	# a report moved out of its place cannot name its build directory
	mkdir "$T/elsewhere"
	mv "$T/build/config-kcfi/report/report.json" "$T/elsewhere/"
	run -2 --separate-stderr "$TOP/scripts/reproduce.sh" -n "$T/elsewhere/report.json" x86_64/gcc
	assert_equal "$stderr" "reproduce.sh: '$T/elsewhere/report.json' is not in its place, BUILDDIR/config-kcfi/report/"
}

@test "reproduce: a cell the report lacks, or one that never booted, is one line" {
	run -2 --separate-stderr "$TOP/scripts/reproduce.sh" -n "$R" arm64-virt/gcc
	assert_equal "$stderr" "reproduce.sh: no cell 'arm64-virt/gcc' in '$R' (its cells: x86_64/gcc x86_64/clang)"
	run -2 --separate-stderr "$TOP/scripts/reproduce.sh" -n "$R" x86_64/clang
	assert_equal "$stderr" "reproduce.sh: the report has no /proc/version of x86_64/clang's boot: its build user, host and time are unknown"
}
