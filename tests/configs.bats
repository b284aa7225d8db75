#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# What a run adds to its cells' configuration (KCONFIG_ADD): its words,
# where its cells and report go, the fragments' Clang-only symbols and
# the control cells of the compilers that cannot build them, the clang of
# a run that names none, randstruct's GCC words and seed, and bad words;
# and another base (KCONFIG), Debian's own configuration among them,
# fetched from its linux-image package and configured for real. The
# kCFI, ThinLTO and randstruct runs are in tests/full/configs.bats.

load common

setup() {
	T=$BATS_TEST_TMPDIR
}

# in_sh CODE: run CODE in a POSIX sh that has sourced the libraries
in_sh() {
	PROG=configs-test TOPDIR="$TOP" sh -c \
		'. "$TOPDIR/scripts/lib/common.sh" && . "$TOPDIR/scripts/lib/target.sh" &&
		. "$TOPDIR/scripts/lib/debcache.sh" && eval "$1"' sh "$1"
}

# fake_apt DIR: DIR/apt-cache, knowing four linux-image packages of 6.1
# (two flavours, two ABIs, a -dbg) the way apt-cache pkgnames and madison
# print them; madison pads the names to one width
fake_apt() {
	mkdir -p "$1"
	cat >"$1/apt-cache" <<'FAKE'
#!/bin/sh
case "$1" in
pkgnames)
	printf '%s\n' linux-image-6.1.0-57-cloud-amd64-dbg linux-image-6.1.0-56-cloud-amd64 \
		linux-image-6.1.0-57-cloud-amd64 linux-image-6.1.0-57-amd64 linux-image-6.12.118+deb12-cloud-amd64 ;;
madison)
	shift
	for p; do
		case "$p" in
		*-56-*) printf '%40s | %s | http://deb.debian.org/debian bookworm/main amd64 Packages\n' "${p%:*}" 6.1.191-1 ;;
		*-57-*) printf '%40s | %s | http://deb.debian.org/debian bookworm/main amd64 Packages\n' "${p%:*}" 6.1.192-3 ;;
		esac
	done ;;
esac
FAKE
	chmod +x "$1/apt-cache"
}

# fake_clang DIR NAME VERSION: DIR/NAME, a clang that says it is VERSION
fake_clang() {
	mkdir -p "$1"
	printf '#!/bin/sh\necho %s\n' "$3" >"$1/$2"
	chmod +x "$1/$2"
}

# tools_only DIR: DIR/bin holds links to the tools the library runs, so
# that PATH=DIR/bin finds no compiler but the fakes put there
tools_only() {
	local t
	mkdir -p "$1/bin"
	for t in sh sed awk paste tr head cat cut grep ls printf; do
		ln -s "$(command -v "$t")" "$1/bin/$t"
	done
}

@test "configs: KCONFIG_ADD's words, by commas or spaces, and the run's name for them" {
	KCONFIG_ADD="kcfi, CONFIG_LKDTM=y,,CONFIG_HZ=250" run -0 in_sh 'config_words; config_name'
	assert_output "$(printf '%s\n' 'kcfi CONFIG_LKDTM=y CONFIG_HZ=250' 'kcfi+LKDTM=y+HZ=250')"
	run -0 in_sh 'config_words; config_name'
	assert_output "$(printf '%s\n' '' '')"
}

@test "configs: a run with KCONFIG_ADD keeps its cells and report in config-NAME, below its tree's" {
	KCONFIG_ADD=kcfi run -0 in_sh 'load_target x86_64; compiler_select clang-16; tree_root /b; cell_dir /b; cell_dir /b toybox'
	assert_output "$(printf '%s\n' /b/config-kcfi /b/config-kcfi/kernel/x86_64-clang-16 /b/toybox/x86_64-clang-16)"
	KERNEL=6.12 KCONFIG_ADD=kcfi,CONFIG_HZ=250 run -0 in_sh 'tree_root /b'
	assert_output /b/6.12/config-kcfi+HZ=250
}

