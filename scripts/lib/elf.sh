# SPDX-License-Identifier: GPL-2.0-only
#
# elf.sh - questions about ELF files for the scripts; sourced, not run.

# shellcheck shell=sh

# elf_static FILE
# Usage: why=$(elf_static "$prog") || die "'$prog' $why"
# Succeeds when FILE is a statically linked ELF program; otherwise prints
# why not ("is not an ELF file", "is dynamically linked (...)") and
# returns 1.
elf_static() {
	if ! LC_ALL=C readelf -h "$1" >/dev/null 2>&1; then
		echo "is not an ELF file"
		return 1
	fi
	if LC_ALL=C readelf -lW "$1" | grep -q 'program interpreter'; then
		echo "is dynamically linked (it asks for a program interpreter)"
		return 1
	fi
	if LC_ALL=C readelf -dW "$1" | grep -q '(NEEDED)'; then
		echo "is dynamically linked (it needs shared libraries)"
		return 1
	fi
}
