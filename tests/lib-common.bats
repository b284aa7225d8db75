#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/lib/common.sh: the helpers every script shares, one by one.

load common

setup() {
	T=$BATS_TEST_TMPDIR
	PROG=lib-test
	TOPDIR=$TOP
	# shellcheck source=scripts/lib/common.sh
	. "$TOP/scripts/lib/common.sh"
}

# in_sh CODE: run CODE in a POSIX sh that has sourced common.sh, as a
# script does (die exits the shell, so it cannot run in bats' own)
in_sh() {
	PROG=lib-test TOPDIR="$TOP" sh -c '. "$TOPDIR/scripts/lib/common.sh" && eval "$1"' sh "$1"
}

# makefile DIR LINES...: a top Makefile in DIR made of LINES
makefile() {
	local dir=$1
	shift
	mkdir -p "$dir"
	printf '%s\n' "$@" >"$dir/Makefile"
}

@test "die: prints PROG and the message on stderr and exits 2" {
	run -2 --separate-stderr in_sh 'die "cannot read '\''x'\''"; echo after'
	assert_output ""
	assert_equal "$stderr" "lib-test: cannot read 'x'"
}

@test "die: joins several arguments with spaces" {
	run -2 --separate-stderr in_sh 'die one two "three four"'
	assert_equal "$stderr" "lib-test: one two three four"
}

@test "warn: prints PROG and the message on stderr and goes on" {
	run -0 --separate-stderr in_sh 'warn "no .config"; echo after'
	assert_output "after"
	assert_equal "$stderr" "lib-test: no .config"
}

@test "step: a tag padded to seven columns after two spaces, on stderr" {
	run -0 --separate-stderr in_sh 'step BUILD x86_64-clang; step CONFIGURE arm64-virt-gcc'
	assert_output ""
	# bats 1.8 trims the first line's indent in $stderr: compare bytes
	in_sh 'step BUILD x86_64-clang; step CONFIGURE arm64-virt-gcc' 2>"$T/err"
	printf '  BUILD   x86_64-clang\n  CONFIGURE arm64-virt-gcc\n' >"$T/want"
	run -0 cmp "$T/want" "$T/err"
}

@test "run_logged: appends the command's output to the log, shows nothing" {
	echo old >"$T/log"
	run -0 --separate-stderr run_logged "$T/log" sh -c 'echo out; echo err >&2'
	assert_output ""
	assert_equal "$stderr" ""
	run -0 cat "$T/log"
	assert_output "$(printf 'old\nout\nerr')"
}

@test "run_logged: returns the command's exit status" {
	run -3 run_logged "$T/log" sh -c 'echo why; exit 3'
	assert_output ""
	run -0 cat "$T/log"
	assert_output "why"
}

@test "run_logged: with V=1 shows the command and its output on stderr too" {
	V=1 run -0 --separate-stderr run_logged "$T/log" sh -c 'echo out'
	assert_output ""
	assert_equal "$stderr" "$(printf 'sh -c echo out\nout')"
	run -0 cat "$T/log"
	assert_output "out"
}

@test "run_logged: with V=1 returns the exit status and leaves no marker file" {
	mkdir "$T/logs"
	V=1 run -4 --separate-stderr run_logged "$T/logs/log" sh -c 'echo bad; exit 4'
	assert_equal "$stderr" "$(printf 'sh -c echo bad; exit 4\nbad')"
	run -0 ls "$T/logs"
	assert_output "log"
}

@test "fmt_time: seconds under a minute, minutes and two-digit seconds above" {
	run -0 fmt_time 0
	assert_output "0s"
	run -0 fmt_time 59
	assert_output "59s"
	run -0 fmt_time 60
	assert_output "1m00s"
	run -0 fmt_time 133
	assert_output "2m13s"
	run -0 fmt_time 3725
	assert_output "62m05s"
}

@test "json_str: quotes a plain string" {
	run -0 json_str "x86_64 clang"
	assert_output '"x86_64 clang"'
}

@test "json_str: escapes quotes and backslashes" {
	run -0 json_str 'a"b\c'
	assert_output '"a\"b\\c"'
}

