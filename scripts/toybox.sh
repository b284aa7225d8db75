#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# toybox.sh - build the test boot's toybox for one cell (target x compiler)
# and print its path.
#
# The source is the upstream tarball of Debian's toybox source package,
# fetched once into the cache (scripts/lib/debcache.sh). It is configured
# with 'make allnoconfig' plus scripts/initramfs/toybox.config, every symbol
# of which must reach .config, and compiled by the cell's own compiler
# through ccache, linked static against the target's glibc: the cross
# GCC's own, or for Clang the same files found through --target, linked by
# lld (or GNU ld where the target needs a newer lld: user_ld). A stamp of
# the inputs makes a re-run free; the binary is written under a temporary
# name and renamed.
#
# Exit: 0 ok, 1 the build failed, 2 trouble (usage, target, compiler,
# tools, download).

# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'
set -eu

PROG=toybox.sh
TOPDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
. "$TOPDIR/scripts/lib/common.sh"
# shellcheck source=scripts/lib/target.sh
. "$TOPDIR/scripts/lib/target.sh"
# shellcheck source=scripts/lib/debcache.sh
. "$TOPDIR/scripts/lib/debcache.sh"
CONFIG="$TOPDIR/scripts/initramfs/toybox.config"

usage() {
	cat <<USAGE
usage: $PROG -o BUILDDIR -t TARGET [-c COMPILER]
Build BUILDDIR/toybox/TARGET-COMPILER/toybox with COMPILER (default: gcc)
unless it is up to date, and print its path. V=1 shows the commands.
Environment: LLVM=1|-N|DIR/ selects the clang (default 1), KPARITY_CACHE_DIR
keeps the downloaded source (default BUILDDIR/cache).
USAGE
}

# triple: the target's GNU triple, for clang's --target
triple() {
	if [ -n "$t_cross" ]; then
		printf '%s\n' "${t_cross%-}"
	else
		cc -dumpmachine
	fi
}

# cc_flags: the flags the cell's compiler needs on every command: Clang's
# target, and GNU as for clang-gas
cc_flags() {
	[ -n "$cc_llvm" ] || return 0
	if [ "$cc_ias" = 0 ]; then
		echo "--target=$(triple) -fno-integrated-as"
	else
		echo "--target=$(triple)"
	fi
}

# cc_script: the compiler command toybox's build runs, as a shell script:
# ccache and the cell's compiler with its flags
cc_script() {
	printf '#!/bin/sh\nexec ccache %s%s "$@"\n' "$cc_bin" "$(cc_flags | sed 's/^./ &/')"
}

# libc: the static C library the cell's compiler links, which is the
# target's glibc for GCC and Clang alike
libc() {
	local a

	# shellcheck disable=SC2046 # one word per flag
	a=$("$cc_bin" $(cc_flags) -print-file-name=libc.a)
	case "$a" in
	/*) [ -f "$a" ] && printf '%s\n' "$a" && return 0 ;;
	esac
	die "$cc_bin finds no static C library (libc.a) for $t_name; the cross GCC packages bring it (scripts/deps.sh parity)"
}

# ldflags: the cell's link flags: static, by user_ld's linker
ldflags() {
	if [ -n "$cc_llvm" ]; then
		echo "-static -fuse-ld=$(user_ld)"
	else
		echo "-static"
	fi
}

# inputs TARBALL: everything the binary depends on
inputs() {
	printf 'source %s %s\n' "$(basename "$1")" "$(cksum <"$1")"
	printf 'cc %s\n' "$("$cc_bin" --version | head -n 1)"
	cc_script
	printf 'libc %s\n' "$(cksum <"$(libc)")"
	printf 'LDFLAGS=%s\n' "$(ldflags)"
	cksum "$CONFIG" "$0" | awk '{ print $1, $2 }'
}

# check_config CONFIG: every symbol CONFIG sets is set so in .config
check_config() {
	local line bad=""

	while IFS= read -r line; do
		case "$line" in
		CONFIG_*) grep -qxF "$line" .config || bad="$bad ${line%%=*}" ;;
		esac
	done <"$1"
	[ -z "$bad" ] || die "'$1' asks for what toybox's allnoconfig dropped:$bad"
}

# build DIR TARBALL: configure and compile in DIR/src, logging to DIR/build.log
build() {
	local dir="$1" tar="$2" log="$1/build.log"

	rm -rf "$dir/src" "$dir/toybox.tmp"
	mkdir -p "$dir/src"
	: >"$log"
	tar -xf "$tar" -C "$dir/src" --strip-components=1 || die "cannot unpack '$tar'"
	cc_script >"$dir/cc"
	chmod +x "$dir/cc"
	cd "$dir/src"
	if ! run_logged "$log" env KCONFIG_ALLCONFIG="$CONFIG" make HOSTCC=cc allnoconfig; then
		printf '%s: toybox allnoconfig failed; last lines of %s:\n' "$PROG" "$log" >&2
		tail -n 20 "$log" >&2
		exit 1
	fi
	check_config "$CONFIG"
	# toybox's make.sh: CC is run as given, CPUS compiles at once, and
	# NOSTRIP keeps the target's strip out of the tool list.
	if ! run_logged "$log" env CC="$dir/cc" HOSTCC=cc CROSS_COMPILE= CPUS=2 \
		LDFLAGS="$(ldflags)" NOSTRIP=1 V="${V:-}" scripts/make.sh; then
		printf '%s: toybox build failed; last lines of %s:\n' "$PROG" "$log" >&2
		tail -n 20 "$log" >&2
		exit 1
	fi
	cp toybox "$dir/toybox.tmp"
	mv "$dir/toybox.tmp" "$dir/toybox"
}

main() {
	local builddir target compiler dir tar stamp want

	cell_opts "$@"
	"$TOPDIR/scripts/need-tool.sh" -p "$PROG" "$cc_bin" ccache make cc tar ||
		exit 2
	[ -z "$cc_llvm" ] || "$TOPDIR/scripts/need-tool.sh" -p "$PROG" "$ld_bin" || exit 2

	mkdir -p "$builddir" || die "cannot create '$builddir'"
	builddir=$(cd "$builddir" && pwd)
	tar=$(deb_orig "$(cache_dir "$builddir")" toybox)
	dir=$(cell_dir "$builddir" toybox)
	mkdir -p "$dir" || die "cannot create '$dir'"
	stamp="$dir/.kparity-inputs"
	libc >/dev/null
	want=$(inputs "$tar")
	if [ -f "$dir/toybox" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
		printf '%s\n' "$dir/toybox"
		exit 0
	fi

	step TOYBOX "$target/$cc_suffix"
	rm -f "$stamp"
	(build "$dir" "$tar")
	printf '%s\n' "$want" >"$stamp"
	printf '%s\n' "$dir/toybox"
}

main "$@"