@test "configs: an unknown fragment or a malformed CONFIG word is one line and exit 2" {
	KCONFIG_ADD=kcfi,cfi run -2 --separate-stderr in_sh 'config_check; echo after'
	assert_output ""
	assert_equal "$stderr" "configs-test: KCONFIG_ADD: no fragment 'cfi' (known: $(cd "$TOP/kconfig/fragments" && ls -- *.config | sed 's/\.config$//' | paste -s -d ' ' -))"
	KCONFIG_ADD=CONFIG_HZ run -2 --separate-stderr in_sh 'config_check; echo after'
	assert_equal "$stderr" "configs-test: KCONFIG_ADD: 'CONFIG_HZ' is not CONFIG_SYMBOL=VALUE (y, n, m or a number)"
	KCONFIG_ADD='CONFIG_CMDLINE="quiet"' run -2 --separate-stderr in_sh 'config_check; echo after'
	assert_equal "$stderr" "configs-test: KCONFIG_ADD: 'CONFIG_CMDLINE=\"quiet\"' is not CONFIG_SYMBOL=VALUE (y, n, m or a number)"
	KCONFIG_ADD=kcfi,CONFIG_HZ=250,CONFIG_BASE_SMALL=0x1 run -0 in_sh 'config_check; echo after'
	assert_output after
}

@test "configs: a fragment's cells take it after the target's own, with its command line words" {
	KCONFIG_ADD=kcfi,CONFIG_HZ=250,CONFIG_LOCALVERSION_AUTO=n run -0 in_sh \
		'load_target x86_64; printf "%s\n" "$t_fragments" "$t_append" "$t_config_set"'
	assert_output "$(printf '%s\n' 'x86_64.config debug-info.config kunit.config kcfi.config' \
		kparity.lkdtm=CFI_FORWARD_PROTO 'CONFIG_HZ=250 CONFIG_LOCALVERSION_AUTO=n')"
	run -0 in_sh 'load_target x86_64; printf "%s\n" "$t_fragments" "[$t_append]" "[$t_config_set]"'
	assert_output "$(printf '%s\n' 'x86_64.config debug-info.config kunit.config' '[]' '[]')"
}

@test "configs: the Clang-only symbols of kcfi, and who cannot build them, with why" {
	local f=$TOP/kconfig/fragments/kcfi.config
	run -0 in_sh "fragment_needs '$f'"
	assert_output "16 CONFIG_CFI_CLANG CONFIG_CFI_PERMISSIVE"
	run -0 in_sh "fragment_needs '$TOP/kconfig/fragments/kunit.config'"
	assert_output ""
	run -0 in_sh "compiler_select gcc; fragment_unfit '$f'"
	assert_output "needs clang 16, and gcc is GCC"
	fake_clang "$T/llvm15" clang 15.0.7
	LLVM=$T/llvm15/ run -0 in_sh "compiler_select clang; fragment_unfit '$f'"
	assert_output "needs clang 16, and clang-15 is clang 15"
	fake_clang "$T/llvm16" clang 16.0.6
	LLVM=$T/llvm16/ run -1 in_sh "compiler_select clang; fragment_unfit '$f'"
	assert_output ""
	run -1 in_sh "compiler_select gcc; fragment_unfit '$TOP/kconfig/fragments/kunit.config'"
	assert_output ""
}

@test "configs: a run that names no compilers takes the oldest clang its fragments need" {
	tools_only "$T"
	fake_clang "$T/bin" clang 14.0.6
	fake_clang "$T/bin" clang-15 15.0.7
	fake_clang "$T/bin" clang-19 19.1.7
	fake_clang "$T/bin" clang-22 22.0.0
	KCONFIG_ADD=kcfi run -0 --separate-stderr in_sh "PATH=$T/bin; config_clang"
	assert_output clang-19
	# the step line, as bats gives it: the leading blanks of stderr's
	# first line dropped
	assert_equal "$stderr" "CONFIG  KCONFIG_ADD needs clang 16: clang-19 in place of clang (clang 14)"
	run -0 --separate-stderr in_sh "PATH=$T/bin; config_clang"
	assert_output clang
	assert_equal "$stderr" ""
	rm "$T/bin/clang-19" "$T/bin/clang-22"
	KCONFIG_ADD=kcfi run -0 --separate-stderr in_sh "PATH=$T/bin; config_clang"
	assert_output clang
}