@test "json_str: escapes tab, CR and newline by name, other controls as \\u" {
	run -0 json_str "$(printf 'a\tb\rc\001d\037e')"
	assert_output '"a\tb\rc\u0001d\u001fe"'
	run -0 json_str "$(printf 'one\ntwo')"
	assert_output '"one\ntwo"'
}

@test "json_str: keeps a final newline and an empty string" {
	run -0 json_str "x
"
	assert_output '"x\n"'
	run -0 json_str ""
	assert_output '""'
}

@test "json_str: what it prints, jq reads back as the same string" {
	need_tool jq
	s=$(printf 'q"\\\t\001\nend é')
	run -0 jq -e --arg s "$s" '. == $s' <<<"$(json_str "$s")"
	assert_output "true"
}

@test "median: the middle of an odd count, in any order" {
	run -0 median 3 1 2
	assert_output "2"
	run -0 median 9.5
	assert_output "9.5"
}

@test "median: the mean of the two middle numbers of an even count" {
	run -0 median 4 1 3 2
	assert_output "2.5"
	run -0 median 10 0.5
	assert_output "5.25"
}

@test "median: sorts numerically, not as text" {
	run -0 median 100 9 20
	assert_output "20"
}

@test "median: prints nothing for no numbers" {
	run -0 median
	assert_output ""
}

@test "is_positive: whole numbers above zero" {
	for v in 1 16 007; do
		run -0 is_positive "$v"
		assert_output ""
	done
}

@test "is_positive: not zero, a sign, a fraction, a word or nothing" {
	for v in 0 00 -1 +1 1.5 ' 1' 2x x ''; do
		run -1 is_positive "$v"
		assert_output ""
	done
}

@test "tree_version: VERSION.PATCHLEVEL.SUBLEVEL of the top Makefile" {
	makefile "$T/k" '# SPDX-License-Identifier: GPL-2.0' 'VERSION = 6' 'PATCHLEVEL = 1' \
		'SUBLEVEL = 158' 'EXTRAVERSION =' 'NAME = Curry Ramen' 'VERSION = 9'
	run -0 tree_version "$T/k"
	assert_output "6.1.158"
}

@test "tree_version: fails silently without a Makefile" {
	mkdir "$T/empty"
	run -1 --separate-stderr tree_version "$T/empty"
	assert_output ""
	assert_equal "$stderr" ""
	run -1 tree_version "$T/none"
	assert_output ""
}

@test "tree_version: fails silently when a part is missing or not a number" {
	makefile "$T/a" 'VERSION = 6' 'PATCHLEVEL = 1' 'EXTRAVERSION ='
	run -1 tree_version "$T/a"
	assert_output ""
	makefile "$T/b" 'VERSION = 6' 'PATCHLEVEL = 1' 'SUBLEVEL = x' 'EXTRAVERSION ='
	run -1 tree_version "$T/b"
	assert_output ""
	makefile "$T/c" 'all:' '	true'
	run -1 tree_version "$T/c"
	assert_output ""
}

@test "report_file: OUT made absolute, else the build's report directory, made" {
	mkdir -p "$T/b" "$T/d"
	cd "$T/d"
	run -0 report_file "$T/b" out.json codegen.json
	assert_output "$T/d/out.json"
	run -0 report_file "$T/b" "" codegen.json
	assert_output "$T/b/report/codegen.json"
	assert [ -d "$T/b/report" ]
	run -2 --separate-stderr report_file "$T/b" no/such/out.json codegen.json
	assert_equal "$stderr" "$PROG: cannot write 'no/such/out.json': no such directory"
}

@test "abspath: a relative path, from the current directory" {
	mkdir -p "$T/d/e"
	cd "$T/d"
	run -0 abspath e/file
	assert_output "$T/d/e/file"
	run -0 abspath file
	assert_output "$T/d/file"
}

@test "abspath: an absolute path, '.', '..' and a trailing slash" {
	mkdir -p "$T/d/e"
	run -0 abspath "$T/d/e/../x"
	assert_output "$T/d/x"
	cd "$T/d/e"
	run -0 abspath .
	assert_output "$T/d/e"
	run -0 abspath ..
	assert_output "$T/d"
	run -0 abspath "$T/d/e/"
	assert_output "$T/d/e"
}

