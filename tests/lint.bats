#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# The tree's own rules, checked: every source file carries the SPDX line,
# every shell script is shellcheck-clean, and kabi's C is formatted with
# tools/kabi/.clang-format.

load common

setup_file() {
	need_tool git
	[ -e "$TOP/.git" ] || skip "not a git checkout: no list of tracked files"
}

# sources: the tracked source files, one a line. Exact-output fixtures,
# logs and the patches (kernel files, checked by checkpatch) are data.
sources() {
	git -c safe.directory="$TOP" -C "$TOP" ls-files -- '*.c' '*.h' '*.sh' '*.bash' '*.bats' '*.mk' '*.py' '*.awk' '*.jq' \
		'*.config' '*.target' '*.include' '*.kparity' '*.list' '*.supp' \
		Makefile '*/Makefile' '*/Kbuild' 'kconfig/clang-facts/*' \
		scripts/initramfs/check tests/valgrind-kabi
}

# no_spdx: the sources without the SPDX line in their first three lines
no_spdx() {
	local f

	sources >"$BATS_TEST_TMPDIR/files"
	[ -s "$BATS_TEST_TMPDIR/files" ] || return 1
	while IFS= read -r f; do
		head -n 3 "$TOP/$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-only' || echo "$f"
	done <"$BATS_TEST_TMPDIR/files"
}

@test "lint: every source file starts with the GPL-2.0-only SPDX line" {
	run -0 no_spdx
	assert_output ""
}

@test "lint: the list of sources covers the tree's kinds of source" {
	run -0 sources
	assert_line kbuild/overlay.mk
	assert_line kbuild/probe.sh
	assert_line kconfig/Kconfig.kparity
	assert_line Makefile
	assert_line tools/kabi/main.c
	assert_line tests/make.bats
	assert_line scripts/compiler-bugs/compiler-bugs-parse.awk
	assert_line scripts/parity/parity-cell.jq
}

# shell_scripts: the tracked POSIX shell and bash scripts
shell_scripts() {
	git -c safe.directory="$TOP" -C "$TOP" ls-files -- '*.sh' '*.bash' tests/valgrind-kabi
}

@test "lint: every shell script is shellcheck-clean" {
	need_tool shellcheck
	shell_scripts >"$BATS_TEST_TMPDIR/scripts"
	run -0 wc -l <"$BATS_TEST_TMPDIR/scripts"
	refute_output 0
	# the findings first, then the status, so a failure shows them
	run xargs -a "$BATS_TEST_TMPDIR/scripts" -d '\n' sh -c 'cd "$0" && shellcheck -x "$@"' "$TOP"
	assert_output ""
	assert_equal "$status" 0
}

# kabi_sources: kabi's tracked C sources and headers, fuzz harnesses too
kabi_sources() {
	git -c safe.directory="$TOP" -C "$TOP" ls-files -- 'tools/kabi/*.c' 'tools/kabi/*.h'
}

@test "lint: kabi's C is formatted with tools/kabi/.clang-format" {
	need_tool clang-format
	kabi_sources >"$BATS_TEST_TMPDIR/kabi"
	run -0 wc -l <"$BATS_TEST_TMPDIR/kabi"
	refute_output 0
	# each difference from the style is a warning; the findings first,
	# then the status, so a failure shows them
	run xargs -a "$BATS_TEST_TMPDIR/kabi" -d '\n' sh -c 'cd "$0" && clang-format --style=file --dry-run -Werror "$@"' "$TOP"
	assert_output ""
	assert_equal "$status" 0
}

# kabi_parts: kabi's include graph (tests/kabi-includes.sh), with the
# parts that recurse by design merged: spelling an anonymous aggregate
# emits it, and emitting spells its members' types (DWARF and BTF)
kabi_parts() {
	"$TOP/tests/kabi-includes.sh" "$TOP/tools/kabi" |
		sed -e 's/^emit /spell /' -e 's/ emit$/ spell/' \
			-e 's/^btf-emit /btf-spell /' -e 's/ btf-emit$/ btf-spell/' |
		awk '$1 != $2'
}

@test "lint: kabi's parts include each other in no circle but spelling and emitting" {
	kabi_parts >"$BATS_TEST_TMPDIR/edges"
	run -0 grep -c . "$BATS_TEST_TMPDIR/edges"
	refute_output 0
	# tsort names every circle on stderr
	run -0 --separate-stderr tsort "$BATS_TEST_TMPDIR/edges"
	assert_equal "$stderr" ""
	# and it finds them: without the merge, the two recursions are circles
	"$TOP/tests/kabi-includes.sh" "$TOP/tools/kabi" >"$BATS_TEST_TMPDIR/raw"
	run -1 --separate-stderr tsort "$BATS_TEST_TMPDIR/raw"
	assert_equal "$(printf '%s\n' "${stderr_lines[@]}" | grep -c 'input contains a loop')" 2
}

# own_make_lines: script lines outside comments that run make -C, the
# kernel's make, themselves
own_make_lines() {
	git -c safe.directory="$TOP" -C "$TOP" ls-files -- 'scripts/*.sh' 'kbuild/*.sh' 'kbuild/*.mk' |
		grep -v '^scripts/kernel-make\.sh$' |
		(cd "$TOP" && xargs grep -nE '(^|[[:space:];|&(])make[[:space:]]+-C') |
		grep -vE '^[^:]+:[0-9]+:[[:space:]]*#' || :
}

@test "lint: only scripts/kernel-make.sh runs the kernel's make -C" {
	run -0 own_make_lines
	assert_output ""
}

# lib_programs: files of scripts/lib/ that are not a sourced shell library
lib_programs() {
	local f

	for f in "$TOP"/scripts/lib/*; do
		case "$f" in
		*.sh) [ ! -x "$f" ] && ! grep -q '^main "\$@"' "$f" && continue ;;
		esac
		echo "${f#"$TOP"/}"
	done
}

@test "lint: scripts/lib/ holds sourced libraries only" {
	run -0 lib_programs
	assert_output ""
}