@test "configs: parity and kernel-build refuse an unknown fragment before anything is built" {
	KCONFIG_ADD=cfi run -2 --separate-stderr "$TOP/scripts/parity.sh" -o "$T/b" -t x86_64
	assert_output ""
	assert_equal "${stderr_lines[0]}" "parity.sh: KCONFIG_ADD: no fragment 'cfi' (known: $(cd "$TOP/kconfig/fragments" && ls -- *.config | sed 's/\.config$//' | paste -s -d ' ' -))"
	KCONFIG_ADD=CONFIG_HZ run -2 --separate-stderr "$TOP/scripts/kernel-build.sh" -o "$T/b" -t x86_64 -c gcc
	assert_equal "$stderr" "kernel-build.sh: KCONFIG_ADD: 'CONFIG_HZ' is not CONFIG_SYMBOL=VALUE (y, n, m or a number)"
	[ ! -e "$T/b" ]
}

@test "configs: KCONFIG replaces every target's base configuration, and names the run's place" {
	KCONFIG=defconfig KCONFIG_ADD=kcfi run -0 in_sh 'load_target x86_64; printf "%s\n" "$t_base"; config_name; tree_root /b'
	assert_output "$(printf '%s\n' defconfig defconfig+kcfi /b/config-defconfig+kcfi)"
	KCONFIG=x86_64_defconfig run -0 in_sh 'config_check; load_target x86_64; printf "%s\n" "$t_base"; tree_root /b'
	assert_output "$(printf '%s\n' x86_64_defconfig /b/config-x86_64_defconfig)"
	KCONFIG=oldconfig run -2 --separate-stderr in_sh 'config_check; echo after'
	assert_equal "$stderr" "configs-test: KCONFIG: 'oldconfig' is none of tinyconfig, allnoconfig, defconfig, NAME_defconfig, debian"
	KCONFIG=../x_defconfig run -2 --separate-stderr in_sh 'config_check; echo after'
	assert_equal "$stderr" "configs-test: KCONFIG: '../x_defconfig' is not a configuration's name"
}

@test "configs: a NAME_defconfig the tree lacks is one line, before the cell's directory is made" {
	export KPARITY_CACHE_DIR=${KPARITY_CACHE_DIR:-${KPARITY_BUILD:-$TOP/build}/cache}
	local b=${KPARITY_BUILD:-$TOP/build}
	KCONFIG=vax_defconfig run -2 --separate-stderr "$TOP/scripts/kernel-build.sh" -o "$b" -t x86_64 -c gcc
	assert_output ""
	assert_equal "${stderr_lines[-1]}" "kernel-build.sh: KCONFIG: the tree has no arch/x86/configs/vax_defconfig (known: i386_defconfig x86_64_defconfig)"
	[ ! -e "$b/config-vax_defconfig" ]
}

@test "configs: KCONFIG=debian's package is the flavour's linux-image made from the tree's version" {
	fake_apt "$T/bin"
	run -0 in_sh "PATH=$T/bin:\$PATH; debian_image_pkg 6.1.192 amd64 cloud-amd64; debian_image_pkg 6.1.191 amd64 cloud-amd64"
	assert_output "$(printf '%s\n' 'linux-image-6.1.0-57-cloud-amd64 6.1.192-3' 'linux-image-6.1.0-56-cloud-amd64 6.1.191-1')"
	run -2 --separate-stderr in_sh "PATH=$T/bin:\$PATH; debian_image_pkg 6.1.190 arm64 cloud-arm64; echo after"
	assert_output ""
	assert_equal "$stderr" "configs-test: apt knows no linux-image-6.1*-cloud-arm64 for arm64 made from Linux 6.1.190 (apt-get update; a foreign one needs dpkg --add-architecture arm64 first)"
}