@test "abspath: does not resolve a symlink in the last part" {
	mkdir "$T/real"
	ln -s real "$T/link"
	run -0 abspath "$T/link"
	assert_output "$T/link"
}

@test "abspath: fails silently when the directory does not exist" {
	run -1 --separate-stderr abspath "$T/no/such/file"
	assert_output ""
	assert_equal "$stderr" ""
}

@test "cache_dir: BUILDDIR/cache made and named absolutely, from a relative BUILDDIR" {
	cd "$T"
	run -0 env -u KPARITY_CACHE_DIR sh -c '. "$0/scripts/lib/common.sh" && cache_dir b' "$TOP"
	assert_output "$T/b/cache"
	[ -d "$T/b/cache" ]
}

@test "cache_dir: KPARITY_CACHE_DIR wins, relative or not" {
	cd "$T"
	run -0 env KPARITY_CACHE_DIR=c/d sh -c '. "$0/scripts/lib/common.sh" && cache_dir b' "$TOP"
	assert_output "$T/c/d"
	[ ! -e "$T/b" ]
}

@test "cache_dir: a cache that cannot be made is one line and exit 2" {
	: >"$T/file"
	run -2 --separate-stderr in_sh "KPARITY_CACHE_DIR='$T/file/cache' cache_dir '$T'"
	assert_output ""
	assert_equal "$stderr" "lib-test: cannot create the cache directory '$T/file/cache'"
}

@test "deb_fetch: a relative cache directory keeps its log where it says" {
	mkdir -p "$T/bin"
	# apt-get download, as far as deb_fetch sees it: a .deb in the current directory
	printf '#!/bin/sh\necho "Get:1 $2"\n: >"${2}_1.0_all.deb"\n' >"$T/bin/apt-get"
	chmod +x "$T/bin/apt-get"
	cd "$T"
	run -0 --separate-stderr env PATH="$T/bin:$PATH" sh -c \
		'. "$0/scripts/lib/common.sh" && . "$0/scripts/lib/debcache.sh" && deb_fetch build/cache/dbg pkg' "$TOP"
	assert_output "build/cache/dbg/pkg_1.0_all.deb"
	# bats trims the first line's indent in $stderr
	assert_equal "$stderr" "FETCH   pkg"
	run -0 cat "$T/build/cache/dbg/dl.log"
	assert_output "Get:1 pkg"
}

# in_debcache CODE: CODE in a POSIX sh that has sourced common.sh and
# debcache.sh, with apt-get download as tests/fixtures/debcache/apt-get
in_debcache() {
	PATH="$TOP/tests/fixtures/debcache:$PATH" in_sh ". '$TOP/scripts/lib/debcache.sh' && $1"
}

@test "headers_deps: the common headers and linux-kbuild a headers package depends on, 6.1 and 6.12" {
	local f=$TOP/tests/fixtures/debcache
	run -0 in_debcache "headers_deps <'$f/depends-6.1.0-57-cloud-amd64'"
	assert_output "$(printf '%s\n' linux-headers-6.1.0-57-common linux-kbuild-6.1)"
	run -0 in_debcache "headers_deps <'$f/depends-6.12.118+deb12-cloud-amd64'"
	assert_output "$(printf '%s\n' linux-headers-6.12.118+deb12-common linux-kbuild-6.12.118+deb12)"
	run -0 in_debcache "headers_deps <'$f/depends-6.12.118+deb12-rt-amd64'"
	assert_output "$(printf '%s\n' linux-headers-6.12.118+deb12-common-rt linux-kbuild-6.12.118+deb12)"
}

