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

# elf_has_section FILE NAME
# Usage: elf_has_section "$ko" .debug_info && kind=DWARF
# Succeeds when FILE is an ELF file with a section NAME.
elf_has_section() {
	LC_ALL=C readelf -SW "$1" 2>/dev/null |
		awk -v s="$2" '{ sub(/^ *\[ *[0-9]+\] */, "") } $1 == s { f = 1 } END { exit !f }'
}

# modinfo_field FILE FIELD
# Usage: deps=$(modinfo_field "$ko" depends)
# Prints the value of FIELD in a kernel module's .modinfo (the first one),
# nothing when it has none.
modinfo_field() {
	LC_ALL=C readelf -p .modinfo "$1" 2>/dev/null |
		sed -n "s/^ *\\[ *[0-9a-f]*\\]  $2=//p" | head -n 1
}

# elf_has_content FILE
# Usage: elf_has_content "$obj" || echo "an empty unit"
# Succeeds when FILE, an ELF object, has a section that is loaded (SHF_ALLOC)
# and not empty: code or data. A C file that defines nothing compiles to
# an object without, and Clang gives such an object no DWARF at all.
elf_has_content() {
	LC_ALL=C readelf -SW "$1" 2>/dev/null |
		awk '{ sub(/^ *\[ *[0-9]+\] */, "") } $7 ~ /^[A-Za-z]+$/ && $7 ~ /A/ && $5 ~ /^[0-9a-f]+$/ && $5 !~ /^0+$/ { f = 1 } END { exit !f }'
}