@test "configs: KCONFIG=debian starts from Debian's config, then debian.config and the target's fragments" {
	KCONFIG=debian run -0 in_sh 'config_check; load_target x86_64; printf "%s\n" "$t_base" "$t_debian" "$t_fragments"; tree_root /b'
	assert_output "$(printf '%s\n' debian 'amd64 cloud-amd64' 'debian.config x86_64.config debug-info.config kunit.config' /b/config-debian)"
}

@test "configs: KCONFIG=debian on a target Debian makes no kernel for is one line, before the cell's directory" {
	export KPARITY_CACHE_DIR=${KPARITY_CACHE_DIR:-${KPARITY_BUILD:-$TOP/build}/cache}
	local b=${KPARITY_BUILD:-$TOP/build}
	KCONFIG=debian run -2 --separate-stderr "$TOP/scripts/kernel-build.sh" -o "$b" -t riscv64-virt -c gcc
	assert_output ""
	assert_equal "${stderr_lines[-1]}" "kernel-build.sh: KCONFIG=debian: Debian has no kernel for target 'riscv64-virt' (no DEBIAN in its target file)"
	[ ! -e "$b/config-debian" ]
}

@test "configs: Debian's own config of the tree's version, fetched once, configures an x86_64 cell" {
	export KPARITY_CACHE_DIR=${KPARITY_CACHE_DIR:-${KPARITY_BUILD:-$TOP/build}/cache}
	local b=${KPARITY_BUILD:-$TOP/build} src v want f=$TOP/kconfig/fragments
	src=$("$TOP/scripts/kernel-src.sh" -o "$b")
	v=$(in_sh "tree_version '$src'")
	# the same package by another road: what Debian 12's meta-package
	# depends on, when that is the tree's version
	want=$(apt-cache show linux-image-cloud-amd64 | sed -n 's/^Depends: \(linux-image-[^ ]*\) (= \(.*\))$/\1 \2/p' |
		awk -v v="$v" '{ u = $2; sub(/-[^-]*$/, "", u) } u == v { print; exit }')
	[ -n "$want" ] || skip "Debian's cloud meta-package is not at the tree's version"
	in_sh "debian_config '$KPARITY_CACHE_DIR' $v amd64 cloud-amd64" 2>/dev/null
	# the second time from the cache, without a word
	run -0 --separate-stderr in_sh "debian_config '$KPARITY_CACHE_DIR' $v amd64 cloud-amd64"
	assert_output "$KPARITY_CACHE_DIR/debian-config/${want% *}_${want#* }.config"
	assert_equal "$stderr" ""
	run -0 sed -n 1p "$output"
	assert_output "# Debian $want for amd64: /boot/config-* of ${want% *}_${want#* }_amd64.deb"
	run -0 "$TOP/scripts/kernel-config.sh" -s "$src" -O "$T/o" -b "$KPARITY_CACHE_DIR/debian-config/${want% *}_${want#* }.config" \
		"$f/debian.config" "$f/x86_64.config" "$f/debug-info.config"
	assert_output "$T/o/.config"
	# Debian's modules and string settings, the fragments' symbols
	local symbols='CONFIG_(VIRTIO_NET|VIRTIO_BLK|SYSTEM_TRUSTED_KEYS|DEBUG_INFO_DWARF5|DEBUG_INFO_BTF)=.*'
	run -0 grep -E -x "$symbols" "$T/o/.config"
	assert_output "$(printf '%s\n' CONFIG_VIRTIO_BLK=y CONFIG_VIRTIO_NET=m 'CONFIG_SYSTEM_TRUSTED_KEYS=""' CONFIG_DEBUG_INFO_DWARF5=y)"
}

