#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# An external module (M=) built through the overlay against a prepared 6.1
# tree, with gcc and with clang: the probes its Kbuild file asks, the
# answers the audit log records, and the flags the .ko was built with.
# The tiny configuration plus CONFIG_MODULES=y is configured and prepared
# (modules_prepare) once per compiler in KPARITY_BUILD/modules-test/.

load kbuild-helpers

FIX="$BATS_TEST_DIRNAME/fixtures/kbuild"

setup_file() {
	kbuild_setup_file
	# The tree as every kernel build has it, with the series pushed: its
	# 0008 drops -Qunused-arguments, so stock Kbuild's answers below see
	# Clang's unused-argument warning too. Without this the answers would
	# depend on whether another suite had built a kernel first.
	"$TOP/scripts/kernel-patch.sh" -s "$KSRC_DIR" >/dev/null
}

# llvm_args TOOLCHAIN: the make variables that select the compiler
llvm_args() {
	case "$1" in
	gcc) echo "CC=gcc" ;;
	clang) echo "LLVM=1" ;;
	esac
}

# prepared TOOLCHAIN: print the build directory of a tree configured with
# modules and prepared for M= builds with TOOLCHAIN, through the overlay
prepared() {
	local tc="$1" obj="$BUILD_DIR/modules-test/$1"

	# shellcheck disable=SC2046 # one make variable, no blanks
	if [ ! -x "$obj/scripts/mod/modpost" ] || [ ! -f "$obj/Module.symvers" ]; then
		env -u MAKEFLAGS -u MAKELEVEL ARCH=x86_64 $(llvm_args "$tc") \
			"$TOP/scripts/kernel-config.sh" -s "$KSRC_DIR" -O "$obj" \
			"$TOP/kconfig/fragments/x86_64.config" "$FIX/module/modules.config" >/dev/null || return
		nice -n 10 env -u MAKEFLAGS -u MAKELEVEL make -s -C "$KSRC_DIR" O="$obj" ARCH=x86_64 \
			$(llvm_args "$tc") MAKEFILES="$TOP/kbuild/overlay.mk" -j "$(nproc)" modules_prepare \
			>"$obj/prepare.log" 2>&1 || { tail -n 20 "$obj/prepare.log" >&2; return 1; }
		: >"$obj/Module.symvers"
	fi
	echo "$obj"
}

# build_module TOOLCHAIN OBJ: build the fixture module in $T/mod through
# the overlay, auditing its probes
build_module() {
	rm -rf "$T/mod"
	mkdir -p "$T/mod"
	cp "$FIX/module/Kbuild" "$FIX/module/kparity_probe.c" "$T/mod/"
	# shellcheck disable=SC2046
	env -u MAKEFLAGS -u MAKELEVEL make -s -C "$KSRC_DIR" O="$2" ARCH=x86_64 $(llvm_args "$1") \
		MAKEFILES="$TOP/kbuild/overlay.mk" M="$T/mod" KPARITY_AUDIT=1 KBUILD_MODPOST_WARN=1 modules
}

# module_probes: the audit records of the module's own questions (macro,
# flag, answer, reason, stock answer), once each
module_probes() {
	local flags='	-(mthumb|fno-common|Wbogus-warning|Wunused-but-set-variable)	'

	grep -E -e "$flags" "$T/mod/.kparity/audit.log" | cut -f 1,2,4,5,7 | sort -u
}

# chosen_flags: which of the probed flags the module was compiled with
chosen_flags() {
	local f cmd

	cmd=$(cat "$T/mod/.kparity_probe.o.cmd")
	for f in -mthumb -fno-common -Wno-bogus-warning -Wno-unused-but-set-variable; do
		case "$cmd " in
		*" $f "*) echo "$f" ;;
		esac
	done
}

setup() {
	T="$BATS_TEST_TMPDIR"
}

@test "external module: clang through the overlay, strict answers and a .ko" {
	need_tool clang
	need_tool ld.lld
	local obj
	obj=$(prepared clang)
	touch "$T/mark"
	run -0 build_module clang "$obj"
	run -0 module_probes
	assert_output - <<'OUT'
cc-disable-warning	-Wbogus-warning	n	unknown-warning	n
cc-disable-warning	-Wunused-but-set-variable	y	ok	y
cc-option	-fno-common	y	ok	y
cc-option	-mthumb	n	unused-argument	n
OUT
	run -0 chosen_flags
	assert_output "$(printf '%s\n' -fno-common -Wno-unused-but-set-variable)"
	run -0 modinfo -F license "$T/mod/kparity_probe.ko"
	assert_output GPL
	run -0 find "$KSRC_DIR" "$obj" -newer "$T/mark" -path '*/.kparity/*'
	assert_output ""
}

@test "external module: gcc through the overlay, stock Kbuild's answers and a .ko" {
	local obj
	obj=$(prepared gcc)
	run -0 build_module gcc "$obj"
	run -0 module_probes
	assert_output - <<'OUT'
cc-disable-warning	-Wbogus-warning	n	unknown-option	n
cc-disable-warning	-Wunused-but-set-variable	y	ok	y
cc-option	-fno-common	y	ok	y
cc-option	-mthumb	n	unknown-option	n
OUT
	run -0 chosen_flags
	assert_output "$(printf '%s\n' -fno-common -Wno-unused-but-set-variable)"
	run -0 modinfo -F license "$T/mod/kparity_probe.ko"
	assert_output GPL
}

@test "external module: a second build answers every probe from the module's cache" {
	local obj
	obj=$(prepared gcc)
	run -0 build_module gcc "$obj"
	rm -f "$T/mod/.kparity/audit.log" "$T/mod/kparity_probe.o"
	: >"$T/mod/.kparity/audit.log"
	run -0 env -u MAKEFLAGS -u MAKELEVEL make -s -C "$KSRC_DIR" O="$obj" ARCH=x86_64 CC=gcc \
		MAKEFILES="$TOP/kbuild/overlay.mk" M="$T/mod" KPARITY_AUDIT=1 KBUILD_MODPOST_WARN=1 modules
	run -0 cut -f 6 "$T/mod/.kparity/audit.log"
	refute_line live
	assert_line cached
}
