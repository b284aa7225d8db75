#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# The overlay hooked into the real 6.1 tree: its Kconfig menu through a real
# olddefconfig, the Clang facts for trees without them, cross and M= use,
# the tiny x86_64 kernel built with clang through it is
# tests/full/overlay-kernel.bats.

load kbuild-helpers

FIX="$BATS_TEST_DIRNAME/fixtures/kbuild"

setup_file() {
	kbuild_setup_file
	KOBJ="$BATS_FILE_TMPDIR/kconfig"
	export KOBJ
}

setup() {
	T="$BATS_TEST_TMPDIR"
}

# kparity_lines CONFIG: the kparity part of a .config
kparity_lines() {
	grep -e KPARITY -e 'kparity probe overlay' "$1"
}

# default_kparity_lines: the kparity part of a .config left at the defaults
default_kparity_lines() {
	cat <<'OUT'
# kparity probe overlay
CONFIG_KPARITY_OVERLAY=y
CONFIG_KPARITY_PROBE_STRICT=y
# CONFIG_KPARITY_PROBE_STOCK is not set
CONFIG_KPARITY_PROBE_CACHE=y
# CONFIG_KPARITY_PROBE_NO_CACHE is not set
# CONFIG_KPARITY_PROBE_AUDIT is not set
# end of kparity probe overlay
OUT
}

@test "overlay Kconfig: olddefconfig adds the kparity menu and keeps a choice" {
	mkdir -p "$KOBJ"
	cp "$TOP/kconfig/fragments/x86_64.config" "$KOBJ/.config"
	run -0 kmake "$KOBJ" olddefconfig
	run -0 kparity_lines "$KOBJ/.config"
	assert_output "$(default_kparity_lines)"
	printf 'CONFIG_KPARITY_PROBE_NO_CACHE=y\nCONFIG_KPARITY_PROBE_AUDIT=y\n' >>"$KOBJ/.config"
	run -0 kmake "$KOBJ" olddefconfig
	run -0 grep '^[^#]*KPARITY\|is not set' "$KOBJ/.config"
	assert_line 'CONFIG_KPARITY_PROBE_AUDIT=y'
	assert_line 'CONFIG_KPARITY_PROBE_NO_CACHE=y'
	assert_line '# CONFIG_KPARITY_PROBE_CACHE is not set'
	run -0 grep -c 'Kconfig.kparity' "$KOBJ/.kparity/Kconfig"
	assert_output 1
}

@test "overlay Kconfig: tinyconfig keeps strict probing and the cache on" {
	run -0 kmake "$T/tiny" tinyconfig
	run -0 kparity_lines "$T/tiny/.config"
	assert_output "$(default_kparity_lines)"
}

@test "overlay Kconfig: listnewconfig names the kparity switches on an older .config" {
	[ -x "$KOBJ/scripts/kconfig/conf" ] || kmake "$KOBJ" olddefconfig
	grep -v KPARITY "$KOBJ/.config" >"$T/old.config"
	run -0 kmake "$KOBJ" KCONFIG_CONFIG="$T/old.config" listnewconfig
	assert_output - <<'OUT'
CONFIG_KPARITY_PROBE_STRICT=y
CONFIG_KPARITY_PROBE_STOCK=n
CONFIG_KPARITY_PROBE_CACHE=y
CONFIG_KPARITY_PROBE_NO_CACHE=n
CONFIG_KPARITY_PROBE_AUDIT=n
OUT
}

@test "overlay Kconfig: 6.1 keeps its own Clang facts; none is defined twice" {
	[ -x "$KOBJ/scripts/kconfig/conf" ] || kmake "$KOBJ" olddefconfig
	run -0 grep -c -e '^CONFIG_CC_IS_CLANG' -e '^CONFIG_CLANG_VERSION' -e '^CONFIG_GCC_VERSION=' "$KOBJ/.config"
	assert_output 2
	run -0 grep -h '^source' "$KOBJ/.kparity/Kconfig"
	refute_output --partial clang-facts
}

# menuconfig KEYS: a real menuconfig in $KOBJ on a 40x120 terminal, KEYS
# typed ahead (they wait in the terminal's input until it reads them)
menuconfig() {
	printf '%b' "$1" | TERM=vt100 script -qfec "stty rows 40 cols 120; env -u MAKEFLAGS -u MAKELEVEL \
		make -s -C '$KSRC_DIR' O='$KOBJ' ARCH=x86_64 MAKEFILES='$TOP/kbuild/overlay.mk' menuconfig" \
		"$T/screen" >/dev/null
}

# screen_shows TEXT...: each TEXT that the last menuconfig screen showed
screen_shows() {
	local text t

	text=$(sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/[\x0e\x0f]//g' "$T/screen")
	for t in "$@"; do
		case "$text" in
		*"$t"*) printf '%s\n' "$t" ;;
		esac
	done
}

@test "overlay Kconfig: menuconfig shows the switches under the kparity menu" {
	need_tool script
	[ -x "$KOBJ/scripts/kconfig/conf" ] || kmake "$KOBJ" olddefconfig
	cp "$KOBJ/.config" "$T/before"
	# search for a switch, leave the result and then menuconfig
	run -0 menuconfig '/KPARITY_PROBE_STRICT\rxx'
	run -0 screen_shows 'Symbol: KPARITY_PROBE_STRICT [=y]' 'Type  : bool' \
		'Prompt: Strict probing: reject flags an LLVM tool warns about' \
		"Defined at $TOP/kconfig/Kconfig.kparity:" 'Location:' '-> kparity probe overlay'
	assert_output - <<OUT
Symbol: KPARITY_PROBE_STRICT [=y]
Type  : bool
Prompt: Strict probing: reject flags an LLVM tool warns about
Defined at $TOP/kconfig/Kconfig.kparity:
Location:
-> kparity probe overlay
OUT
	run -0 cmp "$T/before" "$KOBJ/.config"
}