@test "configs: randstruct: GCC builds it with its plugin, Clang from 16; the seed; the run without it" {
	local f=$TOP/kconfig/fragments/randstruct.config
	run -0 in_sh "fragment_needs '$f'; fragment_gcc '$f'"
	assert_output "$(printf '%s\n' '16 CONFIG_RANDSTRUCT_FULL' 'CONFIG_GCC_PLUGINS=y')"
	run -1 in_sh "compiler_select gcc; fragment_unfit '$f'"
	assert_output ""
	fake_clang "$T/llvm15" clang 15.0.7
	LLVM=$T/llvm15/ run -0 in_sh "compiler_select clang; fragment_unfit '$f'"
	assert_output "needs clang 16, and clang-15 is clang 15"
	KCONFIG_ADD=randstruct,CONFIG_HZ=250 run -0 in_sh 'load_target x86_64; fragment_seed; plain_words'
	assert_output "$(printf '%s\n' 6b7061726974792d72616e647374727563742d7365656420666f722074657374 CONFIG_HZ=250)"
	KCONFIG_ADD=kcfi run -0 in_sh 'load_target x86_64; fragment_seed; plain_words'
	assert_output kcfi
}

@test "configs: a run none of whose compilers can build a fragment's feature says so" {
	fake_clang "$T/llvm15" clang 15.0.7
	KCONFIG_ADD=kcfi LLVM=$T/llvm15/ run -2 --separate-stderr "$TOP/scripts/parity.sh" -o "$T/b" -t x86_64 -c "gcc clang"
	assert_equal "${stderr_lines[0]}" "CONFIG  KCONFIG_ADD kcfi: no compiler of the run can build it (needs clang 16, and clang-15 is clang 15): every cell is a control"
	assert_equal "${stderr_lines[1]}" "parity.sh: no '$T/b/kabi': run 'make' first"
	fake_clang "$T/llvm16" clang 16.0.6
	KCONFIG_ADD=kcfi LLVM=$T/llvm16/ run -2 --separate-stderr "$TOP/scripts/parity.sh" -o "$T/b" -t x86_64 -c "gcc clang"
	assert_equal "$stderr" "parity.sh: no '$T/b/kabi': run 'make' first"
}

@test "configs: kcfi on an architecture the tree does not offer it on is a control, whatever the compiler" {
	local f=$TOP/kconfig/fragments/kcfi.config
	mkdir -p "$T/src/arch/arm" "$T/src/arch/x86" "$T/src/arch/arm64"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\n' >"$T/src/Makefile"
	printf 'config ARM\n\tbool\n\tselect ARCH_SUPPORTS_ATOMIC_RMW\n' >"$T/src/arch/arm/Kconfig"
	printf 'config X86\n\tdef_bool y\n\tselect ARCH_SUPPORTS_CFI_CLANG\tif X86_64\n' >"$T/src/arch/x86/Kconfig"
	printf 'config ARM64\n\tdef_bool y\n\tselect ARCH_SUPPORTS_CFI_CLANG\n' >"$T/src/arch/arm64/Kconfig"
	run -0 in_sh "fragment_arch '$f'; load_target arm-vexpress; fragment_unoffered '$f' '$T/src'"
	assert_output "$(printf '%s\n' ARCH_SUPPORTS_CFI_CLANG 'arm of Linux 6.1.192 does not select ARCH_SUPPORTS_CFI_CLANG')"
	run -1 in_sh "load_target x86_64; fragment_unoffered '$f' '$T/src'"
	assert_output ""
	run -1 in_sh "load_target arm64-virt; fragment_unoffered '$f' '$T/src'"
	assert_output ""
	# a Clang new enough is no help on arm; without the tree, only the compiler counts
	fake_clang "$T/llvm16" clang 16.0.6
	LLVM=$T/llvm16/ run -0 in_sh "load_target arm-vexpress; compiler_select clang; fragment_unfit '$f' '$T/src'"
	assert_output 'arm of Linux 6.1.192 does not select ARCH_SUPPORTS_CFI_CLANG'
	LLVM=$T/llvm16/ run -1 in_sh "load_target arm-vexpress; compiler_select clang; fragment_unfit '$f'"
	assert_output ""
	LLVM=$T/llvm16/ run -1 in_sh "load_target x86_64; compiler_select clang; fragment_unfit '$f' '$T/src'"
	assert_output ""
	# a fragment that names no symbol is offered everywhere
	run -1 in_sh "load_target arm-vexpress; fragment_unoffered '$TOP/kconfig/fragments/randstruct.config' '$T/src'"
	assert_output ""
}
