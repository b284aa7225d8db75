#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# The Debian package: dpkg-buildpackage builds it from a copy of the
# checkout's tracked files, lintian finds no error, and once installed its
# kabi, completion and overlay work from their FHS paths. The package is
# removed again at the end unless it was installed before.

load kbuild-helpers

setup_file() {
	[ "$(id -u)" = 0 ] || return 0
	kbuild_setup_file
	export PKG="$BATS_FILE_TMPDIR/pkg"
	mkdir -p "$PKG/src"
	(cd "$TOP" && git ls-files -z | xargs -0 tar -cf - | tar -xf - -C "$PKG/src")
	(cd "$PKG/src" && dpkg-buildpackage -b -us -uc >"$PKG/build.log" 2>&1)
	export DEB
	DEB=$(ls "$PKG"/kparity_*.deb)
	export WAS_INSTALLED=0
	if dpkg-query -W -f '${db:Status-Abbrev}' kparity 2>/dev/null | grep -q '^ii'; then
		WAS_INSTALLED=1
	fi
}

teardown_file() {
	if [ "${WAS_INSTALLED:-1}" = 0 ]; then
		dpkg -r kparity >/dev/null 2>&1 || :
	fi
}

setup() {
	if [ "$(id -u)" != 0 ]; then
		[ -z "${CI:-}" ] || fail "CI runs as root and must install the package"
		skip "installing a package needs root"
	fi
	need_tool dpkg-buildpackage
	need_tool lintian
}

@test "deb: the package holds kabi, its manual, completion and the data" {
	local path

	run -0 dpkg-deb -c "$DEB"
	for path in usr/bin/kabi usr/share/man/man1/kabi.1.gz usr/share/man/man1/kabi-check.1.gz \
		usr/share/bash-completion/completions/kabi \
		usr/share/kparity/kbuild/overlay.mk usr/share/kparity/kconfig/Kconfig.kparity \
		usr/share/kparity/patches/6.1/series usr/share/kparity/scripts/lib/common.sh \
		usr/share/kparity/scripts/parity.sh usr/share/doc/kparity/README.md.gz; do
		assert_line --regexp " \./${path//./\\.}\$"
	done
}

@test "deb: lintian reports no error and no warning" {
	run -0 --separate-stderr lintian --fail-on error,warning "$DEB"
	assert_output ""
}

@test "deb: installed, its kabi dumps a fixture as the built one does" {
	local obj="$BATS_TEST_TMPDIR/bitfields.o"

	run -0 dpkg -i "$DEB"
	cc_obj gcc "$obj" tests/fixtures/kabi/bitfields.c -gdwarf-5 -O0
	run -0 "$KABI" dump "$obj"
	local want="$output"
	run -0 /usr/bin/kabi dump "$obj"
	assert_output "$want"
	run -0 man -w kabi
	assert_output /usr/share/man/man1/kabi.1.gz
}

@test "deb: installed, bash completes kabi's verbs and a verb's options" {
	run -0 dpkg -i "$DEB"
	run -0 bash -c '. /usr/share/bash-completion/completions/kabi
		COMP_WORDS=(kabi d); COMP_CWORD=1; _kabi kabi; echo "${COMPREPLY[*]}"
		COMP_WORDS=(kabi diff --only-l); COMP_CWORD=2; _kabi kabi; echo "${COMPREPLY[*]}"
		COMP_WORDS=(kabi dump --kind u); COMP_CWORD=3; _kabi kabi; echo "${COMPREPLY[*]}"
		COMP_WORDS=(kabi help di); COMP_CWORD=2; _kabi kabi; echo "${COMPREPLY[*]}"'
	assert_output "$(printf '%s\n' 'dump diff' --only-layout union diff)"
}

@test "deb: installed, the overlay answers probes as the checkout's does" {
	run -0 dpkg -i "$DEB"
	printf '%s\n' 'cc-option|-fuse-ld=bogus' 'cc-option|-Wall' 'ld-option|-z@bogus' >"$BATS_TEST_TMPDIR/q"
	run -0 ask clang-14 overlay "$BATS_TEST_TMPDIR/q" KPARITY_CACHE=0
	local want="$output"
	assert_output "$(printf '%s\n' n y n)"
	export OVERLAY=/usr/share/kparity/kbuild/overlay.mk
	run -0 ask clang-14 overlay "$BATS_TEST_TMPDIR/q" KPARITY_CACHE=0
	assert_output "$want"
}