# old_tree CC LD [VAR=VALUE...]: run 6.1's conf on a tree whose init/Kconfig
# has none of the Clang facts; print them from the resulting .config
old_tree() {
	local cc="$1" ld="$2" fake="$T/fake"

	shift 2
	mkdir -p "$fake/init"
	printf 'config OLD_TREE\n\tdef_bool y\n' >"$fake/init/Kconfig"
	printf 'mainmenu "old"\nsource "init/Kconfig"\nsource "%s/kconfig/Kconfig.kparity"\n' "$TOP" >"$fake/Kconfig"
	(cd "$T" && env "$@" srctree="$fake" CC="$cc" LD="$ld" KCONFIG_CONFIG="$T/old.config" \
		"$KOBJ/scripts/kconfig/conf" --olddefconfig "$fake/Kconfig" >/dev/null) || return
	grep -e CLANG -e LLD -e LLVM "$T/old.config"
}

@test "overlay Kconfig: a tree without the Clang facts gets them, clang" {
	[ -x "$KOBJ/scripts/kconfig/conf" ] || kmake "$KOBJ" olddefconfig
	run -0 old_tree clang ld.lld LLVM_IAS=1
	assert_output - <<'OUT'
CONFIG_CC_IS_CLANG=y
CONFIG_CLANG_VERSION=140006
CONFIG_LD_IS_LLD=y
CONFIG_AS_IS_LLVM=y
OUT
}

@test "overlay Kconfig: a tree without the Clang facts gets them, gcc" {
	[ -x "$KOBJ/scripts/kconfig/conf" ] || kmake "$KOBJ" olddefconfig
	# n-valued symbols without a prompt are not written to .config
	run -0 old_tree gcc ld LLVM_IAS=1
	assert_output "CONFIG_CLANG_VERSION=0"
}

@test "overlay Kconfig: MAKEFILES on a hooked tree with KPARITY_DIR defines the entries once" {
	hooked_tree "$T/src"
	mkdir -p "$T/obj"
	cp "$TOP/kconfig/fragments/x86_64.config" "$T/obj/.config"
	run -0 --separate-stderr env -u MAKEFLAGS -u MAKELEVEL make -s -C "$T/src" O="$T/obj" ARCH=x86_64 \
		LLVM=1 KPARITY_DIR="$TOP" MAKEFILES="$TOP/kbuild/overlay.mk" olddefconfig
	assert_equal "$stderr" ""
	run -0 kparity_lines "$T/obj/.config"
	assert_output "$(default_kparity_lines)"
	assert [ ! -e "$T/obj/.kparity/Kconfig" ]
}

@test "overlay: cross ARCH=arm, gcc answers as stock, clang strictly" {
	need_tool arm-linux-gnueabi-gcc
	printf '%s\n' 'cc-option|-mthumb' 'cc-option|-mno-red-zone' 'cc-option|-mfpu=vfp' \
		'as-option|-Wa,-mno-warn-deprecated' 'ld-option|--fix-cortex-a8' >"$T/q"
	run -0 ask gcc stock "$T/q" SRCARCH=arm CC=arm-linux-gnueabi-gcc LD=arm-linux-gnueabi-ld \
		LDEMULATION=-EL RAW=1
	local stock="$output"
	run -0 ask gcc overlay "$T/q" SRCARCH=arm CC=arm-linux-gnueabi-gcc LD=arm-linux-gnueabi-ld \
		LDEMULATION=-EL RAW=1 KPARITY_CACHE=0
	assert_output "$stock"
	run -0 ask clang-14 stock "$T/q" SRCARCH=arm LDEMULATION=-EL
	assert_output "$(printf '%s\n' y y y n y)"
	run -0 ask clang-14 overlay "$T/q" SRCARCH=arm LDEMULATION=-EL KPARITY_CACHE=0
	assert_output "$(printf '%s\n' y n y n y)"
}

@test "overlay: LLVM=DIR/ names the same clang as LLVM=-19" {
	need_tool /usr/lib/llvm-19/bin/clang
	printf '%s\n' 'cc-option|-mthumb' 'cc-option|-fno-common' >"$T/q"
	run -0 ask clang-19 overlay "$T/q" CC=/usr/lib/llvm-19/bin/clang KPARITY_OUT="$T/a" KPARITY_AUDIT=1
	assert_output "$(printf '%s\n' n y)"
	run -0 ask clang-19 overlay "$T/q" KPARITY_OUT="$T/a" KPARITY_AUDIT=1
	run -0 cut -f 3,4,6 "$T/a/.kparity/audit.log"
	assert_output "$(printf 'clang-19.1.7\t%s\n' 'n	live' 'y	live' 'n	cached' 'y	cached')"
}

@test "overlay: an external module build (M=) keeps the cache in the module's directory" {
	mkdir -p "$T/mod" "$T/obj"
	printf '%s\n' 'cc-option|-fno-common' >"$T/q"
	run -0 ask clang-14 overlay "$T/q" KBUILD_EXTMOD="$T/mod" abs_objtree="$T/obj"
	assert_output y
	run -0 find "$T/obj" "$T/mod" -type f -name 'tool-*'
	assert_output --regexp "^$T/mod/.kparity/probes/tool-"
}