@test "debian_headers: 6.12's +deb12 packages unpacked together, the Makefile pointed at the copy, once" {
	local k=6.12.118+deb12-cloud-amd64 root
	root=$T/cache/root/headers-$k
	run -0 --separate-stderr in_debcache "debian_headers '$T/cache' $k"
	assert_output "$root/usr/src/linux-headers-$k"
	assert_equal "$stderr" "$(printf '%s\n' "FETCH   linux-headers-$k" "  UNPACK  linux-headers-$k" \
		"  FETCH   linux-headers-6.12.118+deb12-common" "  UNPACK  linux-headers-6.12.118+deb12-common" \
		"  FETCH   linux-kbuild-6.12.118+deb12" "  UNPACK  linux-kbuild-6.12.118+deb12")"
	run -0 cat "$root/usr/src/linux-headers-$k/Makefile"
	assert_output "include $root/usr/src/linux-headers-6.12.118+deb12-common/Makefile"
	run -0 make -s -f "$root/usr/src/linux-headers-$k/Makefile" kernelrelease
	[ -f "$root/usr/lib/linux-kbuild-6.12.118+deb12/scripts/Makefile.build" ]
	# the second time: nothing fetched, the Makefile left as it is
	run -0 --separate-stderr in_debcache "debian_headers '$T/cache' $k"
	assert_output "$root/usr/src/linux-headers-$k"
	assert_equal "$stderr" ""
	run -0 cat "$root/usr/src/linux-headers-$k/Makefile"
	assert_output "include $root/usr/src/linux-headers-6.12.118+deb12-common/Makefile"
}

@test "debian_headers: 6.1's packages, linux-kbuild-6.1 among them" {
	local k=6.1.0-57-cloud-amd64 root
	root=$T/cache/root/headers-$k
	run -0 --separate-stderr in_debcache "debian_headers '$T/cache' $k"
	assert_output "$root/usr/src/linux-headers-$k"
	run -0 cat "$root/usr/src/linux-headers-$k/Makefile"
	assert_output "include $root/usr/src/linux-headers-6.1.0-57-common/Makefile"
	[ -f "$root/usr/lib/linux-kbuild-6.1/scripts/Makefile.build" ]
}

@test "debian_headers: a release apt does not know is one line and exit 2, nothing unpacked" {
	run -2 --separate-stderr in_debcache "debian_headers '$T/cache' 6.12.1+deb12-nosuch"
	assert_output ""
	assert_equal "$stderr" "$(printf '%s\n' "FETCH   linux-headers-6.12.1+deb12-nosuch" \
		"lib-test: apt-get download linux-headers-6.12.1+deb12-nosuch failed; see '$T/cache/deb/dl.log'")"
	[ ! -e "$T/cache/root" ]
}

@test "words: commas and runs of spaces as one space, repeats dropped, order kept" {
	run -0 words "x86_64,arm64-virt  x86_64 , arm-vexpress"
	assert_output "x86_64 arm64-virt arm-vexpress"
	run -0 words ""
	assert_output ""
}

@test "logged: stderr shown and kept, stdout dropped, the status returned" {
	run -3 --separate-stderr logged "$T/err" sh -c 'echo out; echo one >&2; echo two >&2; exit 3'
	assert_output ""
	assert_equal "$stderr" "$(printf 'one\ntwo')"
	run -0 cat "$T/err"
	assert_output "$(printf 'one\ntwo')"
	[ ! -e "$T/err.fifo" ]
}

@test "stage_reason: a stage's first message, or its last, without a trailing colon" {
	printf '%s\n' '  BUILD   x86_64/gcc' 'kernel-config.sh: no config:' 'make: *** [all] Error 2' \
		'kernel-build.sh: make failed' >"$T/err"
	run -0 in_sh "stage_reason '$T/err' 2 kernel-build.sh"
	assert_output "kernel-config.sh: no config"
	run -0 in_sh "stage_reason '$T/err' 2 kernel-build.sh last"
	assert_output "kernel-build.sh: make failed"
}

@test "stage_reason: a log with no message, or none, says the stage's exit" {
	printf '%s\n' 'make: *** [all] Error 2' >"$T/err"
	run -0 in_sh "stage_reason '$T/err' 1 kernel-swap.sh last"
	assert_output "kernel-swap.sh exited 1"
	run -0 in_sh "stage_reason '$T/none' 2 kernel-build.sh"
	assert_output "kernel-build.sh exited 2"
}
